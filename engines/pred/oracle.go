package pred

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/lib/smt"
)

// oracle decides satisfiability of conjunctions of terms, in difference
// logic by itself (difflogic.go) and otherwise with Z3, and remembers
// every answer: the abstract post asks the same small questions
// over and over, in one run of Algorithm 1 and across refinements.
type oracle struct {
	t     *terms
	ctx   *smt.Context
	sol   *smt.Solver
	exprs map[tid]*smt.Expr
	vars  map[string]dvar // smt constant name -> variable
	memo  map[string]bool
	// models keeps the satisfying values satModel found, by question.
	models map[string]map[dvar]int64
	key    []byte
	// kept are recent satisfying valuations (see witness.go), nextKept
	// the one to replace next.
	kept     []valuation
	nextKept int
	// Queries counts the questions asked, Calls those that reached Z3.
	queries, calls int64
	// noDiff sends the questions in difference logic to Z3 too (tests).
	noDiff bool
	// meter is charged for every call of Z3.
	meter *engines.Meter
	// interrupted is set when the analysis using the oracle ran out of
	// time and its solver check was interrupted.
	interrupted *atomic.Bool
}

// call counts a call of Z3.
func (o *oracle) call() {
	o.calls++
	o.meter.SolverCalls(1)
}

func newOracle(t *terms) (*oracle, error) {
	ctx, err := smt.NewContext(smt.Config{})
	if err != nil {
		return nil, err
	}
	sol, err := ctx.NewSolver()
	if err == nil {
		err = sol.SetResourceLimit(checkLimit)
	}
	if err != nil {
		ctx.Close()
		return nil, err
	}
	return &oracle{t: t, ctx: ctx, sol: sol, exprs: make(map[tid]*smt.Expr), vars: make(map[string]dvar), memo: make(map[string]bool), models: make(map[string]map[dvar]int64)}, nil
}

// checkLimit is the resource limit of each Z3 check (Z3's rlimit units,
// counted the same on every machine). A question that needs more (a
// product or a quotient of values known only at run time can take Z3 longer
// than any budget) ends the analysis inconclusive (errCheckLimit), where it
// used to run into the wall-clock budget. The questions of examples/ and
// of Table 1 of the paper need far less.
var checkLimit uint32 = 1 << 27

// errCheckLimit is the error of a Z3 check that ran out of checkLimit; it
// and errUnknown make the analysis inconclusive.
var errCheckLimit = errors.New("a solver check exceeded its resource limit")

// unknown returns the error of a check that answered unknown on what: the
// interruption's, errCheckLimit, or Z3's reason.
func (o *oracle) unknown(what string) error {
	if err := o.stopped(); err != nil {
		return err
	}
	// Z3 4.8 gives "canceled" for a check stopped by its resource limit
	// (an interruption, also "canceled", was ruled out above).
	reason, _ := o.sol.ReasonUnknown()
	if reason == "canceled" || strings.Contains(reason, "resource") || strings.Contains(reason, "rlimit") {
		return fmt.Errorf("%w of %d units on %s", errCheckLimit, checkLimit, what)
	}
	return fmt.Errorf("%w: Z3 answered unknown (%s) on %s", errUnknown, reason, what)
}

// errUnknown is the error of a Z3 check that answered unknown for a reason
// of its own (an incomplete theory).
var errUnknown = errors.New("a solver check answered unknown")

// maxMemo bounds the remembered answers; the memory is cleared when full.
const maxMemo = 1 << 22

// stopped returns an error wrapping context.Canceled when the check that
// answered unknown was interrupted because the analysis ran out of time.
func (o *oracle) stopped() error {
	if o.interrupted != nil && o.interrupted.Load() {
		return fmt.Errorf("solver check interrupted: %w", context.Canceled)
	}
	return nil
}

// healthy reports whether o may serve another analysis: its memory is not
// too large.
func (o *oracle) healthy() bool { return len(o.memo)+len(o.models) < maxMemo }

func (o *oracle) close() {
	o.sol.Close()
	o.ctx.Close()
}

