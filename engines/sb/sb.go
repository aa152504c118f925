package sb

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/explicit"
	"github.com/fencecheck/fencecheck/model"
)

// DefaultMaxConstraints is the constraint budget when Engine.MaxConstraints is 0.
const DefaultMaxConstraints = 5_000_000

// Engine is the exact TSO engine. The zero value is ready to use.
type Engine struct {
	// MaxConstraints ends the search as inconclusive; 0 means
	// DefaultMaxConstraints.
	MaxConstraints int64
	// Backward makes the backward SB search give every answer: the forward
	// abstraction runs once, only to prune the SB search, and the bounded
	// search does not run (for tests and measurements of the SB search).
	Backward bool
	// NoPrune turns the pruning of the SB search off.
	NoPrune bool
}

// Name returns "sb".
func (*Engine) Name() string { return "sb" }

// Check decides whether a bad state of p is reachable under m: exactly under
// TSO, and under SC by the explicit engine (complete for finite programs).
//
// Under TSO, unless BackwardOnly is set, three searches take turns with
// growing budgets: the explicit engine with store buffers bounded by k (a
// counterexample it finds is real), the forward abstraction with exact buffer
// suffixes of length k (a run that reaches no bad state proves the program
// safe; a complete run bounds the reachable local states), and the backward
// SB search, which resumes where it stopped and discards constraints outside
// those local states. Each answer is exact; the SB search ends every run.
func (e *Engine) Check(ctx context.Context, p *model.Program, m model.Model) (*engines.Result, error) {
	if m == model.SC {
		return (&explicit.Engine{MaxStates: e.MaxConstraints}).Check(ctx, p, m)
	}
	start := time.Now()
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("invalid program: %w", err)
	}
	if !p.Finite() {
		return nil, errors.New("the sb engine needs finite domains for every variable and register")
	}
	if len(p.Vars) > 64 || len(p.Procs) > 64 {
		return nil, errors.New("the sb engine handles at most 64 variables and 64 processes")
	}
	for _, q := range p.Procs {
		if len(q.Regs) > 64 {
			return nil, fmt.Errorf("the sb engine handles at most 64 registers per process (%s has %d)", q.Name, len(q.Regs))
		}
	}
	budget := e.MaxConstraints
	if budget <= 0 {
		budget = DefaultMaxConstraints
	}
	res, err := e.decide(ctx, p, budget)
	if err != nil {
		return nil, err
	}
	res.Model = model.TSO
	res.Stats.Duration = time.Since(start)
	if err := engines.Verify(p, res); err != nil {
		return nil, err
	}
	return res, nil
}

// The forward abstraction that prunes the SB search in Backward mode: its
// suffix length for programs with loops (loop-free ones get their longest
// run of writes, which makes the abstraction exact) and its state budget.
const (
	DefaultPruneSuffix = 2
	DefaultPruneStates = 1 << 20
)

// Budgets of the first round; every round multiplies them by four and
// doubles the buffer bound k of the bounded and abstract searches.
const (
	firstStates      = 1 << 11 // explicit and abstract states
	firstConstraints = 1 << 6  // SB constraints
)

