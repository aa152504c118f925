// Package filterlock is Peterson's filter lock for three goroutines
// (Herlihy and Shavit, The Art of Multiprocessor Programming, §2.5): a
// goroutine climbs levels 1 and 2; at each level it announces the level,
// makes itself the level's victim, and waits while it is the victim and
// another goroutine is at that level or above.
//
// Expected, by hand: on plain fields the lock races under the Go memory
// model (every access of level and victim is shared). Under x86-TSO alone
// (-races=false) it is broken like Peterson's lock: the store of level[me]
// can wait in the store buffer while the goroutine reads the others'
// levels, so two goroutines can be in the critical section at once; a
// barrier after the store of victim at each level repairs it (the store of
// level is followed by that of victim, so one barrier after the later
// store drains both). victimAtomicSystem makes the victim stores atomic
// (XCHG on amd64, a full barrier): correct under TSO, but level still
// races.
package filterlock

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// n is the number of goroutines.
const n = 3

// Filter is the filter lock on plain fields.
type Filter struct {
	level  [n]int32 // level[i]: the level goroutine i is at; 0: not competing
	victim [n]int32 // victim[l]: the goroutine that entered level l last
}

// Lock enters the critical section as goroutine me.
func (f *Filter) Lock(me int) {
	for l := int32(1); l < n; l++ {
		f.level[me] = l
		f.victim[l] = int32(me)
		for f.victim[l] == int32(me) && f.othersAt(me, l) {
			runtime.Gosched()
		}
	}
}

// othersAt reports whether a goroutine other than me is at level l or above.
func (f *Filter) othersAt(me int, l int32) bool {
	for k := range n {
		if k != me && f.level[k] >= l {
			return true
		}
	}
	return false
}

// Unlock leaves the critical section as goroutine me.
func (f *Filter) Unlock(me int) {
	f.level[me] = 0
}

//fencecheck:system
func filterSystem() {
	var f Filter
	var wg sync.WaitGroup
	wg.Add(n)
	for i := range n {
		go func(me int) {
			f.Lock(me)
			//fencecheck:critical
			f.Unlock(me)
			wg.Done()
		}(i)
	}
	wg.Wait()
}

// VictimFilter is the filter lock with atomic stores of the victims.
type VictimFilter struct {
	level  [n]int32
	victim [n]atomic.Int32
}

// Lock enters the critical section as goroutine me.
func (f *VictimFilter) Lock(me int) {
	for l := int32(1); l < n; l++ {
		f.level[me] = l
		f.victim[l].Store(int32(me))
		for f.victim[l].Load() == int32(me) && f.othersAt(me, l) {
			runtime.Gosched()
		}
	}
}

func (f *VictimFilter) othersAt(me int, l int32) bool {
	for k := range n {
		if k != me && f.level[k] >= l {
			return true
		}
	}
	return false
}

// Unlock leaves the critical section as goroutine me.
func (f *VictimFilter) Unlock(me int) {
	f.level[me] = 0
}

//fencecheck:system
func victimAtomicSystem() {
	var f VictimFilter
	var wg sync.WaitGroup
	wg.Add(n)
	for i := range n {
		go func(me int) {
			f.Lock(me)
			//fencecheck:critical
			f.Unlock(me)
			wg.Done()
		}(i)
	}
	wg.Wait()
}
