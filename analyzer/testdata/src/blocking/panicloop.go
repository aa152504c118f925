package blocking

import "sync"

// A loop whose only way out is a panic ends the program there: what
// waits beside it does not wait for ever.

// loopPanics: the goroutine counts down to its panic while main waits.
//
//fencecheck:system
func loopPanics() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		n := 3
		for {
			if n == 0 {
				panic("boom") // want `^SC: system loopPanics is wrong even under sequential consistency: the panic is reached here`
			}
			n--
		}
	}()
	wg.Wait()
}

// loopSpins is its twin without the panic: the goroutine spins for ever,
// and main waits for ever.
//
//fencecheck:system
func loopSpins() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		n := 3
		for {
			if n == 0 {
				n = 3
			}
			n--
		}
	}()
	wg.Wait() // want `^deadlock: main blocks forever in wg\.Wait\(\)`
}
