package fence

import (
	"fmt"
	"strings"

	"github.com/fencecheck/fencecheck/model"
)

// Placement is a placement constraint: which locations may carry a barrier
// (the paper's G). The user's exclusions (Options.Exclude) are removed from it.
type Placement uint8

const (
	// AfterWrites allows a barrier only right after a plain (buffered) write:
	// at the target location of a transition whose operation is a write. This
	// is the constraint of the paper's experiments, and where a Go programmer
	// would put it (making the store an atomic one).
	AfterWrites Placement = iota
	// Anywhere allows a barrier after any location.
	Anywhere
)

// String returns the flag value of g: "after-writes" or "anywhere".
func (g Placement) String() string {
	switch g {
	case AfterWrites:
		return "after-writes"
	case Anywhere:
		return "anywhere"
	}
	return fmt.Sprintf("Placement(%d)", uint8(g))
}

// ParsePlacement parses "after-writes" or "anywhere".
func ParsePlacement(s string) (Placement, error) {
	switch strings.ToLower(s) {
	case "after-writes", "afterwrites":
		return AfterWrites, nil
	case "anywhere":
		return Anywhere, nil
	}
	return 0, fmt.Errorf("unknown placement %q (want after-writes or anywhere)", s)
}

// Candidates returns the places of p that g allows and exclude does not
// name, sorted by process and location: the set G of the paper.
func Candidates(p *model.Program, g Placement, exclude []Place) []Place {
	ex := make(map[Place]bool, len(exclude))
	for _, pl := range exclude {
		ex[pl] = true
	}
	var out []Place
	for qi, q := range p.Procs {
		allowed := make([]bool, len(q.Locs))
		switch g {
		case Anywhere:
			for l := range allowed {
				allowed[l] = true
			}
		default:
			for _, t := range q.Trans {
				if t.Op.Kind == model.Write && t.To >= 0 && t.To < len(allowed) {
					allowed[t.To] = true
				}
			}
		}
		for l, ok := range allowed {
			if pl := (Place{qi, l}); ok && !ex[pl] {
				out = append(out, pl)
			}
		}
	}
	return out
}

// LoopCost is the cost of a barrier at a location that lies on a cycle of its
// process's automaton (a barrier inside a loop runs on every iteration); a
// barrier anywhere else costs 1.
const LoopCost = 10

// Cost returns the cost of a set of barriers in p: the sum over its places of
// LoopCost for a place on a cycle of its process (a location from which the
// process can return to it by one or more transitions), 1 otherwise.
// "Cheapest" in this package means fewest barriers, and among sets of the
// same size, lowest Cost.
func Cost(p *model.Program, set []Place) int {
	c := newCoster(p)
	return c.cost(set)
}

// coster memoises which locations lie on cycles.
type coster struct {
	p      *model.Program
	cyclic [][]bool // per process, computed on first use
}

func newCoster(p *model.Program) *coster {
	return &coster{p: p, cyclic: make([][]bool, len(p.Procs))}
}

func (c *coster) cost(set []Place) int {
	total := 0
	for _, pl := range set {
		total += c.placeCost(pl)
	}
	return total
}

func (c *coster) placeCost(pl Place) int {
	if pl.Proc < 0 || pl.Proc >= len(c.cyclic) {
		return 1
	}
	if c.cyclic[pl.Proc] == nil {
		c.cyclic[pl.Proc] = onCycle(c.p.Procs[pl.Proc])
	}
	if pl.Loc >= 0 && pl.Loc < len(c.cyclic[pl.Proc]) && c.cyclic[pl.Proc][pl.Loc] {
		return LoopCost
	}
	return 1
}

// onCycle reports, for every location of q, whether it lies on a cycle: it is
// in a strongly connected component with more than one location, or has a
// transition to itself. Tarjan's algorithm, iterative.
func onCycle(q *model.Process) []bool {
	n := len(q.Locs)
	succ := make([][]int, n)
	res := make([]bool, n)
	for _, t := range q.Trans {
		if t.From < 0 || t.From >= n || t.To < 0 || t.To >= n {
			continue
		}
		succ[t.From] = append(succ[t.From], t.To)
		if t.From == t.To {
			res[t.From] = true
		}
	}
	index := make([]int, n)
	low := make([]int, n)
	onStack := make([]bool, n)
	for i := range index {
		index[i] = -1
	}
	var stack []int
	next := 0
	type frame struct{ v, i int }
	for root := range n {
		if index[root] >= 0 {
			continue
		}
		call := []frame{{root, 0}}
		index[root], low[root] = next, next
		next++
		stack = append(stack, root)
		onStack[root] = true
		for len(call) > 0 {
			f := &call[len(call)-1]
			if f.i < len(succ[f.v]) {
				w := succ[f.v][f.i]
				f.i++
				switch {
				case index[w] < 0:
					index[w], low[w] = next, next
					next++
					stack = append(stack, w)
					onStack[w] = true
					call = append(call, frame{w, 0})
				case onStack[w]:
					low[f.v] = min(low[f.v], index[w])
				}
				continue
			}
			v := f.v
			call = call[:len(call)-1]
			if len(call) > 0 {
				u := call[len(call)-1].v
				low[u] = min(low[u], low[v])
			}
			if low[v] == index[v] {
				k := len(stack) - 1
				for stack[k] != v {
					k--
				}
				if len(stack)-k > 1 {
					for _, w := range stack[k:] {
						res[w] = true
					}
				}
				for _, w := range stack[k:] {
					onStack[w] = false
				}
				stack = stack[:k]
			}
		}
	}
	return res
}
