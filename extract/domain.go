package extract

import (
	"math"
	"math/bits"
	"slices"

	"github.com/fencecheck/fencecheck/model"
)

// The domain inference is an abstract interpretation of the lowered model:
// shared variables get one abstract value each (flow-insensitive: every value
// any process may write), registers one per location (so that guards of
// constant-bound loops bound their counters). An abstract value is a small
// set of integers, an interval, or top. A set that grows beyond setCap
// becomes its interval; an entity that keeps changing is widened to top.

const (
	setCap    = 64
	widenAt   = 40
	maxRounds = 200
	// thresholdWidenings is how often a register's interval is widened to
	// the next constant of its process before it becomes top.
	thresholdWidenings = 8
)

type abs struct {
	top    bool
	set    []int64 // sorted; nil with ival for an interval
	ival   bool
	lo, hi int64
}

var topAbs = abs{top: true}

func single(c int64) abs { return abs{set: []int64{c}} }

func (a abs) empty() bool { return !a.top && !a.ival && len(a.set) == 0 }

func (a abs) bounds() (int64, int64) {
	if a.ival {
		return a.lo, a.hi
	}
	return a.set[0], a.set[len(a.set)-1]
}

func (a abs) equal(b abs) bool {
	if a.top != b.top || a.ival != b.ival {
		return false
	}
	if a.ival {
		return a.lo == b.lo && a.hi == b.hi
	}
	return slices.Equal(a.set, b.set)
}

func fromSet(vals []int64) abs {
	slices.Sort(vals)
	vals = slices.Compact(vals)
	if len(vals) > setCap {
		return abs{ival: true, lo: vals[0], hi: vals[len(vals)-1]}
	}
	return abs{set: vals}
}

func join(a, b abs) abs {
	switch {
	case a.top || b.top:
		return topAbs
	case a.empty():
		return b
	case b.empty():
		return a
	case a.ival || b.ival:
		alo, ahi := a.bounds()
		blo, bhi := b.bounds()
		return abs{ival: true, lo: min(alo, blo), hi: max(ahi, bhi)}
	}
	return joinSets(a.set, b.set)
}

// joinSets joins two sorted sets by merging them. When one holds the
// other, the result shares it (sets are never changed in place), so that
// the iterations, whose joins mostly add nothing, allocate nothing.
func joinSets(a, b []int64) abs {
	n := 0 // the size of the union
	for i, j := 0, 0; i < len(a) || j < len(b); n++ {
		switch {
		case j == len(b) || i < len(a) && a[i] < b[j]:
			i++
		case i == len(a) || b[j] < a[i]:
			j++
		default:
			i++
			j++
		}
	}
	switch {
	case n == len(a):
		return abs{set: a}
	case n == len(b):
		return abs{set: b}
	case n > setCap:
		return abs{ival: true, lo: min(a[0], b[0]), hi: max(a[len(a)-1], b[len(b)-1])}
	}
	out := make([]int64, 0, n)
	for i, j := 0, 0; i < len(a) || j < len(b); {
		switch {
		case j == len(b) || i < len(a) && a[i] < b[j]:
			out = append(out, a[i])
			i++
		case i == len(a) || b[j] < a[i]:
			out = append(out, b[j])
			j++
		default:
			out = append(out, a[i])
			i++
			j++
		}
	}
	return abs{set: out}
}

// clip keeps the values of a inside [lo, hi]: values outside it fault in
// the model and are never stored.
func clip(a abs, lo, hi int64) abs {
	switch {
	case a.top:
		if lo == math.MinInt64 || hi == math.MaxInt64 {
			return a
		}
		if spanBelow(lo, hi, setCap) {
			return abs{ival: true, lo: lo, hi: hi}
		}
		return a
	case a.ival:
		l, h := max(a.lo, lo), min(a.hi, hi)
		if l > h {
			return abs{}
		}
		return abs{ival: true, lo: l, hi: h}
	}
	var out []int64
	for _, v := range a.set {
		if lo <= v && v <= hi {
			out = append(out, v)
		}
	}
	return abs{set: out}
}

// iterate runs the domain inference's rounds over vars (updated in place)
// and returns the abstract registers of every process at every location.
// bounded says that a run writes at most events times (see inferDomains):
// the rounds then stop after events of them, without widening.
func (s *system) iterate(vars []abs, ranged []bool, changes []int, boundedVars []bool, events int) [][][]abs {
	states := make([][][]abs, len(s.procs))
	// before holds, for each process, the variables as its last analysis
	// began.
	before := make([][]abs, len(s.procs))
	someBounded := slices.Contains(boundedVars, true)
	bounded := someBounded && !slices.Contains(boundedVars, false)
	rounds := maxRounds
	if someBounded {
		rounds = max(rounds, events+2)
		if !bounded {
			rounds = maxRounds + events + 2
		}
	}
	// With some variables bounded and others not: settled counts the
	// rounds in a row in which no unbounded variable changed. Once they
	// are more than events, the bounded ones hold every chain of their
	// writes computed from the others' last values, and freeze; the
	// others then go on to their fixpoint.
	settled, frozen := 0, false
	for round := 0; round < rounds; round++ {
		if *s.inferWork > inferBudget {
			// Out of work: every variable may hold any value, and the
			// registers are computed once more against that.
			for x := range vars {
				if !ranged[x] {
					lo, hi := s.varLimits(x)
					vars[x] = clip(topAbs, lo, hi)
				}
			}
			for pi, p := range s.procs {
				states[pi] = p.analyse(vars, func(int, abs) {}, states[pi], before[pi])
			}
			break
		}
		varsChanged, othersChanged := false, false
		// Bounded, a round's writes are computed from the values of the
		// round before (so that round k holds the chains of k writes, not
		// more: a process's loop would otherwise feed its own writes back
		// within the round); else they apply at once.
		next := vars
		if someBounded {
			next = slices.Clone(vars)
		}
		writeVar := func(x int, a abs) {
			if ranged[x] || frozen && boundedVars[x] {
				return
			}
			lo, hi := s.varLimits(x)
			n := join(next[x], clip(a, lo, hi))
			if !n.equal(next[x]) {
				changes[x]++
				if changes[x] > widenAt && !boundedVars[x] {
					n = clip(topAbs, lo, hi)
				}
				next[x] = n
				varsChanged = true
				if !boundedVars[x] {
					othersChanged = true
					vars[x] = n
				}
			}
		}
		for pi, p := range s.procs {
			snap := slices.Clone(vars)
			states[pi] = p.analyse(vars, writeVar, states[pi], before[pi])
			before[pi] = snap
		}
		copy(vars, next)
		if !varsChanged {
			break
		}
		if someBounded && !bounded && !frozen {
			if othersChanged {
				settled = 0
			} else if settled++; settled > events {
				frozen = true
			}
		}
		if bounded && round >= events {
			// Every chain is covered; the registers are computed once more
			// against the final values of the variables.
			for pi, p := range s.procs {
				states[pi] = p.analyse(vars, func(int, abs) {}, states[pi], before[pi])
			}
			break
		}
		if round == rounds-1 {
			for x := range vars {
				lo, hi := s.varLimits(x)
				vars[x] = clip(topAbs, lo, hi)
			}
		}
	}
	return states
}

