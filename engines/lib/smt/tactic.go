//go:build cgo && !fencecheck_noz3

package smt

/*
#include <stdlib.h>
#include "fc.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"unsafe"
)

// Simplify returns a simpler term equivalent to e (Z3_simplify: constant
// folding, arithmetic normal forms, Boolean rewriting).
func (c *Context) Simplify(e *Expr) (*Expr, error) {
	r := c.build("Simplify", []*Expr{e}, func(z C.Z3_context, as []C.Z3_ast) C.Z3_ast {
		return C.Z3_simplify(z, as[0])
	})
	if r.err != nil {
		return nil, r.err
	}
	return r, nil
}

// QE eliminates the quantifiers of e with Z3's "qe" tactic followed by
// "simplify": for e = ∃x. φ it returns a quantifier-free formula over the
// other constants of φ that is equivalent to e. Integer elimination may
// introduce divisibility constraints (terms with mod).
func (c *Context) QE(e *Expr) (*Expr, error) {
	return c.ApplyTactic(e, "qe", "simplify")
}

// ApplyTactic runs the named Z3 tactics one after the other on the goal
// {e} and returns the result as one formula: the disjunction over the
// result's subgoals of the conjunction of each subgoal's formulas, which is
// equivalent to e for the equivalence-preserving tactics (e.g. "simplify",
// "qe", "qe-light", "propagate-values", "ctx-solver-simplify"). The
// Context's timeout bounds the whole run.
func (c *Context) ApplyTactic(e *Expr, tactics ...string) (*Expr, error) {
	if len(tactics) == 0 {
		return nil, errors.New("smt: ApplyTactic: no tactic")
	}
	if err := c.operand("ApplyTactic", 0, e); err != nil {
		return nil, err
	}
	if err := c.core.lock(); err != nil {
		return nil, fmt.Errorf("smt: ApplyTactic: %w", err)
	}
	defer c.core.unlock()
	z := c.core.ctx
	op := "ApplyTactic"

	var t C.Z3_tactic
	defer func() {
		if t != nil {
			C.Z3_tactic_dec_ref(z, t)
		}
	}()
	// setTactic replaces t by n, which has no reference yet.
	setTactic := func(n C.Z3_tactic) {
		C.Z3_tactic_inc_ref(z, n)
		if t != nil {
			C.Z3_tactic_dec_ref(z, t)
		}
		t = n
	}
	for _, name := range tactics {
		cs := C.CString(name)
		n := C.Z3_mk_tactic(z, cs)
		C.free(unsafe.Pointer(cs))
		if err := c.core.check(fmt.Sprintf("tactic %q", name)); err != nil || n == nil {
			return nil, orNoResult(err)
		}
		if t == nil {
			setTactic(n)
			continue
		}
		C.Z3_tactic_inc_ref(z, n)
		both := C.Z3_tactic_and_then(z, t, n)
		err := c.core.check(op)
		C.Z3_tactic_dec_ref(z, n)
		if err != nil {
			return nil, err
		}
		setTactic(both)
	}
	if c.timeout > 0 {
		bounded := C.Z3_tactic_try_for(z, t, C.uint(timeoutMillis(c.timeout)))
		if err := c.core.check(op); err != nil {
			return nil, err
		}
		setTactic(bounded)
	}

	g := C.Z3_mk_goal(z, false, false, false)
	C.Z3_goal_inc_ref(z, g)
	defer C.Z3_goal_dec_ref(z, g)
	C.Z3_goal_assert(z, g, e.ast)
	if err := c.core.check(op); err != nil {
		return nil, err
	}
	res := C.Z3_tactic_apply(z, t, g)
	if err := c.core.check(op); err != nil || res == nil {
		return nil, orNoResult(err)
	}
	C.Z3_apply_result_inc_ref(z, res)
	defer C.Z3_apply_result_dec_ref(z, res)

	// Build the disjunction of conjunctions; every intermediate term holds a
	// reference until the result is made, as Z3 may free unreferenced ones
	// at the next call.
	var held []C.Z3_ast
	defer func() {
		for _, a := range held {
			C.Z3_dec_ref(z, a)
		}
	}()
	var holdErr error
	hold := func(a C.Z3_ast) C.Z3_ast {
		if code := C.fc_keep(z, a); code != C.Z3_OK && holdErr == nil {
			holdErr = c.core.errorFor(op, code)
		}
		if a != nil {
			held = append(held, a)
		}
		return a
	}
	nsub := int(C.Z3_apply_result_get_num_subgoals(z, res))
	disj := make([]C.Z3_ast, 0, nsub)
	for i := range nsub {
		sg := C.Z3_apply_result_get_subgoal(z, res, C.uint(i))
		n := int(C.Z3_goal_size(z, sg))
		conj := make([]C.Z3_ast, n)
		for j := range n {
			conj[j] = C.Z3_goal_formula(z, sg, C.uint(j))
		}
		switch n {
		case 0:
			disj = append(disj, hold(C.Z3_mk_true(z)))
		case 1:
			disj = append(disj, conj[0])
		default:
			disj = append(disj, hold(C.Z3_mk_and(z, C.uint(n), astArray(conj))))
		}
	}
	if holdErr != nil {
		return nil, holdErr
	}
	var r C.Z3_ast
	switch len(disj) {
	case 0:
		r = C.Z3_mk_false(z)
	case 1:
		r = disj[0]
	default:
		r = C.Z3_mk_or(z, C.uint(len(disj)), astArray(disj))
	}
	out := c.finish(op, r)
	if out.err != nil {
		return nil, out.err
	}
	return out, nil
}

func orNoResult(err error) error {
	if err == nil {
		return errors.New("smt: z3 returned no result")
	}
	return err
}
