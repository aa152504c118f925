// Package barrier6 is a one-shot barrier for six goroutines on plain flags,
// the Go source of testdata/scale/barrier6.fcm: each goroutine sets its
// datum, then its arrival flag, waits for every other flag, and reads its
// neighbour's datum.
//
// Expected, by hand: under the Go memory model the flags and data race
// (plain accesses). Under x86-TSO alone (-races=false) it is correct: a
// goroutine's stores become visible in program order, so a goroutine that
// sees arrived[j] set also sees data[j] set.
package barrier6

import (
	"runtime"
	"sync"
)

const n = 6

// Barrier is a one-shot barrier on plain flags.
type Barrier struct {
	data    [n]int32
	arrived [n]int32
}

// Arrive publishes goroutine me's datum, waits for every other goroutine,
// and returns its neighbour's datum.
func (b *Barrier) Arrive(me int) int32 {
	b.data[me] = 1
	b.arrived[me] = 1
	for j := range n {
		if j == me {
			continue
		}
		for b.arrived[j] == 0 {
			runtime.Gosched()
		}
	}
	return b.data[(me+1)%n]
}

//fencecheck:system
func barrierSystem() {
	var b Barrier
	var wg sync.WaitGroup
	wg.Add(n)
	for i := range n {
		go func(me int) {
			if b.Arrive(me) != 1 {
				panic("stale datum past the barrier")
			}
			wg.Done()
		}(i)
	}
	wg.Wait()
}
