// Package peterson100 is Peterson's lock for two goroutines on plain int
// fields, each goroutine taking it 100 times around an int counter, with no
// //fencecheck:range: the counters' domains are found from the code.
//
// Expected, by hand: racy (every field is plain), and under x86-TSO the
// load of the other's flag overtakes the store to turn: a barrier after
// each goroutine's store to turn (the atomic store that the race fix
// makes of it) repairs it.
package peterson100

import "sync"

const rounds = 100

// lock is Peterson's lock.
type lock struct {
	flag [2]int
	turn int
}

func (l *lock) lock(me int) {
	other := 1 - me
	l.flag[me] = 1
	l.turn = other
	for l.flag[other] == 1 && l.turn == other {
	}
}

func (l *lock) unlock(me int) { l.flag[me] = 0 }

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
