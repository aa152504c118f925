// Package race decides whether a program has a data race under the Go memory
// model (DESIGN §2a): two accesses to one shared variable by different
// processes, at least one a write and at least one plain, both enabled in
// one reachable state of the program under sequential consistency.
//
// For SC executions this is the happens-before race of the Go memory model
// (Boehm and Adve, PLDI 2008: a program has a happens-before race iff some SC
// execution has two conflicting accesses next to each other). The accesses
// of a [model.Locked] operation and a Read marked [model.Op.Atomic] are the
// synchronising ones: two of them never race, but each races with a plain
// access of the other kind (a plain load against an atomic store, say).
//
// The question is asked of any [engines.Engine], through the one question
// every engine answers: the package builds a query program whose bad states
// are the pairs of locations from which two conflicting accesses leave, and
// checks it under SC. An exact engine (explicit for finite programs, sb)
// decides the race question exactly; an over-approximating one (pred) reports
// a race only with a concrete SC trace, which this package replays by
// [model.Program.Replay] and checks to end in a state where both accesses
// are enabled before it believes it. A race-free program behaves under
// x86-TSO as under SC (the locked operations drain the store buffer, and no
// plain store can be observed while it is buffered), so for a race-free
// program SC reachability is the whole question.
package race

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/model"
)

// An Access is a transition of a process that reads or writes a shared variable.
type Access struct {
	Proc, Trans int
}

// A Pair is two conflicting accesses: by different processes (A.Proc <
// B.Proc), to variable Var, at least one a write and at least one plain.
type Pair struct {
	A, B Access
	Var  int
}

// A Race is a conflicting pair whose two accesses are both enabled in a
// reachable SC state; Trace (an SC trace, replayed) reaches that state. It
// ends in no bad state of the program: replay it with
// [model.Program.Execute].
type Race struct {
	Pair
	Trace *model.Trace
}

// Options refine a check.
type Options struct {
	// Key names an access for the user (a source position, say). Once a race
	// between accesses with keys a and b is found, other pairs with the same
	// two keys are not searched for: they are the same race to the user.
	// Nil keys every transition apart.
	Key func(Access) string
}

// Result is the answer of [Check].
type Result struct {
	// Status is Unsafe when Races is not empty, Safe when the program is
	// race-free (within Bound, when set), Inconclusive when the engine ran
	// out of budget before deciding every pair (Races then holds what was
	// found).
	Status engines.Status
	Races  []Race
	// Bound qualifies a Safe answer, as in [engines.Result].
	Bound string
	// Reason says why the answer is Inconclusive.
	Reason string
	// Faults is set when the answer is Inconclusive because the program
	// reaches a fault (a value outside a domain, a division by zero) under SC
	// before every pair is decided: the program is wrong under SC.
	Faults bool
	// Checks counts the engine runs; States sums their explored states.
	Checks int
	States int64
	// Duration is the time the check took.
	Duration time.Duration
}

// access describes the shared-memory access of one transition.
type access struct {
	vars  []int // variables accessed
	write []bool
	plain bool
}

func describe(op model.Op) access {
	var a access
	add := func(x int, w bool) {
		for i, v := range a.vars {
			if v == x {
				a.write[i] = a.write[i] || w
				return
			}
		}
		a.vars = append(a.vars, x)
		a.write = append(a.write, w)
	}
	switch op.Kind {
	case model.Read:
		add(op.Var, false)
		a.plain = !op.Atomic
	case model.Write:
		add(op.Var, true)
		a.plain = true
	case model.Locked:
		for _, b := range op.Body {
			switch b.Kind {
			case model.Read:
				add(b.Var, false)
			case model.Write:
				add(b.Var, true)
			}
		}
	}
	return a
}

// Pairs returns every statically conflicting pair of accesses of p, in
// process and transition order.
func Pairs(p *model.Program) []Pair {
	type acc struct {
		a Access
		d access
	}
	var all []acc
	for qi, q := range p.Procs {
		for ti, t := range q.Trans {
			if d := describe(t.Op); len(d.vars) > 0 {
				all = append(all, acc{Access{qi, ti}, d})
			}
		}
	}
	var pairs []Pair
	for i, x := range all {
		for _, y := range all[i+1:] {
			if x.a.Proc == y.a.Proc || (!x.d.plain && !y.d.plain) {
				continue
			}
			for vi, v := range x.d.vars {
				for wi, w := range y.d.vars {
					if v == w && (x.d.write[vi] || y.d.write[wi]) {
						pairs = append(pairs, Pair{A: x.a, B: y.a, Var: v})
					}
				}
			}
		}
	}
	return pairs
}

// locPair is the pair of (process, location) from which a pair's accesses leave.
type locPair [2]model.ProcLoc

