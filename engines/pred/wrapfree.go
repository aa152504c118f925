package pred

import (
	"fmt"
	"math"
	"math/bits"
	"path/filepath"
	"slices"

	"github.com/fencecheck/fencecheck/internal/graph"
	"github.com/fencecheck/fencecheck/model"
)

// The engine computes with mathematical integers, where the model's 64-bit
// arithmetic wraps (model.Eval): the two agree on a run exactly as long as
// no value the run computes, nor any part of one, leaves int64. A proof is
// therefore a proof for the program only for the runs that wrap nothing.
// wrapFree bounds how long that lasts, by a growth argument that needs no
// search. Each unbounded variable and register v gets a bound c + d·n on
// its magnitude after n operations, derived from the values assigned to
// it, over the strongly connected components of the graph in which v
// depends on the unbounded locations its assigned values read, sources
// first:
//
//   - v on no cycle: the largest bound of its initial value and of the
//     values assigned to it (a sum of two tickets may be twice as large);
//   - a cycle C: every member bounded by one c_C + d_C·n when each value
//     assigned to a member adds at most one member's value, and, when it
//     adds one, only a bounded amount besides (u + 1: d_C covers the
//     amount); a value that adds none is bounded by the rest (c_C and
//     d_C cover its bound). A value adding two members (x + x) may double
//     at every step, and the argument gives no bound.
//
// Values of bounded domains stay in them (the domains are the model's).
// Every part of every expression then has a bound c + d·n, and none
// computed within the first (MaxInt64 - c)/d operations leaves int64. A
// ticket that grows by one per lock (the bakery, a ticket lock) wraps after
// no fewer than about 2^63 operations; a value doubled in a loop, or a
// counter that starts near the end of int64, after few. Below
// MinWrapFreeOps, a proof is not given: the answer is inconclusive and
// names the expression.

// MinWrapFreeOps is the least number of operations every run of which must
// be free of 64-bit wrap-around for the engine to call a program safe: at
// one operation a nanosecond, about 36 years of running.
const MinWrapFreeOps = 1 << 60

// noWrapLimit stands for "no run wraps", the most wrapFree returns, and for
// a bound that saturated.
const noWrapLimit = math.MaxUint64

// wrapBound is what wrapFree found: no run of fewer than ops operations
// computes a value beyond int64, and where the first may be.
type wrapBound struct {
	ops   uint64
	where string // the expression that limits ops, with its position; "" when none does
	// exprs are the parts of expressions whose bound is below
	// MinWrapFreeOps (see wrapExact).
	exprs []model.Expr
}

// reason says why a proof does not hold for the program's int64 values.
func (w wrapBound) reason() string {
	if w.ops == 0 {
		return fmt.Sprintf("the predicate engine computes with unbounded integers, which are Go's 64-bit integers only until a value wraps around, and %s may wrap around at once, or grow past int64 in a few steps (it adds up unbounded values that grow with it)", w.where)
	}
	return fmt.Sprintf("the predicate engine computes with unbounded integers, which are Go's 64-bit integers only until a value wraps around, and %s may wrap around within the first %s of a run", w.where, opsText(w.ops))
}

func opsText(n uint64) string {
	switch {
	case n == 1:
		return "operation"
	case n >= 1<<20:
		return fmt.Sprintf("2^%d operations", bits.Len64(n)-1)
	}
	return fmt.Sprintf("%d operations", n)
}

// magnitude is a bound c + d·n + k·M(n) on the magnitude of a value after
// n operations, where M(n) is the bound of the members of the cycle being
// analysed (k is 0 elsewhere). Sums and products saturate at noWrapLimit.
type magnitude struct{ c, d, k uint64 }

var unknownMagnitude = magnitude{c: noWrapLimit, d: noWrapLimit}

func (m magnitude) add(o magnitude) magnitude {
	return magnitude{c: satAdd(m.c, o.c), d: satAdd(m.d, o.d), k: satAdd(m.k, o.k)}
}

func (m magnitude) scale(f uint64) magnitude {
	return magnitude{c: satMul(m.c, f), d: satMul(m.d, f), k: satMul(m.k, f)}
}

func (m magnitude) join(o magnitude) magnitude {
	return magnitude{c: max(m.c, o.c), d: max(m.d, o.d), k: max(m.k, o.k)}
}

// constant reports whether m bounds a value by a constant.
func (m magnitude) constant() bool { return m.d == 0 && m.k == 0 }

