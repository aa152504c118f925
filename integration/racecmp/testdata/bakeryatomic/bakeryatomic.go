// Package bakeryatomic is Lamport's bakery lock on atomic fields
// (examples/locks), each goroutine taking the lock twice.
//
// Expected: race-free.
package bakeryatomic

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Bakery is Lamport's bakery algorithm on typed atomics.
type Bakery struct {
	choosing [2]atomic.Int32
	number   [2]atomic.Int64 //fencecheck:range 0..4
}

// Lock enters the critical section as goroutine me (0 or 1).
func (b *Bakery) Lock(me int) {
	other := 1 - me
	b.choosing[me].Store(1)
	ticket := b.number[other].Load() + 1
	b.number[me].Store(ticket)
	b.choosing[me].Store(0)
	for b.choosing[other].Load() != 0 {
		runtime.Gosched()
	}
	for {
		n := b.number[other].Load()
		if n == 0 || n >= ticket+int64(me) {
			break
		}
		runtime.Gosched()
	}
}

// Unlock leaves the critical section as goroutine me.
func (b *Bakery) Unlock(me int) {
	b.number[me].Store(0)
}

// system runs two goroutines that take the atomic bakery lock twice each.
//
//fencecheck:system
func system() {
	var b Bakery
	var wg sync.WaitGroup
	wg.Add(2)
	for i := range 2 {
		go func(me int) {
			for j := 0; j < 2; j++ {
				b.Lock(me)
				//fencecheck:critical
				b.Unlock(me)
			}
			wg.Done()
		}(i)
	}
	wg.Wait()
}
