// Package race decides whether a program has a data race under the Go memory
// model (docs/design.md §2): two accesses to one shared variable by different
// processes, at least one a write and at least one plain, that no
// happens-before edge orders, in some SC execution of the program.
//
// Happens-before is program order plus the synchronisation of the
// synchronising operations: the accesses of a [model.Locked] operation and
// the Reads marked [model.Op.Atomic]. As in the Go memory model (atomics are
// sequentially consistent), an atomic operation that observes the value an
// atomic write stored is synchronised after that write: an atomic load, a
// locked operation that reads the variable into a register, guards on it or
// computes with it (Add, Swap, CompareAndSwap, Mutex.Lock, WaitGroup.Wait),
// but not a locked store that discards the old value (atomic.Store). Plain
// accesses order nothing, whatever values they carry: after a plain flag
// publishes plain data, both the flag and the data race, as Go's race
// detector reports.
//
// The question is asked of any [engines.Engine] through the one question
// every engine answers. The package instruments the program with
// happens-before knowledge, as a race detector's vector clocks would but in
// finitely many bits: for every process Q and every access site c of
// another process, a bit says that an access of c has run that does not
// happen before Q's current point; every synchronising variable carries the
// bits of its last releaser. Each access becomes a locked operation that
// also updates the bits (which changes nothing under SC), and the bad
// states are "process Q is about to perform an access that conflicts with
// site c while Q's bit for c is set". The instrumented program is checked
// under SC. An exact engine (explicit for finite programs, sb) decides the
// race question exactly; an over-approximating one (pred) reports a race only
// with a concrete SC trace. Every trace is replayed on the instrumented
// program and then executed step by step on the original one before it is
// returned.
//
// Without data races a program behaves under x86-TSO as under SC (the
// locked operations drain the store buffer, and no plain store can be
// observed while it is buffered), so for a race-free program SC reachability
// is the whole question.
package race

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/facts"
)

// An Access is a transition of a process that reads or writes a shared variable.
type Access struct {
	Proc, Trans int
}

// A Pair is two conflicting accesses to variable Var by different processes:
// A, which its process is about to perform, and B, which has run (or is
// about to run) with nothing ordering it before A.
type Pair struct {
	A, B Access
	Var  int
}

// A Race is a pair of accesses with no happens-before edge between them;
// Trace, an SC trace of the program, ends in a state from which A's process
// is about to perform A while B has run unordered before it (or is about to
// run too). It ends in no bad state of the program: replay it with
// [model.Program.Execute].
type Race struct {
	Pair
	Trace *model.Trace
}

// Options refine a check.
type Options struct {
	// Key names an access for the user (a source position, say). Accesses
	// of one process to one variable with the same key are one access site;
	// once a race between sites with keys a and b is found, no other race
	// between those keys is looked for. Nil keys every transition apart.
	Key func(Access) string
	// Enumerate is the engine of the second phase of Check (nil: the
	// engine of the first): give it a smaller budget, since the
	// instrumented program has many more states and the first phase has
	// already decided whether the program races.
	Enumerate engines.Engine
	// Reach asks the first phase's searches of the program (when eng does
	// not enumerate the questions itself) to look for the program's own
	// bad states beside the races, so that a race-free answer also says
	// whether a bad state is reachable under SC (Result.Reach) and the SC
	// search of the program need not run again.
	Reach bool
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
	// Incomplete, when set, says why the second phase (every pair no
	// happens-before edge orders) stopped: Races then holds the pairs both
	// enabled in one state, and other pairs may race too.
	Incomplete string
	// Faults is set when the answer is Inconclusive because the program
	// reaches a fault (a value outside a domain, a division by zero) under SC
	// before every pair is decided: the program is wrong under SC.
	Faults bool
	// Checks counts the engine runs; States sums their explored states.
	Checks int
	States int64
	// Duration is the time the check took.
	Duration time.Duration
	// Reach, when Options.Reach is set, answers whether the program
	// reaches one of its bad states under SC, as eng.Check would: Unsafe
	// with an SC trace of the program (replayed), or Safe (within its
	// Bound) when a search of the first phase that looked for those
	// states too ended without one. It is nil when no search decided it (a
	// budget ran out, the program faults, the phase found every pair
	// before, or it left the rest to the second phase: see adjacent).
	Reach *engines.Result
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
			// Expressions in a locked body may read memory directly.
			model.WalkExpr(b.Expr, func(e model.Expr) {
				if v, ok := e.(model.VarRef); ok {
					add(v.Var, false)
				}
			})
		}
	}
	return a
}

