package extract

import (
	"maps"
	"slices"

	"github.com/fencecheck/fencecheck/model"
)

// Blocking bugs as bad states.
//
// A goroutine blocks in the model at a transition that is not enabled (a
// Lock of a held mutex, a WaitGroup's Wait, a Once's Do while another runs
// the function): model.Program.Blocked gives, for each location, the
// condition under which none of its transitions is enabled. A deadlock is a
// state, with every store buffer empty, in which each process has either
// ended or waits at such a location, and at least one waits. addBlockedStates
// describes every such state as bad states, one per choice of where each
// process stands: named DeadlockName when the system function's own process
// (main) waits too, since then nothing can ever move (Go's "all goroutines
// are asleep"), and LeakName when main has returned and left goroutines
// waiting forever (what goleak reports).

// DeadlockName and LeakName name the bad states of blocking bugs.
const (
	DeadlockName = "deadlock"
	LeakName     = "leak"
)

// MaxBlockedStates bounds the bad states of blocking bugs of one system:
// their number is the product, over the processes, of the places each may
// stand. Past it, System.Blocking describes them for a search instead.
const MaxBlockedStates = 4096

// blockingLimit is MaxBlockedStates, which tests lower to compare the
// search with the enumeration.
var blockingLimit = MaxBlockedStates

// A place is where a process may stand in a blocking bug.
type place struct {
	loc   int
	cond  model.Expr // when the process stays there; nil: always (it has ended)
	waits bool       // the process waits there (rather than has ended or not started)
	// running: the process runs on, anywhere (a janitor ticking for
	// ever): left out of the bad state's locations.
	running bool
	pos     model.Pos // the statement it waits at
}

// A BlockingSearch describes the blocking bugs of a system whose
// goroutines can wait at too many combinations of places for each to be a
// bad state of its program: a search of the program's states asks At of
// each, and a state it finds is made a bad state (AddTo) for the engines
// to report as they report the others.
type BlockingSearch struct {
	places [][]place
	// atLoc[q][l] is the place of process q at location l, -1 for none;
	// running[q] is its place running on, -1 for none.
	atLoc   [][]int
	running []int
	// writes[q] are the variables process q writes.
	writes []map[int]bool
	main   int
}

// addBlockedStates adds the bad states of blocking bugs to the program.
// stops[q] holds the locations of process q where it stops for good without
// ending normally (a panic, already a bad state; os.Exit, which ends the
// program; a construct refused at run time). When they are too many, it
// sets s.blocking instead.
func (s *system) addBlockedStates(stops []map[int]bool) {
	prog := s.prog
	b := &BlockingSearch{places: make([][]place, len(prog.Procs)), writes: make([]map[int]bool, len(prog.Procs))}
	places := b.places
	total, waits := 1, false
	// A process with a loop may also run on while the others wait (a
	// janitor ticking for ever): it stands anywhere, and a wait that it
	// could end, by writing a variable the wait's condition reads, is no
	// blocking bug; one it cannot end is one, whether it runs for ever or
	// stops later.
	written := map[int]bool{}
	for q, pr := range prog.Procs {
		b.writes[q] = map[int]bool{}
		for _, t := range pr.Trans {
			visitOp(t.Op, func(op model.Op) { markWrites(op, b.writes[q]) })
		}
		maps.Copy(written, b.writes[q])
	}
	initial := make([]int64, len(prog.Vars))
	for i, v := range prog.Vars {
		initial[i] = v.Init.Value
	}
	// A goroutine whose go statement has not run has not started: it
	// stays, without waiting for anything of the program's. Every one is
	// listed, also when no state is a blocking bug here (the search of
	// analyzer/forever.go counts them as ended).
	isUnstarted := func(q, l int, c model.Expr) bool {
		return l == prog.Procs[q].Init && s.procs[q].spawnWait && !neverHolds(c, written, initial)
	}
	for q, pr := range prog.Procs {
		if c, ok := prog.Blocked(q, pr.Init); ok && isUnstarted(q, pr.Init, c) {
			s.unstarted = append(s.unstarted, model.ProcLoc{Proc: q, Loc: pr.Init})
		}
	}
	for q, pr := range prog.Procs {
		for l := range pr.Locs {
			if c, ok := prog.Blocked(q, l); ok {
				if neverHolds(c, written, initial) {
					// It waits only on variables nothing writes, whose
					// initial values let it go (a ticker nothing stops).
					continue
				}
				unstarted := isUnstarted(q, l, c)
				places[q] = append(places[q], place{loc: l, cond: model.Qualify(c, q), waits: !unstarted, pos: s.blockPos(q, l)})
				waits = waits || !unstarted
			} else if len(pr.Out(l)) == 0 && !stops[q][l] {
				places[q] = append(places[q], place{loc: l, pos: s.blockPos(q, l)})
			}
		}
		if cyclic, _ := pr.Cycles(); slices.Contains(cyclic, true) && len(s.procs[q].refusals) == 0 && len(s.procs[q].limits) == 0 && len(s.procs[q].panics) == 0 {
			// Not one that may reach a run-time refusal or leave a bound
			// fencecheck keeps (its runs go on where the model's stop),
			// nor one that may panic: a loop whose way out is a panic
			// ends the program, and what waits beside it does not wait
			// for ever.
			places[q] = append(places[q], place{loc: -1, running: true})
		}
		if len(places[q]) == 0 {
			return // q only stops at a panic or an exit: no state is a blocking bug
		}
		total = min(total*len(places[q]), blockingLimit+1)
	}
	if !waits {
		return
	}
	b.main = s.mainIdx
	if total > blockingLimit {
		b.atLoc, b.running = make([][]int, len(prog.Procs)), make([]int, len(prog.Procs))
		for q, pr := range prog.Procs {
			b.atLoc[q] = slices.Repeat([]int{-1}, len(pr.Locs))
			b.running[q] = -1
			for k, pl := range places[q] {
				if pl.running {
					b.running[q] = k
				} else {
					b.atLoc[q][pl.loc] = k
				}
			}
		}
		s.blocking = b
		return
	}
	choice := make([]int, len(prog.Procs))
	for {
		if bad, ok := b.badState(choice); ok {
			prog.Bad = append(prog.Bad, bad)
		}
		q := 0
		for ; q < len(choice); q++ {
			choice[q]++
			if choice[q] < len(places[q]) {
				break
			}
			choice[q] = 0
		}
		if q == len(choice) {
			return
		}
	}
}

