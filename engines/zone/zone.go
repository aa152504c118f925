// Package zone proves programs with unbounded integers safe by abstract
// interpretation: the control part of a state (every process's location
// and the values of the finite-domain registers and variables) is kept
// exactly, the unbounded values in zones, conjunctions of bounds on their
// differences (x − y ≤ c, x ≤ c; difference-bound matrices). The zones of
// one control state are kept apart by the order they give the unbounded
// shared variables (and 0): a join only merges zones that order the shared
// variables alike, which keeps the disjunctions mutual exclusion needs
// (my ticket is below yours, or above); after a few merges the widening
// moves growing bounds to the next of the program's constants. A
// process's local steps are taken in a row past the locations where one
// of them is always enabled and that no bad state names, without storing
// the states between (the 3-goroutine Go bakery: 12,665 control states
// expanded instead of 1.3 million), which also joins fewer zones.
//
// It answers for programs under SC, and under x86-TSO for programs whose
// reads never find a store of their own process pending
// ([facts.LoadsDrained]), where TSO has SC's behaviours. The abstraction
// over-approximates: when it reaches no bad state and no step that may
// fault, the program is safe; otherwise the answer is inconclusive, never
// unsafe. Guards are exact where they compare x + c with y + d (a
// disequality as two cases) and taken as true elsewhere; an assignment of
// anything but y + c forgets its target. It computes with mathematical
// integers, as the predicate engine does: 64-bit wrap-around is the
// caller's to rule out.
package zone

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/facts"
)

// DefaultMaxStates bounds the control states of the abstraction.
const DefaultMaxStates = 1 << 20

// widenAfter is the number of merges into one zone before the widening
// takes over from the join.
const widenAfter = 3

// maxEnumerate bounds the values of a finite register or variable that a
// step assigning it an unbounded value enumerates.
const maxEnumerate = 64

// Engine is the zone abstraction.
type Engine struct {
	// MaxStates bounds the control states (0: DefaultMaxStates).
	MaxStates int
}

// Name returns "zone".
func (*Engine) Name() string { return "zone" }

// errUnsupported marks an operation the abstraction cannot follow.
var errUnsupported = errors.New("unsupported")

// Check proves p safe under m, or answers inconclusive.
func (e *Engine) Check(ctx context.Context, p *model.Program, m model.Model) (*engines.Result, error) {
	start := time.Now()
	p, err := engines.ForTSO("the zone engine", p, m)
	if err != nil {
		return nil, err
	}
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("invalid program: %w", err)
	}
	p.Index()
	res := &engines.Result{Model: m}
	if err := engines.RequireDrained("the zone engine", p, m); err != nil {
		return nil, err
	}
	if why := engines.NoFloats("the zone engine", p); why != "" {
		res.Status, res.Reason = engines.Inconclusive, why
		return res, nil
	}
	a := newAnalysis(p)
	a.maxStates = e.MaxStates
	if a.maxStates <= 0 {
		a.maxStates = DefaultMaxStates
	}
	a.meter = engines.MeterOf(ctx)
	a.ctx = ctx
	reason := a.run()
	res.Stats.States = int64(a.count)
	res.Stats.Duration = time.Since(start)
	if reason != "" {
		res.Status, res.Reason = engines.Inconclusive, reason
		return res, nil
	}
	res.Status = engines.Safe
	return res, nil
}

// slotRef locates a register or variable: in the zone (index from 1) or
// among the control values.
type slotRef struct {
	numeric bool
	idx     int
}

// analysis is one fixpoint computation.
type analysis struct {
	p          *model.Program
	dead       [][][]int
	vars       []slotRef
	regs       [][]slotRef
	ctlDoms    []model.Domain
	nNum       int
	maxStates  int
	meter      *engines.Meter
	ctx        context.Context
	thresholds []int64
	states     map[string]*group
	work       []*absState
	count      int
	patVars    []int // the zone variables whose order partitions the zones
	// passable[i][l]: process i's states at l need not be stored (see
	// passable).
	passable [][]bool

	// The registers and memory of the control vector valCtl (values).
	valCtl  []int64
	valRegs [][]int64
	valMem  []int64
}

// absState is a control state with one zone, closed unless widened.
type absState struct {
	locs    []int
	ctl     []int64
	zone    dbm
	queued  bool
	widened bool // the zone is not closed
}

// group holds the zones of one control state, one per order of the
// unbounded shared variables, and the merges into each.
type group struct {
	byPat    map[string]*absState
	mergesBy map[string]int
}