// conflicts reports whether two accesses to one variable conflict in the Go
// memory model's sense: at least one writes and at least one is plain.
func conflicts(w1, p1, w2, p2 bool) bool { return (w1 || w2) && (p1 || p2) }

// writes reports whether op writes variable x.
func writes(op model.Op, x int) bool {
	d := describe(op)
	for i, v := range d.vars {
		if v == x && d.write[i] {
			return true
		}
	}
	return false
}

// A site is the accesses of one process to one variable with one key.
type site struct {
	proc, x      int
	key          string
	write, plain bool
	first        int   // a transition of the site
	writer       int   // a transition of the site that writes, or -1
	trans        []int // the transitions of the site
}

// instrumented is a program with happens-before bits.
type instrumented struct {
	orig, prog *model.Program
	sites      []site
	// bit[q][c] is the variable "an access of site c not ordered before
	// process q's current point has run", or -1 when no access of q
	// conflicts with c.
	bit [][]int
	// snap[s][c] is the variable holding bit c of the last releaser of
	// synchronising variable s, or -1.
	snap [][]int
	// checks lists the bad states: process q about to perform the
	// accesses trans (from one location) that conflict with site c.
	checks []check
}

type check struct {
	q, loc, c int
	trans     []int
}

// instrument builds the happens-before instrumentation of p.
func instrument(p *model.Program, key func(Access) string) *instrumented {
	in := &instrumented{orig: p}
	siteOf := map[string]int{}
	transSites := make([][][]int, len(p.Procs)) // per process, per transition: its sites
	plainVar := make([]bool, len(p.Vars))
	syncVar := make([]bool, len(p.Vars))
	for qi, q := range p.Procs {
		transSites[qi] = make([][]int, len(q.Trans))
		for ti, t := range q.Trans {
			d := describe(t.Op)
			for i, x := range d.vars {
				if d.plain {
					plainVar[x] = true
				} else {
					syncVar[x] = true
				}
				// Reads and writes are sites of their own: a read that
				// has run does not make a later read of another process
				// race with the writes named alike (an append that may
				// write a cell in place or only read it to copy it).
				k := fmt.Sprintf("%d\x00%d\x00%s\x00%t", qi, x, key(Access{qi, ti}), d.write[i])
				ci, ok := siteOf[k]
				if !ok {
					ci = len(in.sites)
					siteOf[k] = ci
					in.sites = append(in.sites, site{proc: qi, x: x, key: key(Access{qi, ti}), first: ti, writer: -1})
				}
				if d.write[i] && in.sites[ci].writer < 0 {
					in.sites[ci].writer = ti
				}
				if !slices.Contains(in.sites[ci].trans, ti) {
					in.sites[ci].trans = append(in.sites[ci].trans, ti)
				}
				in.sites[ci].write = in.sites[ci].write || d.write[i]
				in.sites[ci].plain = in.sites[ci].plain || d.plain
				transSites[qi][ti] = append(transSites[qi][ti], ci)
			}
		}
	}
	q := p.Clone()
	newVar := func(name string, init int64) int {
		q.Vars = append(q.Vars, model.Var{Name: name, Dom: model.Range(0, 1), Init: model.Init{Value: init}})
		return len(q.Vars) - 1
	}
	// Bits: one per observer and site of another process on a variable
	// with plain accesses. An observer with no access to the variable still
	// needs its bits: it passes what it learned on, through the variables it
	// releases, to processes that do access it.
	in.bit = make([][]int, len(p.Procs))
	for qi := range p.Procs {
		in.bit[qi] = make([]int, len(in.sites))
		for ci, c := range in.sites {
			in.bit[qi][ci] = -1
			if c.proc != qi && plainVar[c.x] {
				in.bit[qi][ci] = newVar(fmt.Sprintf("hb(%s,%s@%d)", p.Procs[qi].Name, p.Vars[c.x].Name, ci), 0)
			}
		}
	}
	in.snap = make([][]int, len(p.Vars))
	for x := range p.Vars {
		if !syncVar[x] {
			continue
		}
		in.snap[x] = make([]int, len(in.sites))
		for ci := range in.sites {
			in.snap[x][ci] = -1
			for qi := range p.Procs {
				if in.bit[qi][ci] >= 0 {
					// Before any release, acquiring s teaches nothing.
					in.snap[x][ci] = newVar(fmt.Sprintf("hb(%s,%s@%d)", p.Vars[x].Name, p.Vars[in.sites[ci].x].Name, ci), 1)
					break
				}
			}
		}
	}
	// Rewrite every access.
	for qi, pq := range q.Procs {
		for ti := range pq.Trans {
			t := &pq.Trans[ti]
			if len(transSites[qi][ti]) == 0 {
				continue
			}
			t.Op = in.rewrite(qi, t.Op, transSites[qi][ti])
		}
	}
	// Bad states.
	q.Bad = nil
	for qi, pq := range p.Procs {
		byLoc := map[[2]int]int{}
		for ti, t := range pq.Trans {
			d := describe(t.Op)
			for i, x := range d.vars {
				for ci, c := range in.sites {
					if c.x != x || in.bit[qi][ci] < 0 || !conflicts(d.write[i], d.plain, c.write, c.plain) {
						continue
					}
					k := [2]int{t.From, ci}
					ki, ok := byLoc[k]
					if !ok {
						ki = len(in.checks)
						byLoc[k] = ki
						in.checks = append(in.checks, check{q: qi, loc: t.From, c: ci})
					}
					if !slices.Contains(in.checks[ki].trans, ti) {
						in.checks[ki].trans = append(in.checks[ki].trans, ti)
					}
				}
			}
		}
	}
	in.prog = q
	return in
}

