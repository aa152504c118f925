package sc

import "sync"

// lock checks that the lock is free and then takes it in a separate step:
// wrong under any memory model.
type lock struct{ held int32 }

func (l *lock) acquire() {
	for l.held != 0 {
	}
	l.held = 1
}

//fencecheck:system
func checkThenSet() {
	var l lock
	var wg sync.WaitGroup
	wg.Add(2)
	for i := 0; i < 2; i++ {
		go func() {
			l.acquire()
			//fencecheck:critical
			l.held = 0 // want `^SC: system checkThenSet is wrong even under sequential consistency: goroutines go@21\(i=0\) and go@21\(i=1\) are both in the critical section here`
			wg.Done()
		}()
	}
	wg.Wait()
}

// lostUpdate increments a plain counter from two goroutines.
//
//fencecheck:system
func lostUpdate() {
	var n int32 //fencecheck:range 0..2
	var wg sync.WaitGroup
	wg.Add(2)
	for i := 0; i < 2; i++ {
		go func() {
			n++
			wg.Done()
		}()
	}
	wg.Wait()
	if n != 2 {
		panic("lost update") // want `^SC: system lostUpdate is wrong even under sequential consistency: the panic is reached here`
	}
}
