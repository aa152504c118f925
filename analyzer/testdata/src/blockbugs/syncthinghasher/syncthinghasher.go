// Package syncthinghasher is written in the style of Syncthing's parallel
// hasher in its scanner: hashers take files from a channel until it is
// closed or the scan is cancelled, and the outbox is closed once every
// hasher is done. The bug is a WaitGroup.Wait with a missing Done: the
// hasher's cancellation path returns without calling wg.Done, so a scan
// cancelled while a hasher waits never finishes (a deadlock).
package syncthinghasher

import (
	"context"
	"sync"
)

// parallelHasher hashes the files of a scan.
type parallelHasher struct {
	inbox  chan int
	outbox chan int
	wg     sync.WaitGroup
}

// hashFiles hashes files until the inbox is closed or ctx is done.
func (ph *parallelHasher) hashFiles(ctx context.Context) {
	for {
		select {
		case f, ok := <-ph.inbox:
			if !ok {
				ph.wg.Done()
				return
			}
			ph.outbox <- f
		case <-ctx.Done():
			return
		}
	}
}

// hashFilesFixed defers wg.Done.
func (ph *parallelHasher) hashFilesFixed(ctx context.Context) {
	defer ph.wg.Done()
	for {
		select {
		case f, ok := <-ph.inbox:
			if !ok {
				return
			}
			ph.outbox <- f
		case <-ctx.Done():
			return
		}
	}
}

// cancelScan queues a file, cancels the scan and waits for the hasher.
//
//fencecheck:system
func cancelScan() {
	ctx, cancel := context.WithCancel(context.Background())
	ph := &parallelHasher{inbox: make(chan int, 1), outbox: make(chan int, 1)}
	ph.wg.Add(1)
	go ph.hashFiles(ctx)
	ph.inbox <- 1
	cancel()
	close(ph.inbox)
	ph.wg.Wait() // want `^deadlock: main blocks forever in ph\.wg\.Wait\(\) \(system cancelScan\)$`
	close(ph.outbox)
}

// cancelScanFixed hashes with hashFilesFixed.
//
//fencecheck:system
func cancelScanFixed() {
	ctx, cancel := context.WithCancel(context.Background())
	ph := &parallelHasher{inbox: make(chan int, 1), outbox: make(chan int, 1)}
	ph.wg.Add(1)
	go ph.hashFilesFixed(ctx)
	ph.inbox <- 1
	cancel()
	close(ph.inbox)
	ph.wg.Wait()
	close(ph.outbox)
}