// rewrite returns op of process qi, which belongs to sites, as a locked
// operation that also keeps the happens-before bits.
func (in *instrumented) rewrite(qi int, op model.Op, sites []int) model.Op {
	var body []model.Op
	var acquire, release []int
	switch op.Kind {
	case model.Read:
		o := op
		o.Atomic = false
		body = append(body, o)
		if op.Atomic {
			acquire = append(acquire, op.Var)
		}
	case model.Write:
		body = append(body, op)
	case model.Locked:
		body = append(body, op.Body...)
		acquire = facts.Acquires(op)
		release = facts.Releases(op)
	default:
		return op
	}
	var pre, post []model.Op
	// Acquire: forget what the last releaser of s knew to be ordered.
	for _, x := range acquire {
		for ci, b := range in.bit[qi] {
			if b >= 0 && in.snap[x] != nil && in.snap[x][ci] >= 0 {
				pre = append(pre, model.WriteOp(b, model.Bin(model.OpAnd, model.V(b), model.V(in.snap[x][ci]))))
			}
		}
	}
	// The access itself: unordered for every other process, and for every
	// release so far (a snapshot taken before it does not order it).
	for _, ci := range sites {
		for oq := range in.bit {
			if b := in.bit[oq][ci]; b >= 0 {
				post = append(post, model.WriteOp(b, model.C(1)))
			}
		}
		for _, sn := range in.snap {
			if sn != nil && sn[ci] >= 0 {
				post = append(post, model.WriteOp(sn[ci], model.C(1)))
			}
		}
	}
	// Release: the variable carries this process's knowledge; a plain
	// store to a synchronising variable carries none.
	if op.Kind == model.Write && in.snap[op.Var] != nil {
		for _, sv := range in.snap[op.Var] {
			if sv >= 0 {
				post = append(post, model.WriteOp(sv, model.C(1)))
			}
		}
	}
	for _, x := range release {
		if in.snap[x] == nil {
			continue
		}
		for ci, sv := range in.snap[x] {
			if sv < 0 {
				continue
			}
			if in.sites[ci].proc == qi {
				post = append(post, model.WriteOp(sv, model.C(0)))
			} else if b := in.bit[qi][ci]; b >= 0 {
				post = append(post, model.WriteOp(sv, model.V(b)))
			} else {
				post = append(post, model.WriteOp(sv, model.C(1)))
			}
		}
	}
	if len(pre) == 0 && len(post) == 0 {
		return op
	}
	// Acquires read the snapshots before the access's own body; a locked
	// body may guard, so the bits are written after it.
	all := append(append(pre, body...), post...)
	return model.LockedOp(all...)
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

// adjacent finds the races among open whose two accesses are both enabled
// in a reachable SC state, into res: the first phase of [Check]. By Boehm
// and Adve's theorem a program has a happens-before race iff it has such
// a pair, so a Safe answer here proves the program race-free.
//
// With reach, the searches look for p's bad states too, until one is
// found, and res.Reach answers the SC reachability of p (see Result.Reach).
//
// With early, it returns after a search that finds a race when every pair
// still open is of accesses that run whenever their processes are at them
// (no required value, no guard: see [unconditional]), with those pairs:
// the second phase, which a racy program gets, finds every such pair that
// meets (the access run first is ordered before the other by no
// happens-before edge), and the last search of this phase, which must
// visit every state to show the rest never meet, is spared, with its
// search for p's bad states (res.Reach stays nil unless a search found
// one before). A pair with a blocking read, or a compare-and-swap's
// success, can meet where neither runs (both wait), which the second
// phase does not see: this phase decides such pairs.
func adjacent(ctx context.Context, eng engines.Engine, p *model.Program, key func(Access) string, open []Pair, reach, early bool, res *Result) ([]Pair, error) {
	pairKey := func(pr Pair) [2]string {
		ka, kb := key(pr.A), key(pr.B)
		if kb < ka {
			ka, kb = kb, ka
		}
		return [2]string{ka, kb}
	}
	found := map[[2]string]bool{}
	for _, r := range res.Races {
		found[pairKey(r.Pair)] = true
	}
	reach = reach && len(p.Bad) > 0
	for len(open) > 0 || reach {
		q, groups := Query(p, open)
		races := len(q.Bad)
		if reach {
			q.Bad = append(q.Bad, p.Bad...)
		}
		r, last, bi, err := ask(ctx, eng, q, "the program", "no conflicting accesses enabled", res)
		if err != nil {
			return nil, err
		}
		if r == nil {
			if reach && res.Status == engines.Safe {
				res.Reach = &engines.Result{Status: engines.Safe, Model: model.SC, Bound: res.Bound}
			}
			return nil, nil
		}
		if bi >= races {
			// One of p's own bad states: SC reachability is answered;
			// the races are searched for without them.
			if p.MatchBad(last) < 0 {
				return nil, fmt.Errorf("internal error: an SC trace to a bad state of the program ends in no bad state of it")
			}
			res.Reach = &engines.Result{Status: engines.Unsafe, Model: model.SC, Trace: r.Trace, Stats: r.Stats}
			reach = false
			continue
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
		if early && !slices.ContainsFunc(open, func(pr Pair) bool { return !pr.unconditional(p) }) {
			return open, nil
		}
	}
	return nil, nil
}

// unconditional reports whether both accesses of pr run whenever their
// processes are at them: neither requires a value (a blocking read, the
// success of a compare-and-swap) nor has a guard.
func (pr Pair) unconditional(p *model.Program) bool {
	runs := func(a Access) bool {
		op := p.Procs[a.Proc].Trans[a.Trans].Op
		switch op.Kind {
		case model.Read:
			return op.Expr == nil
		case model.Locked:
			for _, b := range op.Body {
				if b.Kind == model.Guard || b.Kind == model.Read && b.Expr != nil {
					return false
				}
			}
		}
		return true
	}
	return runs(pr.A) && runs(pr.B)
}

// ask checks q, a query program of a phase of [Check], with eng under SC
// and counts the check in res. When eng finds a bad state, it returns the
// engine's result, the last state of its trace replayed on q (named prog
// in internal errors) and the index of the bad state it matches (noMatch
// says what no match means). Otherwise it returns a nil result: the phase
// is over, with res set from the engine's answer (no race found, or a
// budget ran out) or from a fault on the way, which ends the check
// inconclusive.
func ask(ctx context.Context, eng engines.Engine, q *model.Program, prog, noMatch string, res *Result) (*engines.Result, model.State, int, error) {
	r, err := eng.Check(ctx, q, model.SC)
	res.Checks++
	if err != nil {
		return nil, model.State{}, -1, fmt.Errorf("race query: %w", err)
	}
	if r.Status != engines.Unsafe {
		return nil, model.State{}, -1, endOf(r, res)
	}
	res.States += r.Stats.States
	states, err := q.Replay(r.Trace)
	if err != nil {
		return nil, model.State{}, -1, fmt.Errorf("internal error: a race trace does not replay on %s: %w", prog, err)
	}
	last := states[len(states)-1]
	if last.Fault != nil {
		// The program goes wrong under SC before the race search ends;
		// the SC check of the program reports that.
		res.Status = engines.Inconclusive
		res.Faults = true
		res.Reason = fmt.Sprintf("the program faults under SC (%s) before every pair of accesses is decided", last.Fault.Msg)
		return nil, model.State{}, -1, nil
	}
	bi := q.MatchBad(last)
	if bi < 0 {
		return nil, model.State{}, -1, fmt.Errorf("internal error: a race trace ends in a state with %s", noMatch)
	}
	return r, last, bi, nil
}

// enabled reports whether both accesses of pr leave from the locations of s.
func enabled(p *model.Program, s model.State, pr Pair) bool {
	lp := pr.locs(p)
	return s.Locs[lp[0].Proc] == lp[0].Loc && s.Locs[lp[1].Proc] == lp[1].Loc
}

// Check finds the data races of p with eng under SC, in two phases. The
// first looks for pairs of conflicting accesses both enabled in one
// reachable state; none means the program is race-free (Boehm and Adve).
// A racy program then gets the second: happens-before knowledge bits (see
// the package documentation) find every pair that no happens-before edge
// orders, such as plain data published by a plain flag, which the first
// phase cannot see. The second phase runs on opt.Enumerate (eng when nil);
// when it runs out of budget, the first phase's races are the answer and
// Result.Incomplete says so. Pairs whose keys (see [Options.Key]) equal
// those of a race already found are not looked for again. Questions of the
// second phase whose two accesses are both made while their processes hold
// one spin lock (see lockset.go) are answered "ordered" without an engine.
// An engine that implements [Enumerator] answers both phases (when
// opt.Enumerate is nil or itself) on one enumeration of the program itself,
// or the second phase as opt.Enumerate, instead of the query programs and
// the instrumented one; such an engine leaves faulting steps out, so the
// answer does not stop at a fault. Each race's trace is replayed
// before it is returned.
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
	// An engine that answers the questions itself answers both phases on
	// one enumeration.
	var ss *session
	var in *instrumented
	var rest []Pair // the pairs the first phase left to the second
	var err error
	if en, ok := eng.(Enumerator); ok && (opt.Enumerate == nil || opt.Enumerate == eng) {
		in = instrument(p, key)
		if ss, err = newSession(en, p, in); err != nil {
			return nil, err
		}
		defer ss.en.Close()
		pairKey := func(pr Pair) [2]string {
			ka, kb := key(pr.A), key(pr.B)
			if kb < ka {
				ka, kb = kb, ka
			}
			return [2]string{ka, kb}
		}
		if err := ss.adjacent(ctx, p, pairKey, res); err != nil {
			return nil, err
		}
	} else if rest, err = adjacent(ctx, eng, p, key, meeting(p, Pairs(p), staticsOf(p)), opt.Reach, true, res); err != nil {
		return nil, err
	}
	if res.Status == engines.Inconclusive {
		return res, nil
	}
	// Boehm and Adve's theorem makes the first phase a proof of
	// race-freedom only when every way a process learns what another did
	// orders them; a read with NoSync (a channel's length, a select's test
	// that no case is ready) learns without ordering, so the second phase
	// must decide.
	unsynced := observesUnordered(p)
	if len(res.Races) == 0 && !unsynced {
		return res.finish(), nil
	}
	hbEng := opt.Enumerate
	if hbEng == nil {
		hbEng = eng
	}
	hb := &Result{Status: engines.Safe}
	if err := happensBefore(ctx, hbEng, p, key, hb, ss, in); err != nil {
		return nil, err
	}
	res.Checks += hb.Checks
	res.States += hb.States
	if hb.Status == engines.Inconclusive && len(rest) > 0 {
		// The first phase's pairs that the second left undecided: the
		// first phase's searches, on the program itself, decide them.
		if _, err := adjacent(ctx, eng, p, key, rest, false, false, res); err != nil {
			return nil, err
		}
		if res.Faults {
			return res, nil // as when the first phase had run to the end
		}
		if res.Status == engines.Inconclusive {
			// Neither phase decided every pair: the races found are the
			// answer, incomplete.
			hb.Reason += "; the first phase then stopped too: " + res.Reason
			res.Status, res.Reason = engines.Safe, ""
		}
	}
	if hb.Status == engines.Inconclusive {
		if len(res.Races) == 0 && len(hb.Races) == 0 {
			res.Status, res.Reason = engines.Inconclusive, hb.Reason
			return res, nil
		}
		res.Incomplete = hb.Reason
		if len(res.Races) == 0 {
			res.Races = hb.Races
		}
		return res.finish(), nil
	}
	seen := map[[2]string]bool{}
	pk := func(r Race) [2]string {
		a, b := key(r.A), key(r.B)
		if b < a {
			a, b = b, a
		}
		return [2]string{r.Pair.varKey(p) + a, b}
	}
	for _, r := range hb.Races {
		seen[pk(r)] = true
	}
	for _, r := range res.Races {
		if !seen[pk(r)] {
			hb.Races = append(hb.Races, r)
		}
	}
	res.Races = hb.Races
	return res.finish(), nil
}

// observesUnordered reports whether a locked operation of p reads memory
// in a step marked [model.Op.NoSync]: it learns what another process did
// without being ordered after it.
func observesUnordered(p *model.Program) bool {
	for _, q := range p.Procs {
		for _, t := range q.Trans {
			for _, b := range t.Op.Body {
				if !b.NoSync {
					continue
				}
				if b.Kind == model.Read && (b.Reg >= 0 || b.Expr != nil) || model.NamesMemory(b.Expr) {
					return true
				}
			}
		}
	}
	return false
}

// varKey names the pair's variable for deduplication.
func (p Pair) varKey(prog *model.Program) string { return prog.Vars[p.Var].Name + "\x00" }

// happensBefore finds, into res, for every access site and every site of
// another process it conflicts with, whether some SC execution reaches the
// access with an access of the other site run and not ordered before it, up
// to the pairs of keys already found: the second phase of [Check].
//
// ss, when set, is the session of both phases, and in its instrumentation.
func happensBefore(ctx context.Context, eng engines.Engine, p *model.Program, key func(Access) string, res *Result, ss *session, in *instrumented) error {
	if in == nil {
		in = instrument(p, key)
	}
	pairKey := func(q, t, c int) [2]string {
		ka, kb := key(Access{q, t}), in.sites[c].key
		if kb < ka {
			ka, kb = kb, ka
		}
		return [2]string{ka, kb}
	}
	found := map[[2]string]bool{}
	st := staticsOf(p)
	var open []check
	for _, ck := range in.checks {
		if !in.ordered(ck, st) {
			open = append(open, ck)
		}
	}
	if ss != nil {
		return in.enumerate(ctx, nil, ss, ss.open2, pairKey, found, res)
	}
	if en, ok := eng.(Enumerator); ok {
		return in.enumerate(ctx, en, nil, open, pairKey, found, res)
	}
	for len(open) > 0 {
		q := in.prog
		q.Bad = q.Bad[:0]
		for _, ck := range open {
			q.Bad = append(q.Bad, model.BadState{
				Name: "race on " + p.Vars[in.sites[ck.c].x].Name,
				Locs: []model.ProcLoc{{Proc: ck.q, Loc: ck.loc}},
				Cond: model.Bin(model.OpEq, model.V(in.bit[ck.q][ck.c]), model.C(1)),
				Pos:  p.Procs[ck.q].Trans[ck.trans[0]].Pos,
			})
		}
		r, _, bi, err := ask(ctx, eng, q, "the instrumented program", "no race", res)
		if r == nil || err != nil {
			return err
		}
		trace, err := in.original(r.Trace)
		if err != nil {
			return err
		}
		in.record(open[bi], trace, pairKey, found, res)
		var next []check
		for i, ck := range open {
			if i != bi && !in.done(ck, pairKey, found) {
				next = append(next, ck)
			}
		}
		open = next
	}
	return nil
}

// record adds the races that trace shows for question hit to res, up to
// the pairs of keys already found.
func (in *instrumented) record(hit check, trace *model.Trace, pairKey func(q, t, c int) [2]string, found map[[2]string]bool, res *Result) {
	p := in.orig
	for _, t := range hit.trans {
		if k := pairKey(hit.q, t, hit.c); !found[k] {
			found[k] = true
			c := in.sites[hit.c]
			// The site's access that conflicts with t: its write when t
			// only reads (the store of a statement x++ whose load comes
			// first).
			other := c.first
			if c.writer >= 0 && !writes(p.Procs[hit.q].Trans[t].Op, c.x) {
				other = c.writer
			}
			res.Races = append(res.Races, Race{
				Pair:  Pair{A: Access{hit.q, t}, B: Access{c.proc, other}, Var: c.x},
				Trace: trace,
			})
		}
	}
}

// done reports whether every pair of question ck has been found.
func (in *instrumented) done(ck check, pairKey func(q, t, c int) [2]string, found map[[2]string]bool) bool {
	for _, t := range ck.trans {
		if !found[pairKey(ck.q, t, ck.c)] {
			return false
		}
	}
	return true
}

// original returns the trace of the original program that takes the steps
// of t, an SC trace of the instrumented program, with the values the
// original program reads and writes.
func (in *instrumented) original(t *model.Trace) (*model.Trace, error) {
	p := in.orig
	out := &model.Trace{Model: model.SC, InitMem: slices.Clone(t.InitMem[:len(p.Vars)]), InitRegs: t.InitRegs}
	states, err := p.Execute(&model.Trace{Model: model.SC, InitMem: out.InitMem, InitRegs: out.InitRegs})
	if err != nil {
		return nil, fmt.Errorf("internal error: a race trace starts in no initial state of the program: %w", err)
	}
	s := states[0]
	for k, st := range t.Steps {
		step, ns, err := p.Exec(s, st.Proc, st.Trans, false, model.SC)
		if err != nil {
			return nil, fmt.Errorf("internal error: step %d of a race trace is not a step of the program: %w", k+1, err)
		}
		out.Steps = append(out.Steps, step)
		s = ns
	}
	if _, err := p.Execute(out); err != nil {
		return nil, fmt.Errorf("internal error: a race trace does not execute on the program: %w", err)
	}
	return out, nil
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
