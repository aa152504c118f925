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
	"runtime"
	"time"
	"unsafe"
)

// Solver is an incremental Z3 solver: a stack of assertion scopes.
type Solver struct {
	ctx     *Context
	s       C.Z3_solver // nil after Close
	cleanup runtime.Cleanup
}

// NewSolver returns an empty incremental solver: Z3's SMT core without
// preprocessing tactics (Z3_mk_simple_solver). It is cheap to make (a
// fraction of a millisecond, where Z3's default solver spends milliseconds
// choosing tactics on its first check) and answers the small linear integer
// queries of predicate abstraction as fast as the default one.
func (c *Context) NewSolver() (*Solver, error) {
	if err := c.core.lock(); err != nil {
		return nil, fmt.Errorf("smt: NewSolver: %w", err)
	}
	defer c.core.unlock()
	s := C.Z3_mk_simple_solver(c.core.ctx)
	if err := c.core.check("NewSolver"); err != nil {
		return nil, err
	}
	C.Z3_solver_inc_ref(c.core.ctx, s)
	sv := &Solver{ctx: c, s: s}
	sv.cleanup = runtime.AddCleanup(sv, enqueue, cleanupArg{c.core, release{kind: relSolver, ptr: unsafe.Pointer(s)}})
	return sv, nil
}

// lock takes the Context's mutex for op, failing on a closed Solver or
// Context.
func (s *Solver) lock(op string) error {
	if err := s.ctx.core.lock(); err != nil {
		return fmt.Errorf("smt: %s: %w", op, err)
	}
	if s.s == nil {
		s.ctx.core.unlock()
		return fmt.Errorf("smt: %s: solver is closed", op)
	}
	return nil
}

// Close releases the solver now instead of when it becomes unreachable.
// Close is idempotent.
func (s *Solver) Close() error {
	if s.ctx.core.lock() != nil {
		return nil // the context, and the solver with it, is gone
	}
	defer s.ctx.core.unlock()
	if s.s != nil {
		s.cleanup.Stop()
		C.Z3_solver_dec_ref(s.ctx.core.ctx, s.s)
		s.s = nil
	}
	return nil
}

// SetTimeout bounds each later check of this solver; Z3 answers Unknown
// when it runs out. Zero removes the bound.
func (s *Solver) SetTimeout(d time.Duration) error {
	if d < 0 {
		return fmt.Errorf("smt: SetTimeout: negative timeout %v", d)
	}
	ms := timeoutMillis(d)
	if d == 0 {
		ms = 1<<32 - 1 // Z3's "no timeout"
	}
	return s.setUint("SetTimeout", "timeout", uint32(ms))
}

// SetResourceLimit bounds the work of each later check of this solver in
// Z3's resource units (its "rlimit"), which, unlike a timeout, do not depend
// on the machine or its load: the same check on the same formulas runs out
// at the same point everywhere, answering Unknown. Zero removes the bound.
func (s *Solver) SetResourceLimit(units uint32) error {
	return s.setUint("SetResourceLimit", "rlimit", units)
}

// SetArithSolver chooses the arithmetic decision procedure of the
// solver's later checks by Z3's number for it (its "arith.solver"
// parameter: 2 is the simplex of Z3's older arithmetic module, 6 the
// default). Which one is faster depends on the formulas; the answers do
// not.
func (s *Solver) SetArithSolver(n uint32) error {
	return s.setUint("SetArithSolver", "arith.solver", n)
}

// setUint sets the solver parameter name to v, for the method op.
func (s *Solver) setUint(op, name string, v uint32) error {
	if err := s.lock(op); err != nil {
		return err
	}
	defer s.ctx.core.unlock()
	z := s.ctx.core.ctx
	p := C.Z3_mk_params(z)
	C.Z3_params_inc_ref(z, p)
	defer C.Z3_params_dec_ref(z, p)
	C.Z3_params_set_uint(z, p, s.ctx.symbol(name), C.uint(v))
	C.Z3_solver_set_params(z, s.s, p)
	return s.ctx.core.check(op)
}

