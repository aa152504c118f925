// Package ring5 passes a token around five goroutines on plain flags, two
// rounds: goroutine i waits for turn == i, increments a shared counter,
// and hands the turn to i+1; the last hands it back to 0.
//
// Expected, by hand: the turn and the counter race under the Go memory
// model (plain accesses). Under x86-TSO alone (-races=false) it is
// correct: each goroutine's store of the counter reaches memory before its
// store of turn, so the next goroutine reads the counter it left, and no
// update is lost.
package ring5

import (
	"runtime"
	"sync"
)

const n = 5

// Ring is the token ring's shared state.
type Ring struct {
	turn    int32
	counter int32
}

// Pass waits for goroutine me's turn, counts, and hands the turn on.
func (r *Ring) Pass(me int32) {
	for r.turn != me {
		runtime.Gosched()
	}
	r.counter++
	r.turn = (me + 1) % n
}

//fencecheck:system
func ringSystem() {
	var r Ring
	var wg sync.WaitGroup
	wg.Add(n)
	for i := range int32(n) {
		go func(me int32) {
			for range 2 {
				r.Pass(me)
			}
			wg.Done()
		}(i)
	}
	wg.Wait()
	if r.counter != 2*n {
		panic("lost update")
	}
}
