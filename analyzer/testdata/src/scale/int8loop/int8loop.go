// Package int8loop has a goroutine with an unbounded uint loop counter
// around an int8 update, under a mutex: level = int8(i % 100), so the level
// stays in 0..99 whatever the counter (a uint wraps to 0 after 2^64
// iterations). The counter has no finite domain, so the system goes to the
// predicate engine, which must follow Go's integer semantics: the
// remainder, the conversion to int8, the wrap of the counter.
//
// Expected, by hand: correct and race-free (the mutex orders every access).
package int8loop

import "sync"

// meter holds a level that one goroutine updates and another checks.
type meter struct {
	mu    sync.Mutex
	level int8
}

//fencecheck:system
func meterSystem() {
	var m meter
	go func() {
		for i := uint(0); ; i++ {
			m.mu.Lock()
			m.level = int8(i % 100)
			m.mu.Unlock()
		}
	}()
	go func() {
		for {
			m.mu.Lock()
			if m.level < 0 {
				panic("negative level")
			}
			m.mu.Unlock()
		}
	}()
}