// inferBudget bounds the work of the domain inference of one system, over
// all its lowering rounds: a step of a process's analysis costs one unit
// per register (its registers are copied and joined), a few million a
// second. Past it, the rounds stop and every variable may hold any value
// (sound: the cells this leaves unbounded are then discovered, or go to
// the predicate engine), so that a system of large goroutines (a pool of
// a library's workers) ends in seconds, not hours of rounds. The largest
// of the corpus takes a third of it.
var inferBudget int64 = 1 << 26

// allOf returns n copies of b.
func allOf(b bool, n int) []bool {
	return slices.Repeat([]bool{b}, n)
}

// boundedVars returns the variables without a bounded value yet in vars
// (after an iteration that widened them, whose registers are regs) whose
// writes run a bounded number of times in any run, and the number of
// those writes, when there are some and that is no more than
// maxWriteEvents; else nil. The others are not bounded for iterate: their
// values widen as before.
func (s *system) boundedVars(regs [][][]abs, vars []abs, ranged []bool) ([]bool, int) {
	// Only the variables without a bounded value yet are candidates; the
	// bounds of their loops' writes are costly, and asked only of them.
	ev := make([]int, len(s.prog.Vars))
	candidates := 0
	for x := range ev {
		if ranged[x] || !vars[x].top && !vars[x].ival {
			ev[x] = -1
		} else {
			candidates++
		}
	}
	if candidates == 0 {
		return nil, 0
	}
	w := map[int]bool{}
	// runs[pi][ti] is how often transition ti of process pi, a write of a
	// candidate, runs (-1 when unbounded); comps[pi] its components.
	runs := make([][]int, len(s.procs))
	comps := make([][]int, len(s.procs))
	for pi, p := range s.procs {
		q := p.q
		var comp []int
		for ti, t := range q.Trans {
			if !writes(t.Op) {
				continue
			}
			clear(w)
			visitOp(t.Op, func(op model.Op) { markWrites(op, w) })
			alive := false
			for x := range w {
				alive = alive || ev[x] >= 0
			}
			if !alive {
				continue
			}
			if comp == nil {
				_, comp = q.Cycles()
			}
			k, ok := runsOf(q, comp, regs[pi], ti)
			if !ok {
				k = -1
			}
			if runs[pi] == nil {
				runs[pi], comps[pi] = make([]int, len(q.Trans)), comp
			}
			runs[pi][ti] = k
			for x := range w {
				if k < 0 || ev[x] < 0 {
					ev[x] = -1
				} else {
					ev[x] += k
				}
			}
		}
	}
	bounded := make([]bool, len(ev))
	for x, k := range ev {
		bounded[x] = k >= 0
	}
	if !slices.Contains(bounded, true) {
		return nil, 0
	}
	// The writes of the bounded variables in one run: along the heaviest
	// way through each process, as writeEvents counts them.
	n := 0
	for pi, p := range s.procs {
		if runs[pi] == nil {
			continue
		}
		weight := make([]int, len(p.q.Trans))
		for ti, t := range p.q.Trans {
			if runs[pi][ti] <= 0 {
				continue
			}
			clear(w)
			visitOp(t.Op, func(op model.Op) { markWrites(op, w) })
			for x := range w {
				if bounded[x] {
					weight[ti] = runs[pi][ti]
				}
			}
		}
		n += longestWrites(p.q, comps[pi], weight)
	}
	if n > maxWriteEvents {
		return nil, 0
	}
	return bounded, n
}

// spanBelow reports whether hi-lo < n for lo <= hi, without the overflow of
// hi-lo on intervals wider than 2^63.
func spanBelow(lo, hi int64, n uint64) bool {
	return uint64(hi)-uint64(lo) < n
}

// values enumerates a small abstract value.
func (a abs) values() ([]int64, bool) {
	if a.top {
		return nil, false
	}
	if a.ival {
		if !spanBelow(a.lo, a.hi, setCap*4) {
			return nil, false
		}
		var out []int64
		for v := a.lo; v <= a.hi; v++ {
			out = append(out, v)
		}
		return out, true
	}
	return a.set, true
}

type absEnv struct {
	regs []abs
	vars []abs
	// dirty lists the registers written since the last resetTo, so that a
	// search puts back only those before its next step from one state.
	dirty []int
}

// set gives register r the value a.
func (env *absEnv) set(r int, a abs) {
	env.dirty = append(env.dirty, r)
	env.regs[r] = a
}

// resetTo makes the registers src again, src being what they were before
// the writes since the last reset.
func (env *absEnv) resetTo(src []abs) {
	for _, r := range env.dirty {
		env.regs[r] = src[r]
	}
	env.dirty = env.dirty[:0]
}

// load makes the registers src.
func (env *absEnv) load(src []abs) {
	copy(env.regs, src)
	env.dirty = env.dirty[:0]
}

func addOv(a, b int64) (int64, bool) {
	c := a + b
	return c, (c > a) == (b > 0) || b == 0
}

func mulOv(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	c := a * b
	return c, c/b == a && !(a == -1 && b == math.MinInt64) && !(b == -1 && a == math.MinInt64)
}