// Assert adds the formulas to the current scope.
func (s *Solver) Assert(fs ...*Expr) error {
	for i, f := range fs {
		if err := s.ctx.operand("Assert", i, f); err != nil {
			return err
		}
	}
	if err := s.lock("Assert"); err != nil {
		return err
	}
	defer s.ctx.core.unlock()
	for _, f := range fs {
		C.Z3_solver_assert(s.ctx.core.ctx, s.s, f.ast)
		if err := s.ctx.core.check("Assert"); err != nil {
			return err
		}
	}
	return nil
}

// Push opens a new scope.
func (s *Solver) Push() error {
	if err := s.lock("Push"); err != nil {
		return err
	}
	defer s.ctx.core.unlock()
	C.Z3_solver_push(s.ctx.core.ctx, s.s)
	return s.ctx.core.check("Push")
}

// Pop closes the n innermost scopes and drops their assertions.
func (s *Solver) Pop(n int) error {
	if n < 0 {
		return fmt.Errorf("smt: Pop: negative count %d", n)
	}
	if err := s.lock("Pop"); err != nil {
		return err
	}
	defer s.ctx.core.unlock()
	C.Z3_solver_pop(s.ctx.core.ctx, s.s, C.uint(n))
	return s.ctx.core.check("Pop")
}

// Scopes returns the number of open scopes.
func (s *Solver) Scopes() (int, error) {
	if err := s.lock("Scopes"); err != nil {
		return 0, err
	}
	defer s.ctx.core.unlock()
	n := C.Z3_solver_get_num_scopes(s.ctx.core.ctx, s.s)
	return int(n), s.ctx.core.check("Scopes")
}

// Reset removes all assertions and scopes.
func (s *Solver) Reset() error {
	if err := s.lock("Reset"); err != nil {
		return err
	}
	defer s.ctx.core.unlock()
	C.Z3_solver_reset(s.ctx.core.ctx, s.s)
	return s.ctx.core.check("Reset")
}

func lbool(b C.Z3_lbool) Result {
	switch b {
	case C.Z3_L_TRUE:
		return Sat
	case C.Z3_L_FALSE:
		return Unsat
	}
	return Unknown
}

// Check decides the conjunction of the assertions of all open scopes.
func (s *Solver) Check() (Result, error) {
	if err := s.lock("Check"); err != nil {
		return Unknown, err
	}
	defer s.ctx.core.unlock()
	r := C.Z3_solver_check(s.ctx.core.ctx, s.s)
	if err := s.ctx.core.check("Check"); err != nil {
		return Unknown, err
	}
	return lbool(r), nil
}

// CheckAssumptions decides the assertions together with the assumptions
// (Boolean formulas, which do not stay asserted). After Unsat,
// [Solver.UnsatCore] returns a subset of the assumptions that suffices for
// unsatisfiability. The usual idiom names each formula f by asserting p → f
// for a fresh Bool constant p and assumes the names.
func (s *Solver) CheckAssumptions(assumptions ...*Expr) (Result, error) {
	for i, a := range assumptions {
		if err := s.ctx.operand("CheckAssumptions", i, a); err != nil {
			return Unknown, err
		}
	}
	if err := s.lock("CheckAssumptions"); err != nil {
		return Unknown, err
	}
	defer s.ctx.core.unlock()
	as := make([]C.Z3_ast, len(assumptions))
	for i, a := range assumptions {
		as[i] = a.ast
	}
	r := C.Z3_solver_check_assumptions(s.ctx.core.ctx, s.s, C.uint(len(as)), astArray(as))
	if err := s.ctx.core.check("CheckAssumptions"); err != nil {
		return Unknown, err
	}
	return lbool(r), nil
}

