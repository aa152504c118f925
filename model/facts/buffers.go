package facts

import (
	"errors"

	"github.com/fencecheck/fencecheck/model"
)

// DrainBound returns the largest number of entries the store buffer of any
// process of p can hold under TSO, and whether that number is finite.
//
// A store buffer grows only by a plain write and is empty after every
// operation that needs an empty buffer (a fence or a locked operation, which
// wait for it to drain). So a buffer never holds more entries than the writes
// on the path since its process's last draining operation (or since the
// start). DrainBound returns the largest such number over every path of the
// control graph; it is infinite only when a cycle that a process can reach
// holds a write and no draining operation. When it is finite, a search whose
// buffers are bounded by it (or by more) loses no behaviour: the bound never
// disables a write, and the search is exact.
func DrainBound(p *model.Program) (int, bool) {
	return largest(p, drainBound)
}

// largest returns the largest of of(q) over the processes q of p, and
// whether every one is finite (0 and false as soon as one is not).
func largest(p *model.Program, of func(q *model.Process) (int, bool)) (int, bool) {
	best := 0
	for _, q := range p.Procs {
		n, ok := of(q)
		if !ok {
			return 0, false
		}
		best = max(best, n)
	}
	return best, true
}

// drainBound is DrainBound for one process: the most writes on a path of q
// from its initial location that passes no draining operation after its
// first write. It propagates, over the locations reachable from the
// initial one, the most writes pending on arrival (a longest-path fixpoint);
// a value above the number of write transitions means that some path
// repeats a write without draining in between, a cycle that makes the
// bound infinite.
func drainBound(q *model.Process) (int, bool) {
	if len(q.Locs) == 0 {
		return 0, true
	}
	writes := 0
	for _, t := range q.Trans {
		if t.Op.Kind == model.Write {
			writes++
		}
	}
	pending := make([]int, len(q.Locs))
	for l := range pending {
		pending[l] = -1 // not reached
	}
	pending[q.Init] = 0
	work := []int{q.Init}
	queued := make([]bool, len(q.Locs))
	queued[q.Init] = true
	best := 0
	for len(work) > 0 {
		l := work[len(work)-1]
		work = work[:len(work)-1]
		queued[l] = false
		for _, ti := range q.Out(l) {
			t := q.Trans[ti]
			n := pending[l]
			switch t.Op.Kind {
			case model.Write:
				n++
			case model.Fence, model.Locked:
				n = 0
			}
			if n > writes {
				return 0, false
			}
			if n <= pending[t.To] {
				continue
			}
			pending[t.To] = n
			best = max(best, n)
			if !queued[t.To] {
				queued[t.To] = true
				work = append(work, t.To)
			}
		}
	}
	return best, true
}

// MaxWritesOnPath returns the largest number of plain writes on any path of
// any process, and whether every process is loop-free (otherwise the number
// is meaningless). [DrainBound] is never larger, and finite for more
// programs.
func MaxWritesOnPath(p *model.Program) (int, bool) {
	return largest(p, maxWrites)
}

var errCycle = errors.New("cycle")

func maxWrites(q *model.Process) (int, bool) {
	const (
		unseen = iota
		active
		done
	)
	mark := make([]uint8, len(q.Locs))
	memo := make([]int, len(q.Locs))
	var visit func(l int) (int, error)
	visit = func(l int) (int, error) {
		switch mark[l] {
		case active:
			return 0, errCycle
		case done:
			return memo[l], nil
		}
		mark[l] = active
		best := 0
		for _, ti := range q.Out(l) {
			t := q.Trans[ti]
			n, err := visit(t.To)
			if err != nil {
				return 0, err
			}
			if t.Op.Kind == model.Write {
				n++
			}
			best = max(best, n)
		}
		mark[l], memo[l] = done, best
		return best, nil
	}
	n, err := visit(q.Init)
	return n, err == nil
}

// LoadsDrained reports whether every process of p reads memory only with
// an empty store buffer: on every path, a fence or a locked operation
// comes between a plain write and the next read. Then x86-TSO has the
// behaviours of sequential consistency. A store waits in its buffer only
// while its process writes more and takes local steps; doing that store,
// and those steps, when it leaves the buffer instead (and the stores still
// buffered at the end, last) gives a sequentially consistent execution
// that reaches the same locations and registers, and the same memory
// whenever the buffers are empty, as a bad state that names memory
// requires.
func LoadsDrained(p *model.Program) bool {
	for _, q := range p.Procs {
		if !loadsDrained(q) {
			return false
		}
	}
	return true
}

// loadsDrained is LoadsDrained for one process: it propagates, over the
// locations reachable from the initial one, whether the buffer may hold a
// write on arrival, and finds no read leaving such a location.
func loadsDrained(q *model.Process) bool {
	if len(q.Locs) == 0 {
		return true
	}
	const unseen, empty, pending = 0, 1, 2
	state := make([]uint8, len(q.Locs))
	state[q.Init] = empty
	work := []int{q.Init}
	for len(work) > 0 {
		l := work[len(work)-1]
		work = work[:len(work)-1]
		for _, ti := range q.Out(l) {
			t := q.Trans[ti]
			next := state[l]
			switch t.Op.Kind {
			case model.Read:
				if state[l] == pending {
					return false
				}
			case model.Write:
				next = pending
			case model.Fence, model.Locked:
				next = empty
			}
			if next > state[t.To] {
				state[t.To] = next
				work = append(work, t.To)
			}
		}
	}
	return true
}