func (env *absEnv) eval(e model.Expr) abs {
	switch e := e.(type) {
	case model.Const:
		return single(e.Value)
	case model.RegRef:
		if e.Reg < len(env.regs) {
			return env.regs[e.Reg]
		}
		return topAbs
	case model.VarRef:
		return env.vars[e.Var]
	case model.Unary:
		x := env.eval(e.X)
		if e.Op == model.OpNot {
			if vs, ok := x.values(); ok {
				var out []int64
				for _, v := range vs {
					out = append(out, b2i(v == 0))
				}
				return fromSet(out)
			}
			return abs{set: []int64{0, 1}}
		}
		if e.Op == model.OpCompl {
			return env.eval(model.Bin(model.OpSub, model.C(-1), e.X))
		}
		return env.eval(model.Bin(model.OpSub, model.C(0), e.X))
	case model.Wrap:
		return wrapAbs(env.eval(e.X), e.Bits, e.Signed)
	case model.Float:
		return env.evalFloat(e)
	case model.Binary:
		x, y := env.eval(e.X), env.eval(e.Y)
		if x.empty() || y.empty() {
			return abs{}
		}
		logical := e.Op >= model.OpEq && e.Op <= model.OpOr
		xs, okx := x.values()
		ys, oky := y.values()
		if (e.Op == model.OpAdd || e.Op == model.OpSub) && okx && oky && len(xs)+len(ys)-1 > setCap {
			// A sum or difference takes at least |X|+|Y|-1 values: more
			// than a set holds, its interval is the one below.
			okx = false
		}
		if okx && oky && logical && len(xs)*len(ys) <= 4096 {
			// A comparison or logical operator gives 0, 1 or both: stop
			// once both are seen.
			var seen [2]bool
			for _, a := range xs {
				for _, b := range ys {
					if r, ok := applyAbs(e.Op, a, b); ok && (r == 0 || r == 1) {
						seen[r] = true
					}
				}
				if seen[0] && seen[1] {
					break
				}
			}
			switch {
			case seen[0] && seen[1]:
				return abs{set: []int64{0, 1}}
			case seen[0]:
				return single(0)
			case seen[1]:
				return single(1)
			}
			return abs{}
		}
		if okx && oky && len(xs)*len(ys) <= 4096 {
			out := make([]int64, 0, len(xs)*len(ys))
			for _, a := range xs {
				for _, b := range ys {
					if r, ok := applyAbs(e.Op, a, b); ok {
						out = append(out, r)
					}
				}
			}
			if len(out) == 0 {
				return abs{}
			}
			return fromSet(out)
		}
		if logical {
			return abs{set: []int64{0, 1}}
		}
		if x.top || y.top {
			return topAbs
		}
		xl, xh := x.bounds()
		yl, yh := y.bounds()
		switch e.Op {
		case model.OpAdd:
			l, ok1 := addOv(xl, yl)
			h, ok2 := addOv(xh, yh)
			if ok1 && ok2 {
				return abs{ival: true, lo: l, hi: h}
			}
		case model.OpSub:
			if yl != math.MinInt64 && yh != math.MinInt64 {
				l, ok1 := addOv(xl, -yh)
				h, ok2 := addOv(xh, -yl)
				if ok1 && ok2 {
					return abs{ival: true, lo: l, hi: h}
				}
			}
		case model.OpMul:
			var cs []int64
			ok := true
			for _, a := range []int64{xl, xh} {
				for _, b := range []int64{yl, yh} {
					c, o := mulOv(a, b)
					ok = ok && o
					cs = append(cs, c)
				}
			}
			if ok {
				return abs{ival: true, lo: slices.Min(cs), hi: slices.Max(cs)}
			}
		case model.OpMod:
			if yl > 0 {
				if xl >= 0 {
					return abs{ival: true, lo: 0, hi: min(xh, yh-1)}
				}
				return abs{ival: true, lo: -(yh - 1), hi: yh - 1}
			}
		case model.OpDiv:
			if yl > 0 && xl >= 0 {
				return abs{ival: true, lo: xl / yh, hi: xh / yl}
			}
		default:
			if a, ok := bitAbs(e.Op, xl, xh, yl, yh); ok {
				return a
			}
		}
		return topAbs
	}
	return topAbs
}

// applyAbs applies op to two values as [model.Eval] does (int64 arithmetic
// wraps); ok is false where Eval fails (a division by zero).
func applyAbs(op model.BinOp, a, b int64) (int64, bool) {
	switch op {
	case model.OpAdd:
		return a + b, true
	case model.OpSub:
		return a - b, true
	case model.OpMul:
		return a * b, true
	case model.OpDiv:
		if b == 0 {
			return 0, false
		}
		return a / b, true
	case model.OpMod:
		if b == 0 {
			return 0, false
		}
		return a % b, true
	case model.OpEq:
		return b2i(a == b), true
	case model.OpNe:
		return b2i(a != b), true
	case model.OpLt:
		return b2i(a < b), true
	case model.OpLe:
		return b2i(a <= b), true
	case model.OpGt:
		return b2i(a > b), true
	case model.OpGe:
		return b2i(a >= b), true
	case model.OpAnd:
		return b2i(a != 0 && b != 0), true
	case model.OpOr:
		return b2i(a != 0 || b != 0), true
	case model.OpBitAnd, model.OpBitOr, model.OpXor, model.OpAndNot, model.OpShl, model.OpShr, model.OpShrU:
		v, err := model.Eval(model.Bin(op, model.C(a), model.C(b)), &model.Env{})
		return v, err == nil
	}
	return 0, false
}