func satAdd(x, y uint64) uint64 {
	s, c := bits.Add64(x, y, 0)
	if c != 0 {
		return noWrapLimit
	}
	return s
}

func satMul(x, y uint64) uint64 {
	hi, lo := bits.Mul64(x, y)
	if hi != 0 {
		return noWrapLimit
	}
	return lo
}

func absU(v int64) uint64 {
	if v < 0 {
		return uint64(-(v + 1)) + 1
	}
	return uint64(v)
}

func domMag(d model.Domain) uint64 { return max(absU(d.Lo), absU(d.Hi)) }

// wrapAnalysis holds what wrapFree needs while it walks the program. The
// unbounded locations are numbered: the variables first, then each
// process's registers.
type wrapAnalysis struct {
	p       *model.Program
	regBase []int       // the number of the first register of each process
	bound   []magnitude // by location, once its component is analysed
	done    []bool
	inCycle []bool // the location is a member of the cycle being analysed
}

func (w *wrapAnalysis) varLoc(x int) int        { return x }
func (w *wrapAnalysis) regLoc(q, r int) int     { return w.regBase[q] + r }
func (w *wrapAnalysis) unboundedVar(x int) bool { return w.p.Vars[x].Dom.Unbounded }

// loc returns the bound of location l as a term of a magnitude.
func (w *wrapAnalysis) loc(l int, dom model.Domain) magnitude {
	switch {
	case !dom.Unbounded:
		return magnitude{c: domMag(dom)}
	case w.inCycle[l]:
		return magnitude{k: 1}
	case w.done[l]:
		return w.bound[l]
	}
	return unknownMagnitude
}

// expr bounds e, evaluated by process q (-1 in a bad-state condition), and
// calls visit, when not nil, with the bound of every part of it where the
// engine's arithmetic and Go's may differ: a sum, difference, product,
// negation or quotient, unless it lies under a wrap through sums,
// differences, products and negations only (the engine reduces the exact
// value, Go the value wrapped at 64 bits: both are congruent modulo the
// wrap's power of two). The engine's other operators compute Go's value
// exactly (shifts and masks by constants: bitops.go), so their bounds are
// those of int64 at most.
func (w *wrapAnalysis) expr(e model.Expr, q int, visit func(magnitude, model.Expr)) magnitude {
	return w.exprBound(e, q, visit, false)
}

func (w *wrapAnalysis) exprBound(e model.Expr, q int, visit func(magnitude, model.Expr), underWrap bool) magnitude {
	sub := func(x model.Expr) magnitude { return w.exprBound(x, q, visit, false) }
	arith := func(x model.Expr) magnitude { return w.exprBound(x, q, visit, underWrap) }
	check := func(m magnitude) magnitude {
		if visit != nil && !underWrap {
			visit(m, e)
		}
		return m
	}
	switch e := e.(type) {
	case model.Const:
		return magnitude{c: absU(e.Value)}
	case model.VarRef:
		return w.loc(w.varLoc(e.Var), w.p.Vars[e.Var].Dom)
	case model.RegRef:
		p := e.Proc
		if p < 0 {
			p = q
		}
		return w.loc(w.regLoc(p, e.Reg), w.p.Procs[p].Regs[e.Reg].Dom)
	case model.Wrap:
		w.exprBound(e.X, q, visit, true)
		if e.Bits >= 63 {
			return magnitude{c: 1 << 63} // the int64 wrap of wrapExact
		}
		return magnitude{c: uint64(1) << e.Bits}
	case model.Unary:
		switch e.Op {
		case model.OpNot:
			sub(e.X)
			return magnitude{c: 1}
		case model.OpCompl:
			return int64Cap(sub(e.X).add(magnitude{c: 1}))
		}
		return check(arith(e.X))
	case model.Binary:
		switch e.Op {
		case model.OpAdd, model.OpSub:
			return check(arith(e.X).add(arith(e.Y)))
		case model.OpMul:
			x, y := arith(e.X), arith(e.Y)
			switch {
			case x.constant():
				return check(y.scale(x.c))
			case y.constant():
				return check(x.scale(y.c))
			}
			return check(unknownMagnitude)
		case model.OpDiv:
			x := sub(e.X)
			sub(e.Y)
			return check(x)
		}
		x, y := sub(e.X), sub(e.Y)
		switch e.Op {
		case model.OpMod:
			if y.constant() && (x.d != 0 || x.k != 0 || y.c < x.c) {
				return magnitude{c: y.c}
			}
			return x
		case model.OpEq, model.OpNe, model.OpLt, model.OpLe, model.OpGt, model.OpGe, model.OpAnd, model.OpOr:
			return magnitude{c: 1}
		case model.OpBitAnd, model.OpBitOr, model.OpXor, model.OpAndNot:
			if c, ok := e.Y.(model.Const); ok && c.Value >= 0 && e.Op == model.OpBitAnd {
				return magnitude{c: uint64(c.Value)}
			}
			if c, ok := e.X.(model.Const); ok && c.Value >= 0 && e.Op == model.OpBitAnd {
				return magnitude{c: uint64(c.Value)}
			}
			// Both operands within ±2^j: so is the result.
			return int64Cap(x.add(y).scale(2).add(magnitude{c: 1}))
		case model.OpShl:
			if c, ok := e.Y.(model.Const); ok && c.Value >= 0 && c.Value < 64 {
				return int64Cap(x.scale(uint64(1) << c.Value))
			}
			return magnitude{c: 1 << 63}
		case model.OpShr:
			return x
		case model.OpShrU:
			// A negative bit pattern shifted right is a large positive
			// value, within int64 for a count of 1 or more.
			return int64Cap(x.join(magnitude{c: 1 << 63}))
		}
	}
	return unknownMagnitude
}

