package use

import (
	"sync"

	"crosspkg/hashed"
)

// hashed.New hashes the name through code the set-up cannot run: the call
// is contained, the hash is unknown, and systems that never read it are
// decided.

//fencecheck:system
func hashedCounter() {
	c := hashed.New("requests")
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			defer wg.Done()
			c.Inc()
		}()
	}
	wg.Wait()
	if c.Load() != 2 {
		panic("lost")
	}
}

//fencecheck:system
func hashedCounterRacy() {
	c := hashed.New("requests")
	plain := 0
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			defer wg.Done()
			c.Inc()
			plain++ // want `race: .*`
		}()
	}
	wg.Wait()
}

//fencecheck:system
func hashedIDInGoroutine() { // want `^inconclusive: system hashedIDInGoroutine: a run reaches the initial value of hashed\.Counter\.id, part of an object that the set-up of system hashedIDInGoroutine allocates, which depends on the result of crosspkg/hashed\.sum, whose code cannot be run \(used at hashed\.go:\d+\)`
	c := hashed.New("requests")
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		if c.ID() == 0 {
			c.Inc()
		}
	}()
	wg.Wait()
}

//fencecheck:system
func hashedIDInSetup() {
	c := hashed.New("requests") // want `^unsupported in a fencecheck system: the initial value of .*, which depends on the result of crosspkg/hashed\.sum, whose code cannot be run \(used at hashed\.go:\d+\)$`
	if c.ID() == 0 {
		return
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		c.Inc()
	}()
	wg.Wait()
}

// The set-up's own value of hashed.Sum is unknown: the set-up is refused
// where it stores it for the goroutine that reads it.
//
//fencecheck:system
func hashSumInGoroutine() {
	h := hashed.Sum("requests") // want `^unsupported in a fencecheck system: storing the result of crosspkg/hashed\.sum, whose code cannot be run$`
	var n int64
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		if h == 0 {
			n = 1
		}
	}()
	wg.Wait()
	_ = n
}