func (p Pair) locs(prog *model.Program) locPair {
	return locPair{
		{Proc: p.A.Proc, Loc: prog.Procs[p.A.Proc].Trans[p.A.Trans].From},
		{Proc: p.B.Proc, Loc: prog.Procs[p.B.Proc].Trans[p.B.Trans].From},
	}
}

// Query returns the program whose bad states are the location pairs of
// pairs (each once), with p's variables, processes and positions, and for
// each bad state of it the indices of the pairs it stands for. The original
// bad states are dropped: the query asks only whether two conflicting
// accesses can be enabled at once.
func Query(p *model.Program, pairs []Pair) (*model.Program, [][]int) {
	q := p.Clone()
	q.Bad = nil
	var groups [][]int
	index := map[locPair]int{}
	for i, pr := range pairs {
		lp := pr.locs(p)
		bi, ok := index[lp]
		if !ok {
			bi = len(q.Bad)
			index[lp] = bi
			q.Bad = append(q.Bad, model.BadState{
				Name: fmt.Sprintf("race on %s", p.Vars[pr.Var].Name),
				Locs: []model.ProcLoc{lp[0], lp[1]},
				Pos:  p.Procs[pr.A.Proc].Trans[pr.A.Trans].Pos,
			})
			groups = append(groups, nil)
		}
		groups[bi] = append(groups[bi], i)
	}
	return q, groups
}

// Check finds the data races of p with eng under SC: every conflicting pair
// whose accesses are both enabled in a reachable SC state, up to the pairs
// that opt.Key makes equal to one already found. Each race's trace is
// replayed against p before it is returned.
func Check(ctx context.Context, eng engines.Engine, p *model.Program, opt Options) (*Result, error) {
	start := time.Now()
	res := &Result{Status: engines.Safe}
	defer func() { res.Duration = time.Since(start) }()
	key := func(a Access) string {
		if opt.Key != nil {
			return opt.Key(a)
		}
		return fmt.Sprintf("%d/%d", a.Proc, a.Trans)
	}
	pairKey := func(pr Pair) [2]string {
		ka, kb := key(pr.A), key(pr.B)
		if kb < ka {
			ka, kb = kb, ka
		}
		return [2]string{ka, kb}
	}
	open := Pairs(p)
	found := map[[2]string]bool{}
	for len(open) > 0 {
		q, groups := Query(p, open)
		r, err := eng.Check(ctx, q, model.SC)
		res.Checks++
		if err != nil {
			return nil, fmt.Errorf("race query: %w", err)
		}
		res.States += r.Stats.States
		switch r.Status {
		case engines.Safe:
			if r.Bound != "" {
				res.Bound = r.Bound
			}
			return res.finish(), nil
		case engines.Inconclusive:
			res.Status = engines.Inconclusive
			res.Reason = r.Reason
			return res, nil
		}
		states, err := q.Replay(r.Trace)
		if err != nil {
			return nil, fmt.Errorf("internal error: a race trace does not replay on the program: %w", err)
		}
		last := states[len(states)-1]
		if last.Fault != nil {
			// The program goes wrong under SC before the race search ends;
			// the SC check of the program reports that.
			res.Status = engines.Inconclusive
			res.Faults = true
			res.Reason = fmt.Sprintf("the program faults under SC (%s) before every pair of accesses is decided", last.Fault.Msg)
			return res, nil
		}
		bi := q.MatchBad(last)
		if bi < 0 {
			return nil, fmt.Errorf("internal error: a race trace ends in a state with no conflicting accesses enabled")
		}
		var next []Pair
		hit := map[int]bool{}
		for _, i := range groups[bi] {
			pr := open[i]
			if !enabled(p, last, pr) {
				return nil, fmt.Errorf("internal error: a race trace ends with %s not at both accesses", p.Vars[pr.Var].Name)
			}
			hit[i] = true
			if k := pairKey(pr); !found[k] {
				found[k] = true
				res.Races = append(res.Races, Race{Pair: pr, Trace: r.Trace})
			}
		}
		for i, pr := range open {
			if !hit[i] && !found[pairKey(pr)] {
				next = append(next, pr)
			}
		}
		open = next
	}
	return res.finish(), nil
}

// enabled reports whether both accesses of pr leave from the locations of s.
func enabled(p *model.Program, s model.State, pr Pair) bool {
	lp := pr.locs(p)
	return s.Locs[lp[0].Proc] == lp[0].Loc && s.Locs[lp[1].Proc] == lp[1].Loc
}

func (r *Result) finish() *Result {
	if len(r.Races) > 0 {
		r.Status = engines.Unsafe
		r.Bound = ""
	}
	slices.SortStableFunc(r.Races, func(a, b Race) int {
		if a.A.Proc != b.A.Proc {
			return a.A.Proc - b.A.Proc
		}
		return a.A.Trans - b.A.Trans
	})
	return r
}
