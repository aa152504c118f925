package copies

import "sync"

// A snapshot sized by the length of a slice in memory, as List methods
// write it: make([]int, len(r.ids)) takes every length the slice may
// have, and copy fills it.

type idList struct {
	mu  sync.Mutex
	ids []int
}

func (l *idList) add(id int) {
	l.mu.Lock()
	l.ids = append(l.ids, id) // want `^race: go@\d+ stores l\.ids here while main loads l\.ids at snaplen\.go:\d+:\d+, and nothing orders the two \(system snapshotUnlocked\)` `^race: go@\d+ stores ids\[0\] here while main loads ids\[0\] at snaplen\.go:\d+:\d+, and nothing orders the two \(system snapshotUnlocked\)`
	l.mu.Unlock()
}

func (l *idList) snapshot(lock bool) []int {
	if lock {
		l.mu.Lock()
	}
	out := make([]int, len(l.ids))
	copy(out, l.ids)
	if lock {
		l.mu.Unlock()
	}
	return out
}

// snapshotInOrder: the snapshot is a prefix of the ids added, in order.
//
//fencecheck:system
func snapshotInOrder() {
	l := &idList{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		l.add(1)
		l.add(2)
		wg.Done()
	}()
	for i, v := range l.snapshot(true) {
		if v != i+1 {
			panic("torn snapshot")
		}
	}
	wg.Wait()
}

// snapshotUnlocked takes it without the lock.
//
//fencecheck:system
func snapshotUnlocked() {
	l := &idList{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		l.add(1)
		l.add(2)
		wg.Done()
	}()
	l.snapshot(false)
	wg.Wait()
}