// bitAbs bounds x op y for a bitwise operator or a shift, x in [xl, xh] and
// y in [yl, yh]; ok is false where no bound narrower than the int64 range
// is known. A shift by a negative count faults and yields no value.
func bitAbs(op model.BinOp, xl, xh, yl, yh int64) (abs, bool) {
	// ones is the least 2^k-1 at or above v ≥ 0: no operand below it sets a
	// higher bit.
	ones := func(v int64) int64 { return int64(uint64(1)<<bits.Len64(uint64(v)) - 1) }
	switch op {
	case model.OpBitAnd:
		// A non-negative operand clears every bit it does not set.
		switch {
		case xl >= 0 && yl >= 0:
			return abs{ival: true, lo: 0, hi: min(xh, yh)}, true
		case xl >= 0:
			return abs{ival: true, lo: 0, hi: xh}, true
		case yl >= 0:
			return abs{ival: true, lo: 0, hi: yh}, true
		}
	case model.OpBitOr, model.OpXor:
		if xl >= 0 && yl >= 0 {
			return abs{ival: true, lo: 0, hi: ones(max(xh, yh))}, true
		}
	case model.OpAndNot, model.OpShrU:
		if xl >= 0 {
			return abs{ival: true, lo: 0, hi: xh}, true
		}
	case model.OpShr:
		// An arithmetic shift moves a value towards 0 or -1.
		return abs{ival: true, lo: min(xl, 0), hi: max(xh, 0)}, true
	}
	return abs{}, false
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// mayHold reports whether a guard can be true.
func mayHold(a abs) bool {
	if a.empty() {
		return false
	}
	if vs, ok := a.values(); ok {
		for _, v := range vs {
			if v != 0 {
				return true
			}
		}
		return false
	}
	return true
}

// refine narrows the register a guard mentions, when it mentions one
// register only, to the values for which the guard can hold.
func (env *absEnv) refine(g model.Expr) bool {
	reg := -1
	simple := true
	model.WalkExpr(g, func(e model.Expr) {
		switch e := e.(type) {
		case model.RegRef:
			if reg >= 0 && reg != e.Reg {
				simple = false
			}
			reg = e.Reg
		case model.VarRef:
			simple = false
		}
	})
	if !mayHold(env.eval(g)) {
		return false
	}
	if !simple || reg < 0 {
		return env.refineRelation(g)
	}
	vs, ok := env.regs[reg].values()
	if !ok {
		return env.refineRelation(g)
	}
	old := env.regs[reg]
	var keep []int64
	for _, v := range vs {
		env.set(reg, single(v))
		if mayHold(env.eval(g)) {
			keep = append(keep, v)
		}
	}
	env.set(reg, old)
	if len(keep) == 0 {
		return false
	}
	env.set(reg, fromSet(keep))
	return true
}

// refineRelation narrows the registers that a comparison g (or a
// conjunction of comparisons) sets against another expression, by that
// expression's bounds: for i < backoff, i to below backoff's largest
// value and backoff to above i's least. A loop counter bounded by a
// register (ants' spin lock yields backoff times) gets a bounded domain.
// It returns false when g cannot hold.
func (env *absEnv) refineRelation(g model.Expr) bool {
	return env.refineHolds(g, true)
}

// refineHolds narrows registers by g holding (holds) or failing: the
// else branch of a test, a negation, and the comparisons of uint64 bit
// patterns (ult's sign tests, which the bounds often settle: backoff's
// maxTries <= numTries) are taken apart down to the relations they
// decide. It returns false when g cannot take that truth value.
func (env *absEnv) refineHolds(g model.Expr, holds bool) bool {
	switch g := g.(type) {
	case model.Unary:
		if g.Op == model.OpNot {
			return env.refineHolds(g.X, !holds)
		}
	case model.Binary:
		switch g.Op {
		case model.OpAnd, model.OpOr:
			if (g.Op == model.OpAnd) == holds {
				// Both sides take the truth value.
				return env.refineHolds(g.X, holds) && env.refineHolds(g.Y, holds)
			}
			// One side does: the other, when this one cannot.
			switch {
			case !env.mayBe(g.X, holds):
				return env.refineHolds(g.Y, holds)
			case !env.mayBe(g.Y, holds):
				return env.refineHolds(g.X, holds)
			}
		case model.OpEq, model.OpNe:
			// A truth value compared with a known one.
			for _, side := range [2][2]model.Expr{{g.X, g.Y}, {g.Y, g.X}} {
				c, ok := env.eval(side[1]).values()
				if !ok || len(c) != 1 || (c[0] != 0 && c[0] != 1) || !isTruth(side[0]) {
					continue
				}
				want := (c[0] == 1) == (g.Op == model.OpEq)
				return env.refineHolds(side[0], want == holds)
			}
		case model.OpLt, model.OpLe, model.OpGt, model.OpGe:
			op := g.Op
			if !holds {
				op = op.Negated()
			}
			return env.bound(g.X, op, g.Y) && env.bound(g.Y, op.Mirrored(), g.X)
		}
	}
	return true
}

// mayBe reports whether the truth value g may be holds, by its abstract
// value.
func (env *absEnv) mayBe(g model.Expr, holds bool) bool {
	a := env.eval(g)
	if holds {
		return mayHold(a)
	}
	vs, ok := a.values()
	if !ok {
		return !a.empty()
	}
	return slices.Contains(vs, 0)
}

// isTruth reports whether e's value is a truth value, 0 or 1.
func isTruth(e model.Expr) bool {
	switch e := e.(type) {
	case model.Unary:
		return e.Op == model.OpNot
	case model.Binary:
		switch e.Op {
		case model.OpAnd, model.OpOr, model.OpEq, model.OpNe, model.OpLt, model.OpLe, model.OpGt, model.OpGe:
			return true
		}
	}
	return false
}

// bound narrows x, when it is a register, to the values v for which
// v op y can hold, y taking any value of its abstract value. It returns
// false when none can.
//
// x may also be a register plus or minus a constant (i+1 < n, the index
// of a range loop over a slice, as go/ssa increments it before the test):
// the register is narrowed by the bounds moved by the constant.
func (env *absEnv) bound(x model.Expr, op model.BinOp, y model.Expr) bool {
	shift := int64(0)
	if b, ok := x.(model.Binary); ok && (b.Op == model.OpAdd || b.Op == model.OpSub) {
		c, okc := b.Y.(model.Const)
		if !okc || c.Value <= -1<<32 || c.Value >= 1<<32 {
			return true
		}
		shift, x = c.Value, b.X
		if b.Op == model.OpSub {
			shift = -shift
		}
	}
	r, ok := x.(model.RegRef)
	if !ok || r.Reg < 0 || r.Reg >= len(env.regs) {
		return true
	}
	ya := env.eval(y)
	if ya.top || ya.empty() {
		return true
	}
	ylo, yhi := ya.bounds()
	if shift != 0 {
		// r + shift op y: r op y - shift, the bounds moved, saturating.
		if ylo > math.MinInt64+(1<<32) && ylo < math.MaxInt64-(1<<32) {
			ylo -= shift
		}
		if yhi > math.MinInt64+(1<<32) && yhi < math.MaxInt64-(1<<32) {
			yhi -= shift
		}
	}
	lo, hi := int64(math.MinInt64), int64(math.MaxInt64)
	switch op {
	case model.OpLt:
		if yhi == math.MinInt64 {
			return false
		}
		hi = yhi - 1
	case model.OpLe:
		hi = yhi
	case model.OpGt:
		if ylo == math.MaxInt64 {
			return false
		}
		lo = ylo + 1
	case model.OpGe:
		lo = ylo
	}
	a := env.regs[r.Reg]
	switch {
	case a.top:
		if lo == math.MinInt64 && hi == math.MaxInt64 {
			return true
		}
		env.set(r.Reg, abs{ival: true, lo: lo, hi: hi})
	case a.empty():
	case a.ival:
		nlo, nhi := max(a.lo, lo), min(a.hi, hi)
		if nlo > nhi {
			return false
		}
		env.set(r.Reg, abs{ival: true, lo: nlo, hi: nhi})
	default:
		var keep []int64
		for _, v := range a.set {
			if v >= lo && v <= hi {
				keep = append(keep, v)
			}
		}
		if len(keep) == 0 {
			return false
		}
		env.set(r.Reg, abs{set: keep})
	}
	return true
}

// limits returns the range outside which a value of variable x faults.
func (s *system) varLimits(x int) (int64, int64) {
	lo, hi := int64(math.MinInt64), int64(math.MaxInt64)
	t := s.varType[x]
	if l, h, ok := typeRange(t); ok {
		lo, hi = l, h
	}
	switch classify(t) {
	case leafWaitGroup:
		lo = 0
	case leafMutex:
		lo, hi = 0, 1
	case leafPointer:
		lo, hi = s.heapLimits()
	}
	if d, ok := s.x.dirs.Ranges[s.varDecl[x]]; ok && s.varDecl[x] != nil {
		lo, hi = max(lo, d.Lo), min(hi, d.Hi)
	}
	return lo, hi
}

// regLimits returns the range outside which a value of register r faults:
// its Go type's, narrowed by the //fencecheck:range of its variable.
func (p *proc) regLimits(r int) (int64, int64) {
	lo, hi := int64(math.MinInt64), int64(math.MaxInt64)
	if l, h, ok := typeRange(p.regType[r]); ok {
		lo, hi = l, h
	}
	if isPtrCell(p.regType[r]) {
		lo, hi = p.s.heapLimits()
	}
	if l, ok := p.limits[r]; ok {
		lo, hi = l[0], l[1]
	}
	if d, ok := p.ranged[r]; ok {
		lo, hi = max(lo, d.Lo), min(hi, d.Hi)
	}
	return lo, hi
}

// inferDomains sets the domain of every variable and register.
func (s *system) inferDomains() {
	prog := s.prog
	nv := len(prog.Vars)
	ranged := make([]bool, nv)
	vars := make([]abs, nv)
	changes := make([]int, nv)
	for x, v := range prog.Vars {
		vars[x] = single(v.Init.Value)
		if d, ok := s.x.dirs.Ranges[s.varDecl[x]]; ok && s.varDecl[x] != nil {
			lo, hi := s.varLimits(x)
			if in := v.Init.Value; !v.Init.Any && (in < lo || in > hi) {
				s.fail(s.varDecl[x].Pos(), "the initial value %d of %s is outside its //fencecheck:range %d..%d", in, v.Name, d.Lo, d.Hi)
			}
			vars[x] = abs{ival: true, lo: lo, hi: hi}
			ranged[x] = true
		}
	}
	unobserved := s.unobservedVars()
	init := slices.Clone(vars)
	var states [][][]abs
	// When every write to shared memory runs a bounded number of times (it
	// lies on no loop, or only on loops that a counter bounds), a run
	// performs at most events writes, and every value a read sees was made
	// by a chain of at most that many writes, each computed from what
	// earlier ones stored: round k below covers the chains of length k.
	// After events rounds the variables hold every value a run can store,
	// even where the flow-insensitive iteration itself would not converge
	// (count++ once in each goroutine), and the variables need no widening.
	// Loop counters are bounded by a first, widening, iteration.
	//
	// When only some variables are written a bounded number of times (a
	// wait group's counter that the set-up's loop adds to, beside a
	// worker's loop that writes others), the chains of their writes are
	// bounded all the same: they are iterated so, without widening, while
	// the others widen (see iterate).
	events, bounded := s.writeEvents(nil)
	states = s.iterate(vars, ranged, changes, allOf(bounded, nv), events)
	if !bounded {
		if n, ok := s.writeEvents(states); ok {
			copy(vars, init)
			clear(changes)
			events, bounded = n, true
			states = s.iterate(vars, ranged, changes, allOf(true, nv), events)
		} else if few, n := s.boundedVars(states, vars, ranged); few != nil {
			copy(vars, init)
			clear(changes)
			states = s.iterate(vars, ranged, changes, few, n)
		}
	}
	s.unrollProcs(states, vars)
	floatVars, floatRegs := floatCells(prog)
	for x := range prog.Vars {
		lo, hi := s.varLimits(x)
		a := vars[x]
		if unobserved[x] && (a.top || wide(a)) {
			// Nothing ever looks at the value (an atomic add on a dummy used as
			// a barrier): keep its initial value, so that the model stays finite
			// and small.
			s.freeze(x)
			a = single(prog.Vars[x].Init.Value)
		}
		a = join(a, single(prog.Vars[x].Init.Value))
		prog.Vars[x].Dom = floatDomain(domainOf(a, lo, hi), floatVars[x], lo, hi)
		prog.Vars[x].Values = sparseValues(a, prog.Vars[x].Dom, ranged[x])
	}
	for pi, p := range s.procs {
		regs := make([]abs, len(p.q.Regs))
		for r := range regs {
			regs[r] = single(p.q.Regs[r].Init.Value)
		}
		for _, st := range states[pi] {
			for r, a := range st {
				regs[r] = join(regs[r], a)
			}
		}
		s.noteMapProbes(p, states[pi])
		s.noteIfaceProbes(p, states[pi], vars)
		s.noteMakeProbes(p, states[pi], vars)
		s.noteFormatProbes(p, states[pi], vars)
		for r := range p.q.Regs {
			lo, hi := p.regLimits(r)
			if _, ok := p.ranged[r]; ok {
				// A declared range is the domain, as for shared variables.
				p.q.Regs[r].Dom = model.Range(lo, hi)
				continue
			}
			p.q.Regs[r].Dom = floatDomain(domainOf(regs[r], lo, hi), floatRegs[pi][r], lo, hi)
			p.q.Regs[r].Values = sparseValues(regs[r], p.q.Regs[r].Dom, false)
		}
	}
	s.settleMakeProbes()
	s.settleFormatProbes()
}

// sparseValues returns the values of a, the abstract value a cell's
// domain dom was made from, when they are a few points of a much wider
// domain, wider than sparseFrom (the bit patterns of a float64's few
// values): an engine that enumerates the cell's values takes them
// (model.Var.Values). A cell with a declared range, or whose values are an
// interval, has none.
func sparseValues(a abs, dom model.Domain, ranged bool) []int64 {
	if ranged || a.top || a.ival || a.empty() || dom.Unbounded || dom.Size() <= sparseFrom {
		return nil
	}
	var out []int64
	for _, v := range a.set {
		if dom.Contains(v) {
			out = append(out, v)
		}
	}
	return out
}

// sparseFrom is the size of a domain from which a cell's few values are
// worth naming (sparseValues): below, an enumeration of the domain is
// cheap.
const sparseFrom = 4096

// wide reports whether a spans more than setCap integers.
func wide(a abs) bool {
	if a.top || a.empty() {
		return a.top
	}
	lo, hi := a.bounds()
	return !spanBelow(lo, hi, setCap)
}

// maxWriteEvents is the largest number of write events for which
// inferDomains iterates round by round instead of widening: a round
// analyses every process once, so 1024 of them stay cheap (two goroutines
// that each count to 200 write 400 times).
const maxWriteEvents = 1024

// writeEvents bounds the number of writes to shared memory (plain or
// atomic writes, and locked operations that write) in any run, and says
// whether it found a bound no greater than maxWriteEvents.
//
// A write on no loop of its process runs at most once: once a process
// leaves a transition's source location for good, it never takes the
// transition again. Without the registers (regs nil), every other write
// makes the answer false. With the registers of a finished iteration,
// a write on a loop counts 1 + Σ n(e) over the counter steps e of its loop
// (see loopBudget) when every cycle through it passes one of them.
func (s *system) writeEvents(regs [][][]abs) (int, bool) {
	n := 0
	for pi, p := range s.procs {
		q := p.q
		var comp []int
		weight := make([]int, len(q.Trans))
		for ti, t := range q.Trans {
			if !writes(t.Op) {
				continue
			}
			if comp == nil {
				_, comp = q.Cycles()
			}
			var rs [][]abs
			if regs != nil {
				rs = regs[pi]
			}
			k, ok := runsOf(q, comp, rs, ti)
			if !ok {
				return 0, false
			}
			weight[ti] = k
		}
		if comp != nil {
			n += longestWrites(q, comp, weight)
		}
		if n > maxWriteEvents {
			return 0, false
		}
	}
	return n, n <= maxWriteEvents
}

// longestWrites bounds the writes of one run of q, weight[t] being how
// often transition t writes in a run: a run passes the components of q's
// locations (comp, as Cycles numbers them) in one order, taking one of
// the ways between them, so the bound is the heaviest path from the
// initial location's component, each component weighing the writes of
// the transitions inside it. The branches of a case split (a map
// operation over 100 maps) then count once, not once each.
func longestWrites(q *model.Process, comp []int, weight []int) int {
	ncomp := 0
	for _, c := range comp {
		ncomp = max(ncomp, c+1)
	}
	inside := make([]int, ncomp)
	out := make([][]int, ncomp)
	sum := 0
	for ti, t := range q.Trans {
		sum += weight[ti]
		if t.From < 0 || t.To < 0 || t.From >= len(comp) || t.To >= len(comp) {
			continue
		}
		if c := comp[t.From]; c == comp[t.To] {
			inside[c] += weight[ti]
		} else if comp[t.To] > c {
			// Tarjan numbers a component after every one it reaches;
			// another numbering gets the plain sum.
			return sum
		} else {
			out[c] = append(out[c], ti)
		}
	}
	best := make([]int, ncomp)
	for c := range ncomp {
		b := 0
		for _, ti := range out[c] {
			b = max(b, weight[ti]+best[comp[q.Trans[ti].To]])
		}
		best[c] = inside[c] + b
	}
	if q.Init < 0 || q.Init >= len(comp) {
		return sum
	}
	return best[comp[q.Init]]
}

// runsOf bounds how often transition ti of q runs in a run: once when it
// lies on no loop (or leaves one), else loopBudget's bound, with the
// registers regs of a finished iteration (none without them); never when
// that iteration reached no state at its source.
func runsOf(q *model.Process, comp []int, regs [][]abs, ti int) (int, bool) {
	t := q.Trans[ti]
	if t.From != t.To && comp[t.From] != comp[t.To] || exitsLoop(q, comp, t) {
		return 1, true
	}
	if regs == nil {
		return 0, false
	}
	if regs[t.From] == nil {
		return 0, true // the iteration reached no state at its source
	}
	return loopBudget(q, comp, regs, ti)
}

// loopBudget bounds how often transition ti, on a loop of q, runs in a run.
//
// A counter step is a transition e of ti's strongly connected component
// that assigns r := r + c for a constant c > 0, where no other transition of
// the component assigns r: inside the component r only grows, so e runs at
// most (hi-lo)/c + 1 times, [lo, hi] being r's values at e's source (regs,
// from an iteration of the inference); and a process never returns to a
// component it left. If every cycle through ti passes a counter step, each
// run of ti after the first needs one of them in between, so ti runs at
// most 1 + Σ n(e) times. The cycles are those of the successions of
// transitions, without the successions no run can take: a guard right after
// a transition that sets its registers to constants for which it is false
// (the failed compare-and-swap's retry after a success).
func loopBudget(q *model.Process, comp []int, regs [][]abs, ti int) (int, bool) {
	c := comp[q.Trans[ti].From]
	in := func(t model.Transition) bool { return comp[t.From] == c && comp[t.To] == c }
	assigns := func(o model.Op, r int) bool {
		switch o.Kind {
		case model.Assign, model.Read:
			return o.Reg == r
		case model.Locked:
			for _, b := range o.Body {
				if (b.Kind == model.Assign || b.Kind == model.Read) && b.Reg == r {
					return true
				}
			}
		}
		return false
	}
	budget := 0
	counter := make([]bool, len(q.Trans))
	for ei, e := range q.Trans {
		if !in(e) || e.Op.Kind != model.Assign {
			continue
		}
		b, ok := e.Op.Expr.(model.Binary)
		if !ok || b.Op != model.OpAdd {
			continue
		}
		x, okx := b.X.(model.RegRef)
		k, okk := b.Y.(model.Const)
		if !okx || !okk || x.Reg != e.Op.Reg || k.Value <= 0 || regs[e.From] == nil {
			continue
		}
		alone := true
		for oi, o := range q.Trans {
			if oi != ei && in(o) && assigns(o.Op, x.Reg) {
				alone = false
			}
		}
		v := regs[e.From][x.Reg]
		if !alone || v.top || v.empty() {
			continue
		}
		lo, hi := v.bounds()
		if !spanBelow(lo, hi, maxWriteEvents) {
			continue
		}
		counter[ei] = true
		budget += int((hi-lo)/k.Value) + 1
	}
	for ci, k := range copyCounters(q, in, assigns, regs) {
		if !counter[ci] {
			counter[ci] = true
			budget += k
		}
	}
	// A way back to ti that takes no counter step, along successions a
	// run can take?
	if returnsAvoiding(q, ti, func(t, ui int) bool {
		u := q.Trans[ui]
		return !in(u) || counter[ui] || !follows(q.Trans[t].Op, u.Op, len(q.Regs))
	}) {
		return 0, false
	}
	return 1 + budget, 1+budget <= maxWriteEvents
}

// copyCounters finds the counters that a register and its copy make
// together, as the length of a slice grown by append in a loop is kept
// (n' := n + 1 at the append, n := n' where the loop's variable takes the
// grown slice): a copy c, x := y, inside the component (in) such that
// the component assigns y only at one step e, y := x + k with k > 0, and
// x only at c, and every cycle through c passes e. Then x grows by at
// least k from one run of c to the next, so c runs at most (hi-lo)/k + 1
// times, [lo, hi] being y's values at c's source. It returns, by c, that
// bound.
func copyCounters(q *model.Process, in func(model.Transition) bool, assigns func(model.Op, int) bool, regs [][]abs) map[int]int {
	var out map[int]int
	for ci, c := range q.Trans {
		if !in(c) || c.Op.Kind != model.Assign || regs[c.From] == nil {
			continue
		}
		y, ok := c.Op.Expr.(model.RegRef)
		x := c.Op.Reg
		if !ok || y.Reg == x {
			continue
		}
		ei, k := -1, int64(0)
		alone := true
		for oi, o := range q.Trans {
			if !in(o) {
				continue
			}
			if oi != ci && assigns(o.Op, x) {
				alone = false
			}
			if assigns(o.Op, y.Reg) {
				if ei >= 0 {
					alone = false
				}
				ei = oi
			}
		}
		if !alone || ei < 0 || q.Trans[ei].Op.Kind != model.Assign {
			continue
		}
		b, ok := q.Trans[ei].Op.Expr.(model.Binary)
		if !ok || b.Op != model.OpAdd {
			continue
		}
		from, okx := b.X.(model.RegRef)
		step, okk := b.Y.(model.Const)
		if !okx || !okk || from.Reg != x || step.Value <= 0 {
			continue
		}
		k = step.Value
		v := regs[c.From][y.Reg]
		if v.top || v.empty() {
			continue
		}
		lo, hi := v.bounds()
		if !spanBelow(lo, hi, maxWriteEvents) || !passesOnCycles(q, in, ci, ei) {
			continue
		}
		if out == nil {
			out = map[int]int{}
		}
		out[ci] = int((hi-lo)/k) + 1
	}
	return out
}

// passesOnCycles reports whether every cycle through transition ci inside
// the component (in) passes transition ei.
func passesOnCycles(q *model.Process, in func(model.Transition) bool, ci, ei int) bool {
	return !returnsAvoiding(q, ci, func(_, ui int) bool { return ui == ei || !in(q.Trans[ui]) })
}

// returnsAvoiding reports whether a depth-first search over the
// successions of q from transition start finds a way back to start that
// takes no succession skip(t, u) rules out.
func returnsAvoiding(q *model.Process, start int, skip func(t, u int) bool) bool {
	seen := make([]bool, len(q.Trans))
	stack := []int{start}
	for len(stack) > 0 {
		t := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, ui := range q.Out(q.Trans[t].To) {
			if skip(t, ui) {
				continue
			}
			if ui == start {
				return true
			}
			if !seen[ui] {
				seen[ui] = true
				stack = append(stack, ui)
			}
		}
	}
	return false
}

// follows reports whether a process can take operation next right after
// prev: false only when next is a guard that is false for the constants
// prev assigns to registers.
func follows(prev, next model.Op, nregs int) bool {
	if next.Kind != model.Guard {
		return true
	}
	regs := make([]abs, nregs)
	for r := range regs {
		regs[r] = topAbs
	}
	set := func(o model.Op) {
		if o.Kind == model.Assign {
			if c, ok := o.Expr.(model.Const); ok && o.Reg >= 0 && o.Reg < nregs {
				regs[o.Reg] = single(c.Value)
			} else if o.Reg >= 0 && o.Reg < nregs {
				regs[o.Reg] = topAbs
			}
		}
		if o.Kind == model.Read && o.Reg >= 0 && o.Reg < nregs {
			regs[o.Reg] = topAbs
		}
	}
	set(prev)
	for _, b := range prev.Body {
		set(b)
	}
	env := &absEnv{regs: regs, vars: nil}
	return mayHoldGuard(env, next.Expr)
}

// mayHoldGuard reports whether guard g can hold in env, where shared
// variables (which a guard does not name) count as unknown.
func mayHoldGuard(env *absEnv, g model.Expr) bool {
	named := false
	model.WalkExpr(g, func(e model.Expr) {
		if _, ok := e.(model.VarRef); ok {
			named = true
		}
	})
	return named || mayHold(env.eval(g))
}

// writes reports whether o writes shared memory.
func writes(o model.Op) bool {
	switch o.Kind {
	case model.Write:
		return true
	case model.Locked:
		return slices.ContainsFunc(o.Body, writes)
	}
	return false
}

func domainOf(a abs, lo, hi int64) model.Domain {
	if a.top {
		if lo > math.MinInt64 && hi < math.MaxInt64 && spanBelow(lo, hi, setCap) {
			return model.Range(lo, hi)
		}
		return model.Unbounded
	}
	if a.empty() {
		return model.Range(max(lo, 0), max(lo, 0))
	}
	l, h := a.bounds()
	return model.Range(max(l, lo), min(h, hi))
}

// analyse runs the register analysis of one process against the current
// variable values; writes are reported through writeVar. It returns the
// abstract registers at every location (nil where unreachable). seed, when
// not nil, is what it returned in the round before, against variables that
// held no more values: before, what they held when that round began.
func (p *proc) analyse(vars []abs, writeVar func(int, abs), seed [][]abs, before []abs) [][]abs {
	q := p.q
	states := make([][]abs, len(q.Locs))
	changes := make([]int, len(q.Locs))
	init := make([]abs, len(q.Regs))
	for r := range init {
		init[r] = single(q.Regs[r].Init.Value)
	}
	states[q.Init] = init
	thresholds := p.thresholds()
	work := []int{q.Init}
	inWork := make([]bool, len(q.Locs))
	inWork[q.Init] = true
	if seed != nil {
		// The registers of the round before, when the variables held no
		// more than now, lie below this round's fixpoint: starting from
		// them, with every location to step from, reaches a fixpoint
		// again (sound, as every step runs from the final registers), in
		// a few passes instead of one per value of each loop counter.
		// States are never changed in place, so they are shared.
		// Only the steps that read a variable that changed since can
		// give more than they gave then: the work starts at their
		// locations.
		work = work[:0]
		changed := make([]bool, len(vars))
		for x := range vars {
			changed[x] = !vars[x].equal(before[x])
		}
		for l, st := range seed {
			if st == nil {
				continue
			}
			states[l] = st
			for _, ti := range q.Out(l) {
				if p.readsAny(ti, changed) {
					inWork[l] = true
					work = append(work, l)
					break
				}
			}
		}
	}
	// The registers after a step and their join with the target's are
	// computed in scratch, and copied only when the target changes.
	env := &absEnv{regs: make([]abs, len(q.Regs)), vars: vars}
	joined := make([]abs, len(q.Regs))
	for len(work) > 0 {
		l := work[0]
		work = work[1:]
		inWork[l] = false
		from := states[l]
		env.load(from)
		for _, ti := range q.Out(l) {
			t := q.Trans[ti]
			if sameSlice(states[l], from) {
				env.resetTo(from)
			} else {
				// A step to l itself changed its state.
				from = states[l]
				env.load(from)
			}
			*p.s.inferWork += int64(len(q.Regs)) + 1
			if !p.step(env, t.Op, writeVar) {
				continue
			}
			old := states[t.To]
			var n []abs
			if old == nil {
				n = slices.Clone(env.regs)
			} else {
				same := true
				for r := range old {
					joined[r] = join(old[r], env.regs[r])
					if !joined[r].equal(old[r]) {
						same = false
					}
				}
				if same {
					continue
				}
				n = slices.Clone(joined)
			}
			changes[t.To]++
			if changes[t.To] > widenAt && old != nil {
				// Widen what keeps changing: to the next constants of
				// the process first (a loop bound, which a guard then
				// keeps), to top after thresholdWidenings of them.
				toTop := changes[t.To] > widenAt*(thresholdWidenings+1)
				for r := range n {
					if !n[r].equal(old[r]) {
						lo, hi := p.regLimits(r)
						if toTop {
							n[r] = clip(topAbs, lo, hi)
							continue
						}
						n[r] = clip(widenTo(old[r], n[r], thresholds), lo, hi)
					}
				}
			}
			states[t.To] = n
			if !inWork[t.To] {
				inWork[t.To] = true
				work = append(work, t.To)
			}
		}
	}
	return states
}

// thresholds returns the constants of p's operations, and each one plus
// and minus one, sorted: the bounds a widening tries before top.
func (p *proc) thresholds() []int64 {
	if p.thresh != nil {
		return p.thresh
	}
	out := []int64{}
	add := func(e model.Expr) {
		model.WalkExpr(e, func(e model.Expr) {
			if c, ok := e.(model.Const); ok {
				out = append(out, c.Value)
				if c.Value < math.MaxInt64 {
					out = append(out, c.Value+1)
				}
				if c.Value > math.MinInt64 {
					out = append(out, c.Value-1)
				}
			}
		})
	}
	for _, t := range p.q.Trans {
		add(t.Op.Expr)
		for _, b := range t.Op.Body {
			add(b.Expr)
		}
	}
	slices.Sort(out)
	p.thresh = slices.Compact(out)
	return p.thresh
}

// widenTo widens old to cover n: each bound that moved goes to the next
// threshold beyond it, or to the end of int64 when there is none.
func widenTo(old, n abs, thresholds []int64) abs {
	if n.top || old.top || old.empty() {
		return topAbs
	}
	ol, oh := old.bounds()
	nl, nh := n.bounds()
	lo, hi := nl, nh
	if nl < ol {
		lo = math.MinInt64
		if i, _ := slices.BinarySearch(thresholds, nl+1); i > 0 {
			lo = thresholds[i-1]
		}
	}
	if nh > oh {
		hi = math.MaxInt64
		if i, _ := slices.BinarySearch(thresholds, nh); i < len(thresholds) {
			hi = thresholds[i]
		}
	}
	if lo == math.MinInt64 && hi == math.MaxInt64 {
		return topAbs
	}
	return abs{ival: true, lo: lo, hi: hi}
}

// step applies one operation to env; false means it can never be taken.
func (p *proc) step(env *absEnv, o model.Op, writeVar func(int, abs)) bool {
	setReg := func(r int, a abs) {
		lo, hi := p.regLimits(r)
		env.set(r, clip(a, lo, hi))
	}
	switch o.Kind {
	case model.Assign:
		setReg(o.Reg, env.eval(o.Expr))
	case model.Guard:
		return env.refine(o.Expr)
	case model.Read:
		v := env.vars[o.Var]
		if o.Expr != nil {
			want := env.eval(o.Expr)
			if vs, ok := want.values(); ok && len(vs) == 1 {
				v = single(vs[0])
			}
		}
		if o.Reg >= 0 {
			setReg(o.Reg, v)
		}
	case model.Write:
		writeVar(o.Var, env.eval(o.Expr))
	case model.Locked:
		for _, b := range o.Body {
			if !p.step(env, b, writeVar) {
				return false
			}
		}
	}
	return true
}

// readsAny reports whether transition ti of p reads a variable marked in
// vars: a read of it, or an expression naming it (in a locked step's body
// too). The variables each transition reads are computed once.
func (p *proc) readsAny(ti int, vars []bool) bool {
	if len(p.transReads) != len(p.q.Trans) {
		p.transReads = make([][]int, len(p.q.Trans))
		for i, t := range p.q.Trans {
			var reads []int
			visitOp(t.Op, func(o model.Op) {
				if o.Kind == model.Read {
					reads = append(reads, o.Var)
				}
				if o.Expr != nil {
					model.WalkExpr(o.Expr, func(e model.Expr) {
						if v, ok := e.(model.VarRef); ok {
							reads = append(reads, v.Var)
						}
					})
				}
			})
			p.transReads[i] = reads
		}
	}
	for _, x := range p.transReads[ti] {
		if vars[x] {
			return true
		}
	}
	return false
}

// forEachOp calls f on every operation of p's processes, those of locked
// steps one by one (after the step itself).
func forEachOp(p *model.Program, f func(model.Op)) {
	for _, q := range p.Procs {
		for _, t := range q.Trans {
			visitOp(t.Op, f)
		}
	}
}

// writtenVars returns the variables the operations of p write.
func writtenVars(p *model.Program) map[int]bool {
	w := map[int]bool{}
	forEachOp(p, func(op model.Op) { markWrites(op, w) })
	return w
}

// markWrites adds to w the variable op writes, if it is a write (the
// writes of its body are operations of their own).
func markWrites(op model.Op, w map[int]bool) {
	if op.Kind == model.Write {
		w[op.Var] = true
	}
}

// visitOp calls f on op and on every operation of its body, in turn.
func visitOp(op model.Op, f func(model.Op)) {
	f(op)
	for _, b := range op.Body {
		visitOp(b, f)
	}
}

// unobservedVars finds the variables whose value no operation looks at:
// never read into a register, compared or used in an expression, except by
// the write of its own atomic update.
func (s *system) unobservedVars() []bool {
	obs := make([]bool, len(s.prog.Vars))
	mark := func(e model.Expr, self int) {
		model.WalkExpr(e, func(e model.Expr) {
			if v, ok := e.(model.VarRef); ok && v.Var != self {
				obs[v.Var] = true
			}
		})
	}
	forEachOp(s.prog, func(o model.Op) {
		switch o.Kind {
		case model.Read:
			if o.Reg >= 0 || o.Expr != nil {
				obs[o.Var] = true
			}
		case model.Write:
			mark(o.Expr, o.Var)
		case model.Guard, model.Assign:
			mark(o.Expr, -1)
		}
	})
	for i := range obs {
		obs[i] = !obs[i]
	}
	return obs
}

// freeze makes every write of x write its initial value.
func (s *system) freeze(x int) {
	c := model.C(s.prog.Vars[x].Init.Value)
	for _, q := range s.prog.Procs {
		for ti := range q.Trans {
			o := &q.Trans[ti].Op
			if o.Kind == model.Write && o.Var == x {
				o.Expr = c
			}
			for bi := range o.Body {
				if o.Body[bi].Kind == model.Write && o.Body[bi].Var == x {
					o.Body[bi].Expr = c
				}
			}
		}
	}
}

// sameSlice reports whether a and b are the same slice (states are never
// changed in place: a new state is a new slice).
func sameSlice(a, b []abs) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}
