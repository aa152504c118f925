package runtimecalls

import "sync"

type config struct {
	workers int
}

// current is the configuration a loader would install; nothing does.
var current *config

// nilFieldChecked reads a field of a pointer only when it is not nil.
//
//fencecheck:system
func nilFieldChecked() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		if c := current; c != nil && c.workers > 4 {
			panic("too many workers")
		}
	}()
	wg.Wait()
}

// nilFieldUnchecked reads a field of the nil pointer: Go panics there.
//
//fencecheck:system
func nilFieldUnchecked() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		c := current
		if c.workers > 4 { // want `^SC: system nilFieldUnchecked is wrong even under sequential consistency: the bad state nil pointer dereference is reached here`
			panic("too many workers")
		}
	}()
	wg.Wait()
}
