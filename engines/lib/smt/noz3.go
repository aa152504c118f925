//go:build !cgo || fencecheck_noz3

package smt

// This file is the build without Z3, chosen when cgo is disabled or the
// build tag fencecheck_noz3 is set. It has the API of the cgo binding, but no
// Context can be made: NewContext, and every method called on the values a
// caller may still construct, fail with ErrUnavailable.

import (
	"fmt"
	"time"
)

// Available reports whether this build has Z3: true in the cgo binding,
// false in the build without Z3, where every operation fails with
// [ErrUnavailable].
const Available = false

// unavailable returns the error of operation op in this build.
func unavailable(op string) error {
	return fmt.Errorf("smt: %s: %w", op, ErrUnavailable)
}

// Context is a Z3 context. In a build without Z3 none can be made.
type Context struct{}

// NewContext fails with an error wrapping [ErrUnavailable]: this build has
// no Z3.
func NewContext(cfg Config) (*Context, error) { return nil, unavailable("NewContext") }

// Close does nothing: no Context of this build holds Z3 resources.
func (c *Context) Close() error { return nil }

// Interrupt does nothing: no check can be running in this build.
func (c *Context) Interrupt() {}

// EstimatedAllocSize returns 0: this build allocates nothing in Z3.
func EstimatedAllocSize() uint64 { return 0 }

// Version returns "": this build links no Z3 library.
func Version() string { return "" }

// Expr is a Z3 term. In a build without Z3 every Expr carries an error
// wrapping [ErrUnavailable].
type Expr struct {
	ctx *Context
	err error
}

// errExpr returns an Expr of c carrying the error of operation op.
func (c *Context) errExpr(op string) *Expr { return &Expr{ctx: c, err: unavailable(op)} }

// Err returns the error the Expr carries, which wraps [ErrUnavailable].
func (e *Expr) Err() error {
	if e == nil || e.err == nil {
		return unavailable("Expr")
	}
	return e.err
}

// Context returns the Context the Expr belongs to.
func (e *Expr) Context() *Context {
	if e == nil {
		return nil
	}
	return e.ctx
}

// Int returns an Expr carrying an error wrapping [ErrUnavailable].
func (c *Context) Int(name string) *Expr { return c.errExpr("Int") }

// Bool returns an Expr carrying an error wrapping [ErrUnavailable].
func (c *Context) Bool(name string) *Expr { return c.errExpr("Bool") }

// IntVal returns an Expr carrying an error wrapping [ErrUnavailable].
func (c *Context) IntVal(v int64) *Expr { return c.errExpr("IntVal") }

// BoolVal returns an Expr carrying an error wrapping [ErrUnavailable].
func (c *Context) BoolVal(b bool) *Expr { return c.errExpr("BoolVal") }

// True returns an Expr carrying an error wrapping [ErrUnavailable].
func (c *Context) True() *Expr { return c.errExpr("True") }

// False returns an Expr carrying an error wrapping [ErrUnavailable].
func (c *Context) False() *Expr { return c.errExpr("False") }

// Add returns an Expr carrying an error wrapping [ErrUnavailable].
func (c *Context) Add(xs ...*Expr) *Expr { return c.errExpr("Add") }

// Mul returns an Expr carrying an error wrapping [ErrUnavailable].
func (c *Context) Mul(xs ...*Expr) *Expr { return c.errExpr("Mul") }

// Sub returns an Expr carrying an error wrapping [ErrUnavailable].
func (c *Context) Sub(xs ...*Expr) *Expr { return c.errExpr("Sub") }

// Neg returns an Expr carrying an error wrapping [ErrUnavailable].
func (c *Context) Neg(x *Expr) *Expr { return c.errExpr("Neg") }

// Div returns an Expr carrying an error wrapping [ErrUnavailable].
func (c *Context) Div(a, b *Expr) *Expr { return c.errExpr("Div") }

