// Package writeloop is Dekker's entry protocol with barriers, where each
// goroutine also keeps toggling a busy bit that nothing else reads, in an
// endless loop after its critical section. The log stores are outside the
// cone of influence of the property (nothing observes them); the reduction
// removes them before the search, which would otherwise explore every
// interleaving of the loops' buffered stores.
//
// Expected, by hand: correct and race-free (the flags are atomic and the
// busy bits are each written and read by one goroutine only).
package writeloop

import "sync/atomic"

// Dekker is Dekker's entry protocol on atomics, with one busy bit per
// goroutine.
type Dekker struct {
	flag [2]atomic.Int32
	busy [2]bool
}

//fencecheck:system
func dekkerSystem() {
	var d Dekker
	for i := range 2 {
		go func(me int) {
			d.flag[me].Store(1)
			if d.flag[1-me].Load() == 0 {
				//fencecheck:critical
				d.busy[me] = true
			}
			for {
				d.busy[me] = !d.busy[me]
			}
		}(i)
	}
}
