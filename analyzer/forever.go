package analyzer

import (
	"context"
	"fmt"
	"math/bits"
	"slices"
	"strings"

	"github.com/fencecheck/fencecheck/engines/lib/explore"
	"github.com/fencecheck/fencecheck/engines/wrap/coi"
	"github.com/fencecheck/fencecheck/extract"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/facts"
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
	// succ[first[i]:first[i+1]] are the successors of state i, and
	// label[first[i]:first[i+1]] the steps to them: the process that
	// takes each, with guessStep when it takes an answer the model does
	// not compute.
	first []int32
	succ  []int32
	label []uint8
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
// breadth-first order, becomes a bad state of the program, which the
// analysis then reaches and reports as it does the others.
//
// It looks only when the program has no blocking bad state reachable
// already, and only when some wait is one that a goroutine with a loop
// could end (runnersBesideWaits): the others are the places' to find.
// The graph is that of the program reduced to what decides the moves of
// its goroutines (coi.ReduceKeepingProcs): a counter that only counts
// does not make it infinite. When the search cannot be done (a value
// that decides a move grows without bound, the clock, its bounds), the
// system is inconclusive, saying so.
func (s *system) searchForever() {
	if !s.runnersBesideWaits() {
		return
	}
	if len(s.p.Procs) > foreverProcs {
		s.foreverUnchecked(fmt.Sprintf("it has more than %d goroutines", foreverProcs))
		return
	}
	red, err := coi.ReduceKeepingProcs(s.p)
	if err != nil {
		s.foreverUnchecked(fmt.Sprintf("internal error: %v", err))
		return
	}
	if g := s.grows; g != nil && red.Keeps(g.Cell) {
		s.foreverUnchecked(s.growth())
		return
	}
	ctx, stop := s.blockingShare()
	defer stop()
	g, err := s.foreverGraph(ctx, red.Prog)
	if err != nil {
		s.foreverUnchecked(err.Error())
		return
	}
	if g.existing {
		return
	}
	if bug, ok := g.find(s, red); ok {
		s.p.Bad = append(s.p.Bad, bug.bad)
		s.forever = bug
		return
	}
	if d, ok := g.doubt(s); ok {
		s.foreverGap = fmt.Sprintf("inconclusive: system %s: %s; the other findings stand", s.sys.Name, d)
	}
}

// foreverUnchecked reports that the search for goroutines that wait for
// ever beside others that run for ever was not done, and why.
func (s *system) foreverUnchecked(why string) {
	s.foreverGap = fmt.Sprintf(
		"inconclusive: system %s: deadlocks and leaks beside goroutines that run for ever are not looked for: %s; the other findings stand",
		s.sys.Name, why)
}

// runnersBesideWaits reports whether some goroutine of the system may wait
// for a variable that another goroutine, one with a loop, writes: the
// only waits that the bad states made of places let go, and so the only
// ones searchForever has to ask about.
func (s *system) runnersBesideWaits() bool {
	p := s.p
	var loopWrites []map[int]bool // per process with a loop, what it writes
	for _, pr := range p.Procs {
		var w map[int]bool
		if c, _ := pr.Cycles(); slices.Contains(c, true) {
			w = map[int]bool{}
			for _, t := range pr.Trans {
				markWrites(t.Op, w)
			}
		}
		loopWrites = append(loopWrites, w)
	}
	unstarted := locSets(s.sys.Unstarted, len(p.Procs))
	for q, pr := range p.Procs {
		for l := range pr.Locs {
			c, ok := p.Waits(q, l)
			if !ok || unstarted[q][l] {
				continue
			}
			reads := false
			model.WalkExpr(c, func(e model.Expr) {
				if v, ok := e.(model.VarRef); ok {
					for r, w := range loopWrites {
						reads = reads || r != q && w[v.Var]
					}
				}
			})
			if reads {
				return true
			}
		}
	}
	return false
}

// markWrites adds to w the variables op writes.
func markWrites(op model.Op, w map[int]bool) {
	switch op.Kind {
	case model.Write:
		w[op.Var] = true
	case model.Locked:
		for _, b := range op.Body {
			markWrites(b, w)
		}
	}
}

// readsAnyOf reports whether op reads a variable of vars.
func readsAnyOf(op model.Op, vars map[int]bool) bool {
	reads := false
	switch op.Kind {
	case model.Read:
		reads = vars[op.Var]
	case model.Locked:
		for _, b := range op.Body {
			reads = reads || readsAnyOf(b, vars)
		}
	}
	if op.Expr != nil {
		model.WalkExpr(op.Expr, func(e model.Expr) {
			if v, ok := e.(model.VarRef); ok && vars[v.Var] {
				reads = true
			}
		})
	}
	return reads
}

// guessStep marks, in a foreverGraph's label, a step that takes an
// answer the model does not compute (extract.Guess), and clockStep one
// that reads the clock; the other bits are the process's.
const (
	guessStep = 0x80
	clockStep = 0x40
	procBits  = 0x3f
)

// errForeverStates stops a search whose graph is too large.
var errForeverStates = fmt.Errorf("the states of its runs under sequential consistency number more than %d", foreverStates)

// foreverGraph builds the graph of the states of p, the system's program
// or a reduction of it, under sequential consistency; an error when it is
// too large or the context ends.
func (s *system) foreverGraph(ctx context.Context, p *model.Program) (*foreverGraph, error) {
	all := allProcs(len(p.Procs))
	unstarted, stops := locSets(s.sys.Unstarted, len(p.Procs)), locSets(s.sys.Stops, len(p.Procs))
	g := &foreverGraph{keys: explore.NewKeySet(), first: []int32{0}}
	var key []byte
	var err error
	add := func(st model.State) int32 {
		key = st.AppendKey(key[:0])
		id, _, kerr := g.keys.Add(key)
		switch {
		case kerr != nil:
			err = kerr
		case g.keys.Len() > foreverStates:
			err = errForeverStates
		}
		return int32(id)
	}
	if ierr := p.Initial(func(st model.State) {
		if err == nil {
			add(st)
		}
	}); ierr != nil {
		return nil, ierr
	}
	if err != nil {
		return nil, err
	}
	clock := map[int]bool{} // the clock's variable
	if s.sys.Clock >= 0 {
		for _, t := range s.p.Procs[s.sys.Clock].Trans {
			markWrites(t.Op, clock)
		}
	}
	var d model.Decoded
	for id := 0; id < g.keys.Len(); id++ {
		if id%1024 == 0 && ctx.Err() != nil {
			return nil, fmt.Errorf("the search ran out of the %w", context.Cause(ctx))
		}
		st, _ := p.DecodeKeyInto(g.keys.Key(id), &d)
		var move, ended, blocked uint64
		stop := false
		if bi := p.MatchBad(st); bi >= 0 {
			switch p.Bad[bi].Name {
			case extract.DeadlockName, extract.LeakName:
				g.existing = true
				return g, nil
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
				p.ProcSuccessors(st, q, model.SC, 0, func(step model.Step, next model.State) {
					if err != nil || stop {
						return
					}
					moved = true
					if next.Fault != nil {
						stop = true
						return
					}
					to := add(next)
					if err == nil {
						label := uint8(q)
						if s.takesGuess(q, step.Trans) {
							label |= guessStep
						}
						if len(clock) > 0 && readsAnyOf(p.Procs[q].Trans[step.Trans].Op, clock) {
							label |= clockStep
						}
						g.succ, g.label = append(g.succ, to), append(g.label, label)
					}
				})
				if err != nil {
					return nil, err
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
			g.succ, g.label = g.succ[:g.first[id]], g.label[:g.first[id]]
			move, ended, blocked = all, all, 0
		}
		g.first = append(g.first, int32(len(g.succ)))
		g.move = append(g.move, move)
		g.ended = append(g.ended, ended)
		g.blocked = append(g.blocked, blocked)
	}
	return g, nil
}

// takesGuess reports whether transition t of process q takes an answer
// the model does not compute.
func (s *system) takesGuess(q, t int) bool {
	return q < len(s.sys.Origins) && t >= 0 && t < len(s.sys.Origins[q]) && s.sys.Origins[q][t].Guess != nil
}

// preds returns the predecessors of each state of g: those of state i
// are pred[first[i]:first[i+1]].
func (g *foreverGraph) preds() (first, pred []int32) {
	n := len(g.move)
	first = make([]int32, n+1)
	for _, t := range g.succ {
		first[t+1]++
	}
	for i := range n {
		first[i+1] += first[i]
	}
	pred = make([]int32, len(g.succ))
	fill := slices.Clone(first[:n])
	for from := range n {
		for _, to := range g.succ[g.first[from]:g.first[from+1]] {
			pred[fill[to]] = int32(from)
			fill[to]++
		}
	}
	return first, pred
}

// fixpoint computes, by a worklist over the predecessors, the least
// fixpoint of the per-state masks m (updated in place, starting from
// their values) under update, which returns the new mask of a state from
// those of its successors.
func (g *foreverGraph) fixpoint(m []uint64, update func(id int) uint64) {
	n := len(g.move)
	predFirst, pred := g.preds()
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
			if v := update(int(f)) | m[f]; v != m[f] {
				m[f] = v
				if !queued[f] {
					work, queued[f] = append(work, f), true
				}
			}
		}
	}
}

// reach returns, per state, the processes that take a step (canMove) and
// those that end (canEnd) on some run from it.
func (g *foreverGraph) reach() (canMove, canEnd []uint64) {
	canMove, canEnd = slices.Clone(g.move), slices.Clone(g.ended)
	orSucc := func(m []uint64) func(int) uint64 {
		return func(id int) uint64 {
			var v uint64
			for _, t := range g.succ[g.first[id]:g.first[id+1]] {
				v |= m[t]
			}
			return v
		}
	}
	g.fixpoint(canMove, orSucc(canMove))
	g.fixpoint(canEnd, orSucc(canEnd))
	return canMove, canEnd
}

// surelyMove returns, per state, the processes that take a step on some
// run from it whatever the answers the model does not compute are: the
// scheduler picks the process to step, any answer may come of a guess. A
// process whose step is a guess moves the state to all of its answers'
// successors at once, so a process moves surely through it only when it
// does through each.
func (g *foreverGraph) surelyMove() []uint64 {
	sure := slices.Clone(g.move)
	g.fixpoint(sure, func(id int) uint64 {
		var v uint64
		lo, hi := g.first[id], g.first[id+1]
		for i := lo; i < hi; {
			// The steps of one process are next to each other.
			q := g.label[i] & procBits
			j, guess := i, false
			for j < hi && g.label[j]&procBits == q {
				guess = guess || g.label[j]&guessStep != 0
				j++
			}
			if guess {
				all := ^uint64(0)
				for _, t := range g.succ[i:j] {
					all &= sure[t]
				}
				v |= all
			} else {
				for _, t := range g.succ[i:j] {
					v |= sure[t]
				}
			}
			i = j
		}
		return v
	})
	return sure
}

// stuckName names the blocking bug of a state in which the processes
// stuck wait for good, given those that have ended: a deadlock when main
// is stuck, a leak when main has ended and another is; "" otherwise.
func stuckName(main int, stuck, ended uint64) string {
	switch mainBit := uint64(1) << main; {
	case stuck&mainBit != 0:
		return extract.DeadlockName
	case ended&mainBit != 0 && stuck != 0:
		return extract.LeakName
	}
	return ""
}

// find returns the first state of g, in breadth-first order, of a
// blocking bug, made a bad state of the system's program that names only
// what the reduction red keeps. A goroutine that waits for good only as
// far as the model's clock can tell (a run from its state reads the
// clock, whose ticks are bounded) is no bug found.
func (g *foreverGraph) find(s *system, red *coi.Reduction) (*foreverBug, bool) {
	p := red.Prog
	all := allProcs(len(p.Procs))
	canMove, canEnd := g.reach()
	timed := g.timed()
	mainProc := s.sys.Main
	for id := range len(g.move) {
		stuck := g.blocked[id] &^ canMove[id]
		name := stuckName(mainProc, stuck, g.ended[id])
		if name == "" || timed[id] {
			continue
		}
		// Show it where the goroutines that will wait for good or end
		// have done so: the others run on for ever.
		id, stuck = g.settle(id, canMove)
		runs := all &^ canEnd[id] &^ stuck &^ g.ended[id]
		var d model.Decoded
		st, _ := p.DecodeKeyInto(g.keys.Key(id), &d)
		bad := exactState(p, st, name, red.Keeps)
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

// timed returns, per state, whether a run from it reads the clock.
func (g *foreverGraph) timed() []bool {
	reads := make([]uint64, len(g.move))
	for id := range reads {
		for _, l := range g.label[g.first[id]:g.first[id+1]] {
			if l&clockStep != 0 {
				reads[id] = 1
			}
		}
	}
	g.fixpoint(reads, func(id int) uint64 {
		var v uint64
		for _, t := range g.succ[g.first[id]:g.first[id+1]] {
			v |= reads[t]
		}
		return v
	})
	timed := make([]bool, len(reads))
	for id, r := range reads {
		timed[id] = r != 0
	}
	return timed
}

// doubt says, of the first state of g in breadth-first order where a
// goroutine waits for good unless time passes further than the model's
// clock lets it, or unless an answer the model does not compute comes out
// as it may in Go, which goroutine and why: a blocking bug fencecheck can
// neither report nor rule out. It is called when g has no blocking bug.
func (g *foreverGraph) doubt(s *system) (string, bool) {
	canMove, _ := g.reach()
	timed := g.timed()
	var sure []uint64
	for _, l := range g.label {
		if l&guessStep != 0 {
			sure = g.surelyMove()
			break
		}
	}
	at := func(id int, stuck uint64) (int, blocked) {
		q := s.sys.Main
		if stuck&(1<<q) == 0 {
			q = bits.TrailingZeros64(stuck)
		}
		var d model.Decoded
		st, _ := s.p.DecodeKeyInto(g.keys.Key(id), &d)
		return q, s.describeBlocked(q, nil, st)
	}
	for id := range len(g.move) {
		if stuck := g.blocked[id] &^ canMove[id]; timed[id] && stuckName(s.sys.Main, stuck, g.ended[id]) != "" {
			q, b := at(id, stuck)
			return fmt.Sprintf("%s may wait for ever in %s (%s): whether it does depends on how much time passes, and the model's clock ticks only a few times",
				s.p.Procs[q].Name, b.what, s.r.short(b.pos)), true
		}
		if sure == nil {
			continue
		}
		if stuck := g.blocked[id] &^ sure[id]; stuckName(s.sys.Main, stuck, g.ended[id]) != "" {
			guess := g.firstGuess(s, id)
			if guess == nil {
				continue
			}
			q, b := at(id, stuck)
			of := ", which fencecheck does not compute"
			if !strings.Contains(guess.Of, "does not compute") {
				of = ": fencecheck does not compute " + guess.Of
			}
			return fmt.Sprintf("%s may wait for ever in %s (%s): whether it does depends on %s (%s, in %s)%s",
				s.p.Procs[q].Name, b.what, s.r.short(b.pos), s.exprAt(guess.Pos, guess.Kind), s.r.short(guess.Pos), s.p.Procs[guess.Proc].Name, of), true
		}
	}
	return "", false
}

// firstGuess returns the guess of the first step that takes one on the
// runs from state from, in breadth-first order.
func (g *foreverGraph) firstGuess(s *system, from int) *extract.Guess {
	seen := make([]bool, len(g.move))
	seen[from] = true
	queue := []int32{int32(from)}
	for len(queue) > 0 {
		id := queue[0]
		queue = queue[1:]
		for i := g.first[id]; i < g.first[id+1]; i++ {
			if g.label[i]&guessStep != 0 {
				var d model.Decoded
				st, _ := s.p.DecodeKeyInto(g.keys.Key(int(id)), &d)
				q := int(g.label[i] & procBits)
				for _, t := range s.p.Procs[q].Out(st.Locs[q]) {
					if gs := s.sys.Origins[q][t].Guess; gs != nil {
						return gs
					}
				}
			}
			if to := g.succ[i]; !seen[to] {
				seen[to] = true
				queue = append(queue, to)
			}
		}
	}
	return nil
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
// every process at its location, every variable and register that keeps
// says decides the moves at its value.
func exactState(p *model.Program, st model.State, name string, keeps func(facts.Cell) bool) model.BadState {
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
			if keeps(facts.Cell{Proc: q, Index: r}) {
				and(model.RegRef{Proc: q, Reg: r}, v)
			}
		}
	}
	for x, v := range st.Mem {
		if keeps(facts.Cell{Proc: -1, Index: x}) {
			and(model.VarRef{Var: x}, v)
		}
	}
	return model.BadState{Name: name, Locs: locs, Cond: cond}
}
