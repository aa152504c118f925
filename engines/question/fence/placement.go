package fence

import (
	"fmt"
	"slices"
	"strings"

	"github.com/fencecheck/fencecheck/model"
)

// Placement is a placement constraint: which places may carry a barrier
// (the paper's G). The user's exclusions (Options.Exclude) are removed from it.
type Placement uint8

const (
	// AfterWrites allows a barrier only right after a plain (buffered) write,
	// on that write's own edge: the write places of [AfterWrite]. This is the
	// constraint of the paper's experiments, and where a Go programmer would
	// put it (making the store an atomic one). Where several writes reach one
	// location, each has its own place: a barrier after one of them does not
	// follow the others.
	AfterWrites Placement = iota
	// Anywhere allows, besides the write places, a barrier after any
	// location ([AfterLoc]), one that runs whichever way the process reached
	// it. A location whose only way in is one write is left out: its place
	// is that write's.
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
// name, sorted (see [Place]): the set G of the paper. A location place in
// exclude also excludes the write places of the writes into its location
// (no barrier may go right after that location, whichever write reached it);
// a write place in exclude excludes that write's place alone.
func Candidates(p *model.Program, g Placement, exclude []Place) []Place {
	ex := make(map[Place]bool, len(exclude))
	for _, pl := range exclude {
		ex[pl] = true
	}
	var out []Place
	for qi, q := range p.Procs {
		in := make([]int, len(q.Locs))      // transitions into each location
		written := make([]int, len(q.Locs)) // writes into each location
		for ti, t := range q.Trans {
			if t.To < 0 || t.To >= len(q.Locs) {
				continue
			}
			in[t.To]++
			if t.Op.Kind != model.Write {
				continue
			}
			written[t.To]++
			if pl := AfterWrite(qi, ti); !ex[pl] && !ex[AfterLoc(qi, t.To)] {
				out = append(out, pl)
			}
		}
		if g != Anywhere {
			continue
		}
		for l := range q.Locs {
			if in[l] == 1 && written[l] == 1 && l != q.Init {
				continue // the same barrier as the write's place
			}
			if pl := AfterLoc(qi, l); !ex[pl] {
				out = append(out, pl)
			}
		}
	}
	slices.SortFunc(out, comparePlaces)
	return out
}

// LoopCost is the cost of a barrier that lies on a cycle of its process's
// automaton (a barrier inside a loop runs on every iteration); a barrier
// anywhere else costs 1.
const LoopCost = 10

// FullFenceWeight is what a full fence costs under PSO, where a store-store
// fence costs 1: a full fence orders loads after stores as well, which a
// store-store fence does not (SPARC's MEMBAR #StoreLoad against STBAR).
// The weight multiplies LoopCost.
const FullFenceWeight = 2

// Cost returns the cost of a set of barriers in p under x86-TSO: the sum
// over its places of LoopCost for a place on a cycle of its process, 1
// otherwise. A location
// place is on a cycle when the process can return to its location by one or
// more transitions; a write place when its write is on a cycle (the process
// can return from the write's target to its source), so that the barrier
// after a store before a loop costs 1 even though the store's target is the
// loop's head. "Cheapest" in this package means fewest barriers, and among
// sets of the same size, lowest Cost.
func Cost(p *model.Program, set []Place) int {
	return CostUnder(p, set, model.TSO)
}

// CostUnder returns the cost of a set of barriers in p under the memory
// model m: [Cost] under TSO; under PSO a store-store fence costs as a
// barrier does under TSO (LoopCost on a cycle, else 1) and a full fence
// FullFenceWeight times that, so that among sets of one size the search
// prefers store-store fences where they suffice.
func CostUnder(p *model.Program, set []Place, m model.Model) int {
	return newCoster(p, m).cost(set)
}

// coster memoises which locations lie on cycles, and the strongly connected
// components of the locations.
type coster struct {
	p      *model.Program
	pso    bool     // full fences weigh FullFenceWeight
	cyclic [][]bool // per process, computed on first use
	comp   [][]int  // per process: the component of each location
}

func newCoster(p *model.Program, m model.Model) *coster {
	return &coster{p: p, pso: m == model.PSO, cyclic: make([][]bool, len(p.Procs)), comp: make([][]int, len(p.Procs))}
}

func (c *coster) cost(set []Place) int {
	total := 0
	for _, pl := range set {
		w := 1
		if c.pso && !pl.StoreStore {
			w = FullFenceWeight
		}
		total += w * c.placeCost(pl)
	}
	return total
}

func (c *coster) placeCost(pl Place) int {
	if pl.Proc < 0 || pl.Proc >= len(c.cyclic) {
		return 1
	}
	q := c.p.Procs[pl.Proc]
	if c.cyclic[pl.Proc] == nil {
		c.cyclic[pl.Proc], c.comp[pl.Proc] = q.Cycles()
	}
	if pl.OnWrite() {
		if pl.Trans >= len(q.Trans) {
			return 1
		}
		t := q.Trans[pl.Trans]
		comp := c.comp[pl.Proc]
		if t.From >= 0 && t.From < len(comp) && t.To >= 0 && t.To < len(comp) && comp[t.From] == comp[t.To] {
			return LoopCost
		}
		return 1
	}
	if pl.Loc >= 0 && pl.Loc < len(c.cyclic[pl.Proc]) && c.cyclic[pl.Proc][pl.Loc] {
		return LoopCost
	}
	return 1
}
