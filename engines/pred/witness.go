package pred

import (
	"math"

	"github.com/fencecheck/fencecheck/engines/smt"
)

// This file is the oracle's cache of satisfying valuations: most questions
// the abstract post asks are satisfiable (the predicate is not decided by
// the cube), and a valuation Z3 gave for an earlier question often
// satisfies a later one over the same variables. A question that one of
// them satisfies, every conjunct evaluated exactly, is satisfiable without
// a solver call.

// keptValuations is how many recent valuations the oracle tries, and
// keepEvery how often (in solver calls) it keeps a model's.
const (
	keptValuations = 8
	keepEvery      = 4
)

// valuation gives each variable, by its dense number (terms.VarIDs), a
// value; variables beyond its length are 0.
type valuation []int64

// satisfiedByKept reports whether a kept valuation satisfies every
// conjunct of conj.
func (o *oracle) satisfiedByKept(conj []tid) bool {
	for _, v := range o.kept {
		ok := true
		for _, x := range conj {
			if b, exact := o.t.evalExact(x, v); !exact || b == 0 {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// keep records the values model m gives the variables of conj, as the
// newest kept valuation; a model with a value beyond int64 is not kept.
func (o *oracle) keep(m *smt.Model, conj []tid) {
	var v valuation
	for _, x := range conj {
		for _, id := range o.t.VarIDs(x) {
			for int(id) >= len(v) {
				v = append(v, 0)
			}
			val, err := m.Int(o.expr(o.t.idTerm[id]))
			if err != nil {
				return
			}
			v[id] = val
		}
	}
	if len(o.kept) < keptValuations {
		o.kept = append(o.kept, v)
		return
	}
	o.kept[o.nextKept] = v
	o.nextKept = (o.nextKept + 1) % keptValuations
}

// evalExact evaluates x under v as Eval does, and reports whether the
// value is exact: false when an operation overflows int64 (Z3 computes
// with unbounded integers).
func (t *terms) evalExact(x tid, v valuation) (int64, bool) {
	n := &t.nodes[x]
	switch n.Op {
	case tTrue:
		return 1, true
	case tFalse:
		return 0, true
	case tVar:
		id := t.VarIDs(x)[0]
		if int(id) < len(v) {
			return v[id], true
		}
		return 0, true
	case tLin:
		s := n.C
		for i, a := range n.Args {
			y, ok := t.evalExact(a, v)
			if !ok {
				return 0, false
			}
			p, ok := mulExact(n.Coef[i], y)
			if !ok {
				return 0, false
			}
			if s, ok = addExact(s, p); !ok {
				return 0, false
			}
		}
		return s, true
	case tMul:
		a, ok := t.evalExact(n.Args[0], v)
		if !ok {
			return 0, false
		}
		b, ok := t.evalExact(n.Args[1], v)
		if !ok {
			return 0, false
		}
		return mulExact(a, b)
	case tDiv, tMod, tEMod:
		a, ok := t.evalExact(n.Args[0], v)
		if !ok || n.C == 0 || n.C == -1 && a == math.MinInt64 {
			return 0, false
		}
		switch n.Op {
		case tDiv:
			return a / n.C, true
		case tMod:
			return a % n.C, true
		}
		if n.C < 0 {
			return 0, false
		}
		r, ok := addExact(a%n.C, n.C)
		if !ok {
			return 0, false
		}
		return r % n.C, true
	case tIte:
		c, ok := t.evalExact(n.Args[0], v)
		if !ok {
			return 0, false
		}
		if c != 0 {
			return t.evalExact(n.Args[1], v)
		}
		return t.evalExact(n.Args[2], v)
	case tEq, tLe, tNot:
		a, ok := t.evalExact(n.Args[0], v)
		if !ok {
			return 0, false
		}
		switch n.Op {
		case tEq, tNot:
			return b2i(a == 0), true
		}
		return b2i(a <= 0), true
	case tAnd, tOr:
		for _, a := range n.Args {
			b, ok := t.evalExact(a, v)
			if !ok {
				return 0, false
			}
			if (b != 0) == (n.Op == tOr) {
				return b2i(n.Op == tOr), true
			}
		}
		return b2i(n.Op == tAnd), true
	}
	return 0, false // an operator this evaluation does not know
}

// addExact returns a + b and whether it fits in int64.
func addExact(a, b int64) (int64, bool) {
	s := a + b
	if a > 0 && b > 0 && s < 0 || a < 0 && b < 0 && s >= 0 {
		return 0, false
	}
	return s, true
}

// mulExact returns a * b and whether it fits in int64.
func mulExact(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	p := a * b
	if a == -1 && b == math.MinInt64 || b == -1 && a == math.MinInt64 || p/b != a {
		return 0, false
	}
	return p, true
}
