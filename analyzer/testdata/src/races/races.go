// Package races holds systems whose plain accesses race under the Go memory
// model, written the way lock-free Go code is usually written: a Peterson
// lock on struct fields, a seqlock, a done flag. Each racing field or
// variable is reported once, with a fix that makes every access atomic.
package races

import "sync"

// peterson is Peterson's lock for two goroutines on plain int fields.
type peterson struct {
	flag [2]int
	turn int
}

func (l *peterson) lock(me int) {
	other := 1 - me
	l.flag[me] = 1 // want `^race: go@\d+\(me=1\) stores l\.flag\[1\] here while go@\d+\(me=0\) loads l\.flag\[1\]`
	l.turn = other // want `^race: go@\d+\(me=0\) and go@\d+\(me=1\) can both reach this access \(it stores l\.turn\)` `^x86-TSO: the store to l\.turn `
	for l.flag[other] == 1 && l.turn == other {
	}
}

func (l *peterson) unlock(me int) {
	l.flag[me] = 0
}

//fencecheck:system
func petersonSystem() {
	var l peterson
	var count int
	var wg sync.WaitGroup
	wg.Add(2)
	for me := range 2 {
		go func() {
			l.lock(me)
			count++ // want `^race: go@\d+\(me=0\) and go@\d+\(me=1\) can both reach this access \(it stores count\)`
			l.unlock(me)
			wg.Done()
		}()
	}
	wg.Wait()
	if count != 2 {
		panic("lost update")
	}
}

// seqlock protects a pair of values with a sequence count: odd while the
// writer is inside.
type seqlock struct {
	seq  uint32
	a, b uint32
}

//fencecheck:system
func seqlockSystem() {
	var s seqlock
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		s.seq++ // want `^race: go@\d+ stores s\.seq here while go@\d+ loads s\.seq`
		s.a = 1 // want `^race: go@\d+ stores s\.a here`
		s.b = 1 // want `^race: go@\d+ stores s\.b here`
		s.seq++
		wg.Done()
	}()
	go func() {
		for {
			v := s.seq
			if v%2 == 1 {
				continue
			}
			a, b := s.a, s.b
			if s.seq == v {
				if a != b {
					panic("torn read")
				}
				break
			}
		}
		wg.Done()
	}()
	wg.Wait()
}

// A done flag set by a worker and polled by its owner.
var done bool

//fencecheck:system
func doneFlag() {
	go func() {
		done = true // want `^race: go@\d+ stores done here`
	}()
	for !done {
	}
}
