// Package racefree holds the atomic versions of the systems of package
// races: no data race, correct under SC, so fencecheck says nothing.
package racefree

import (
	"sync"
	"sync/atomic"
)

type peterson struct {
	flag [2]atomic.Int32
	turn atomic.Int32
}

func (l *peterson) lock(me int32) {
	other := 1 - me
	l.flag[me].Store(1)
	l.turn.Store(other)
	for l.flag[other].Load() == 1 && l.turn.Load() == other {
	}
}

func (l *peterson) unlock(me int32) {
	l.flag[me].Store(0)
}

//fencecheck:system
func petersonSystem() {
	var l peterson
	var count int
	var wg sync.WaitGroup
	wg.Add(2)
	for me := range int32(2) {
		go func() {
			l.lock(me)
			count++
			l.unlock(me)
			wg.Done()
		}()
	}
	wg.Wait()
	if count != 2 {
		panic("lost update")
	}
}

type seqlock struct {
	seq  atomic.Uint32
	a, b atomic.Uint32
}

//fencecheck:system
func seqlockSystem() {
	var s seqlock
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		s.seq.Add(1)
		s.a.Store(1)
		s.b.Store(1)
		s.seq.Add(1)
		wg.Done()
	}()
	go func() {
		for {
			v := s.seq.Load()
			if v%2 == 1 {
				continue
			}
			a, b := s.a.Load(), s.b.Load()
			if s.seq.Load() == v {
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

var done atomic.Bool

//fencecheck:system
func doneFlag() {
	go func() {
		done.Store(true)
	}()
	for !done.Load() {
	}
}