// sat reports whether the conjunction of conj (sorted) is satisfiable.
func (o *oracle) sat(conj []tid) (bool, error) {
	o.queries++
	k := o.key[:0]
	for _, x := range conj {
		if x == idFalse {
			return false, nil
		}
		k = binary.AppendUvarint(k, uint64(x))
	}
	o.key = k
	if v, ok := o.memo[string(k)]; ok {
		return v, nil
	}
	if o.satisfiedByKept(conj) {
		o.memo[string(k)] = true
		return true, nil
	}
	if !o.noDiff {
		if sat, ok := o.t.diffSat(conj); ok {
			o.memo[string(k)] = sat
			return sat, nil
		}
	}
	o.call()
	if err := o.sol.Push(); err != nil {
		return false, err
	}
	defer o.sol.Pop(1)
	for _, x := range conj {
		if err := o.sol.Assert(o.expr(x)); err != nil {
			return false, fmt.Errorf("asserting %s: %w", o.t.String(x, dvarName), err)
		}
	}
	r, err := o.sol.Check()
	if err != nil {
		return false, err
	}
	if r == smt.Unknown {
		return false, o.unknown(fmt.Sprintf("%d conjuncts", len(conj)))
	}
	o.memo[string(o.key)] = r == smt.Sat
	// Reading a model costs a good part of a check, so only every
	// keepEvery-th satisfiable question's model is kept.
	if r == smt.Sat && o.calls%keepEvery == 0 {
		m, err := o.sol.Model()
		if err != nil {
			return false, err
		}
		o.keep(m, conj)
	}
	return r == smt.Sat, nil
}

// satModel reports whether the conjunction of conj (sorted) is
// satisfiable and, if so, values of its variables that satisfy it.
func (o *oracle) satModel(conj []tid) (map[dvar]int64, bool, error) {
	o.queries++
	k := o.key[:0]
	for _, x := range conj {
		if x == idFalse {
			return nil, false, nil
		}
		k = binary.AppendUvarint(k, uint64(x))
	}
	o.key = k
	if v, ok := o.memo[string(k)]; ok && !v {
		return nil, false, nil
	}
	if m, ok := o.models[string(k)]; ok {
		return m, true, nil
	}
	key := string(k)
	var vars []dvar
	for _, x := range conj {
		for _, v := range o.t.Vars(x) {
			if !slices.Contains(vars, v) {
				vars = append(vars, v)
			}
		}
	}
	vals, ok, err := o.model(conj, vars)
	if err != nil {
		return nil, false, err
	}
	o.memo[key] = ok
	if ok {
		o.models[key] = vals
	}
	return vals, ok, nil
}

// model returns values for vars satisfying the conjunction, or ok false when
// there is none.
func (o *oracle) model(conj []tid, vars []dvar) (map[dvar]int64, bool, error) {
	o.call()
	if err := o.sol.Push(); err != nil {
		return nil, false, err
	}
	defer o.sol.Pop(1)
	for _, x := range conj {
		if err := o.sol.Assert(o.expr(x)); err != nil {
			return nil, false, err
		}
	}
	r, err := o.sol.Check()
	if err != nil {
		return nil, false, err
	}
	switch r {
	case smt.Unsat:
		return nil, false, nil
	case smt.Unknown:
		return nil, false, o.unknown(fmt.Sprintf("a path formula of %d conjuncts", len(conj)))
	}
	out, err := o.values(vars)
	if !errors.Is(err, smt.ErrNotInt64) {
		return out, err == nil, err
	}
	// The model has values beyond int64, which no value of the program
	// is: ask again for one within int64 (a conjunction that has none
	// holds of no state of the program's runs).
	for _, v := range vars {
		x := o.expr(o.t.Var(v))
		if err := o.sol.Assert(o.ctx.Le(o.ctx.IntVal(math.MinInt64), x), o.ctx.Le(x, o.ctx.IntVal(math.MaxInt64))); err != nil {
			return nil, false, err
		}
	}
	if r, err = o.sol.Check(); err != nil || r != smt.Sat {
		if err == nil && r == smt.Unknown {
			err = o.unknown(fmt.Sprintf("a path formula of %d conjuncts with int64 bounds", len(conj)))
		}
		return nil, false, err
	}
	out, err = o.values(vars)
	return out, err == nil, err
}

// values returns the values of vars in the solver's model.
func (o *oracle) values(vars []dvar) (map[dvar]int64, error) {
	m, err := o.sol.Model()
	if err != nil {
		return nil, err
	}
	out := make(map[dvar]int64, len(vars))
	for _, v := range vars {
		x, err := m.Int(o.expr(o.t.Var(v)))
		if err != nil {
			return nil, fmt.Errorf("model value of %s: %w", dvarName(v), err)
		}
		out[v] = x
	}
	return out, nil
}

