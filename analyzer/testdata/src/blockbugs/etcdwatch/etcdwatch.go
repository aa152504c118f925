// Package etcdwatch is written in the style of etcd's watchable store and
// its watch streams. The bug is an AB-BA lock order: the store's sync loop
// holds the store's lock while it hands events to a stream (taking the
// stream's lock), and a client cancelling its watcher holds the stream's
// lock while it removes the watcher from the store (taking the store's).
package etcdwatch

import "sync"

// watchableStore tracks the watchers that have not caught up yet.
type watchableStore struct {
	mu       sync.Mutex
	unsynced int32
	rev      int32
}

// watchStream is one client's stream of watch events.
type watchStream struct {
	mu      sync.Mutex
	store   *watchableStore
	pending int32
	lastRev int32
	closed  bool
}

// syncWatchers moves an unsynced watcher forward and notifies its stream.
func (s *watchableStore) syncWatchers(ws *watchStream) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.unsynced == 0 {
		return
	}
	s.unsynced--
	ws.notify(s.rev)
}

// notify queues an event on the stream.
func (ws *watchStream) notify(rev int32) {
	ws.mu.Lock() // want `^deadlock: go@\d+ and main block forever in ws\.mu\.Lock\(\) and s\.mu\.Lock\(\) \(system watchCancel\)$`
	defer ws.mu.Unlock()
	if !ws.closed {
		ws.pending++
		ws.lastRev = rev
	}
}

// cancelWatcher removes the watcher from the store.
func (s *watchableStore) cancelWatcher() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.unsynced > 0 {
		s.unsynced--
	}
}

// Cancel closes the stream and removes its watcher, with the stream
// locked.
func (ws *watchStream) Cancel() {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	ws.closed = true
	ws.store.cancelWatcher()
}

// cancelFixed lets go of the stream's lock before it takes the store's.
func (ws *watchStream) cancelFixed() {
	ws.mu.Lock()
	ws.closed = true
	ws.mu.Unlock()
	ws.store.cancelWatcher()
}

// watchCancel: the sync loop runs while the client cancels.
//
//fencecheck:system
func watchCancel() {
	s := &watchableStore{unsynced: 1, rev: 5}
	ws := &watchStream{store: s}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); s.syncWatchers(ws) }()
	ws.Cancel()
	wg.Wait()
}

// watchCancelFixed cancels with cancelFixed.
//
//fencecheck:system
func watchCancelFixed() {
	s := &watchableStore{unsynced: 1, rev: 5}
	ws := &watchStream{store: s}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); s.syncWatchers(ws) }()
	ws.cancelFixed()
	wg.Wait()
}
