// Package setuppublish writes shared configuration before the go
// statements; the goroutines only read it.
//
// Expected: race-free.
package setuppublish

import "sync"

// config is written once, before the goroutines start.
type config struct {
	limit, step int32
}

// system: the go statements order the set-up before the goroutines, and
// concurrent reads do not race.
//
//fencecheck:system
func system() {
	var c config
	c.limit = 4
	c.step = 2
	var out [2]int32
	var wg sync.WaitGroup
	wg.Add(2)
	for i := 0; i < 2; i++ {
		go func(me int) {
			if c.limit != 4 {
				panic("set-up not visible")
			}
			out[me] = c.step
			wg.Done()
		}(i)
	}
	wg.Wait()
}
