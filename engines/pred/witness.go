package pred

import "github.com/fencecheck/fencecheck/engines/lib/smt"

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
// value is exact (see evalChecked).
func (t *terms) evalExact(x tid, v valuation) (int64, bool) {
	return t.evalChecked(x, func(y tid) int64 {
		if id := t.VarIDs(y)[0]; int(id) < len(v) {
			return v[id]
		}
		return 0
	})
}
