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
// stand. Past it, System.BlockingUnchecked is set.
const MaxBlockedStates = 4096

// addBlockedStates adds the bad states of blocking bugs to the program.
// stops[q] holds the locations of process q where it stops for good without
// ending normally (a panic, already a bad state; os.Exit, which ends the
// program). It returns false when there are too many to add.
func (s *system) addBlockedStates(stops []map[int]bool) bool {
	prog := s.prog
	type place struct {
		loc   int
		cond  model.Expr // when the process stays there; nil: always (it has ended)
		waits bool       // the process waits there (rather than has ended or not started)
		// running: the process runs on, anywhere (a janitor ticking for
		// ever): left out of the bad state's locations.
		running bool
	}
	places := make([][]place, len(prog.Procs))
	total, waits := 1, false
	// A process with a loop may also run on while the others wait (a
	// janitor ticking for ever): it stands anywhere, and a wait that it
	// could end, by writing a variable the wait's condition reads, is no
	// blocking bug; one it cannot end is one, whether it runs for ever or
	// stops later.
	written := map[int]bool{}
	writes := make([]map[int]bool, len(prog.Procs))
	for q, pr := range prog.Procs {
		writes[q] = map[int]bool{}
		for _, t := range pr.Trans {
			visitOp(t.Op, func(op model.Op) { markWrites(op, writes[q]) })
		}
		maps.Copy(written, writes[q])
	}
	initial := make([]int64, len(prog.Vars))
	for i, v := range prog.Vars {
		initial[i] = v.Init.Value
	}
	for q, pr := range prog.Procs {
		for l := range pr.Locs {
			if c, ok := prog.Blocked(q, l); ok {
				if neverHolds(c, written, initial) {
					// It waits only on variables nothing writes, whose
					// initial values let it go (a ticker nothing stops).
					continue
				}
				// A goroutine whose go statement has not run has not
				// started: it stays, without waiting for anything of the
				// program's.
				unstarted := l == pr.Init && s.procs[q].spawnWait
				if unstarted {
					s.unstarted = append(s.unstarted, model.ProcLoc{Proc: q, Loc: l})
				}
				places[q] = append(places[q], place{loc: l, cond: model.Qualify(c, q), waits: !unstarted})
				waits = waits || !unstarted
			} else if len(pr.Out(l)) == 0 && !stops[q][l] {
				places[q] = append(places[q], place{loc: l})
			}
		}
		if cyclic, _ := pr.Cycles(); slices.Contains(cyclic, true) && len(s.procs[q].refusals) == 0 && len(s.procs[q].limits) == 0 {
			// Not one that may reach a run-time refusal or leave a bound
			// fencecheck keeps (its runs go on where the model's stop).
			places[q] = append(places[q], place{loc: -1, running: true})
		}
		if len(places[q]) == 0 {
			return true // q only stops at a panic or an exit: no state is a blocking bug
		}
		total *= len(places[q])
		if total > MaxBlockedStates {
			s.blockingUnchecked = true
			return false
		}
	}
	if !waits {
		return true
	}
	main := len(prog.Procs) - 1
	for q, pr := range prog.Procs {
		if pr.Name == "main" && q < len(s.procs) && s.procs[q].q == pr {
			main = q
		}
	}
	choice := make([]int, len(prog.Procs))
	for {
		var cond model.Expr
		locs := make([]model.ProcLoc, len(prog.Procs))
		var pos model.Pos
		someWait := false
		// What the running processes write, and, in turn, what a process
		// they may wake or start writes: a wait on any of it may end.
		running, live := map[int]bool{}, false
		for q, k := range choice {
			if places[q][k].running {
				maps.Copy(running, writes[q])
			}
		}
		for woken := map[int]bool{}; len(running) > 0; {
			grew := false
			for q, k := range choice {
				if pl := places[q][k]; pl.cond != nil && !woken[q] && readsAny(pl.cond, running) {
					woken[q], grew, live = true, true, true
					maps.Copy(running, writes[q])
				}
			}
			if !grew {
				break
			}
		}
		for q, k := range choice {
			pl := places[q][k]
			locs[q] = model.ProcLoc{Proc: q, Loc: pl.loc}
			if pl.waits && !someWait {
				someWait, pos = true, s.blockPos(q, pl.loc)
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
		if someWait && !live {
			locs = slices.DeleteFunc(locs, func(pl model.ProcLoc) bool { return pl.Loc < 0 })
			name := LeakName
			if places[main][choice[main]].waits {
				name = DeadlockName
				pos = s.blockPos(main, places[main][choice[main]].loc)
			}
			prog.Bad = append(prog.Bad, model.BadState{Name: name, Locs: locs, Cond: cond, Pos: pos})
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
			return true
		}
	}
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
