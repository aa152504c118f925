package copies

import "sync"

// A registry's List copies the ids it holds into a slice of its own
// under the lock: copy from a slice grown by append loaded from memory,
// of a length known only at run time, moves the first min(len, 2) ids.

type registry struct {
	mu  sync.Mutex
	ids []int
}

func (r *registry) add(id int) {
	r.mu.Lock()
	r.ids = append(r.ids, id) // want `^race: go@\d+ stores r\.ids here while main loads r\.ids at snapshots\.go:\d+:\d+, and nothing orders the two \(system listUnlocked\)` `^race: go@\d+ stores ids\[0\] here while main loads ids\[0\] at snapshots\.go:\d+:\d+, and nothing orders the two \(system listUnlocked\)`
	r.mu.Unlock()
}

// list copies at most two ids, marking the rest -1.
func (r *registry) list(from int, lock bool) []int {
	if lock {
		r.mu.Lock()
	}
	out := make([]int, 2)
	n := 0
	if len(r.ids) >= from {
		n = copy(out, r.ids[from:])
	}
	if lock {
		r.mu.Unlock()
	}
	for i := n; i < 2; i++ {
		out[i] = -1
	}
	return out
}

// check panics unless s holds 1, 2 in order, cut by -1s.
func check(s []int) {
	for i, v := range s {
		if v != i+1 && v != -1 || v == -1 && i == 0 && s[1] != -1 {
			panic("torn list") // want `^SC: system listShifted is wrong even under sequential consistency: the panic is reached here`
		}
	}
}

// listUnderLock: the list is a prefix of what was added, in order.
//
//fencecheck:system
func listUnderLock() {
	r := &registry{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		r.add(1)
		r.add(2)
		wg.Done()
	}()
	check(r.list(0, true))
	wg.Wait()
}

// listShifted copies from the second id on.
//
//fencecheck:system
func listShifted() {
	r := &registry{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		r.add(1)
		r.add(2)
		wg.Done()
	}()
	check(r.list(1, true))
	wg.Wait()
}

// listUnlocked copies without the lock.
//
//fencecheck:system
func listUnlocked() {
	r := &registry{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		r.add(1)
		r.add(2)
		wg.Done()
	}()
	check(r.list(0, false))
	wg.Wait()
}