// UnsatCore returns, after a check with assumptions answered Unsat, the
// assumptions Z3 used to refute.
func (s *Solver) UnsatCore() ([]*Expr, error) {
	if err := s.lock("UnsatCore"); err != nil {
		return nil, err
	}
	defer s.ctx.core.unlock()
	z := s.ctx.core.ctx
	v := C.Z3_solver_get_unsat_core(z, s.s)
	if err := s.ctx.core.check("UnsatCore"); err != nil {
		return nil, err
	}
	C.Z3_ast_vector_inc_ref(z, v)
	defer C.Z3_ast_vector_dec_ref(z, v)
	n := int(C.Z3_ast_vector_size(z, v))
	core := make([]*Expr, n)
	for i := range n {
		core[i] = s.ctx.wrap(C.Z3_ast_vector_get(z, v, C.uint(i)))
	}
	return core, nil
}

// ReasonUnknown returns Z3's explanation of the last Unknown answer
// (e.g. "timeout", "canceled").
func (s *Solver) ReasonUnknown() (string, error) {
	if err := s.lock("ReasonUnknown"); err != nil {
		return "", err
	}
	defer s.ctx.core.unlock()
	r := C.GoString(C.Z3_solver_get_reason_unknown(s.ctx.core.ctx, s.s))
	return r, s.ctx.core.check("ReasonUnknown")
}

// Model returns a model of the assertions after a check answered Sat.
func (s *Solver) Model() (*Model, error) {
	if err := s.lock("Model"); err != nil {
		return nil, err
	}
	defer s.ctx.core.unlock()
	z := s.ctx.core.ctx
	m := C.Z3_solver_get_model(z, s.s)
	if err := s.ctx.core.check("Model"); err != nil {
		return nil, err
	}
	if m == nil {
		return nil, errors.New("smt: Model: no model")
	}
	return s.ctx.wrapModel(m), nil
}

// Satisfiable reports whether f together with the solver's assertions has a
// model. f is checked in a scope of its own and removed afterwards.
func (s *Solver) Satisfiable(f *Expr) (bool, error) {
	r, err := s.checkScoped("Satisfiable", f)
	return r == Sat, err
}

// Valid reports whether the solver's assertions entail f, that is, whether
// their conjunction with ¬f is unsatisfiable. With no assertions this is
// validity of f.
func (s *Solver) Valid(f *Expr) (bool, error) {
	r, err := s.checkScoped("Valid", s.ctx.Not(f))
	return r == Unsat, err
}

// Implies reports whether a → b is entailed by the solver's assertions:
// whether a ∧ ¬b is unsatisfiable with them.
func (s *Solver) Implies(a, b *Expr) (bool, error) {
	r, err := s.checkScoped("Implies", s.ctx.And(a, s.ctx.Not(b)))
	return r == Unsat, err
}

// checkScoped checks f in a fresh scope, which it pops again. Unknown is an
// error wrapping ErrUnknown.
func (s *Solver) checkScoped(op string, f *Expr) (Result, error) {
	if err := s.ctx.operand(op, 0, f); err != nil {
		return Unknown, err
	}
	if err := s.lock(op); err != nil {
		return Unknown, err
	}
	defer s.ctx.core.unlock()
	z := s.ctx.core.ctx
	C.Z3_solver_push(z, s.s)
	if err := s.ctx.core.check(op); err != nil {
		return Unknown, err
	}
	C.Z3_solver_assert(z, s.s, f.ast)
	r := lbool(C.Z3_solver_check(z, s.s))
	err := s.ctx.core.check(op)
	var reason string
	if err == nil && r == Unknown {
		reason = C.GoString(C.Z3_solver_get_reason_unknown(z, s.s))
	}
	C.Z3_solver_pop(z, s.s, 1)
	if perr := s.ctx.core.check(op); err == nil {
		err = perr
	}
	if err != nil {
		return Unknown, err
	}
	if r == Unknown {
		return Unknown, fmt.Errorf("smt: %s: %w (%s)", op, ErrUnknown, reason)
	}
	return r, nil
}

// Model is an assignment of values to constants, from a Sat check.
type Model struct {
	ctx *Context
	m   C.Z3_model
}

// wrapModel makes a Model holding one reference to m. The mutex must be
// held.
func (c *Context) wrapModel(m C.Z3_model) *Model {
	C.Z3_model_inc_ref(c.core.ctx, m)
	md := &Model{ctx: c, m: m}
	runtime.AddCleanup(md, enqueue, cleanupArg{c.core, release{kind: relModel, ptr: unsafe.Pointer(m)}})
	return md
}

