// Package stampfield keeps a last-seen stamp, time.Now().UnixNano(), in a
// field under a mutex: a worker stamps it, a watcher reads it and checks
// that it never runs ahead of its own later reading.
//
// Expected: race-free.
package stampfield

import (
	"sync"
	"time"
)

type peer struct {
	mu   sync.Mutex
	seen int64 // 0: never
}

func (p *peer) touch() {
	now := time.Now().UnixNano()
	p.mu.Lock()
	p.seen = now
	p.mu.Unlock()
}

func (p *peer) lastSeen() int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.seen
}

// system: a stamp read before a later reading is not after it.
//
//fencecheck:system
func system() {
	p := &peer{}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { p.touch(); wg.Done() }()
	go func() {
		s := p.lastSeen()
		if s > 0 && s > time.Now().UnixNano() {
			panic("a stamp from the future")
		}
		wg.Done()
	}()
	wg.Wait()
}