// badState returns the bad state of the processes standing at the places
// choice names, one per process, when it is a blocking bug: one process
// at least waits, and none that runs on can end a wait.
func (b *BlockingSearch) badState(choice []int) (model.BadState, bool) {
	places := b.places
	var cond model.Expr
	locs := make([]model.ProcLoc, len(places))
	var pos model.Pos
	someWait := false
	// What the running processes write: a wait on any of it may end (and
	// a goroutine not started yet may start), which is no blocking bug.
	running := map[int]bool{}
	for q, k := range choice {
		if places[q][k].running {
			maps.Copy(running, b.writes[q])
		}
	}
	for q, k := range choice {
		if pl := places[q][k]; pl.cond != nil && readsAny(pl.cond, running) {
			return model.BadState{}, false
		}
	}
	for q, k := range choice {
		pl := places[q][k]
		locs[q] = model.ProcLoc{Proc: q, Loc: pl.loc}
		if pl.waits && !someWait {
			someWait, pos = true, pl.pos
		}
		if pl.cond == nil {
			continue
		}
		if cond == nil {
			cond = pl.cond
		} else {
			cond = model.Bin(model.OpAnd, cond, pl.cond)
		}
	}
	if !someWait {
		return model.BadState{}, false
	}
	locs = slices.DeleteFunc(locs, func(pl model.ProcLoc) bool { return pl.Loc < 0 })
	name := LeakName
	if m := places[b.main][choice[b.main]]; m.waits {
		name, pos = DeadlockName, m.pos
	}
	return model.BadState{Name: name, Locs: locs, Cond: cond, Pos: pos}, true
}

// At returns the bad state of the blocking bug that state st of p is in,
// if it is in one: each process stands at one of its places (a wait whose
// condition holds, an end), or may run on, and the bad state is the one
// enumerating the places would have made for that choice.
func (b *BlockingSearch) At(p *model.Program, st model.State) (model.BadState, bool) {
	for _, buf := range st.Bufs {
		if len(buf) > 0 {
			return model.BadState{}, false
		}
	}
	// The search asks of every state: most have a process at no place,
	// found before anything is allocated.
	for q := range b.places {
		if b.choose(p, st, q) < 0 {
			return model.BadState{}, false
		}
	}
	choice := make([]int, len(b.places))
	for q := range b.places {
		choice[q] = b.choose(p, st, q)
	}
	return b.badState(choice)
}

// choose returns the place of process q in state st: the one at its
// location whose condition holds, else its running on, if it may; -1 when
// there is neither. Standing at a place is more of a blocking bug than
// running on: it adds a wait, and no writes that could end one.
func (b *BlockingSearch) choose(p *model.Program, st model.State, q int) int {
	if l := st.Locs[q]; l >= 0 && l < len(b.atLoc[q]) {
		if k := b.atLoc[q][l]; k >= 0 {
			pl := b.places[q][k]
			if pl.cond == nil {
				return k
			}
			if v, err := model.Eval(pl.cond, &model.Env{AllRegs: st.Regs, Mem: st.Mem, Ints: p.Ints}); err == nil && v != 0 {
				return k
			}
		}
	}
	return b.running[q]
}

// neverHolds reports whether the condition c of a wait reads only
// variables that no process writes, and is false on their initial values:
// the wait never happens.
func neverHolds(c model.Expr, written map[int]bool, initial []int64) bool {
	regs, other := false, false
	model.WalkExpr(c, func(x model.Expr) {
		switch x := x.(type) {
		case model.RegRef:
			regs = true
		case model.VarRef:
			if written[x.Var] {
				other = true
			}
		}
	})
	if regs || other {
		return false
	}
	v, err := model.Eval(c, &model.Env{Mem: initial})
	return err == nil && v == 0
}

// readsAny reports whether e reads one of the variables of w.
func readsAny(e model.Expr, w map[int]bool) bool {
	found := false
	if e == nil {
		return false
	}
	model.WalkExpr(e, func(x model.Expr) {
		if v, ok := x.(model.VarRef); ok && w[v.Var] {
			found = true
		}
	})
	return found
}

// blockPos is the position of the statement process q waits at, at
// location l: that of the first transition leaving it.
func (s *system) blockPos(q, l int) model.Pos {
	pr := s.prog.Procs[q]
	if out := pr.Out(l); len(out) > 0 {
		return pr.Trans[out[0]].Pos
	}
	return pr.Locs[l].Pos
}
