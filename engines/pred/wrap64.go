package pred

import (
	"math"

	"github.com/fencecheck/fencecheck/model"
)

// The engine computes with mathematical integers, and wrapFree says how
// long they agree with Go's 64-bit ones. Where that is too short (a product
// of two values that grow, a sum that doubles), wrapExact makes the
// engine compute as Go does instead: it reduces each part of an expression
// whose bound falls below MinWrapFreeOps modulo 2^64 into int64, the
// internal [model.Wrap] of 64 bits (which model.Eval leaves as it is: its
// arithmetic wraps there already), a term Z3 decides as a Euclidean
// remainder. A wrapped sum, difference, product or negation is exact
// whatever its operands' sizes, as in the wraps of narrower types, so
// their parts need no bound; a quotient's operands still do, and the next
// round wraps them. The other values keep their bounds, so a ticket that
// grows by one per lock is still proven for 2^63 operations with linear
// predicates, and only the expressions that can wrap soon pay for the
// remainders.

// wrap64Bits is the width of the internal wrap of wrapExact.
const wrap64Bits = 64

// maxWrapRounds bounds the rounds of wrapExact.
const maxWrapRounds = 8

// wrapExact returns p with the parts of its expressions that may leave
// int64 within MinWrapFreeOps operations wrapped as Go wraps them, and the
// bound of the result (below MinWrapFreeOps only when wrapping did not
// help within maxWrapRounds).
func wrapExact(p *model.Program) (*model.Program, wrapBound) {
	w := wrapFree(p)
	for range maxWrapRounds {
		if w.ops >= MinWrapFreeOps || len(w.exprs) == 0 {
			break
		}
		flagged := make(map[model.Expr]bool, len(w.exprs))
		for _, e := range w.exprs {
			if e != nil {
				flagged[e] = true
			}
		}
		np := wrapExprs(p, flagged)
		nw := wrapFree(np)
		if nw.ops <= w.ops && len(nw.exprs) >= len(w.exprs) && nw.where == w.where {
			break // no progress
		}
		p, w = np, nw
	}
	return p, w
}

// wrapExprs returns a copy of p in which each flagged part of an
// expression, unless it lies under a wrap through sums, differences,
// products and negations only (where it needs none), is wrapped to int64.
func wrapExprs(p *model.Program, flagged map[model.Expr]bool) *model.Program {
	var rw func(e model.Expr, under bool) model.Expr
	rw = func(e model.Expr, under bool) model.Expr {
		here := flagged[e] && !under
		var out model.Expr
		switch x := e.(type) {
		case model.Unary:
			out = model.Unary{Op: x.Op, X: rw(x.X, x.Op == model.OpNeg && (under || here))}
		case model.Binary:
			ring := x.Op == model.OpAdd || x.Op == model.OpSub || x.Op == model.OpMul
			in := ring && (under || here)
			out = model.Binary{Op: x.Op, X: rw(x.X, in), Y: rw(x.Y, in)}
		case model.Wrap:
			out = model.Wrap{X: rw(x.X, true), Bits: x.Bits, Signed: x.Signed}
		default:
			out = e
		}
		if here {
			return model.Wrap{X: out, Bits: wrap64Bits, Signed: true}
		}
		return out
	}
	c := p.Clone()
	forOps(c, func(_ int, o *model.Op) {
		if o.Expr != nil {
			o.Expr = rw(o.Expr, false)
		}
	}, func(e model.Expr) model.Expr { return rw(e, false) })
	c.Index()
	return c
}

// Wrap64 returns x reduced modulo 2^64 into int64.
func (t *terms) Wrap64(x tid) tid {
	if _, ok := t.constOf(x); ok {
		return x
	}
	if n := &t.nodes[x]; n.Op == tLin && n.C == 0 && len(n.Args) == 1 && n.Coef[0] == 1 && t.nodes[n.Args[0]].Op == tWrap64 {
		return x
	}
	return t.intLeaf(t.intern(node{Op: tWrap64, Args: []tid{x}}))
}

// ring reports whether x is built from variables by sums, differences,
// products and 64-bit wraps only: its int64 evaluation, which wraps,
// is the Wrap64 of its value.
func (t *terms) ring(x tid) bool {
	n := &t.nodes[x]
	switch n.Op {
	case tVar:
		return true
	case tLin, tMul, tWrap64:
		for _, a := range n.Args {
			if !t.ring(a) {
				return false
			}
		}
		return true
	}
	return false
}

// replayReason says why a counterexample did not replay: a value wrapped,
// or (wrapped: wrapExact wrapped some values) a value of the trace lies so
// near the ends of int64 that the engine's own constant arithmetic, which
// is int64's, wrapped.
func (w wrapBound) replayReason(wrapped bool) string {
	if w.ops < MinWrapFreeOps {
		return w.reason()
	}
	return "the predicate engine computes the values that may wrap around as Go does, but a counterexample it found has values so near the ends of int64 that its own arithmetic on constants wrapped, and it did not replay"
}

// smallSum reports whether x is a sum of int64 values (variables, 64-bit
// wraps) with coefficients of magnitudes adding up to at most 2, plus a
// constant: within ±3·2^63.
func (t *terms) smallSum(x tid) bool {
	n := &t.nodes[x]
	if n.Op != tLin || n.C == math.MinInt64 {
		return false
	}
	var sum uint64
	for i, a := range n.Args {
		if op := t.nodes[a].Op; op != tVar && op != tWrap64 {
			return false
		}
		sum += absU(n.Coef[i])
		if sum > 2 {
			return false
		}
	}
	return true
}
