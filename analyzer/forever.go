package analyzer

import (
	"context"
	"math/bits"
	"slices"

	"github.com/fencecheck/fencecheck/engines/lib/explore"
	"github.com/fencecheck/fencecheck/extract"
	"github.com/fencecheck/fencecheck/model"
)

// foreverStates bounds the graph of states that searchForever builds: a
// part of the system's work budget, as for the search for blocking bugs.
const foreverStates = 1_000_000

// foreverProcs bounds the processes searchForever follows: one bit each.
const foreverProcs = 64

// A foreverBug is a blocking bug that searchForever found beside a
// goroutine that runs for ever: the exact state, made a bad state of the
// program, and the goroutines it is a bug of.
type foreverBug struct {
	bad model.BadState
	// waits are the goroutines that wait and never move again; runs those
	// that run on and never end.
	waits, runs uint64
}

// foreverGraph is the graph of the states a system reaches under
// sequential consistency, with what each goroutine can do in each.
type foreverGraph struct {
	keys *explore.KeySet
	// succ[first[i]:first[i+1]] are the successors of state i.
	first []int32
	succ  []int32
	// Per state, one bit per process: it can take a step (move), it has
	// ended or was never started (ended), it can take none and has not
	// ended (blocked). A state whose runs stop with a finding (a fault,
	// a bad state, a panic) has every bit of move and ended: nothing of it
	// waits for ever.
	move, ended, blocked []uint64
	// existing is set when a state of a blocking bad state the program
	// already has is reachable: the analysis reports that one.
	existing bool
}

// searchForever looks for the blocking bugs that the bad states made of
// places (extract) leave out because a goroutine runs for ever beside
// them: a goroutine that ticks on a timer while main waits for a reply
// nobody sends. The bad states count a goroutine that loops as one that
// may write anything it writes somewhere, so that no wait it could end is
// a bug; this search builds the graph of the reachable states under
// sequential consistency and asks, of each, what can still happen from
// it: main waits and no run from here moves it again (a deadlock); or
// main has returned and a goroutine waits so (a leak). A goroutine that
// only runs for ever is none: a janitor may be meant to. The goroutines
// that run on beside the bug are named with it. The first such state, in
// breadth-first order, becomes
// a bad state of the program, which the analysis then reaches and reports
// as it does the others. It looks only when the program has no blocking
// bad state reachable already, and gives up quietly at its bounds: what
// it does not find is what the analysis did not look for before it.
func (s *system) searchForever() {
	if s.grows != nil || s.sys.Clock >= 0 || len(s.p.Procs) > foreverProcs {
		// A value that grows without bound has no finite graph; the
		// clock's ticks are bounded, so that a loop that waits for time to
		// pass may wait for ever in the model and not in Go.
		return
	}
	cyclic := false
	for _, pr := range s.p.Procs {
		if c, _ := pr.Cycles(); slices.Contains(c, true) {
			cyclic = true
			break
		}
	}
	if !cyclic {
		return
	}
	ctx, stop := s.blockingShare()
	defer stop()
	g, ok := s.foreverGraph(ctx)
	if !ok || g.existing {
		return
	}
	if bug, ok := g.find(s); ok {
		s.p.Bad = append(s.p.Bad, bug.bad)
		s.forever = bug
	}
}

// foreverGraph builds the graph of the states of the program under
// sequential consistency; false when it is too large or the context ends.
func (s *system) foreverGraph(ctx context.Context) (*foreverGraph, bool) {
	p := s.p
	all := allProcs(len(p.Procs))
	unstarted, stops := locSets(s.sys.Unstarted, len(p.Procs)), locSets(s.sys.Stops, len(p.Procs))
	g := &foreverGraph{keys: explore.NewKeySet(), first: []int32{0}}
	var key []byte
	add := func(st model.State) (int32, bool) {
		key = st.AppendKey(key[:0])
		id, _, err := g.keys.Add(key)
		return int32(id), err == nil && g.keys.Len() <= foreverStates
	}
	ok := true
	if err := p.Initial(func(st model.State) {
		if ok {
			_, ok = add(st)
		}
	}); err != nil || !ok {
		return nil, false
	}
	var d model.Decoded
	for id := 0; id < g.keys.Len(); id++ {
		if id%1024 == 0 && ctx.Err() != nil {
			return nil, false
		}
		st, _ := p.DecodeKeyInto(g.keys.Key(id), &d)
		var move, ended, blocked uint64
		stop := false
		if bi := p.MatchBad(st); bi >= 0 {
			switch p.Bad[bi].Name {
			case extract.DeadlockName, extract.LeakName:
				g.existing = true
				return g, true
			}
			stop = true // a finding of its own
		}
		for q := range p.Procs {
			if stops[q][st.Locs[q]] {
				stop = true
			}
		}
		if !stop {
			for q := range p.Procs {
				l := st.Locs[q]
				if len(p.Procs[q].Out(l)) == 0 || unstarted[q][l] {
					ended |= 1 << q
				}
				moved := false
				p.ProcSuccessors(st, q, model.SC, 0, func(_ model.Step, next model.State) {
					if !ok || stop {
						return
					}
					moved = true
					if next.Fault != nil {
						stop = true
						return
					}
					var to int32
					if to, ok = add(next); ok {
						g.succ = append(g.succ, to)
					}
				})
				if !ok {
					return nil, false
				}
				switch {
				case moved:
					move |= 1 << q
				case ended&(1<<q) == 0:
					blocked |= 1 << q
				}
			}
		}
		if stop {
			g.succ = g.succ[:g.first[id]]
			move, ended, blocked = all, all, 0
		}
		g.first = append(g.first, int32(len(g.succ)))
		g.move = append(g.move, move)
		g.ended = append(g.ended, ended)
		g.blocked = append(g.blocked, blocked)
	}
	return g, true
}

