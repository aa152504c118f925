// Package peterson100fixed is package peterson100 after its fix: the flags
// and turn are atomics (the race fix), whose stores drain the store
// buffer on x86-TSO, so Peterson's lock holds; the counter it guards stays
// a plain int, counted 100 times by each goroutine, with no
// //fencecheck:range.
//
// Expected, by hand: correct and race-free (the lock orders the counter's
// accesses under the Go memory model: an atomic load that sees an atomic
// store synchronizes with it).
package peterson100fixed

import (
	"sync"
	"sync/atomic"
)

const rounds = 100

// lock is Peterson's lock on atomics.
type lock struct {
	flag [2]atomic.Int32
	turn atomic.Int32
}

func (l *lock) lock(me int) {
	other := 1 - me
	l.flag[me].Store(1)
	l.turn.Store(int32(other))
	for l.flag[other].Load() == 1 && l.turn.Load() == int32(other) {
	}
}

func (l *lock) unlock(me int) { l.flag[me].Store(0) }

func worker(l *lock, me, n int, count *int, wg *sync.WaitGroup) {
	for i := 0; i < n; i++ {
		l.lock(me)
		*count++
		l.unlock(me)
	}
	wg.Done()
}

//fencecheck:system
func peterson() {
	var l lock
	var count int
	var wg sync.WaitGroup
	wg.Add(2)
	go worker(&l, 0, rounds, &count, &wg)
	go worker(&l, 1, rounds, &count, &wg)
	wg.Wait()
	if count != 2*rounds {
		panic("lost update")
	}
}
