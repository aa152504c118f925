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
	"unsafe"
)

// Expr is a Z3 term of sort Int or Bool (or, from quantifier elimination,
// another sort Z3 chose). Terms are immutable and hash-consed: two Exprs of
// one Context denote the same term exactly when [Expr.Equal] holds.
//
// An Expr made by a failing constructor carries the error instead of a term;
// see the package documentation.
type Expr struct {
	ctx *Context
	ast C.Z3_ast
	err error
}

// Err returns the error the Expr carries, or nil for a valid term.
func (e *Expr) Err() error {
	if e == nil {
		return errors.New("smt: nil expression")
	}
	return e.err
}

// Context returns the Context the Expr belongs to.
func (e *Expr) Context() *Context { return e.ctx }

// wrap makes an Expr holding one new reference to a. The mutex must be
// held and a must be non-nil.
func (c *Context) wrap(a C.Z3_ast) *Expr {
	C.Z3_inc_ref(c.core.ctx, a)
	return c.adopt(a)
}

// adopt makes an Expr that owns a reference to a already taken. The mutex
// must be held.
func (c *Context) adopt(a C.Z3_ast) *Expr {
	if c.slab == nil || c.slabUsed == slabSize {
		cr := c.core
		cr.lastSlab++
		if cr.slabs == nil {
			cr.slabs = make(map[uint64]*slabTerms)
		}
		c.slab, c.slabUsed, c.terms = new(exprSlab), 0, new(slabTerms)
		cr.slabs[cr.lastSlab] = c.terms
		runtime.AddCleanup(c.slab, enqueue, cleanupArg{cr, release{kind: relSlab, slab: cr.lastSlab}})
	}
	e := &c.slab[c.slabUsed]
	c.slabUsed++
	*e = Expr{ctx: c, ast: a}
	c.terms.asts[c.terms.n] = a
	c.terms.n++
	return e
}

// errExpr returns an Expr carrying err.
func (c *Context) errExpr(err error) *Expr { return &Expr{ctx: c, err: err} }

// operand checks that a may be used as operand i of op in Context c. It does
// not touch Z3.
func (c *Context) operand(op string, i int, a *Expr) error {
	switch {
	case a == nil:
		return fmt.Errorf("smt: %s: operand %d is nil", op, i)
	case a.err != nil:
		return a.err
	case a.ctx != c:
		return fmt.Errorf("smt: %s: operand %d belongs to another context", op, i)
	}
	return nil
}

// build checks the operands, takes the mutex and makes a term from their
// ASTs with f. The ASTs are read only while the mutex is held, so no operand
// can be released under f.
func (c *Context) build(op string, args []*Expr, f func(z C.Z3_context, as []C.Z3_ast) C.Z3_ast) *Expr {
	for i, a := range args {
		if err := c.operand(op, i, a); err != nil {
			return c.errExpr(err)
		}
	}
	if err := c.core.lock(); err != nil {
		return c.errExpr(fmt.Errorf("smt: %s: %w", op, err))
	}
	defer c.core.unlock()
	as := make([]C.Z3_ast, len(args))
	for i, a := range args {
		as[i] = a.ast
	}
	return c.finish(op, f(c.core.ctx, as))
}

// finish wraps the result r of the last Z3 call, or returns the call's
// error. The mutex must be held.
func (c *Context) finish(op string, r C.Z3_ast) *Expr {
	code := C.fc_keep(c.core.ctx, r)
	if code != C.Z3_OK {
		err := c.core.errorFor(op, code)
		if r != nil {
			C.Z3_dec_ref(c.core.ctx, r)
		}
		return c.errExpr(err)
	}
	if r == nil {
		return c.errExpr(fmt.Errorf("smt: %s: z3 returned no term", op))
	}
	return c.adopt(r)
}

// astArray returns a pointer to the first element of as for C, or nil.
func astArray(as []C.Z3_ast) *C.Z3_ast {
	if len(as) == 0 {
		return nil
	}
	return (*C.Z3_ast)(unsafe.Pointer(&as[0]))
}

// symbol interns name as a Z3 symbol. The mutex must be held.
func (c *Context) symbol(name string) C.Z3_symbol {
	cs := C.CString(name)
	defer C.free(unsafe.Pointer(cs))
	return C.Z3_mk_string_symbol(c.core.ctx, cs)
}