func (e *Engine) decide(ctx context.Context, p *model.Program, max int64) (*engines.Result, error) {
	fp := withFaults(p)
	s := newSearch(fp.prog, p)
	res := &engines.Result{}
	var other int64 // states of the forward searches
	finish := func(found *cons, err error) (*engines.Result, error) {
		res.Stats.States = s.count + other
		switch {
		case errors.Is(err, errBudget):
			res.Status = engines.Inconclusive
			res.Reason = fmt.Sprintf("constraint budget of %d exhausted", max)
		case err != nil:
			res.Status = engines.Inconclusive
			res.Reason = fmt.Sprintf("time budget exhausted after %d constraints and %d states", s.count, other)
		case found == nil:
			res.Status = engines.Safe
		default:
			tr, err := concretize(ctx, p, fp, found)
			if err != nil {
				return nil, fmt.Errorf("sb engine: %w", err)
			}
			res.Status = engines.Unsafe
			res.Trace = tr
		}
		return res, nil
	}
	if e.Backward {
		if !e.NoPrune {
			k := DefaultPruneSuffix
			if n, acyclic := explicit.MaxWritesOnPath(p); acyclic {
				k = n
			}
			fw, err := runForward(ctx, p, k, DefaultPruneStates)
			if fw != nil {
				other += fw.states
			}
			switch {
			case err == nil:
				s.prune = fw
			case !errors.Is(err, errAbsBudget):
				return finish(nil, err)
			}
		}
		return finish(s.run(ctx, max))
	}
	states, cons := int64(firstStates), int64(firstConstraints)
	for k := 1; ; k *= 2 {
		ex, err := (&explicit.Engine{Bound: k, MaxStates: states}).Check(ctx, p, model.TSO)
		if err != nil {
			return nil, fmt.Errorf("sb engine, bounded search: %w", err)
		}
		other += ex.Stats.States
		switch {
		case ex.Status == engines.Unsafe:
			res.Status, res.Trace, res.Stats.States = engines.Unsafe, ex.Trace, s.count+other
			decidedBy("bounded")
			return res, nil
		case ex.Status == engines.Safe && ex.Bound == "":
			// The bound covers every path of a loop-free program: exact.
			res.Status, res.Stats.States = engines.Safe, s.count+other
			decidedBy("bounded")
			return res, nil
		}
		if err := ctx.Err(); err != nil {
			return finish(nil, err)
		}
		fw, err := runForward(ctx, p, k, states)
		if fw != nil {
			other += fw.states
		}
		switch {
		case err == nil && !fw.bad:
			res.Status, res.Stats.States = engines.Safe, s.count+other
			decidedBy("forward")
			return res, nil
		case err == nil && !e.NoPrune:
			s.prune = fw
		case !errors.Is(err, errAbsBudget):
			return finish(nil, err)
		}
		found, err := s.run(ctx, min(max, s.count+cons))
		if err == nil || !errors.Is(err, errBudget) || s.count >= max {
			if err == nil {
				decidedBy("backward")
			}
			return finish(found, err)
		}
		states *= 4
		cons *= 4
	}
}

var errBudget = errors.New("constraint budget exhausted")

// decidedBy is called with the search that gave the answer of a round
// ("bounded", "forward" or "backward"); tests replace it to count them.
var decidedBy = func(string) {}

type search struct {
	prog  *model.Program
	info  [][]opInfo
	nvars int

	visited map[string][]*cons // analysed constraints, by locations
	queue   []*cons
	head    int             // next queue entry to analyse
	started bool            // the targets are in the queue
	seen    map[string]bool // exact duplicates ever generated
	count   int64
	pruned  int64
	keyBuf  []byte

	// prune, when set, is a complete forward abstraction: a constraint whose
	// local state it does not reach denotes no reachable configuration and
	// is discarded. Locations from origLocs on (fault locations) are kept.
	prune    *forward
	origLocs []int
}

// newSearch prepares the search of p, the fault-augmented copy of orig.
func newSearch(p, orig *model.Program) *search {
	p.Index()
	s := &search{prog: p, nvars: len(p.Vars), visited: map[string][]*cons{}, seen: map[string]bool{}}
	for _, q := range orig.Procs {
		s.origLocs = append(s.origLocs, len(q.Locs))
	}
	s.info = make([][]opInfo, len(p.Procs))
	for i, q := range p.Procs {
		s.info[i] = make([]opInfo, len(q.Trans))
		for j, t := range q.Trans {
			s.info[i][j] = analyse(t.Op)
		}
	}
	return s
}