// int64Cap bounds a value that is an int64 in the engine as in Go: by m
// while m is below 2^63, by 2^63 otherwise. A bound that grows with the
// operations becomes 2^63 at once when it is not part of a cycle's.
func int64Cap(m magnitude) magnitude {
	if m.k == 0 && m.d == 0 && m.c <= 1<<63 {
		return m
	}
	if m.k == 0 {
		return magnitude{c: 1 << 63}
	}
	return m
}

// assignment is a value assigned to an unbounded location: by process
// proc, the expression e, or a copy of variable src when e is nil.
type assignment struct {
	to, proc int
	e        model.Expr
	src      int
	at       string
}

// wrapFree returns how many operations every run of p performs before a
// value it computes can leave int64 (see the comment above): no bound when
// p's integers are mathematical, as the engine's are.
func wrapFree(p *model.Program) wrapBound {
	if p.Ints == model.Mathematical {
		return wrapBound{ops: noWrapLimit}
	}
	w := &wrapAnalysis{p: p}
	n := len(p.Vars)
	for _, q := range p.Procs {
		w.regBase = append(w.regBase, n)
		n += len(q.Regs)
	}
	w.bound, w.done, w.inCycle = make([]magnitude, n), make([]bool, n), make([]bool, n)
	init := make([]magnitude, n)
	initOf := func(in model.Init) magnitude {
		if in.Any {
			return unknownMagnitude
		}
		return magnitude{c: absU(in.Value)}
	}
	for x, v := range p.Vars {
		init[w.varLoc(x)] = initOf(v.Init)
	}
	for qi, q := range p.Procs {
		for r, reg := range q.Regs {
			init[w.regLoc(qi, r)] = initOf(reg.Init)
		}
	}
	// The values assigned to unbounded locations, and what they read.
	var assigns []assignment
	deps := make([][]int, n)
	byLoc := make([][]int, n)
	add := func(a assignment, reads []int) {
		byLoc[a.to] = append(byLoc[a.to], len(assigns))
		assigns = append(assigns, a)
		deps[a.to] = append(deps[a.to], reads...)
	}
	walkOps(p, func(qi int, t *model.Transition, o *model.Op) {
		q := p.Procs[qi]
		at := func() string {
			return fmt.Sprintf("%s (%s, %s)", model.FormatExpr(o.Expr, p, q), q.Name, shortPos(t.Pos))
		}
		switch o.Kind {
		case model.Assign:
			if q.Regs[o.Reg].Dom.Unbounded {
				add(assignment{to: w.regLoc(qi, o.Reg), proc: qi, e: o.Expr, at: at()}, w.reads(o.Expr, qi))
			}
		case model.Write:
			if p.Vars[o.Var].Dom.Unbounded {
				add(assignment{to: w.varLoc(o.Var), proc: qi, e: o.Expr, at: at()}, w.reads(o.Expr, qi))
			}
		case model.Read:
			if o.Reg >= 0 && q.Regs[o.Reg].Dom.Unbounded {
				var reads []int
				if w.unboundedVar(o.Var) {
					reads = []int{w.varLoc(o.Var)}
				}
				at := fmt.Sprintf("%s (%s, %s)", p.Vars[o.Var].Name, q.Name, shortPos(t.Pos))
				add(assignment{to: w.regLoc(qi, o.Reg), proc: qi, src: o.Var, at: at}, reads)
			}
		}
	})
	value := func(a assignment) magnitude {
		if a.e == nil {
			return w.loc(w.varLoc(a.src), p.Vars[a.src].Dom)
		}
		return w.expr(a.e, a.proc, nil)
	}
	// Bound each component, sources first (Tarjan's algorithm finds them
	// in that order).
	for _, comp := range graph.Components(deps) {
		cyclic := len(comp) > 1 || slices.Contains(deps[comp[0]], comp[0])
		if !cyclic {
			l := comp[0]
			b := init[l]
			for _, ai := range byLoc[l] {
				b = b.join(value(assigns[ai]))
			}
			w.bound[l], w.done[l] = b, true
			continue
		}
		for _, l := range comp {
			w.inCycle[l] = true
		}
		var c magnitude // c.c and c.d: the cycle's bound
		for _, l := range comp {
			c = c.join(init[l])
			for _, ai := range byLoc[l] {
				a := assigns[ai]
				v := value(a)
				switch {
				case v.k == 0:
					c = c.join(v)
				case v.k == 1 && v.d == 0:
					// One member plus a bounded amount, per operation.
					c.d = max(c.d, v.c)
				default:
					return wrapBound{ops: 0, where: a.at, exprs: []model.Expr{a.e}}
				}
			}
		}
		for _, l := range comp {
			w.inCycle[l] = false
			w.bound[l], w.done[l] = magnitude{c: c.c, d: c.d}, true
		}
	}
	// Then the operations before each part of each expression can wrap.
	res := wrapBound{ops: noWrapLimit}
	check := func(where func() string) func(magnitude, model.Expr) {
		return func(m magnitude, e model.Expr) {
			ops := opsBefore(m)
			if ops < MinWrapFreeOps {
				res.exprs = append(res.exprs, e)
			}
			if ops < res.ops {
				res.ops, res.where = ops, where()
			}
		}
	}
	walkOps(p, func(qi int, t *model.Transition, o *model.Op) {
		if o.Expr == nil {
			return
		}
		q := p.Procs[qi]
		w.expr(o.Expr, qi, check(func() string {
			return fmt.Sprintf("%s (%s, %s)", model.FormatExpr(o.Expr, p, q), q.Name, shortPos(t.Pos))
		}))
	})
	for _, b := range p.Bad {
		if b.Cond != nil {
			w.expr(b.Cond, -1, check(func() string {
				return fmt.Sprintf("%s (bad state %s)", model.FormatExpr(b.Cond, p, nil), b.Name)
			}))
		}
	}
	return res
}

