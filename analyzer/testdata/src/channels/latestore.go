package channels

import "sync"

// Set-up code that starts a goroutine and then initialises what it shares:
// the set-up ends at the first go statement, and the system function's own
// goroutine runs the rest, go statements included.

type lateServer struct {
	mu    sync.Mutex
	ready bool
	n     int
}

// lateInitLocked: the initialisation between the go statements takes the
// mutex the goroutines take.
//
//fencecheck:system
func lateInitLocked() {
	s := &lateServer{}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		s.mu.Lock()
		s.n++
		s.mu.Unlock()
	}()
	s.mu.Lock()
	s.ready = true
	s.mu.Unlock()
	go func() {
		defer wg.Done()
		s.mu.Lock()
		if !s.ready {
			panic("started before the initialisation")
		}
		s.mu.Unlock()
	}()
	wg.Wait()
}

// lateInitRacy is its buggy twin: the first goroutine may read the flag
// while the system function sets it.
//
//fencecheck:system
func lateInitRacy() {
	s := &lateServer{}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		if s.ready { // want `^race: `
			s.n = 1 // want `^race: `
		}
	}()
	s.ready = true
	go func() {
		defer wg.Done()
		s.mu.Lock()
		s.n = 2
		s.mu.Unlock()
	}()
	wg.Wait()
}