// run performs Algorithm 1; it returns a constraint that contains an initial
// configuration (with its provenance chain to a bad state), or nil.
//
// The search is resumable: after errBudget, run continues where it stopped.
func (s *search) run(ctx context.Context, max int64) (*cons, error) {
	if !s.started {
		s.started = true
		for _, c := range s.targets() {
			s.push(c)
		}
	}
	for ; s.head < len(s.queue); s.head++ {
		c := s.queue[s.head]
		if c.dead {
			s.queue[s.head] = nil
			continue
		}
		if s.isInitial(c) {
			return c, nil
		}
		if s.head&255 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		if s.count >= max {
			return nil, errBudget
		}
		s.queue[s.head] = nil
		emit := func(proc, trans int) func(*cons) {
			return func(d *cons) {
				normalize(d, len(s.prog.Procs), s.nvars, func(d *cons) {
					d.next, d.proc, d.trans, d.bad = c, proc, trans, c.bad
					switch {
					case trans < 0:
						d.mayFlush = c.mayFlush
					case s.needsPointer(proc, trans):
						d.mayFlush = 1 << uint(proc)
					default:
						d.mayFlush = 0
					}
					s.push(d)
				})
			}
		}
		for p, q := range s.prog.Procs {
			for _, ti := range incoming(q, c.locs[p]) {
				s.pre(c, p, ti, emit(p, ti))
			}
			if c.mayFlush&(1<<uint(p)) != 0 {
				s.preFlush(c, p, emit(p, -1))
			}
		}
	}
	return nil, nil
}

// needsPointer reports whether transition ti of process p depends on p's
// pointer: a read, a fence or a locked operation.
func (s *search) needsPointer(p, ti int) bool {
	switch s.prog.Procs[p].Trans[ti].Op.Kind {
	case model.Read, model.Fence, model.Locked:
		return true
	}
	return false
}

// incoming returns the transitions of q entering location l.
func incoming(q *model.Process, l int) []int {
	var in []int
	for i, t := range q.Trans {
		if t.To == l {
			in = append(in, i)
		}
	}
	return in
}

// push adds c to the work list unless an analysed or queued constraint
// subsumes it; it retires the ones c subsumes.
func (s *search) push(c *cons) {
	s.keyBuf = c.key(s.keyBuf[:0])
	if s.seen[string(s.keyBuf)] {
		return
	}
	s.seen[string(s.keyBuf)] = true
	if s.prune != nil && !s.mayReach(c) {
		s.pruned++
		return
	}
	lk := locKey(c.locs)
	list := s.visited[lk]
	for _, v := range list {
		if !v.dead && subsumes(v, c) {
			return
		}
	}
	kept := list[:0]
	for _, v := range list {
		if !v.dead && subsumes(c, v) {
			v.dead = true
		}
		if !v.dead {
			kept = append(kept, v)
		}
	}
	s.visited[lk] = append(kept, c)
	s.queue = append(s.queue, c)
	s.count++
}

// mayReach reports whether the forward abstraction reaches a local state of
// c; constraints at a fault location are always kept.
func (s *search) mayReach(c *cons) bool {
	for p, l := range c.locs {
		if l >= s.origLocs[p] {
			return true
		}
	}
	return s.prune.mayReach(c.locs, c.regs, c.rknown)
}

// isInitial reports whether c contains an initial SB configuration: one
// message, every process at its initial location, registers and memory
// compatible with the initial values.
func (s *search) isInitial(c *cons) bool {
	if len(c.msgs) != 1 {
		return false
	}
	for p, q := range s.prog.Procs {
		if c.locs[p] != q.Init {
			return false
		}
		for r, reg := range q.Regs {
			if c.regKnown(p, r) && !reg.Init.Any && c.regs[p][r] != reg.Init.Value {
				return false
			}
		}
	}
	m := &c.msgs[0]
	for x, v := range s.prog.Vars {
		if m.isKnown(x) && !v.Init.Any && m.mem[x] != v.Init.Value {
			return false
		}
	}
	return true
}

