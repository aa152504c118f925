package bmc

import (
	"github.com/fencecheck/fencecheck/engines/lib/smt"
	"github.com/fencecheck/fencecheck/model"
)

// This file is the axiomatic composition of §4: the instances of the SC
// axioms Π1–Π3 for one read, one read-write pair or one triple, as Z3
// terms and, for refinement, as predicates on a model; under TSO the same
// axioms with the read rule of x86-TSO (a load reads its own process's
// newest buffered store of the variable, if any, else memory).
//
// link(r, w) is written en(r) ∧ sel(r) = j for w the j-th write of r's link
// set: a read links at most one write (exclusivity) by construction, and
// HB(a, b) is time(a) < time(b) on integer times (the Clk rewriting of §4.1).

// link returns link(r, cand[j]).
func (en *encoding) link(r *access, j int) *smt.Expr {
	return en.and(r.en, en.z.Eq(r.sel, en.num(int64(j))))
}

// pi1 returns Π1 for r: an enabled read links some enabled write of its
// default link set.
func (en *encoding) pi1(r *access) *smt.Expr {
	var alts []*smt.Expr
	for j, wi := range r.cand {
		alts = append(alts, en.and(en.z.Eq(r.sel, en.num(int64(j))), en.acc[wi].en))
	}
	return en.implies(r.en, en.or(alts...))
}

// restrict returns the under-approximation of Π1 for r to the writes in W
// (a link set W(r) ⊂ cW(r)): an enabled r links one of them.
func (en *encoding) restrict(r *access, w []bool) *smt.Expr {
	var alts []*smt.Expr
	for j := range r.cand {
		if w[j] {
			alts = append(alts, en.z.Eq(r.sel, en.num(int64(j))))
		}
	}
	return en.implies(r.en, en.or(alts...))
}

// pi2 returns Π2 for (r, cand[j]): r reads w's value, and w reaches memory
// before r reads (HB(w, r)), unless w is r's own store (which r may read
// from its buffer, and which program order already puts before r).
func (en *encoding) pi2(r *access, j int) *smt.Expr {
	w := en.acc[r.cand[j]]
	c := en.eq(r.val, w.val)
	if !w.init && !en.own(w, r) {
		c = en.and(c, en.z.Lt(w.mem, r.at))
	}
	return en.implies(en.link(r, j), c)
}

// A shape is the form an instance of Π3 takes for a triple (r, w, w'),
// after the redundant instances are pruned (§4.2).
type shape uint8

const (
	// skip: the instance holds by program order (or the two writes are
	// never both enabled) and is not instantiated.
	skip shape = iota
	// exclude: w and w' are r's own stores, w' after w: link(r, w) ⇒ ¬en(w').
	exclude
	// before: w' is r's own store and w is not: w' must reach memory
	// before w, else r would read w' (or a newer store).
	before
	// between: w' reaches memory before w or after r (Π3), unless r
	// reads w from its own buffer.
	between
)

// pi3Shape classifies the triple (r, w, w').
func (en *encoding) pi3Shape(r, w, w2 *access) shape {
	if w2 == w || w2.init {
		return skip
	}
	if en.own(w2, r) {
		if en.own(w, r) {
			if en.procs[r.proc].po(w.trans, w2.trans) {
				return exclude
			}
			return skip // w' before w (in order in the buffer), or another branch
		}
		return before
	}
	if w.proc >= 0 && w.proc == w2.proc && !en.procs[w.proc].po(w.trans, w2.trans) {
		// w' comes before w in their process (and so reaches memory
		// first), or lies on another branch.
		return skip
	}
	return between
}

// fwd is the condition that r reads w from its own store buffer.
func (en *encoding) fwd(r, w *access) *smt.Expr {
	if en.m != model.TSO || !en.own(w, r) {
		return en.ff
	}
	return en.z.Lt(r.at, w.mem)
}

// pi3 returns the instance of Π3 for (r, cand[j], w').
func (en *encoding) pi3(r *access, j int, w2 *access) *smt.Expr {
	w := en.acc[r.cand[j]]
	l := en.link(r, j)
	switch en.pi3Shape(r, w, w2) {
	case exclude:
		return en.implies(l, en.not(w2.en))
	case before:
		return en.implies(en.and(l, w2.en), en.lt(w2.mem, w.mem))
	case between:
		return en.implies(en.and(l, w2.en), en.or(en.fwd(r, w), en.lt(w2.mem, w.mem), en.z.Lt(r.at, w2.mem)))
	}
	return en.tt
}

// values are the values of the terms of the accesses in a model.
type values struct {
	en       []bool
	val      []int64
	at, mem  []int64
	sel      []int
	evaluted []bool
}

// holds2 reports whether the model satisfies Π2 for (r, cand[j]); r is
// enabled and links cand[j] in it.
func (en *encoding) holds2(v *values, ri, j int) bool {
	r := en.acc[ri]
	wi := r.cand[j]
	w := en.acc[wi]
	if v.val[ri] != v.val[wi] {
		return false
	}
	return w.init || en.own(w, r) || v.mem[wi] < v.at[ri]
}

// holds3 reports whether the model satisfies Π3 for (r, cand[j], w'); r is
// enabled and links cand[j] in it.
func (en *encoding) holds3(v *values, ri, j, w2i int) bool {
	r, w, w2 := en.acc[ri], en.acc[en.acc[ri].cand[j]], en.acc[w2i]
	wi := r.cand[j]
	if !v.en[w2i] {
		return true
	}
	memBefore := func() bool { return !w.init && v.mem[w2i] < v.mem[wi] }
	switch en.pi3Shape(r, w, w2) {
	case exclude:
		return false
	case before:
		return memBefore()
	case between:
		if en.m == model.TSO && en.own(w, r) && v.at[ri] < v.mem[wi] {
			return true
		}
		return memBefore() || v.at[ri] < v.mem[w2i]
	}
	return true
}