func (o *oracle) expr(x tid) *smt.Expr {
	if e, ok := o.exprs[x]; ok {
		return e
	}
	c := o.ctx
	n := o.t.node(x)
	var e *smt.Expr
	switch n.Op {
	case tTrue:
		e = c.True()
	case tFalse:
		e = c.False()
	case tVar:
		name := dvarName(n.V)
		o.vars[name] = n.V
		e = c.Int(name)
	case tLin:
		var sum []*smt.Expr
		if n.C != 0 || len(n.Args) == 0 {
			sum = append(sum, c.IntVal(n.C))
		}
		for i, a := range n.Args {
			ae := o.expr(a)
			if k := n.Coef[i]; k != 1 {
				ae = c.Mul(c.IntVal(k), ae)
			}
			sum = append(sum, ae)
		}
		if len(sum) == 1 {
			e = sum[0]
		} else {
			e = c.Add(sum...)
		}
	case tMul:
		e = c.Mul(o.expr(n.Args[0]), o.expr(n.Args[1]))
	case tEMod:
		e = c.Mod(o.expr(n.Args[0]), c.IntVal(n.C))
	case tDiv, tMod:
		// Go truncates toward zero; Z3's div is Euclidean.
		a := o.expr(n.Args[0])
		k := n.C
		neg := k < 0
		if neg {
			k = -k
		}
		kk := c.IntVal(k)
		q := c.Ite(c.Ge(a, c.IntVal(0)), c.Div(a, kk), c.Neg(c.Div(c.Neg(a), kk)))
		if neg {
			q = c.Neg(q)
		}
		if n.Op == tDiv {
			e = q
		} else {
			e = c.Sub(a, c.Mul(c.IntVal(n.C), q))
		}
	case tDivV, tModV:
		e = o.truncDivMod(n.Op, o.expr(n.Args[0]), o.expr(n.Args[1]))
	case tWrap64:
		e = o.wrap64(n.Args[0])
	case tIte:
		e = c.Ite(o.expr(n.Args[0]), o.expr(n.Args[1]), o.expr(n.Args[2]))
	case tEq:
		e = c.Eq(o.expr(n.Args[0]), c.IntVal(0))
	case tLe:
		e = c.Le(o.expr(n.Args[0]), c.IntVal(0))
	case tNot:
		e = c.Not(o.expr(n.Args[0]))
	case tAnd, tOr:
		args := make([]*smt.Expr, len(n.Args))
		for i, a := range n.Args {
			args[i] = o.expr(a)
		}
		if n.Op == tAnd {
			e = c.And(args...)
		} else {
			e = c.Or(args...)
		}
	}
	o.exprs[x] = e
	return e
}

// truncDivMod returns Go's a / b (tDivV) or a % b (tModV) for a divisor b
// that is not zero, from Z3's Euclidean div and mod (a = b·q + r with
// 0 ≤ r < |b|): Go's quotient is q, but one step nearer zero when a is
// negative and r is not 0; Go's remainder is then r - |b|. For b = 0 the
// term is Z3's, which no step uses: the division faults.
func (o *oracle) truncDivMod(op top, a, b *smt.Expr) *smt.Expr {
	c := o.ctx
	zero := c.IntVal(0)
	q, r := c.Div(a, b), c.Mod(a, b)
	adjust := c.Not(c.Or(c.Ge(a, zero), c.Eq(r, zero)))
	if op == tDivV {
		step := c.Ite(c.Gt(b, zero), c.IntVal(1), c.IntVal(-1))
		return c.Ite(adjust, c.Add(q, step), q)
	}
	abs := c.Ite(c.Ge(b, zero), b, c.Neg(b))
	return c.Ite(adjust, c.Sub(r, abs), r)
}

// wrap64 returns x reduced modulo 2^64 into int64. A sum of at most two
// int64 values and a constant lies within ±3·2^63, where one correction
// by 2^64 is enough: an if-then-else, which Z3 decides far more easily than
// the remainder ((x + 2^63) mod 2^64) - 2^63 that any other x takes (Z3
// 4.8 can spend minutes on a parity question about the remainder). The
// values of variables are int64 in every state of the program; a question
// over values beyond is only ever less precise, never wrong, since the
// engine concludes only from unsatisfiability.
func (o *oracle) wrap64(x tid) *smt.Expr {
	c := o.ctx
	a := o.expr(x)
	half := c.Add(c.IntVal(1<<62), c.IntVal(1<<62))
	full := c.Add(half, half)
	if !o.t.smallSum(x) {
		return c.Sub(c.Mod(c.Add(a, half), full), half)
	}
	return c.Ite(c.Ge(a, half), c.Sub(a, full), c.Ite(c.Lt(a, c.Neg(half)), c.Add(a, full), a))
}

// eliminate returns a quantifier-free term equivalent to ∃vs. x, by Z3's
// qe tactic, or ok false when the result is outside the term language.
func (o *oracle) eliminate(vs []dvar, x tid) (tid, bool, error) {
	c := o.ctx
	bound := make([]*smt.Expr, len(vs))
	for i, v := range vs {
		bound[i] = o.expr(o.t.Var(v))
	}
	r, err := c.QE(c.Exists(bound, o.expr(x)))
	if err != nil {
		return 0, false, err
	}
	y, ok := o.fromSMT(r)
	return y, ok, nil
}