// Eval returns the value of e in the model; constants the model leaves free
// get a default value (model completion).
func (m *Model) Eval(e *Expr) (*Expr, error) {
	if err := m.ctx.operand("Eval", 0, e); err != nil {
		return nil, err
	}
	if err := m.ctx.core.lock(); err != nil {
		return nil, fmt.Errorf("smt: Eval: %w", err)
	}
	defer m.ctx.core.unlock()
	v, err := m.eval(e)
	if err != nil {
		return nil, err
	}
	return m.ctx.adopt(v), nil
}

// eval returns the value of e with one reference the caller must drop. The
// mutex must be held.
func (m *Model) eval(e *Expr) (C.Z3_ast, error) {
	z := m.ctx.core.ctx
	var v C.Z3_ast
	ok := C.Z3_model_eval(z, m.m, e.ast, true, &v)
	code := C.fc_keep(z, v)
	if code != C.Z3_OK || !bool(ok) || v == nil {
		if v != nil {
			C.Z3_dec_ref(z, v)
		}
		var err error
		if code != C.Z3_OK {
			err = m.ctx.core.errorFor("Eval", code)
		} else {
			err = fmt.Errorf("smt: Eval: cannot evaluate %s", C.GoString(C.Z3_ast_to_string(z, e.ast)))
		}
		return nil, err
	}
	return v, nil
}

// Int returns the value of the integer term e in the model. It fails with
// [ErrNotInt64] if the value does not fit in an int64.
func (m *Model) Int(e *Expr) (int64, error) {
	if err := m.ctx.operand("Int", 0, e); err != nil {
		return 0, err
	}
	if err := m.ctx.core.lock(); err != nil {
		return 0, fmt.Errorf("smt: Int: %w", err)
	}
	defer m.ctx.core.unlock()
	v, err := m.eval(e)
	if err != nil {
		return 0, err
	}
	z := m.ctx.core.ctx
	defer C.Z3_dec_ref(z, v)
	var n C.int64_t
	if C.Z3_get_ast_kind(z, v) != C.Z3_NUMERAL_AST || C.Z3_get_sort_kind(z, C.Z3_get_sort(z, v)) != C.Z3_INT_SORT {
		return 0, fmt.Errorf("smt: Int: value %s of %s is not an integer",
			C.GoString(C.Z3_ast_to_string(z, v)), C.GoString(C.Z3_ast_to_string(z, e.ast)))
	}
	if !C.Z3_get_numeral_int64(z, v, &n) {
		return 0, fmt.Errorf("smt: Int: value %s of %s: %w",
			C.GoString(C.Z3_get_numeral_string(z, v)), C.GoString(C.Z3_ast_to_string(z, e.ast)), ErrNotInt64)
	}
	return int64(n), nil
}

// Bool returns the value of the Boolean term e in the model.
func (m *Model) Bool(e *Expr) (bool, error) {
	if err := m.ctx.operand("Bool", 0, e); err != nil {
		return false, err
	}
	if err := m.ctx.core.lock(); err != nil {
		return false, fmt.Errorf("smt: Bool: %w", err)
	}
	defer m.ctx.core.unlock()
	v, err := m.eval(e)
	if err != nil {
		return false, err
	}
	z := m.ctx.core.ctx
	defer C.Z3_dec_ref(z, v)
	switch C.Z3_get_bool_value(z, v) {
	case C.Z3_L_TRUE:
		return true, nil
	case C.Z3_L_FALSE:
		return false, nil
	}
	return false, fmt.Errorf("smt: Bool: value %s of %s is not a truth value",
		C.GoString(C.Z3_ast_to_string(z, v)), C.GoString(C.Z3_ast_to_string(z, e.ast)))
}

// String returns the model in Z3's notation.
func (m *Model) String() string {
	if m.ctx.core.lock() != nil {
		return "<closed>"
	}
	defer m.ctx.core.unlock()
	return C.GoString(C.Z3_model_to_string(m.ctx.core.ctx, m.m))
}