// Mod returns an Expr carrying an error wrapping [ErrUnavailable].
func (c *Context) Mod(a, b *Expr) *Expr { return c.errExpr("Mod") }

// Eq returns an Expr carrying an error wrapping [ErrUnavailable].
func (c *Context) Eq(a, b *Expr) *Expr { return c.errExpr("Eq") }

// Lt returns an Expr carrying an error wrapping [ErrUnavailable].
func (c *Context) Lt(a, b *Expr) *Expr { return c.errExpr("Lt") }

// Le returns an Expr carrying an error wrapping [ErrUnavailable].
func (c *Context) Le(a, b *Expr) *Expr { return c.errExpr("Le") }

// Gt returns an Expr carrying an error wrapping [ErrUnavailable].
func (c *Context) Gt(a, b *Expr) *Expr { return c.errExpr("Gt") }

// Ge returns an Expr carrying an error wrapping [ErrUnavailable].
func (c *Context) Ge(a, b *Expr) *Expr { return c.errExpr("Ge") }

// Implies returns an Expr carrying an error wrapping [ErrUnavailable].
func (c *Context) Implies(a, b *Expr) *Expr { return c.errExpr("Implies") }

// Distinct returns an Expr carrying an error wrapping [ErrUnavailable].
func (c *Context) Distinct(xs ...*Expr) *Expr { return c.errExpr("Distinct") }

// And returns an Expr carrying an error wrapping [ErrUnavailable].
func (c *Context) And(xs ...*Expr) *Expr { return c.errExpr("And") }

// Or returns an Expr carrying an error wrapping [ErrUnavailable].
func (c *Context) Or(xs ...*Expr) *Expr { return c.errExpr("Or") }

// Not returns an Expr carrying an error wrapping [ErrUnavailable].
func (c *Context) Not(x *Expr) *Expr { return c.errExpr("Not") }

// Ite returns an Expr carrying an error wrapping [ErrUnavailable].
func (c *Context) Ite(cond, a, b *Expr) *Expr { return c.errExpr("Ite") }

// Exists returns an Expr carrying an error wrapping [ErrUnavailable].
func (c *Context) Exists(vars []*Expr, body *Expr) *Expr { return c.errExpr("Exists") }

// ForAll returns an Expr carrying an error wrapping [ErrUnavailable].
func (c *Context) ForAll(vars []*Expr, body *Expr) *Expr { return c.errExpr("ForAll") }

// Substitute returns an Expr carrying an error wrapping [ErrUnavailable].
func (c *Context) Substitute(e *Expr, from, to []*Expr) *Expr { return c.errExpr("Substitute") }

// Op returns OpOther, as for every invalid Expr.
func (e *Expr) Op() Op { return OpOther }

// Args returns nil, as for every invalid Expr.
func (e *Expr) Args() []*Expr { return nil }

// Name returns "", as for every invalid Expr.
func (e *Expr) Name() string { return "" }

// Int64 returns 0 and false, as for every invalid Expr.
func (e *Expr) Int64() (int64, bool) { return 0, false }

// Sort returns SortOther, as for every invalid Expr.
func (e *Expr) Sort() Sort { return SortOther }

// Equal returns false, as for every invalid Expr.
func (e *Expr) Equal(o *Expr) bool { return false }

// ID returns 0, as for every invalid Expr.
func (e *Expr) ID() uint32 { return 0 }

// String describes the error the Expr carries.
func (e *Expr) String() string {
	if e == nil {
		return "<nil>"
	}
	return "<error: " + e.Err().Error() + ">"
}

// Simplify fails with an error wrapping [ErrUnavailable].
func (c *Context) Simplify(e *Expr) (*Expr, error) { return nil, unavailable("Simplify") }

// QE fails with an error wrapping [ErrUnavailable].
func (c *Context) QE(e *Expr) (*Expr, error) { return nil, unavailable("QE") }

