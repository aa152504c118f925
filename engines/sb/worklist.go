package sb

import (
	"container/heap"

	"github.com/fencecheck/fencecheck/model"
)

// bestFirst makes w order constraints best first for program p.
func (w *worklist) bestFirst(p *model.Program) {
	w.dist, w.prog = newDistances(p), p
}

// worklist holds the constraints waiting to be analysed: first in, first
// out (breadth first), or, with distances set, best first by an estimate
// of how far a constraint is from the initial configurations. The order
// does not change the answer, only how soon it comes: every queued
// constraint is analysed before the search ends without a witness, and a
// witness is a real run whichever order found it. Best first reaches the
// initial configurations of long counterexamples (a bakery's, where the
// breadth-first search explores every shorter run first) after far fewer
// constraints.
type worklist struct {
	fifo []*cons
	head int

	// dist[p][l] is the length of the shortest path of process p from its
	// initial location to l in its control graph; nil: breadth first.
	dist [][]int
	prog *model.Program // the program searched, for its initial values
	best byEstimate
	seq  int64
}

// messageWeight is what a message beyond the initial one adds to a
// constraint's estimate. A message takes one step to undo, but the
// constraints with many messages are the many layouts of the same pending
// stores: weighing them more makes the search finish one layout before it
// opens others. With 4 rather than 1, the SB search alone finds Dijkstra's
// counterexample after 102k constraints (not within 200k before), Full
// Dekker's after 4.3k (13k) and Peterson's after 18k (28k), and decides
// 97 rather than 95 of the first 100 generated programs of the differential
// test; Lamport Fast takes 41k constraints (3k).
const messageWeight = 4

// newDistances returns the shortest path lengths of each process of p from
// its initial location, by location; unreachable locations get len(Locs).
func newDistances(p *model.Program) [][]int {
	dist := make([][]int, len(p.Procs))
	for i, q := range p.Procs {
		d := make([]int, len(q.Locs))
		for l := range d {
			d[l] = len(q.Locs)
		}
		d[q.Init] = 0
		frontier := []int{q.Init}
		for len(frontier) > 0 {
			l := frontier[0]
			frontier = frontier[1:]
			for _, ti := range q.Out(l) {
				if to := q.Trans[ti].To; d[to] > d[l]+1 {
					d[to] = d[l] + 1
					frontier = append(frontier, to)
				}
			}
		}
		dist[i] = d
	}
	return dist
}

// estimate is the best-first key of c: the larger of the control-graph
// distances of its fixed locations from the initial ones and the forward
// abstraction's depth of its local state (c.depth, a lower bound on the
// length of every run to it, which counts the other processes' steps the
// run needs too), plus what each takes at least one step to undo: the
// messages beyond the one an initial configuration has (each weighing
// messageWeight), the known registers and the known variables of the
// oldest message whose values differ from the initial ones. Locations the
// search added beyond the program's (fault locations) count as far.
func (w *worklist) estimate(c *cons) int {
	h := (len(c.msgs) - 1) * messageWeight
	for p, q := range w.prog.Procs {
		for r, reg := range q.Regs {
			if c.regKnown(p, r) && !reg.Init.Any && c.regs[p][r] != reg.Init.Value {
				h++
			}
		}
	}
	m := &c.msgs[0]
	for x, v := range w.prog.Vars {
		if m.isKnown(x) && !v.Init.Any && m.mem[x] != v.Init.Value {
			h++
		}
	}
	control := 0
	for p, l := range c.locs {
		switch d := w.dist[p]; {
		case l == wild:
		case l < len(d):
			control += d[l]
		default:
			control += len(d)
		}
	}
	return h + max(control, int(c.depth))
}

func (w *worklist) push(c *cons) {
	if w.dist == nil {
		w.fifo = append(w.fifo, c)
		return
	}
	w.seq++
	heap.Push(&w.best, estimated{c: c, key: w.estimate(c), seq: w.seq})
}

// pop removes and returns the next constraint, or nil when none is left.
func (w *worklist) pop() *cons {
	if w.dist == nil {
		if w.head == len(w.fifo) {
			return nil
		}
		c := w.fifo[w.head]
		w.fifo[w.head] = nil
		w.head++
		return c
	}
	if len(w.best) == 0 {
		return nil
	}
	return heap.Pop(&w.best).(estimated).c
}

// peek returns the next constraint without removing it, or nil.
func (w *worklist) peek() *cons {
	if w.dist == nil {
		if w.head == len(w.fifo) {
			return nil
		}
		return w.fifo[w.head]
	}
	if len(w.best) == 0 {
		return nil
	}
	return w.best[0].c
}

// pushed returns how many constraints were ever pushed.
func (w *worklist) pushed() int64 {
	if w.dist == nil {
		return int64(len(w.fifo))
	}
	return w.seq
}

// estimated is a constraint in the best-first heap: lower keys first, and
// among equal keys the older one.
type estimated struct {
	c   *cons
	key int
	seq int64
}

type byEstimate []estimated

func (h byEstimate) Len() int { return len(h) }
func (h byEstimate) Less(i, j int) bool {
	if h[i].key != h[j].key {
		return h[i].key < h[j].key
	}
	return h[i].seq < h[j].seq
}
func (h byEstimate) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *byEstimate) Push(x any)   { *h = append(*h, x.(estimated)) }
func (h *byEstimate) Pop() any {
	old := *h
	x := old[len(old)-1]
	old[len(old)-1] = estimated{}
	*h = old[:len(old)-1]
	return x
}
