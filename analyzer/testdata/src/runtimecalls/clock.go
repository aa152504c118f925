package runtimecalls

import (
	"sync"
	"time"
)

type session struct {
	mu       sync.Mutex
	lastSeen time.Time
}

// touch records activity, as session and connection pools do.
func (s *session) touch() {
	s.mu.Lock()
	s.lastSeen = time.Now() // want `^race: go@\d+ stores s\.lastSeen here while main loads s\.lastSeen`
	s.mu.Unlock()
}

// idleSessions: a reaper reads the time of the last activity under the
// lock; time never goes backwards.
//
//fencecheck:system
func idleSessions() {
	s := &session{lastSeen: time.Now()}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		s.touch()
	}()
	s.mu.Lock()
	seen := s.lastSeen
	s.mu.Unlock()
	if time.Now().Before(seen) {
		panic("time went backwards")
	}
	wg.Wait()
}

// idleSessionsWrong reads the time of the last activity without the lock.
//
//fencecheck:system
func idleSessionsWrong() {
	s := &session{lastSeen: time.Now()}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		s.touch()
	}()
	if time.Since(s.lastSeen) > time.Minute {
		println("idle")
	}
	wg.Wait()
}

// pollUntil waits with a deadline: the loop ends once time has passed.
//
//fencecheck:system
func pollUntil() { // want `^inconclusive: system pollUntil: main may wait for ever in wg\.Wait\(\) \(clock\.go:\d+:\d+\): whether it does depends on how much time passes, and the model.s clock ticks only a few times; the other findings stand$`
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		deadline := time.Now().Add(time.Second)
		for time.Now().Before(deadline) {
			time.Sleep(time.Millisecond)
		}
	}()
	wg.Wait()
}

// elapsedWrong assumes that time passes while a goroutine sleeps: it may
// stand still, as far as the model's clock (and a coarse one) goes.
//
//fencecheck:system
func elapsedWrong() {
	start := time.Now()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		time.Sleep(time.Millisecond)
	}()
	wg.Wait()
	if time.Since(start) == 0 {
		panic("no time passed") // want `^SC: system elapsedWrong is wrong even under sequential consistency`
	}
}

// entry is an element of an LRU list in the style of
// github.com/hashicorp/golang-lru: its expiry is the zero Time when the
// cache has no time to live, passed as a time.Time{} literal.
type entry struct {
	key       int
	expiresAt time.Time
}

func newEntry(key int, expiresAt time.Time) *entry {
	return &entry{key: key, expiresAt: expiresAt}
}

// zeroExpiry adds entries without expiry under a lock; the reader checks
// that none of them expires.
//
//fencecheck:system
func zeroExpiry() {
	var mu sync.Mutex
	var entries [2]*entry
	var wg sync.WaitGroup
	wg.Add(2)
	for i := range 2 {
		go func() {
			defer wg.Done()
			e := newEntry(i, time.Time{})
			mu.Lock()
			entries[i] = e
			mu.Unlock()
		}()
	}
	wg.Wait()
	for i := range entries {
		if !entries[i].expiresAt.IsZero() {
			panic("an entry without expiry expires")
		}
	}
}

// zeroExpiryWrong expects an expiry where there is none.
//
//fencecheck:system
func zeroExpiryWrong() {
	e := newEntry(1, time.Time{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		if e.expiresAt.IsZero() {
			panic("no expiry") // want `^SC: system zeroExpiryWrong is wrong even under sequential consistency`
		}
	}()
	<-done
}