// ApplyTactic fails with an error wrapping [ErrUnavailable].
func (c *Context) ApplyTactic(e *Expr, tactics ...string) (*Expr, error) {
	return nil, unavailable("ApplyTactic")
}

// Solver is an incremental Z3 solver. In a build without Z3 none can be made.
type Solver struct{}

// NewSolver fails with an error wrapping [ErrUnavailable].
func (c *Context) NewSolver() (*Solver, error) { return nil, unavailable("NewSolver") }

// Close does nothing: no Solver of this build holds Z3 resources.
func (s *Solver) Close() error { return nil }

// SetTimeout fails with an error wrapping [ErrUnavailable].
func (s *Solver) SetTimeout(d time.Duration) error { return unavailable("SetTimeout") }

// SetResourceLimit fails with an error wrapping [ErrUnavailable].
func (s *Solver) SetResourceLimit(units uint32) error { return unavailable("SetResourceLimit") }

// SetArithSolver fails with an error wrapping [ErrUnavailable].
func (s *Solver) SetArithSolver(n uint32) error { return unavailable("SetArithSolver") }

// Assert fails with an error wrapping [ErrUnavailable].
func (s *Solver) Assert(fs ...*Expr) error { return unavailable("Assert") }

// Push fails with an error wrapping [ErrUnavailable].
func (s *Solver) Push() error { return unavailable("Push") }

// Pop fails with an error wrapping [ErrUnavailable].
func (s *Solver) Pop(n int) error { return unavailable("Pop") }

// Scopes fails with an error wrapping [ErrUnavailable].
func (s *Solver) Scopes() (int, error) { return 0, unavailable("Scopes") }

// Reset fails with an error wrapping [ErrUnavailable].
func (s *Solver) Reset() error { return unavailable("Reset") }

// Check answers Unknown with an error wrapping [ErrUnavailable].
func (s *Solver) Check() (Result, error) { return Unknown, unavailable("Check") }

// CheckAssumptions answers Unknown with an error wrapping [ErrUnavailable].
func (s *Solver) CheckAssumptions(assumptions ...*Expr) (Result, error) {
	return Unknown, unavailable("CheckAssumptions")
}

// UnsatCore fails with an error wrapping [ErrUnavailable].
func (s *Solver) UnsatCore() ([]*Expr, error) { return nil, unavailable("UnsatCore") }

// ReasonUnknown fails with an error wrapping [ErrUnavailable].
func (s *Solver) ReasonUnknown() (string, error) { return "", unavailable("ReasonUnknown") }

// Model fails with an error wrapping [ErrUnavailable].
func (s *Solver) Model() (*Model, error) { return nil, unavailable("Model") }

// Satisfiable fails with an error wrapping [ErrUnavailable].
func (s *Solver) Satisfiable(f *Expr) (bool, error) { return false, unavailable("Satisfiable") }

// Valid fails with an error wrapping [ErrUnavailable].
func (s *Solver) Valid(f *Expr) (bool, error) { return false, unavailable("Valid") }

// Implies fails with an error wrapping [ErrUnavailable].
func (s *Solver) Implies(a, b *Expr) (bool, error) { return false, unavailable("Implies") }

// Model is an assignment of values to constants. In a build without Z3 none
// can be made.
type Model struct{}

// Eval fails with an error wrapping [ErrUnavailable].
func (m *Model) Eval(e *Expr) (*Expr, error) { return nil, unavailable("Model.Eval") }

// Int fails with an error wrapping [ErrUnavailable].
func (m *Model) Int(e *Expr) (int64, error) { return 0, unavailable("Model.Int") }

// Bool fails with an error wrapping [ErrUnavailable].
func (m *Model) Bool(e *Expr) (bool, error) { return false, unavailable("Model.Bool") }

// String returns a description of the missing Z3.
func (m *Model) String() string { return "<" + ErrUnavailable.Error() + ">" }
