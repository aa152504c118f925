// Package stopjitterracy is stopjitter with the tries counted without
// the lock: the two goroutines' counts are unordered.
//
// Expected: racy.
package stopjitterracy

import (
	"math/rand"
	"sync"
	"time"
)

const stop time.Duration = -1

type policy struct {
	max, n   uint64
	interval time.Duration
}

func (p *policy) next() time.Duration {
	if p.max <= p.n {
		return stop
	}
	p.n++
	return time.Duration(float64(p.interval) * (0.5 + rand.Float64()))
}

// system: each goroutine tries at most three times.
//
//fencecheck:system
func system() {
	calls := 0
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := &policy{max: 2, interval: time.Microsecond}
			for {
				calls++
				d := p.next()
				if d == stop {
					return
				}
				time.Sleep(d)
			}
		}()
	}
	wg.Wait()
	if calls > 6 {
		panic("more tries than the policy allows")
	}
}
