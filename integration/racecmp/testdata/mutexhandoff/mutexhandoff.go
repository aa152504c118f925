// Package mutexhandoff hands a plain value from a producer to a consumer
// that polls a flag under a sync.Mutex.
//
// Expected: race-free.
package mutexhandoff

import (
	"runtime"
	"sync"
)

// slot is a value, its flag, and the mutex that guards both.
type slot struct {
	mu    sync.Mutex
	ready bool
	value int32
}

// system: every access to ready and value holds the mutex.
//
//fencecheck:system
func system() {
	var s slot
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		s.mu.Lock()
		s.value = 42
		s.ready = true
		s.mu.Unlock()
		wg.Done()
	}()
	go func() {
		for {
			s.mu.Lock()
			ok, v := s.ready, s.value
			s.mu.Unlock()
			if ok {
				if v != 42 {
					panic("flag seen before value")
				}
				break
			}
			runtime.Gosched()
		}
		wg.Done()
	}()
	wg.Wait()
}