func (c *Context) constant(op, name string, sort func(*core) C.Z3_sort) *Expr {
	return c.build(op, nil, func(z C.Z3_context, _ []C.Z3_ast) C.Z3_ast {
		return C.Z3_mk_const(z, c.symbol(name), sort(c.core))
	})
}

// Int returns the integer constant (a free variable) named name.
func (c *Context) Int(name string) *Expr {
	return c.constant("Int", name, func(cr *core) C.Z3_sort { return cr.intSort })
}

// Bool returns the Boolean constant (a free variable) named name.
func (c *Context) Bool(name string) *Expr {
	return c.constant("Bool", name, func(cr *core) C.Z3_sort { return cr.boolSort })
}

// IntVal returns the integer numeral v.
func (c *Context) IntVal(v int64) *Expr {
	return c.build("IntVal", nil, func(z C.Z3_context, _ []C.Z3_ast) C.Z3_ast {
		return C.Z3_mk_int64(z, C.int64_t(v), c.core.intSort)
	})
}

// BoolVal returns true or false.
func (c *Context) BoolVal(b bool) *Expr {
	if b {
		return c.True()
	}
	return c.False()
}

// True returns the Boolean constant true.
func (c *Context) True() *Expr {
	return c.build("True", nil, func(z C.Z3_context, _ []C.Z3_ast) C.Z3_ast { return C.Z3_mk_true(z) })
}

// False returns the Boolean constant false.
func (c *Context) False() *Expr {
	return c.build("False", nil, func(z C.Z3_context, _ []C.Z3_ast) C.Z3_ast { return C.Z3_mk_false(z) })
}

// nary builds an n-ary application of operands of sort want; with no
// operands it returns unit, with one the operand itself.
func (c *Context) nary(op string, want Sort, xs []*Expr, unit func() *Expr,
	mk func(C.Z3_context, C.uint, *C.Z3_ast) C.Z3_ast) *Expr {
	switch len(xs) {
	case 0:
		return unit()
	case 1:
		if err := c.operand(op, 0, xs[0]); err != nil {
			return c.errExpr(err)
		}
		if err := c.core.lock(); err != nil {
			return c.errExpr(fmt.Errorf("smt: %s: %w", op, err))
		}
		s := sortOf(c.core.ctx, xs[0].ast)
		c.core.unlock()
		if s != want {
			return c.errExpr(fmt.Errorf("smt: %s: operand of sort %v, want %v", op, s, want))
		}
		return xs[0]
	}
	return c.build(op, xs, func(z C.Z3_context, as []C.Z3_ast) C.Z3_ast {
		return mk(z, C.uint(len(as)), astArray(as))
	})
}

// Add returns the sum of xs (0 for none).
func (c *Context) Add(xs ...*Expr) *Expr {
	return c.nary("Add", SortInt, xs, func() *Expr { return c.IntVal(0) },
		func(z C.Z3_context, n C.uint, a *C.Z3_ast) C.Z3_ast { return C.Z3_mk_add(z, n, a) })
}

// Mul returns the product of xs (1 for none).
func (c *Context) Mul(xs ...*Expr) *Expr {
	return c.nary("Mul", SortInt, xs, func() *Expr { return c.IntVal(1) },
		func(z C.Z3_context, n C.uint, a *C.Z3_ast) C.Z3_ast { return C.Z3_mk_mul(z, n, a) })
}

// Sub returns xs[0] - xs[1] - ... ; with one operand, its negation.
func (c *Context) Sub(xs ...*Expr) *Expr {
	switch len(xs) {
	case 0:
		return c.errExpr(errors.New("smt: Sub: no operands"))
	case 1:
		return c.Neg(xs[0])
	}
	return c.build("Sub", xs, func(z C.Z3_context, as []C.Z3_ast) C.Z3_ast {
		return C.Z3_mk_sub(z, C.uint(len(as)), astArray(as))
	})
}

// Neg returns -x.
func (c *Context) Neg(x *Expr) *Expr {
	return c.build("Neg", []*Expr{x}, func(z C.Z3_context, as []C.Z3_ast) C.Z3_ast {
		return C.Z3_mk_unary_minus(z, as[0])
	})
}

// Div returns the integer quotient a div b (Euclidean: the remainder
// a mod b is never negative). Division by zero is unspecified by SMT-LIB:
// any value satisfies it.
func (c *Context) Div(a, b *Expr) *Expr {
	return c.build("Div", []*Expr{a, b}, func(z C.Z3_context, as []C.Z3_ast) C.Z3_ast {
		return C.Z3_mk_div(z, as[0], as[1])
	})
}

