package locks

import "runtime"

// Bakery is Lamport's bakery algorithm (1974) for two goroutines on plain
// fields: a goroutine announces that it is choosing, takes a ticket one above
// the other's, and waits until the other is not choosing and holds no
// smaller ticket (ties go to goroutine 0). While the goroutines keep
// overlapping, each draws a ticket above the other's, so the tickets grow
// without bound and fencecheck proves the lock with its predicate engine.
//
// It is correct under sequential consistency but not on x86: the store of
// choosing[me] can wait in the store buffer while the load of the other's
// ticket already reads memory, and so can the store of the ticket while the
// load of the other's choosing flag reads memory. Either way both goroutines
// can enter. fencecheck asks for a barrier after each of the two stores (as
// the fence-inference literature finds: two per process).
type Bakery struct {
	choosing [2]int32 // choosing[i] == 1: goroutine i is taking a ticket
	number   [2]int64 // goroutine i's ticket; 0: not waiting
}

// Lock enters the critical section as goroutine me (0 or 1).
func (b *Bakery) Lock(me int) {
	other := 1 - me
	b.choosing[me] = 1
	// One above every ticket held: our own is 0 here, so the other's.
	ticket := b.number[other] + 1
	b.number[me] = ticket
	b.choosing[me] = 0
	for b.choosing[other] != 0 {
		runtime.Gosched()
	}
	// Wait while the other holds a ticket served before ours. Equal tickets
	// go to goroutine 0, so goroutine 1 also waits for an equal ticket.
	for {
		n := b.number[other]
		if n == 0 || n >= ticket+int64(me) {
			break
		}
		runtime.Gosched()
	}
}

// Unlock leaves the critical section as goroutine me.
func (b *Bakery) Unlock(me int) {
	b.number[me] = 0
}

// bakerySystem runs two goroutines that take the bakery lock again and
// again, so that the tickets have no bound.
//
//fencecheck:system
func bakerySystem() {
	var b Bakery
	for i := range 2 {
		go func(me int) {
			for {
				b.Lock(me)
				//fencecheck:critical
				b.Unlock(me)
			}
		}(i)
	}
}
