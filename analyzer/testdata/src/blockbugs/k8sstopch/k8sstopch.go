// Package k8sstopch is written in the style of the shutdown of a
// Kubernetes controller manager, where both the signal handler and the
// leader election's OnStoppedLeading callback stop the controllers by
// closing stopCh. The bug is a close of a closed channel: the once-only
// guard loads a flag and stores it in two atomic steps instead of one
// compare-and-swap, so both callers can pass it, and the second close
// panics.
package k8sstopch

import (
	"sync"
	"sync/atomic"
)

// controllerManager runs the controllers until stopCh is closed.
type controllerManager struct {
	stopping atomic.Int32
	stopCh   chan struct{}
}

// shutdown stops the controllers once.
func (m *controllerManager) shutdown() {
	if m.stopping.Load() == 0 {
		m.stopping.Store(1)
		close(m.stopCh) // want `^SC: system lostLease is wrong even under sequential consistency: the run-time panic "panic: close of closed channel"`
	}
}

// shutdownFixed claims the shutdown with a compare-and-swap.
func (m *controllerManager) shutdownFixed() {
	if m.stopping.CompareAndSwap(0, 1) {
		close(m.stopCh)
	}
}

// lostLease: leadership is lost while SIGTERM arrives.
//
//fencecheck:system
func lostLease() {
	m := &controllerManager{stopCh: make(chan struct{})}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); m.shutdown() }()
	m.shutdown()
	wg.Wait()
}

// lostLeaseFixed shuts down with shutdownFixed.
//
//fencecheck:system
func lostLeaseFixed() {
	m := &controllerManager{stopCh: make(chan struct{})}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); m.shutdownFixed() }()
	m.shutdownFixed()
	wg.Wait()
}