// newAnalysis lays out the control values and zone variables of p.
func newAnalysis(p *model.Program) *analysis {
	a := &analysis{p: p, dead: facts.Dead(p), nNum: 1, states: map[string]*group{}}
	ref := func(d model.Domain) slotRef {
		if d.Unbounded {
			a.nNum++
			return slotRef{true, a.nNum - 1}
		}
		a.ctlDoms = append(a.ctlDoms, d)
		return slotRef{false, len(a.ctlDoms) - 1}
	}
	for _, v := range p.Vars {
		a.vars = append(a.vars, ref(v.Dom))
	}
	a.thresholds = thresholds(p)
	a.passable = passable(p)
	a.patVars = []int{0}
	for _, r := range a.vars {
		if r.numeric {
			a.patVars = append(a.patVars, r.idx)
		}
	}
	for _, q := range p.Procs {
		var rs []slotRef
		for _, r := range q.Regs {
			rs = append(rs, ref(r.Dom))
		}
		a.regs = append(a.regs, rs)
	}
	return a
}

// key names a control state.
func key(locs []int, ctl []int64) string {
	b := make([]byte, 0, 4*(len(locs)+len(ctl))+1)
	for _, l := range locs {
		b = strconv.AppendInt(b, int64(l), 36)
		b = append(b, ',')
	}
	b = append(b, '|')
	for _, v := range ctl {
		b = strconv.AppendInt(b, v, 36)
		b = append(b, ',')
	}
	return string(b)
}

// run computes the fixpoint; it returns "" when no bad state is reached,
// else why the answer is inconclusive.
func (a *analysis) run() string {
	p := a.p
	init := &absState{locs: make([]int, len(p.Procs)), ctl: make([]int64, len(a.ctlDoms)), zone: newDBM(a.nNum)}
	for x, v := range p.Vars {
		if v.Init.Any {
			return "an initial value '*'"
		}
		if s := a.vars[x]; s.numeric {
			init.zone.constrain(s.idx, 0, v.Init.Value)
			init.zone.constrain(0, s.idx, -v.Init.Value)
		} else {
			init.ctl[s.idx] = v.Init.Value
		}
	}
	for i, q := range p.Procs {
		init.locs[i] = q.Init
		for r, reg := range q.Regs {
			if reg.Init.Any {
				return "an initial value '*'"
			}
			if s := a.regs[i][r]; s.numeric {
				init.zone.constrain(s.idx, 0, reg.Init.Value)
				init.zone.constrain(0, s.idx, -reg.Init.Value)
			} else {
				init.ctl[s.idx] = reg.Init.Value
			}
		}
	}
	a.canon(init)
	if r := a.add(init); r != "" {
		return r
	}
	for len(a.work) > 0 {
		if err := a.ctx.Err(); err != nil {
			return engines.StopReason(a.ctx)
		}
		if a.meter != nil && !a.meter.States(1) {
			return a.meter.Reason()
		}
		s := a.work[len(a.work)-1]
		a.work = a.work[:len(a.work)-1]
		s.queued = false
		a.count++
		cur := &absState{locs: s.locs, ctl: s.ctl, zone: s.zone.clone()}
		if s.widened && !cur.zone.close() {
			continue
		}
		for i := range p.Procs {
			if r := a.expand(cur, i); r != "" {
				return r
			}
		}
	}
	return ""
}

// maxSettle bounds the local steps expand takes in a row past passable
// locations (a local loop may not end), and maxSettleStates the states
// it passes in one expansion (branches that join again, one after the
// other, would double them at every join): beyond either, the states are
// stored where they are.
const (
	maxSettle       = 64
	maxSettleStates = 1 << 10
)

// expand adds the successors of cur by process i's steps. Past a passable
// location it goes on with the process's local steps, following every
// one of them, without storing the states between: at such a location
// some local step is enabled in every state, each reads and writes only
// the process's registers, so it commutes with the other processes' steps,
// and no bad state tells the location apart.
func (a *analysis) expand(cur *absState, i int) string {
	p := a.p
	q := p.Procs[i]
	type item struct {
		s     *absState
		depth int
	}
	var stack []item
	push := func(s *absState, depth int) string {
		for _, ti := range q.Out(s.locs[i]) {
			succs, err := a.step(s, i, ti)
			if err != nil {
				return fmt.Sprintf("the zone abstraction cannot follow %s at %s", q.Trans[ti].Op.Format(p, q), q.Trans[ti].Pos)
			}
			for _, n := range succs {
				if n == nil {
					return fmt.Sprintf("the zone abstraction reaches a step that may fault (%s at %s)", q.Trans[ti].Op.Format(p, q), q.Trans[ti].Pos)
				}
				stack = append(stack, item{n, depth + 1})
			}
		}
		return ""
	}
	if r := push(cur, 0); r != "" {
		return r
	}
	passed := 0
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if a.passable[i][it.s.locs[i]] && it.depth < maxSettle && passed < maxSettleStates {
			passed++
			if r := push(it.s, it.depth); r != "" {
				return r
			}
			continue
		}
		a.canon(it.s)
		if r := a.add(it.s); r != "" {
			return r
		}
	}
	return ""
}