// find returns the first state of g, in breadth-first order, of a
// blocking bug, made a bad state.
func (g *foreverGraph) find(s *system) (*foreverBug, bool) {
	p := s.p
	n := len(g.move)
	all := allProcs(len(p.Procs))
	// canMove and canEnd: the processes that take a step, or end, on some
	// run from the state: the least fixpoint, by a worklist over the
	// predecessors.
	canMove := slices.Clone(g.move)
	canEnd := slices.Clone(g.ended)
	predFirst := make([]int32, n+1)
	for _, t := range g.succ {
		predFirst[t+1]++
	}
	for i := range n {
		predFirst[i+1] += predFirst[i]
	}
	pred := make([]int32, len(g.succ))
	fill := slices.Clone(predFirst[:n])
	for from := range n {
		for _, to := range g.succ[g.first[from]:g.first[from+1]] {
			pred[fill[to]] = int32(from)
			fill[to]++
		}
	}
	work := make([]int32, n)
	queued := make([]bool, n)
	for i := range n {
		work[i], queued[i] = int32(i), true
	}
	for len(work) > 0 {
		t := work[len(work)-1]
		work = work[:len(work)-1]
		queued[t] = false
		for _, f := range pred[predFirst[t]:predFirst[t+1]] {
			m, e := canMove[f]|canMove[t], canEnd[f]|canEnd[t]
			if m != canMove[f] || e != canEnd[f] {
				canMove[f], canEnd[f] = m, e
				if !queued[f] {
					work, queued[f] = append(work, f), true
				}
			}
		}
	}
	mainProc := s.sys.Main
	mainBit := uint64(1) << mainProc
	for id := range n {
		stuck := g.blocked[id] &^ canMove[id]
		name := ""
		switch {
		case stuck&mainBit != 0:
			name = extract.DeadlockName
		case g.ended[id]&mainBit != 0 && stuck != 0:
			name = extract.LeakName
		default:
			continue
		}
		// Show it where the goroutines that will wait for good or end
		// have done so: the others run on for ever.
		id, stuck = g.settle(id, canMove)
		runs := all &^ canEnd[id] &^ stuck &^ g.ended[id]
		var d model.Decoded
		st, _ := p.DecodeKeyInto(g.keys.Key(id), &d)
		bad := exactState(p, st, name)
		// At the wait of main, or of the first goroutine left waiting.
		q := mainProc
		if name == extract.LeakName {
			q = bits.TrailingZeros64(stuck)
		}
		if out := p.Procs[q].Out(st.Locs[q]); len(out) > 0 {
			bad.Pos = p.Procs[q].Trans[out[0]].Pos
		}
		return &foreverBug{bad: bad, waits: stuck, runs: runs}, true
	}
	return nil, false
}

// settle returns, among the states that from reaches, the first in
// breadth-first order where most goroutines wait for good or have ended,
// and the goroutines that wait for good there.
func (g *foreverGraph) settle(from int, canMove []uint64) (int, uint64) {
	best, bestStuck := from, g.blocked[from]&^canMove[from]
	bestScore := bits.OnesCount64(bestStuck | g.ended[from])
	seen := make([]bool, len(g.move))
	seen[from] = true
	queue := []int32{int32(from)}
	for len(queue) > 0 {
		id := queue[0]
		queue = queue[1:]
		stuck := g.blocked[id] &^ canMove[id]
		if score := bits.OnesCount64(stuck | g.ended[id]); score > bestScore {
			best, bestStuck, bestScore = int(id), stuck, score
		}
		for _, to := range g.succ[g.first[id]:g.first[id+1]] {
			if !seen[to] {
				seen[to] = true
				queue = append(queue, to)
			}
		}
	}
	return best, bestStuck
}

// allProcs is the mask of n processes, one bit each (n at most 64).
func allProcs(n int) uint64 {
	if n == 64 {
		return ^uint64(0)
	}
	return uint64(1)<<n - 1
}

// locSets returns, per process of n, the set of its locations that pls
// names.
func locSets(pls []model.ProcLoc, n int) []map[int]bool {
	sets := make([]map[int]bool, n)
	for _, pl := range pls {
		if sets[pl.Proc] == nil {
			sets[pl.Proc] = map[int]bool{}
		}
		sets[pl.Proc][pl.Loc] = true
	}
	return sets
}

// exactState returns the bad state called name that holds in st alone:
// every process at its location, every variable and register at its
// value.
func exactState(p *model.Program, st model.State, name string) model.BadState {
	locs := make([]model.ProcLoc, len(p.Procs))
	var cond model.Expr
	and := func(e model.Expr, v int64) {
		eq := model.Bin(model.OpEq, e, model.Const{Value: v})
		if cond == nil {
			cond = eq
		} else {
			cond = model.Bin(model.OpAnd, cond, eq)
		}
	}
	for q := range p.Procs {
		locs[q] = model.ProcLoc{Proc: q, Loc: st.Locs[q]}
		for r, v := range st.Regs[q] {
			and(model.RegRef{Proc: q, Reg: r}, v)
		}
	}
	for x, v := range st.Mem {
		and(model.VarRef{Var: x}, v)
	}
	return model.BadState{Name: name, Locs: locs, Cond: cond}
}
