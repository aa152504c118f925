// Package etcdraftnode is written in the style of etcd's raftNode, whose
// loop ticks the raft state machine on a ticker, takes proposals and hands
// what is committed to the server's apply loop, until it is stopped. The
// bug is in the server: it waits for the apply of every request, but it
// proposes only the requests that pass its checks, so it waits for good
// on one it dropped, while the raft loop ticks on beside it.
package etcdraftnode

import (
	"errors"
	"time"
)

// raftNode runs the raft loop.
type raftNode struct {
	ticker  *time.Ticker
	propc   chan uint64 // proposals, by request id
	applyc  chan uint64 // committed requests, to apply
	stopped chan struct{}
	done    chan struct{}
}

func newRaftNode() *raftNode {
	return &raftNode{
		ticker:  time.NewTicker(100 * time.Millisecond),
		propc:   make(chan uint64),
		applyc:  make(chan uint64),
		stopped: make(chan struct{}),
		done:    make(chan struct{}),
	}
}

// start runs the loop until stop.
func (r *raftNode) start() {
	go func() {
		defer close(r.done)
		for {
			select {
			case <-r.ticker.C:
				// A heartbeat or an election timeout.
			case id := <-r.propc:
				// Committed at once: a single-member cluster.
				select {
				case r.applyc <- id:
				case <-r.stopped:
					return
				}
			case <-r.stopped:
				return
			}
		}
	}()
}

// stop ends the loop and waits for it.
func (r *raftNode) stop() {
	close(r.stopped)
	<-r.done
}

// server applies requests through raft.
type server struct {
	r       *raftNode
	applied uint64
}

var errEmptyRequest = errors.New("etcdserver: empty request")

// process proposes the request and waits for its apply; an empty request
// (id 0) is not proposed, but waited for all the same.
func (s *server) process(id uint64) error {
	var err error
	if id == 0 {
		err = errEmptyRequest
	} else {
		s.r.propc <- id
	}
	s.applied = <-s.r.applyc // want `^deadlock: main blocks forever in <-s\.r\.applyc \(system serveRequests\)$`
	return err
}

// processFixed returns before it waits when it proposed nothing.
func (s *server) processFixed(id uint64) error {
	if id == 0 {
		return errEmptyRequest
	}
	s.r.propc <- id
	s.applied = <-s.r.applyc
	return nil
}

// serveRequests: a put, then an empty request.
//
//fencecheck:system
func serveRequests() {
	s := &server{r: newRaftNode()}
	s.r.start()
	_ = s.process(1)
	_ = s.process(0)
	s.r.stop()
}

// serveRequestsFixed serves them with processFixed.
//
//fencecheck:system
func serveRequestsFixed() {
	s := &server{r: newRaftNode()}
	s.r.start()
	_ = s.processFixed(1)
	_ = s.processFixed(0)
	s.r.stop()
}