// canon resets the dead registers of s: a control one to 0 (or its
// least value), a numeric one forgotten.
func (a *analysis) canon(s *absState) {
	for i, l := range s.locs {
		for _, r := range a.dead[i][l] {
			ref := a.regs[i][r]
			if ref.numeric {
				s.zone.forget(ref.idx)
				continue
			}
			d := a.p.Procs[i].Regs[r].Dom
			v := d.Lo
			if d.Contains(0) {
				v = 0
			}
			if s.ctl[ref.idx] != v {
				s.ctl = slices.Clone(s.ctl)
				s.ctl[ref.idx] = v
			}
		}
	}
}

// add merges s (closed) into the abstraction, after checking it against
// the bad states.
func (a *analysis) add(s *absState) string {
	if a.meetsBad(s) {
		return "the zone abstraction reaches a bad state"
	}
	k := key(s.locs, s.ctl)
	g := a.states[k]
	if g == nil {
		if len(a.states) >= a.maxStates {
			return fmt.Sprintf("state budget of %d control states exhausted", a.maxStates)
		}
		g = &group{}
		a.states[k] = g
	}
	pat := pattern(s.zone, a.patVars)
	if g.byPat == nil {
		g.byPat = map[string]*absState{}
		g.mergesBy = map[string]int{}
	}
	w := g.byPat[pat]
	if w == nil {
		g.byPat[pat] = s
		s.queued = true
		a.work = append(a.work, s)
		return ""
	}
	if w.zone.includes(s.zone) {
		return ""
	}
	g.mergesBy[pat]++
	if g.mergesBy[pat] > widenAfter {
		w.zone.widenInto(s.zone, a.thresholds)
		w.widened = true
	} else {
		w.zone.joinInto(s.zone)
	}
	if !w.queued {
		w.queued = true
		a.work = append(a.work, w)
	}
	return ""
}

// pattern classifies every pair of zone variables (x_0 = 0 included) as
// <, =, >, or unknown in the closed zone z.
func pattern(z dbm, vars []int) string {
	b := make([]byte, 0, len(vars)*len(vars)/2)
	for x, i := range vars {
		for _, j := range vars[x+1:] {
			ij, ji := z.m[i*z.n+j], z.m[j*z.n+i]
			switch {
			case ij <= 0 && ji <= 0:
				b = append(b, '=')
			case ij <= -1:
				b = append(b, '<')
			case ji <= -1:
				b = append(b, '>')
			default:
				b = append(b, '?')
			}
		}
	}
	return string(b)
}

// meetsBad reports whether s may hold a bad state.
func (a *analysis) meetsBad(s *absState) bool {
	for _, b := range a.p.Bad {
		at := true
		for _, pl := range b.Locs {
			if s.locs[pl.Proc] != pl.Loc {
				at = false
				break
			}
		}
		if !at {
			continue
		}
		if b.Cond == nil {
			return true
		}
		cases, err := a.cond(s, -1, b.Cond, true)
		if err != nil {
			continue // a condition that faults holds of no state
		}
		for _, c := range cases {
			z := s.zone.clone()
			if z.close() && apply(z, c) {
				return true
			}
		}
	}
	return false
}

// thresholds returns the widening thresholds of p: every constant c of
// its transitions, with −c and both their neighbours, and −2..2, sorted.
func thresholds(p *model.Program) []int64 {
	set := map[int64]bool{}
	put := func(c int64) {
		if c > -maxBound/4 && c < maxBound/4 {
			for _, v := range []int64{c - 1, c, c + 1, -c - 1, -c, -c + 1} {
				set[v] = true
			}
		}
	}
	for c := int64(-1); c <= 1; c++ {
		put(c)
	}
	var walkOp func(o *model.Op)
	walkOp = func(o *model.Op) {
		if o.Expr != nil {
			model.WalkExpr(o.Expr, func(x model.Expr) {
				if c, ok := x.(model.Const); ok {
					put(c.Value)
				}
			})
		}
		for k := range o.Body {
			walkOp(&o.Body[k])
		}
	}
	for _, q := range p.Procs {
		for k := range q.Trans {
			walkOp(&q.Trans[k].Op)
		}
	}
	out := make([]int64, 0, len(set))
	for v := range set {
		out = append(out, v)
	}
	slices.Sort(out)
	return out
}