// reads returns the unbounded locations e reads, evaluated by process q.
func (w *wrapAnalysis) reads(e model.Expr, q int) []int {
	var out []int
	var walk func(e model.Expr)
	walk = func(e model.Expr) {
		switch e := e.(type) {
		case model.VarRef:
			if w.unboundedVar(e.Var) {
				out = append(out, w.varLoc(e.Var))
			}
		case model.RegRef:
			p := e.Proc
			if p < 0 {
				p = q
			}
			if w.p.Procs[p].Regs[e.Reg].Dom.Unbounded {
				out = append(out, w.regLoc(p, e.Reg))
			}
		case model.Wrap:
			walk(e.X)
		case model.Unary:
			walk(e.X)
		case model.Binary:
			walk(e.X)
			walk(e.Y)
		}
	}
	walk(e)
	return out
}

// shortPos formats pos with the file's base name, as diagnostics name
// positions.
func shortPos(pos model.Pos) string {
	if pos.File != "" {
		pos.File = filepath.Base(pos.File)
	}
	return pos.String()
}

// opsBefore is the number of operations before a value bounded by m can
// leave int64: m.c + m.d·n ≤ MaxInt64 for every n below it.
func opsBefore(m magnitude) uint64 {
	if m.c > math.MaxInt64 {
		return 0
	}
	if m.d == 0 {
		return noWrapLimit
	}
	return (math.MaxInt64-m.c)/m.d + 1
}

// walkOps calls f with every operation of p, those of locked bodies
// included, and the transition it belongs to.
func walkOps(p *model.Program, f func(proc int, t *model.Transition, o *model.Op)) {
	for qi, q := range p.Procs {
		for ti := range q.Trans {
			t := &q.Trans[ti]
			f(qi, t, &t.Op)
			for bi := range t.Op.Body {
				f(qi, t, &t.Op.Body[bi])
			}
		}
	}
}