// fromSMT translates a Z3 term back into a term, if it is in the language.
func (o *oracle) fromSMT(e *smt.Expr) (tid, bool) {
	t := o.t
	args := e.Args()
	sub := func() ([]tid, bool) {
		out := make([]tid, len(args))
		for i, a := range args {
			x, ok := o.fromSMT(a)
			if !ok {
				return nil, false
			}
			out[i] = x
		}
		return out, true
	}
	switch e.Op() {
	case smt.OpTrue:
		return idTrue, true
	case smt.OpFalse:
		return idFalse, true
	case smt.OpNumeral:
		v, ok := e.Int64()
		if !ok {
			return 0, false
		}
		return t.Const(v), true
	case smt.OpConst:
		v, ok := o.vars[e.Name()]
		if !ok {
			return 0, false
		}
		return t.Var(v), true
	}
	xs, ok := sub()
	if !ok {
		return 0, false
	}
	switch e.Op() {
	case smt.OpAnd:
		return t.And(xs...), true
	case smt.OpOr:
		return t.Or(xs...), true
	case smt.OpNot:
		return t.Not(xs[0]), true
	case smt.OpImplies:
		return t.Or(t.Not(xs[0]), xs[1]), true
	case smt.OpAdd:
		s := t.Const(0)
		for _, x := range xs {
			s = t.AddK(s, 1, x)
		}
		return s, true
	case smt.OpSub:
		if len(xs) == 1 {
			return t.Scale(-1, xs[0]), true
		}
		s := xs[0]
		for _, x := range xs[1:] {
			s = t.AddK(s, -1, x)
		}
		return s, true
	case smt.OpNeg:
		return t.Scale(-1, xs[0]), true
	case smt.OpMul:
		s := t.Const(1)
		for _, x := range xs {
			s = t.Mul(s, x)
		}
		return s, true
	case smt.OpEq:
		if len(xs) == 2 && !t.isBool(xs[0]) {
			return t.Eq(xs[0], xs[1]), true
		}
	case smt.OpLe:
		return t.Le(xs[0], xs[1]), true
	case smt.OpLt:
		return t.Lt(xs[0], xs[1]), true
	case smt.OpGe:
		return t.Le(xs[1], xs[0]), true
	case smt.OpGt:
		return t.Lt(xs[1], xs[0]), true
	case smt.OpIte:
		if !t.isBool(xs[1]) {
			return t.Ite(xs[0], xs[1], xs[2]), true
		}
	}
	return 0, false
}

// core returns the indices of a minimal subset of soft whose conjunction
// with hard is unsatisfiable, or ok false when all of them together are
// satisfiable.
func (o *oracle) core(hard, soft []tid) ([]int, bool, error) {
	c := o.ctx
	o.call()
	if err := o.sol.Push(); err != nil {
		return nil, false, err
	}
	defer o.sol.Pop(1)
	for _, x := range hard {
		if err := o.sol.Assert(o.expr(x)); err != nil {
			return nil, false, err
		}
	}
	names := make([]*smt.Expr, len(soft))
	index := make(map[uint32]int, len(soft))
	for i, x := range soft {
		names[i] = c.Bool(fmt.Sprintf("core%d", i))
		index[names[i].ID()] = i
		if err := o.sol.Assert(c.Implies(names[i], o.expr(x))); err != nil {
			return nil, false, err
		}
	}
	r, err := o.sol.CheckAssumptions(names...)
	if err != nil {
		return nil, false, err
	}
	if r == smt.Unknown {
		if err := o.stopped(); err != nil {
			return nil, false, err
		}
	}
	if r != smt.Unsat {
		return nil, false, nil
	}
	core, err := o.sol.UnsatCore()
	if err != nil {
		return nil, false, err
	}
	var keep []int
	for _, e := range core {
		if i, ok := index[e.ID()]; ok {
			keep = append(keep, i)
		}
	}
	slices.Sort(keep)
	// Deletion: drop every member the rest refutes without.
	for j := 0; j < len(keep); {
		var as []*smt.Expr
		for jj, i := range keep {
			if jj != j {
				as = append(as, names[i])
			}
		}
		o.call()
		r, err := o.sol.CheckAssumptions(as...)
		if err != nil {
			return nil, false, err
		}
		if r == smt.Unknown {
			if err := o.stopped(); err != nil {
				return nil, false, err
			}
		}
		if r == smt.Unsat {
			keep = slices.Delete(keep, j, j+1)
			continue
		}
		j++
	}
	return keep, true, nil
}
