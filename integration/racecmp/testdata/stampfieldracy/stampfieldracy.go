// Package stampfieldracy is stampfield (a last-seen stamp,
// time.Now().UnixNano(), in a field) with the worker stamping it without
// the mutex.
//
// Expected: racy.
package stampfieldracy

import (
	"sync"
	"time"
)

type peer struct {
	mu   sync.Mutex
	seen int64 // 0: never
}

func (p *peer) lastSeen() int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.seen
}

// system: the stamp is written without the lock while the watcher reads it.
//
//fencecheck:system
func system() {
	p := &peer{}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { p.seen = time.Now().UnixNano(); wg.Done() }()
	go func() {
		s := p.lastSeen()
		if s > 0 && s > time.Now().UnixNano() {
			panic("a stamp from the future")
		}
		wg.Done()
	}()
	wg.Wait()
}
