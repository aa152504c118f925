// Package cockroachnodeid is written in the style of a CockroachDB server
// starting its node: the node ID is known only after the node joins the
// cluster, while the liveness heartbeat loop already runs. The bug is an
// order violation: the server starts the heartbeat before it publishes the
// node ID, as a plain field with nothing ordering the write and the loop's
// read (a data race; the heartbeat may go out as node 0).
package cockroachnodeid

import "sync/atomic"

// Server is one node's server.
type Server struct {
	nodeID    int32
	heartbeat int32
}

// heartbeatLoop sends one liveness heartbeat as the node.
func (s *Server) heartbeatLoop(done chan<- struct{}) {
	defer close(done)
	if id := s.nodeID; id != 0 { // want `^race: heartbeatLoop loads s\.nodeID here while main stores s\.nodeID`
		s.heartbeat = id
	}
}

// container publishes the node ID atomically, like base.NodeIDContainer:
// the fix.
type container struct {
	nodeID    atomic.Int32
	heartbeat int32
}

func (c *container) heartbeatLoop(done chan<- struct{}) {
	defer close(done)
	if id := c.nodeID.Load(); id != 0 {
		c.heartbeat = id
	}
}

// startNode starts the heartbeat, then sets the node ID it got.
//
//fencecheck:system
func startNode() {
	s := &Server{}
	done := make(chan struct{})
	go s.heartbeatLoop(done)
	s.nodeID = 1
	<-done
}

// startNodeFixed publishes the node ID through the atomic container.
//
//fencecheck:system
func startNodeFixed() {
	c := &container{}
	done := make(chan struct{})
	go c.heartbeatLoop(done)
	c.nodeID.Store(1)
	<-done
}