// Mod returns a mod b, which lies in [0, |b|) for b ≠ 0.
func (c *Context) Mod(a, b *Expr) *Expr {
	return c.build("Mod", []*Expr{a, b}, func(z C.Z3_context, as []C.Z3_ast) C.Z3_ast {
		return C.Z3_mk_mod(z, as[0], as[1])
	})
}

func (c *Context) binary(op string, a, b *Expr, mk func(C.Z3_context, C.Z3_ast, C.Z3_ast) C.Z3_ast) *Expr {
	return c.build(op, []*Expr{a, b}, func(z C.Z3_context, as []C.Z3_ast) C.Z3_ast {
		return mk(z, as[0], as[1])
	})
}

// Eq returns a = b (for Bool operands: a if and only if b).
func (c *Context) Eq(a, b *Expr) *Expr { return c.binary("Eq", a, b, mkEq) }

// Lt returns a < b.
func (c *Context) Lt(a, b *Expr) *Expr { return c.binary("Lt", a, b, mkLt) }

// Le returns a <= b.
func (c *Context) Le(a, b *Expr) *Expr { return c.binary("Le", a, b, mkLe) }

// Gt returns a > b.
func (c *Context) Gt(a, b *Expr) *Expr { return c.binary("Gt", a, b, mkGt) }

// Ge returns a >= b.
func (c *Context) Ge(a, b *Expr) *Expr { return c.binary("Ge", a, b, mkGe) }

// Implies returns a → b.
func (c *Context) Implies(a, b *Expr) *Expr { return c.binary("Implies", a, b, mkImplies) }

func mkEq(z C.Z3_context, a, b C.Z3_ast) C.Z3_ast      { return C.Z3_mk_eq(z, a, b) }
func mkLt(z C.Z3_context, a, b C.Z3_ast) C.Z3_ast      { return C.Z3_mk_lt(z, a, b) }
func mkLe(z C.Z3_context, a, b C.Z3_ast) C.Z3_ast      { return C.Z3_mk_le(z, a, b) }
func mkGt(z C.Z3_context, a, b C.Z3_ast) C.Z3_ast      { return C.Z3_mk_gt(z, a, b) }
func mkGe(z C.Z3_context, a, b C.Z3_ast) C.Z3_ast      { return C.Z3_mk_ge(z, a, b) }
func mkImplies(z C.Z3_context, a, b C.Z3_ast) C.Z3_ast { return C.Z3_mk_implies(z, a, b) }

// Distinct returns the formula saying the xs are pairwise different (true
// for fewer than two operands).
func (c *Context) Distinct(xs ...*Expr) *Expr {
	if len(xs) < 2 {
		for i, x := range xs {
			if err := c.operand("Distinct", i, x); err != nil {
				return c.errExpr(err)
			}
		}
		return c.True()
	}
	return c.build("Distinct", xs, func(z C.Z3_context, as []C.Z3_ast) C.Z3_ast {
		return C.Z3_mk_distinct(z, C.uint(len(as)), astArray(as))
	})
}

// And returns the conjunction of xs (true for none).
func (c *Context) And(xs ...*Expr) *Expr {
	return c.nary("And", SortBool, xs, c.True,
		func(z C.Z3_context, n C.uint, a *C.Z3_ast) C.Z3_ast { return C.Z3_mk_and(z, n, a) })
}

// Or returns the disjunction of xs (false for none).
func (c *Context) Or(xs ...*Expr) *Expr {
	return c.nary("Or", SortBool, xs, c.False,
		func(z C.Z3_context, n C.uint, a *C.Z3_ast) C.Z3_ast { return C.Z3_mk_or(z, n, a) })
}

// Not returns ¬x.
func (c *Context) Not(x *Expr) *Expr {
	return c.build("Not", []*Expr{x}, func(z C.Z3_context, as []C.Z3_ast) C.Z3_ast {
		return C.Z3_mk_not(z, as[0])
	})
}

// Ite returns if cond then a else b; a and b have the same sort.
func (c *Context) Ite(cond, a, b *Expr) *Expr {
	return c.build("Ite", []*Expr{cond, a, b}, func(z C.Z3_context, as []C.Z3_ast) C.Z3_ast {
		return C.Z3_mk_ite(z, as[0], as[1], as[2])
	})
}

