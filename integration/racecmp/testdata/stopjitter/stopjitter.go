// Package stopjitter retries an operation in two goroutines under a
// policy in the style of cenkalti/backoff's WithMaxRetries over a
// jittered interval: Stop once the tries are spent, a random delay
// before that. The tries count under a lock.
//
// Expected: race-free.
package stopjitter

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
	var mu sync.Mutex
	calls := 0
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := &policy{max: 2, interval: time.Microsecond}
			for {
				mu.Lock()
				calls++
				mu.Unlock()
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