// targets returns the minimal constraints of the bad states: locations fixed,
// and, for a condition, every valuation of the registers and variables it
// names that satisfies it (with all store buffers empty when it names
// memory).
func (s *search) targets() []*cons {
	p := s.prog
	var out []*cons
	for bi, b := range p.Bad {
		base := s.emptyCons()
		base.bad = bi
		for _, pl := range b.Locs {
			base.locs[pl.Proc] = pl.Loc
		}
		// Processes not named by the bad state may be anywhere.
		var free []int
		named := map[int]bool{}
		for _, pl := range b.Locs {
			named[pl.Proc] = true
		}
		for i := range p.Procs {
			if !named[i] {
				free = append(free, i)
			}
		}
		var withLocs func(k int, c *cons)
		withLocs = func(k int, c *cons) {
			if k == len(free) {
				out = append(out, s.condCons(c, b.Cond)...)
				return
			}
			for l := range p.Procs[free[k]].Locs {
				d := c.clone()
				d.bad = c.bad
				d.locs[free[k]] = l
				withLocs(k+1, d)
			}
		}
		withLocs(0, base)
	}
	return out
}

func (s *search) emptyCons() *cons {
	p := s.prog
	c := &cons{
		locs:   make([]int, len(p.Procs)),
		regs:   make([][]int64, len(p.Procs)),
		rknown: make([]uint64, len(p.Procs)),
		msgs:   []msg{{mem: make([]int64, len(p.Vars)), writer: -1}},
		ptr:    make([]int, len(p.Procs)),
		trans:  -2,

		mayFlush: 1<<uint(len(p.Procs)) - 1,
	}
	for i, q := range p.Procs {
		c.regs[i] = make([]int64, len(q.Regs))
	}
	return c
}

type regSlot struct{ proc, reg int }

// condCons refines c by every valuation satisfying cond.
func (s *search) condCons(c *cons, cond model.Expr) []*cons {
	if cond == nil {
		return []*cons{c}
	}
	var regs []regSlot
	var vars []int
	model.WalkExpr(cond, func(e model.Expr) {
		switch e := e.(type) {
		case model.RegRef:
			rs := regSlot{e.Proc, e.Reg}
			for _, r := range regs {
				if r == rs {
					return
				}
			}
			regs = append(regs, rs)
		case model.VarRef:
			if !contains(vars, e.Var) {
				vars = append(vars, e.Var)
			}
		}
	})
	// Equalities with constants among the top-level conjuncts fix their
	// register or variable; the others range over their domains.
	var doms []model.Domain
	fixed := map[any]int64{}
	var conj func(e model.Expr)
	conj = func(e model.Expr) {
		b, ok := e.(model.Binary)
		if !ok {
			return
		}
		switch b.Op {
		case model.OpAnd:
			conj(b.X)
			conj(b.Y)
		case model.OpEq:
			if k, ok := b.Y.(model.Const); ok {
				switch x := b.X.(type) {
				case model.RegRef:
					fixed[regSlot{x.Proc, x.Reg}] = k.Value
				case model.VarRef:
					fixed[x.Var] = k.Value
				}
			}
		}
	}
	conj(cond)
	var fixVals []int64
	var has []bool
	slot := func(key any, d model.Domain) {
		v, ok := fixed[key]
		doms = append(doms, d)
		fixVals = append(fixVals, v)
		has = append(has, ok)
	}
	for _, r := range regs {
		slot(r, s.prog.Procs[r.proc].Regs[r.reg].Dom)
	}
	for _, x := range vars {
		slot(x, s.prog.Vars[x].Dom)
	}
	var out []*cons
	allRegs := make([][]int64, len(s.prog.Procs))
	for i, q := range s.prog.Procs {
		allRegs[i] = make([]int64, len(q.Regs))
	}
	mem := make([]int64, len(s.prog.Vars))
	enumerate(doms, fixVals, has, func(vals []int64) {
		for i, r := range regs {
			allRegs[r.proc][r.reg] = vals[i]
		}
		for i, x := range vars {
			mem[x] = vals[len(regs)+i]
		}
		v, err := model.Eval(cond, &model.Env{AllRegs: allRegs, Mem: mem})
		if err != nil || v == 0 {
			return
		}
		d := c.clone()
		d.bad = c.bad
		for i, r := range regs {
			d.setReg(r.proc, r.reg, vals[i])
		}
		for i, x := range vars {
			d.msgs[0].set(x, vals[len(regs)+i])
		}
		out = append(out, d)
	})
	return out
}
