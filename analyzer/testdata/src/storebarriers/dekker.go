package storebarriers

import "sync"

// Dekker is Dijkstra's text of Dekker's algorithm: a goroutine raises its
// flag before the wait loop, and again inside it after backing off for the
// other's turn. Both raisings reach the loop head, and each needs its own
// barrier: with only the first made atomic, a goroutine coming back for a
// second round reads the other's re-raised flag while it is still buffered.
type Dekker struct {
	flag [2]int32
	turn int32
}

func (l *Dekker) Lock(me int) {
	other := 1 - me
	l.flag[me] = 1 // want `^x86-TSO: the store to l\.flag\[0\] can still sit in the store buffer when the load of l\.flag\[1\] at dekker\.go:18:6 reads memory`
	for l.flag[other] == 1 {
		if l.turn != int32(me) {
			l.flag[me] = 0
			for l.turn != int32(me) {
			}
			l.flag[me] = 1 // want `^x86-TSO: the store to l\.flag\[0\] can still sit in the store buffer when the load of l\.flag\[1\] at dekker\.go:18:6 reads memory`
		}
	}
}

func (l *Dekker) Unlock(me int) {
	l.turn = int32(1 - me)
	l.flag[me] = 0
}

// dekker runs two rounds of the lock in each of two goroutines.
//
//fencecheck:system
func dekker() {
	var l Dekker
	var wg sync.WaitGroup
	wg.Add(2)
	for i := 0; i < 2; i++ {
		go func(me int) {
			for k := 0; k < 2; k++ {
				l.Lock(me)
				//fencecheck:critical
				l.Unlock(me)
			}
			wg.Done()
		}(i)
	}
	wg.Wait()
}