// Exists returns ∃vars. body; vars are constants made by Int or Bool.
func (c *Context) Exists(vars []*Expr, body *Expr) *Expr {
	return c.quantifier("Exists", false, vars, body)
}

// ForAll returns ∀vars. body; vars are constants made by Int or Bool.
func (c *Context) ForAll(vars []*Expr, body *Expr) *Expr {
	return c.quantifier("ForAll", true, vars, body)
}

func (c *Context) quantifier(op string, forall bool, vars []*Expr, body *Expr) *Expr {
	if len(vars) == 0 {
		if err := c.operand(op, 0, body); err != nil {
			return c.errExpr(err)
		}
		return body
	}
	args := append(append([]*Expr(nil), vars...), body)
	bad := -1
	e := c.build(op, args, func(z C.Z3_context, as []C.Z3_ast) C.Z3_ast {
		n := len(as) - 1
		apps := make([]C.Z3_app, n)
		for i := range n {
			if !isConstant(z, as[i]) {
				bad = i
				return nil
			}
			apps[i] = C.Z3_to_app(z, as[i])
		}
		if forall {
			return C.Z3_mk_forall_const(z, 0, C.uint(n), &apps[0], 0, nil, as[n])
		}
		return C.Z3_mk_exists_const(z, 0, C.uint(n), &apps[0], 0, nil, as[n])
	})
	if bad >= 0 {
		return c.errExpr(fmt.Errorf("smt: %s: bound variable %d is not a constant", op, bad))
	}
	return e
}

// isConstant reports whether a is an uninterpreted constant.
func isConstant(z C.Z3_context, a C.Z3_ast) bool {
	if C.Z3_get_ast_kind(z, a) != C.Z3_APP_AST {
		return false
	}
	app := C.Z3_to_app(z, a)
	if C.Z3_get_app_num_args(z, app) != 0 {
		return false
	}
	return C.Z3_get_decl_kind(z, C.Z3_get_app_decl(z, app)) == C.Z3_OP_UNINTERPRETED
}

// Substitute returns e with every occurrence of from[i] replaced by to[i],
// simultaneously; from[i] and to[i] have the same sort. Substituting an
// expression for a variable is the weakest precondition of an assignment.
func (c *Context) Substitute(e *Expr, from, to []*Expr) *Expr {
	if len(from) != len(to) {
		return c.errExpr(fmt.Errorf("smt: Substitute: %d terms replaced by %d", len(from), len(to)))
	}
	if len(from) == 0 {
		if err := c.operand("Substitute", 0, e); err != nil {
			return c.errExpr(err)
		}
		return e
	}
	args := make([]*Expr, 0, 1+2*len(from))
	args = append(append(append(args, e), from...), to...)
	n := len(from)
	return c.build("Substitute", args, func(z C.Z3_context, as []C.Z3_ast) C.Z3_ast {
		return C.Z3_substitute(z, as[0], C.uint(n), astArray(as[1:1+n]), astArray(as[1+n:]))
	})
}

var declOps = map[C.Z3_decl_kind]Op{
	C.Z3_OP_TRUE: OpTrue, C.Z3_OP_FALSE: OpFalse, C.Z3_OP_AND: OpAnd,
	C.Z3_OP_OR: OpOr, C.Z3_OP_NOT: OpNot, C.Z3_OP_IMPLIES: OpImplies,
	C.Z3_OP_ITE: OpIte, C.Z3_OP_EQ: OpEq, C.Z3_OP_IFF: OpEq,
	C.Z3_OP_DISTINCT: OpDistinct, C.Z3_OP_LT: OpLt, C.Z3_OP_LE: OpLe,
	C.Z3_OP_GT: OpGt, C.Z3_OP_GE: OpGe, C.Z3_OP_ADD: OpAdd, C.Z3_OP_SUB: OpSub,
	C.Z3_OP_MUL: OpMul, C.Z3_OP_UMINUS: OpNeg, C.Z3_OP_IDIV: OpDiv,
	C.Z3_OP_MOD: OpMod, C.Z3_OP_REM: OpRem, C.Z3_OP_ANUM: OpNumeral,
	C.Z3_OP_UNINTERPRETED: OpConst,
}

// withLock runs f with the mutex held if e is a valid term of an open
// Context, and reports whether it did.
func (e *Expr) withLock(f func(z C.Z3_context)) bool {
	if e == nil || e.err != nil || e.ast == nil {
		return false
	}
	if e.ctx.core.lock() != nil {
		return false
	}
	defer e.ctx.core.unlock()
	f(e.ctx.core.ctx)
	return true
}

// Op returns the term's top-level operator (OpOther for an invalid Expr).
func (e *Expr) Op() Op {
	op := OpOther
	e.withLock(func(z C.Z3_context) {
		switch C.Z3_get_ast_kind(z, e.ast) {
		case C.Z3_NUMERAL_AST:
			op = OpNumeral
		case C.Z3_VAR_AST:
			op = OpVar
		case C.Z3_QUANTIFIER_AST:
			if C.Z3_is_quantifier_forall(z, e.ast) {
				op = OpForAll
			} else if C.Z3_is_quantifier_exists(z, e.ast) {
				op = OpExists
			}
		case C.Z3_APP_AST:
			app := C.Z3_to_app(z, e.ast)
			o, ok := declOps[C.Z3_get_decl_kind(z, C.Z3_get_app_decl(z, app))]
			if ok && (o != OpConst || C.Z3_get_app_num_args(z, app) == 0) {
				op = o
			}
		}
	})
	return op
}

// Args returns the operands of an application (nil for constants, numerals,
// quantifiers and invalid Exprs).
func (e *Expr) Args() []*Expr {
	var args []*Expr
	e.withLock(func(z C.Z3_context) {
		if C.Z3_get_ast_kind(z, e.ast) != C.Z3_APP_AST {
			return
		}
		app := C.Z3_to_app(z, e.ast)
		n := int(C.Z3_get_app_num_args(z, app))
		for i := range n {
			args = append(args, e.ctx.wrap(C.Z3_get_app_arg(z, app, C.uint(i))))
		}
	})
	return args
}

// Name returns the name of a constant ("" for other terms).
func (e *Expr) Name() string {
	var name string
	e.withLock(func(z C.Z3_context) {
		if !isConstant(z, e.ast) {
			return
		}
		sym := C.Z3_get_decl_name(z, C.Z3_get_app_decl(z, C.Z3_to_app(z, e.ast)))
		name = C.GoString(C.Z3_get_symbol_string(z, sym))
	})
	return name
}

// Int64 returns the value of an integer numeral and whether e is one that
// fits in an int64.
func (e *Expr) Int64() (int64, bool) {
	var v C.int64_t
	ok := false
	e.withLock(func(z C.Z3_context) {
		if C.Z3_get_ast_kind(z, e.ast) == C.Z3_NUMERAL_AST {
			ok = bool(C.Z3_get_numeral_int64(z, e.ast, &v))
		}
	})
	return int64(v), ok
}

// Sort returns the term's sort (SortOther for an invalid Expr).
func (e *Expr) Sort() Sort {
	s := SortOther
	e.withLock(func(z C.Z3_context) { s = sortOf(z, e.ast) })
	return s
}

// sortOf returns the sort of a. The mutex must be held.
func sortOf(z C.Z3_context, a C.Z3_ast) Sort {
	switch C.Z3_get_sort_kind(z, C.Z3_get_sort(z, a)) {
	case C.Z3_INT_SORT:
		return SortInt
	case C.Z3_BOOL_SORT:
		return SortBool
	}
	return SortOther
}

// Equal reports whether e and o are the same term. Terms are hash-consed,
// so this is a pointer comparison. Invalid Exprs equal nothing.
func (e *Expr) Equal(o *Expr) bool {
	return e != nil && o != nil && e.err == nil && o.err == nil &&
		e.ctx == o.ctx && e.ast != nil && e.ast == o.ast
}

// ID returns a number that identifies the term among the live terms of its
// Context (Z3_get_ast_id), for use as a map key; 0 for an invalid Expr.
func (e *Expr) ID() uint32 {
	var id uint32
	e.withLock(func(z C.Z3_context) { id = uint32(C.Z3_get_ast_id(z, e.ast)) })
	return id
}

// String returns the term in SMT-LIB syntax, or a description of the error
// an invalid Expr carries.
func (e *Expr) String() string {
	if e == nil {
		return "<nil>"
	}
	if e.err != nil {
		return "<error: " + e.err.Error() + ">"
	}
	s := "<closed>"
	e.withLock(func(z C.Z3_context) { s = C.GoString(C.Z3_ast_to_string(z, e.ast)) })
	return s
}
