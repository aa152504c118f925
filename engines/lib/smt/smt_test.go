//go:build cgo && !fencecheck_noz3

package smt

import (
	"errors"
	"math"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fencecheck/fencecheck/internal/cputime"
)

func newContext(t testing.TB, cfg Config) *Context {
	t.Helper()
	c, err := NewContext(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func newSolver(t testing.TB, c *Context) *Solver {
	t.Helper()
	s, err := c.NewSolver()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// vars are the constants the table-driven tests use.
type vars struct{ x, y, z, p, q *Expr }

func mkVars(c *Context) vars {
	return vars{c.Int("x"), c.Int("y"), c.Int("z"), c.Bool("p"), c.Bool("q")}
}

func TestVersion(t *testing.T) {
	if v := Version(); !strings.HasPrefix(v, "4.") {
		t.Errorf("Version() = %q, want 4.x", v)
	}
}

func TestTerms(t *testing.T) {
	c := newContext(t, Config{})
	v := mkVars(c)
	n := c.IntVal
	tests := []struct {
		name string
		e    *Expr
		want string
	}{
		{"int constant", v.x, "x"},
		{"bool constant", v.p, "p"},
		{"numeral", n(42), "42"},
		{"negative numeral", n(-7), "(- 7)"},
		{"max int64", n(math.MaxInt64), "9223372036854775807"},
		{"min int64", n(math.MinInt64), "(- 9223372036854775808)"},
		{"true", c.BoolVal(true), "true"},
		{"false", c.BoolVal(false), "false"},
		{"add", c.Add(v.x, v.y, n(1)), "(+ x y 1)"},
		{"add none", c.Add(), "0"},
		{"add one", c.Add(v.x), "x"},
		{"sub", c.Sub(v.x, v.y, v.z), "(- (- x y) z)"},
		{"sub one", c.Sub(v.x), "(- x)"},
		{"mul", c.Mul(n(2), v.x), "(* 2 x)"},
		{"mul none", c.Mul(), "1"},
		{"neg", c.Neg(v.x), "(- x)"},
		{"div", c.Div(v.x, n(2)), "(div x 2)"},
		{"mod", c.Mod(v.x, n(2)), "(mod x 2)"},
		{"eq", c.Eq(v.x, v.y), "(= x y)"},
		{"iff", c.Eq(v.p, v.q), "(= p q)"},
		{"lt", c.Lt(v.x, v.y), "(< x y)"},
		{"le", c.Le(v.x, v.y), "(<= x y)"},
		{"gt", c.Gt(v.x, v.y), "(> x y)"},
		{"ge", c.Ge(v.x, v.y), "(>= x y)"},
		{"distinct", c.Distinct(v.x, v.y, n(1)), "(distinct x y 1)"},
		{"distinct one", c.Distinct(v.x), "true"},
		{"and", c.And(v.p, v.q), "(and p q)"},
		{"and none", c.And(), "true"},
		{"and one", c.And(v.p), "p"},
		{"or", c.Or(v.p, c.Lt(v.x, v.y)), "(or p (< x y))"},
		{"or none", c.Or(), "false"},
		{"not", c.Not(v.p), "(not p)"},
		{"implies", c.Implies(v.p, v.q), "(=> p q)"},
		{"ite", c.Ite(v.p, v.x, v.y), "(ite p x y)"},
		{"exists", c.Exists([]*Expr{v.y}, c.Eq(v.x, v.y)), "(exists ((y Int)) (! (= x y) :weight 0))"},
		{"forall", c.ForAll([]*Expr{v.y}, c.Le(v.y, v.y)), "(forall ((y Int)) (! (<= y y) :weight 0))"},
		{"exists none", c.Exists(nil, v.p), "p"},
		{"substitute", c.Substitute(c.Gt(v.x, v.y), []*Expr{v.x, v.y}, []*Expr{c.Add(v.x, n(1)), v.x}), "(> (+ x 1) x)"},
		{"substitute none", c.Substitute(v.p, nil, nil), "p"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.e.Err(); err != nil {
				t.Fatal(err)
			}
			if got := tt.e.String(); got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}

func TestHashConsing(t *testing.T) {
	c := newContext(t, Config{})
	a := c.Add(c.Int("x"), c.IntVal(1))
	b := c.Add(c.Int("x"), c.IntVal(1))
	if !a.Equal(b) || a.ID() != b.ID() {
		t.Errorf("two builds of x+1 differ: Equal=%v IDs %d, %d", a.Equal(b), a.ID(), b.ID())
	}
	d := c.Add(c.IntVal(1), c.Int("x"))
	if a.Equal(d) {
		t.Errorf("x+1 and 1+x are the same term")
	}
	bad := c.Add(c.Int("x"), c.Bool("p"))
	if bad.Equal(bad) || bad.ID() != 0 {
		t.Errorf("an invalid Expr equals itself or has an ID")
	}
}

func TestWalk(t *testing.T) {
	c := newContext(t, Config{})
	v := mkVars(c)
	tests := []struct {
		name  string
		e     *Expr
		op    Op
		sort  Sort
		nargs int
	}{
		{"constant", v.x, OpConst, SortInt, 0},
		{"bool constant", v.p, OpConst, SortBool, 0},
		{"numeral", c.IntVal(-3), OpNumeral, SortInt, 0},
		{"true", c.True(), OpTrue, SortBool, 0},
		{"false", c.False(), OpFalse, SortBool, 0},
		{"and", c.And(v.p, v.q, v.p), OpAnd, SortBool, 3},
		{"or", c.Or(v.p, v.q), OpOr, SortBool, 2},
		{"not", c.Not(v.p), OpNot, SortBool, 1},
		{"implies", c.Implies(v.p, v.q), OpImplies, SortBool, 2},
		{"ite", c.Ite(v.p, v.x, v.y), OpIte, SortInt, 3},
		{"eq", c.Eq(v.x, v.y), OpEq, SortBool, 2},
		{"distinct", c.Distinct(v.x, v.y), OpDistinct, SortBool, 2},
		{"lt", c.Lt(v.x, v.y), OpLt, SortBool, 2},
		{"le", c.Le(v.x, v.y), OpLe, SortBool, 2},
		{"gt", c.Gt(v.x, v.y), OpGt, SortBool, 2},
		{"ge", c.Ge(v.x, v.y), OpGe, SortBool, 2},
		{"add", c.Add(v.x, v.y), OpAdd, SortInt, 2},
		{"sub", c.Sub(v.x, v.y), OpSub, SortInt, 2},
		{"mul", c.Mul(v.x, v.y), OpMul, SortInt, 2},
		{"neg", c.Neg(v.x), OpNeg, SortInt, 1},
		{"div", c.Div(v.x, v.y), OpDiv, SortInt, 2},
		{"mod", c.Mod(v.x, v.y), OpMod, SortInt, 2},
		{"exists", c.Exists([]*Expr{v.y}, c.Eq(v.x, v.y)), OpExists, SortBool, 0},
		{"forall", c.ForAll([]*Expr{v.y}, c.Eq(v.x, v.y)), OpForAll, SortBool, 0},
		{"invalid", c.Add(v.x, v.p), OpOther, SortOther, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if op := tt.e.Op(); op != tt.op {
				t.Errorf("Op() = %v, want %v", op, tt.op)
			}
			if s := tt.e.Sort(); s != tt.sort {
				t.Errorf("Sort() = %v, want %v", s, tt.sort)
			}
			if args := tt.e.Args(); len(args) != tt.nargs {
				t.Errorf("Args() = %v, want %d operands", args, tt.nargs)
			}
		})
	}

	// Operands come back as the terms they were built from.
	sum := c.Add(v.x, c.IntVal(5))
	args := sum.Args()
	if len(args) != 2 || !args[0].Equal(v.x) || args[0].Name() != "x" {
		t.Fatalf("Args(x+5) = %v", args)
	}
	if k, ok := args[1].Int64(); !ok || k != 5 {
		t.Errorf("Int64(5) = %d, %v", k, ok)
	}
	if _, ok := v.x.Int64(); ok {
		t.Errorf("Int64(x) reports a numeral")
	}
	if name := sum.Name(); name != "" {
		t.Errorf("Name(x+5) = %q, want empty", name)
	}
	big, err := c.Simplify(c.Mul(c.IntVal(math.MaxInt64), c.IntVal(4)))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := big.Int64(); ok || big.Op() != OpNumeral {
		t.Errorf("Int64(4*MaxInt64) fits or is not a numeral: %s", big)
	}
}

func TestErrors(t *testing.T) {
	c := newContext(t, Config{})
	other := newContext(t, Config{})
	v := mkVars(c)
	bad := c.Add(v.x, v.p)
	tests := []struct {
		name string
		run  func() error
		want string
	}{
		{"add int and bool", func() error { return c.Add(v.x, v.p).Err() }, "Sort mismatch"},
		{"eq int and bool", func() error { return c.Eq(v.x, v.p).Err() }, "incompatible"},
		{"ite on int", func() error { return c.Ite(v.x, v.y, v.z).Err() }, "Sort mismatch"},
		{"ite branches", func() error { return c.Ite(v.p, v.x, v.q).Err() }, "incompatible"},
		{"and of one int", func() error { return c.And(v.x).Err() }, "want Bool"},
		{"add of one bool", func() error { return c.Add(v.p).Err() }, "want Int"},
		{"not of int", func() error { return c.Not(v.x).Err() }, "Sort mismatch"},
		{"sub of none", func() error { return c.Sub().Err() }, "no operands"},
		{"nil operand", func() error { return c.Le(v.x, nil).Err() }, "operand 1 is nil"},
		{"nil receiver", func() error { var e *Expr; return e.Err() }, "nil expression"},
		{"other context", func() error { return c.Add(v.x, other.Int("y")).Err() }, "another context"},
		{"bound non-constant", func() error { return c.Exists([]*Expr{c.Add(v.x, v.y)}, v.p).Err() }, "not a constant"},
		{"substitute lengths", func() error { return c.Substitute(v.p, []*Expr{v.x}, nil).Err() }, "replaced by 0"},
		{"substitute sorts", func() error { return c.Substitute(v.p, []*Expr{v.x}, []*Expr{v.q}).Err() }, "type error"},
		{"propagates", func() error { return c.Or(c.Not(c.Eq(bad, v.x)), v.p).Err() }, "Sort mismatch"},
		{"simplify", func() error { _, err := c.Simplify(bad); return err }, "Sort mismatch"},
		{"unknown tactic", func() error { _, err := c.ApplyTactic(v.p, "no-such-tactic"); return err }, "unknown tactic"},
		{"no tactic", func() error { _, err := c.ApplyTactic(v.p); return err }, "no tactic"},
		{"unknown parameter", func() error { _, err := NewContext(Config{Params: map[string]string{"nosuch": "1"}}); return err }, "unknown Z3 context parameter"},
		{"negative timeout", func() error { _, err := NewContext(Config{Timeout: -time.Second}); return err }, "negative"},
		{"two timeouts", func() error {
			_, err := NewContext(Config{Timeout: time.Second, Params: map[string]string{"timeout": "5"}})
			return err
		}, "both"},
		{"assert", func() error { return newSolver(t, c).Assert(v.p, bad) }, "Sort mismatch"},
		{"assert int", func() error { return newSolver(t, c).Assert(v.x) }, "invalid argument"},
		{"pop below base", func() error { return newSolver(t, c).Pop(1) }, "out of bounds"},
		{"negative pop", func() error { return newSolver(t, c).Pop(-1) }, "negative"},
		{"assumption sort", func() error { _, err := newSolver(t, c).CheckAssumptions(v.x); return err }, "Sort mismatch"},
		{"valid of int", func() error { _, err := newSolver(t, c).Valid(v.x); return err }, "Sort mismatch"},
		{"model after unsat", func() error {
			s := newSolver(t, c)
			if err := s.Assert(c.False()); err != nil {
				return err
			}
			if _, err := s.Check(); err != nil {
				return err
			}
			_, err := s.Model()
			return err
		}, "model"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.run()
			if err == nil {
				t.Fatalf("no error, want one containing %q", tt.want)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not contain %q", err, tt.want)
			}
		})
	}

	// The first error is passed on unchanged, and the Context is usable
	// after any of the errors above.
	if err := c.Or(c.Not(c.Eq(bad, v.x)), v.p).Err(); err != bad.Err() {
		t.Errorf("propagated error %v is not the operand's %v", err, bad.Err())
	}
	s := newSolver(t, c)
	if ok, err := s.Valid(c.Le(v.x, c.Add(v.x, c.IntVal(1)))); err != nil || !ok {
		t.Errorf("after errors: Valid(x <= x+1) = %v, %v", ok, err)
	}
}

func TestCheck(t *testing.T) {
	c := newContext(t, Config{})
	v := mkVars(c)
	n := c.IntVal
	tests := []struct {
		name string
		fs   []*Expr
		want Result
	}{
		{"empty", nil, Sat},
		{"false", []*Expr{c.False()}, Unsat},
		{"linear sat", []*Expr{c.Lt(v.x, v.y), c.Lt(v.y, v.z)}, Sat},
		{"linear cycle", []*Expr{c.Lt(v.x, v.y), c.Lt(v.y, v.z), c.Lt(v.z, v.x)}, Unsat},
		{"integrality", []*Expr{c.Lt(v.x, v.y), c.Lt(v.y, c.Add(v.x, n(1)))}, Unsat},
		{"parity", []*Expr{c.Eq(c.Mul(n(2), v.x), c.Add(c.Mul(n(2), v.y), n(1)))}, Unsat},
		{"mod", []*Expr{c.Eq(c.Mod(v.x, n(3)), n(2)), c.Eq(c.Div(v.x, n(3)), n(4))}, Sat},
		{"distinct pigeonhole", []*Expr{c.Distinct(v.x, v.y, v.z), c.Ge(v.x, n(0)), c.Ge(v.y, n(0)), c.Ge(v.z, n(0)),
			c.Le(v.x, n(1)), c.Le(v.y, n(1)), c.Le(v.z, n(1))}, Unsat},
		{"booleans", []*Expr{c.Implies(v.p, v.q), v.p, c.Not(v.q)}, Unsat},
		{"ite", []*Expr{c.Eq(c.Ite(v.p, v.x, v.y), n(3)), c.Eq(v.x, n(1)), c.Eq(v.y, n(2))}, Unsat},
		{"large numerals", []*Expr{c.Eq(v.x, n(math.MaxInt64)), c.Gt(c.Add(v.x, n(1)), v.x)}, Sat},
		{"exists", []*Expr{c.Exists([]*Expr{v.y}, c.Eq(v.x, c.Mul(n(2), v.y))), c.Eq(v.x, n(7))}, Unsat},
		{"forall", []*Expr{c.ForAll([]*Expr{v.y}, c.Le(v.x, c.Mul(v.y, v.y)))}, Sat},
	}
	s := newSolver(t, c)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := s.Push(); err != nil {
				t.Fatal(err)
			}
			defer func() {
				if err := s.Pop(1); err != nil {
					t.Fatal(err)
				}
			}()
			if err := s.Assert(tt.fs...); err != nil {
				t.Fatal(err)
			}
			got, err := s.Check()
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("Check() = %v, want %v", got, tt.want)
			}
			if got == Sat {
				checkModel(t, c, s, tt.fs)
			}
		})
	}
	if k, err := s.Scopes(); err != nil || k != 0 {
		t.Errorf("Scopes() = %d, %v after balanced pushes", k, err)
	}
}

// checkModel verifies that the solver's model makes every formula true.
func checkModel(t *testing.T, c *Context, s *Solver, fs []*Expr) {
	t.Helper()
	m, err := s.Model()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fs {
		if f.Op() == OpExists || f.Op() == OpForAll {
			continue // Z3's model evaluation leaves quantifiers alone
		}
		ok, err := m.Bool(f)
		if err != nil {
			t.Fatalf("Bool(%s): %v", f, err)
		}
		if !ok {
			t.Errorf("model %s falsifies %s", m, f)
		}
	}
}

func TestDecisions(t *testing.T) {
	c := newContext(t, Config{})
	v := mkVars(c)
	n := c.IntVal
	tests := []struct {
		name        string
		a, b        *Expr
		implies     bool // a → b is valid
		satisfiable bool // a ∧ b is satisfiable
	}{
		{"weaker bound", c.Ge(v.x, n(5)), c.Gt(v.x, n(3)), true, true},
		{"stronger bound", c.Gt(v.x, n(3)), c.Ge(v.x, n(5)), false, true},
		{"integer gap", c.Gt(v.x, n(3)), c.Ge(v.x, n(4)), true, true},
		{"transitivity", c.And(c.Le(v.x, v.y), c.Le(v.y, v.z)), c.Le(v.x, v.z), true, true},
		{"contradiction", c.And(c.Lt(v.x, v.y), c.Lt(v.y, v.x)), v.p, true, false},
		{"ticket", c.And(c.Eq(v.x, c.Add(v.y, n(1))), c.Ge(v.y, n(0))), c.Gt(v.x, n(0)), true, true},
		{"disjoint", c.Eq(v.x, n(1)), c.Eq(v.x, n(2)), false, false},
		{"boolean", c.And(v.p, c.Implies(v.p, v.q)), v.q, true, true},
		{"true", c.True(), c.Or(v.p, c.Not(v.p)), true, true},
		{"mod", c.Eq(c.Mod(v.x, n(2)), n(1)), c.Distinct(v.x, n(0)), true, true},
	}
	// Z3's older simplex (SetArithSolver(2), as the bounded engine uses
	// it) decides them alike.
	older := newSolver(t, c)
	if err := older.SetArithSolver(2); err != nil {
		t.Fatal(err)
	}
	s := newSolver(t, c)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, s := range []*Solver{s, older} {
				if sat, err := s.Satisfiable(c.And(tt.a, tt.b)); err != nil || sat != tt.satisfiable {
					t.Errorf("Satisfiable(a ∧ b) = %v, %v, want %v", sat, err, tt.satisfiable)
				}
			}
			imp, err := s.Implies(tt.a, tt.b)
			if err != nil {
				t.Fatal(err)
			}
			if imp != tt.implies {
				t.Errorf("Implies = %v, want %v", imp, tt.implies)
			}
			valid, err := s.Valid(c.Implies(tt.a, tt.b))
			if err != nil {
				t.Fatal(err)
			}
			if valid != tt.implies {
				t.Errorf("Valid(a → b) = %v, want %v", valid, tt.implies)
			}
			sat, err := s.Satisfiable(c.And(tt.a, tt.b))
			if err != nil {
				t.Fatal(err)
			}
			if sat != tt.satisfiable {
				t.Errorf("Satisfiable(a ∧ b) = %v, want %v", sat, tt.satisfiable)
			}
		})
	}
	// The scoped checks leave the solver as they found it.
	if k, err := s.Scopes(); err != nil || k != 0 {
		t.Errorf("Scopes() = %d, %v after scoped checks", k, err)
	}
	if r, err := s.Check(); err != nil || r != Sat {
		t.Errorf("Check() of the empty solver = %v, %v", r, err)
	}

	// Entailment relative to the solver's assertions.
	if err := s.Assert(c.Ge(v.x, n(10))); err != nil {
		t.Fatal(err)
	}
	if ok, err := s.Valid(c.Gt(v.x, n(9))); err != nil || !ok {
		t.Errorf("x >= 10 does not entail x > 9: %v, %v", ok, err)
	}
	if ok, err := s.Satisfiable(c.Lt(v.x, n(10))); err != nil || ok {
		t.Errorf("x >= 10 allows x < 10: %v, %v", ok, err)
	}
	if err := s.Reset(); err != nil {
		t.Fatal(err)
	}
	if ok, err := s.Satisfiable(c.Lt(v.x, n(10))); err != nil || !ok {
		t.Errorf("after Reset, x < 10 is unsatisfiable: %v, %v", ok, err)
	}
}

func TestModelValues(t *testing.T) {
	c := newContext(t, Config{})
	v := mkVars(c)
	n := c.IntVal
	tests := []struct {
		name  string
		fs    []*Expr
		ints  map[*Expr]int64
		bools map[*Expr]bool
	}{
		{"linear system", []*Expr{c.Eq(c.Add(v.x, v.y), n(10)), c.Eq(c.Sub(v.x, v.y), n(4))},
			map[*Expr]int64{v.x: 7, v.y: 3, c.Mul(v.x, v.y): 21}, nil},
		{"max int64", []*Expr{c.Eq(v.x, n(math.MaxInt64))}, map[*Expr]int64{v.x: math.MaxInt64}, nil},
		{"min int64", []*Expr{c.Eq(c.Add(v.x, n(1)), n(math.MinInt64+1))}, map[*Expr]int64{v.x: math.MinInt64}, nil},
		{"div mod", []*Expr{c.Eq(c.Div(v.x, n(3)), n(2)), c.Eq(c.Mod(v.x, n(3)), n(1))}, map[*Expr]int64{v.x: 7}, nil},
		{"negative div", []*Expr{c.Eq(v.x, n(-7)), c.Eq(v.y, c.Div(v.x, n(2))), c.Eq(v.z, c.Mod(v.x, n(2)))},
			map[*Expr]int64{v.y: -4, v.z: 1}, nil},
		{"booleans", []*Expr{v.p, c.Not(v.q)}, nil, map[*Expr]bool{v.p: true, v.q: false, c.Implies(v.p, v.q): false}},
		{"ite", []*Expr{c.Eq(v.x, c.Ite(v.p, n(1), n(2))), c.Not(v.p)}, map[*Expr]int64{v.x: 2}, map[*Expr]bool{v.p: false}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSolver(t, c)
			if err := s.Assert(tt.fs...); err != nil {
				t.Fatal(err)
			}
			if r, err := s.Check(); err != nil || r != Sat {
				t.Fatalf("Check() = %v, %v", r, err)
			}
			m, err := s.Model()
			if err != nil {
				t.Fatal(err)
			}
			for e, want := range tt.ints {
				got, err := m.Int(e)
				if err != nil {
					t.Fatal(err)
				}
				if got != want {
					t.Errorf("Int(%s) = %d, want %d", e, got, want)
				}
			}
			for e, want := range tt.bools {
				got, err := m.Bool(e)
				if err != nil {
					t.Fatal(err)
				}
				if got != want {
					t.Errorf("Bool(%s) = %v, want %v", e, got, want)
				}
			}
		})
	}

	// Model completion, and the errors of evaluation.
	s := newSolver(t, c)
	if err := s.Assert(c.Eq(v.x, c.Mul(n(math.MaxInt64), n(4)))); err != nil {
		t.Fatal(err)
	}
	if r, err := s.Check(); err != nil || r != Sat {
		t.Fatalf("Check() = %v, %v", r, err)
	}
	m, err := s.Model()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Int(v.x); err == nil || !strings.Contains(err.Error(), "does not fit") {
		t.Errorf("Int of 4*MaxInt64: %v, want a range error", err)
	}
	if _, err := m.Int(v.p); err == nil || !strings.Contains(err.Error(), "not an integer") {
		t.Errorf("Int of a Bool: %v", err)
	}
	if _, err := m.Bool(v.y); err == nil || !strings.Contains(err.Error(), "not a truth value") {
		t.Errorf("Bool of an Int: %v", err)
	}
	if _, err := m.Int(v.z); err != nil {
		t.Errorf("Int of a free constant: %v, want a completed value", err)
	}
	val, err := m.Eval(c.Add(v.x, n(1)))
	if err != nil || val.Op() != OpNumeral {
		t.Errorf("Eval(x+1) = %v, %v, want a numeral", val, err)
	}
	if !strings.Contains(m.String(), "x") {
		t.Errorf("model %q does not mention x", m)
	}
}

func TestUnsatCore(t *testing.T) {
	c := newContext(t, Config{})
	v := mkVars(c)
	n := c.IntVal
	p1, p2, p3, p4 := c.Bool("p1"), c.Bool("p2"), c.Bool("p3"), c.Bool("p4")
	s := newSolver(t, c)
	if err := s.Assert(
		c.Implies(p1, c.Gt(v.x, n(5))),
		c.Implies(p2, c.Lt(v.x, n(3))),
		c.Implies(p3, c.Eq(v.y, n(1))),
		c.Implies(p4, c.Gt(v.y, v.x)),
	); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name        string
		assumptions []*Expr
		want        Result
		core        []*Expr
	}{
		{"conflict", []*Expr{p1, p2, p3}, Unsat, []*Expr{p1, p2}},
		{"consistent", []*Expr{p1, p3}, Sat, nil},
		{"negated literal", []*Expr{p1, c.Not(p2), p3, p4}, Unsat, []*Expr{p1, p3, p4}},
		{"formula", []*Expr{c.And(c.Lt(v.x, v.y), c.Lt(v.y, v.x)), p3}, Unsat, []*Expr{c.And(c.Lt(v.x, v.y), c.Lt(v.y, v.x))}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := s.CheckAssumptions(tt.assumptions...)
			if err != nil {
				t.Fatal(err)
			}
			if r != tt.want {
				t.Fatalf("CheckAssumptions = %v, want %v", r, tt.want)
			}
			if r != Unsat {
				return
			}
			core, err := s.UnsatCore()
			if err != nil {
				t.Fatal(err)
			}
			if !sameTerms(core, tt.core) {
				t.Errorf("UnsatCore() = %v, want %v", core, tt.core)
			}
		})
	}
}

// sameTerms reports whether a and b hold the same terms in any order.
func sameTerms(a, b []*Expr) bool {
	if len(a) != len(b) {
		return false
	}
	seen := map[uint32]int{}
	for _, e := range a {
		seen[e.ID()]++
	}
	for _, e := range b {
		seen[e.ID()]--
	}
	for _, k := range seen {
		if k != 0 {
			return false
		}
	}
	return true
}

func TestSimplify(t *testing.T) {
	c := newContext(t, Config{})
	v := mkVars(c)
	n := c.IntVal
	tests := []struct {
		name string
		in   *Expr
		want string
	}{
		{"cancel", c.Sub(c.Add(v.x, n(1)), n(1)), "x"},
		{"fold", c.Add(n(2), c.Mul(n(3), n(4))), "14"},
		{"unit", c.And(v.p, c.True()), "p"},
		{"reflexive", c.Le(v.x, v.x), "true"},
		{"excluded middle", c.Or(c.Not(v.p), v.p), "true"},
		{"not lt", c.Not(c.Lt(v.x, v.y)), "(<= y x)"},
		{"constant compare", c.Lt(n(3), n(2)), "false"},
		{"ite constant", c.Ite(c.True(), v.x, v.y), "x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := c.Simplify(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if got.String() != tt.want {
				t.Errorf("Simplify(%s) = %s, want %s", tt.in, got, tt.want)
			}
		})
	}
}

// TestWeakestPrecondition uses substitution as the weakest precondition of
// assignments: wp(x := e, φ) = φ[e/x].
func TestWeakestPrecondition(t *testing.T) {
	c := newContext(t, Config{})
	v := mkVars(c)
	n := c.IntVal
	tests := []struct {
		name   string
		post   *Expr
		assign [2]*Expr // variable, expression
		want   *Expr    // an equivalent precondition
	}{
		{"increment", c.Gt(v.x, n(3)), [2]*Expr{v.x, c.Add(v.x, n(1))}, c.Ge(v.x, n(3))},
		{"copy", c.Eq(v.x, v.y), [2]*Expr{v.x, v.y}, c.True()},
		{"ticket", c.Lt(v.y, v.x), [2]*Expr{v.x, c.Add(v.x, n(1))}, c.Le(v.y, v.x)},
		{"untouched", c.Gt(v.y, n(0)), [2]*Expr{v.x, n(5)}, c.Gt(v.y, n(0))},
	}
	s := newSolver(t, c)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wp := c.Substitute(tt.post, []*Expr{tt.assign[0]}, []*Expr{tt.assign[1]})
			ok, err := s.Valid(c.Eq(wp, tt.want))
			if err != nil {
				t.Fatal(err)
			}
			if !ok {
				t.Errorf("wp = %s, not equivalent to %s", wp, tt.want)
			}
		})
	}
}

func TestQE(t *testing.T) {
	c := newContext(t, Config{})
	v := mkVars(c)
	n := c.IntVal
	ex := func(body *Expr) *Expr { return c.Exists([]*Expr{v.y}, body) }
	tests := []struct {
		name string
		in   *Expr
	}{
		{"between", ex(c.And(c.Lt(v.x, v.y), c.Lt(v.y, v.z)))},
		{"even", ex(c.Eq(v.x, c.Mul(n(2), v.y)))},
		{"bounded even", ex(c.And(c.Eq(v.x, c.Mul(n(2), v.y)), c.Le(n(0), v.y), c.Lt(v.y, v.z)))},
		{"path prefix", ex(c.And(c.Eq(v.y, c.Add(v.x, n(1))), c.Gt(v.y, v.z), c.Le(v.z, n(2))))},
		{"unsat body", ex(c.And(c.Lt(v.y, v.x), c.Gt(v.y, v.x)))},
		{"valid body", ex(c.Ge(v.y, v.x))},
		{"disjunction", ex(c.Or(c.Eq(v.y, v.x), c.And(c.Lt(v.y, n(0)), c.Gt(v.y, v.z))))},
		{"two bound", c.Exists([]*Expr{v.y, v.z}, c.And(c.Eq(v.x, c.Add(v.y, v.z)), c.Ge(v.y, n(1)), c.Ge(v.z, n(1))))},
		{"nested forall", ex(c.And(c.Ge(v.y, v.x), c.ForAll([]*Expr{v.z}, c.Implies(c.Gt(v.z, v.y), c.Gt(v.z, n(3))))))},
		{"quantifier free", c.Lt(v.x, v.z)},
	}
	s := newSolver(t, c)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			qf, err := c.QE(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if hasQuantifier(qf) {
				t.Fatalf("QE(%s) = %s has a quantifier", tt.in, qf)
			}
			// Compare both formulas at every point of a grid of the free
			// constants x and z: the quantified one by a solver check.
			for xv := int64(-4); xv <= 4; xv++ {
				for zv := int64(-4); zv <= 4; zv++ {
					at := func(e *Expr) *Expr {
						return c.Substitute(e, []*Expr{v.x, v.z}, []*Expr{n(xv), n(zv)})
					}
					want, err := s.Satisfiable(at(tt.in))
					if err != nil {
						t.Fatal(err)
					}
					got, err := c.Simplify(at(qf))
					if err != nil {
						t.Fatal(err)
					}
					if got.Op() != OpTrue && got.Op() != OpFalse {
						t.Fatalf("QE result %s at x=%d, z=%d simplifies to %s", qf, xv, zv, got)
					}
					if (got.Op() == OpTrue) != want {
						t.Fatalf("QE(%s) = %s differs at x=%d, z=%d", tt.in, qf, xv, zv)
					}
				}
			}
		})
	}
}

// hasQuantifier reports whether e contains a quantifier.
func hasQuantifier(e *Expr) bool {
	switch e.Op() {
	case OpExists, OpForAll:
		return true
	}
	for _, a := range e.Args() {
		if hasQuantifier(a) {
			return true
		}
	}
	return false
}

func TestApplyTactic(t *testing.T) {
	c := newContext(t, Config{})
	v := mkVars(c)
	n := c.IntVal
	tests := []struct {
		name    string
		in      *Expr
		tactics []string
		want    string
	}{
		{"simplify", c.And(c.Le(v.x, v.x), v.p), []string{"simplify"}, "p"},
		{"propagate", c.And(c.Eq(v.x, n(3)), c.Lt(v.y, v.x)), []string{"propagate-values", "simplify"}, "(and (= x 3) (not (<= 3 y)))"},
		{"decided unsat", c.And(c.Lt(v.x, v.y), c.Lt(v.y, v.x)), []string{"simplify", "propagate-ineqs", "solve-eqs", "smt"}, "false"},
		{"decided sat", c.Lt(v.x, v.y), []string{"smt"}, "true"},
		{"split", c.Or(v.p, v.q), []string{"split-clause"}, "(or p q)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := c.ApplyTactic(tt.in, tt.tactics...)
			if err != nil {
				t.Fatal(err)
			}
			if got.String() != tt.want {
				t.Errorf("ApplyTactic(%s, %v) = %s, want %s", tt.in, tt.tactics, got, tt.want)
			}
		})
	}
}

// cubes returns the constraints of the nonlinear problem x³ + y³ = z³ with
// positive integers, on which Z3 does not terminate quickly.
func cubes(c *Context) []*Expr {
	v := mkVars(c)
	one := c.IntVal(1)
	cube := func(e *Expr) *Expr { return c.Mul(e, e, e) }
	return []*Expr{c.Ge(v.x, one), c.Ge(v.y, one), c.Ge(v.z, one),
		c.Eq(c.Add(cube(v.x), cube(v.y)), cube(v.z))}
}

func TestTimeout(t *testing.T) {
	const d = 50 * time.Millisecond
	t.Run("solver", func(t *testing.T) {
		c := newContext(t, Config{})
		s := newSolver(t, c)
		if err := s.SetTimeout(d); err != nil {
			t.Fatal(err)
		}
		if err := s.Assert(cubes(c)...); err != nil {
			t.Fatal(err)
		}
		r, err := s.Check()
		if err != nil || r != Unknown {
			t.Fatalf("Check() = %v, %v, want unknown", r, err)
		}
		if why, err := s.ReasonUnknown(); err != nil || why == "" {
			t.Errorf("ReasonUnknown() = %q, %v", why, err)
		}
		if err := s.SetTimeout(0); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("context", func(t *testing.T) {
		c := newContext(t, Config{Timeout: d})
		s := newSolver(t, c)
		_, err := s.Satisfiable(c.And(cubes(c)...))
		if !errors.Is(err, ErrUnknown) {
			t.Fatalf("Satisfiable = %v, want ErrUnknown", err)
		}
		if k, err := s.Scopes(); err != nil || k != 0 {
			t.Errorf("Scopes() = %d, %v after an unknown scoped check", k, err)
		}
	})
	t.Run("tactic", func(t *testing.T) {
		c := newContext(t, Config{Timeout: d})
		if _, err := c.ApplyTactic(c.And(cubes(c)...), "smt"); err == nil {
			t.Fatal("the smt tactic decided x³ + y³ = z³ within 50ms")
		}
	})
	t.Run("resource limit", func(t *testing.T) {
		c := newContext(t, Config{Params: map[string]string{"rlimit": "1000"}})
		s := newSolver(t, c)
		if _, err := s.Satisfiable(c.And(cubes(c)...)); !errors.Is(err, ErrUnknown) {
			t.Fatalf("Satisfiable = %v, want ErrUnknown", err)
		}
	})
	t.Run("solver resource limit", func(t *testing.T) {
		c := newContext(t, Config{})
		s := newSolver(t, c)
		if err := s.SetResourceLimit(1000); err != nil {
			t.Fatal(err)
		}
		if err := s.Assert(cubes(c)...); err != nil {
			t.Fatal(err)
		}
		// Twice: the limit is per check, not used up by the first.
		for i := 0; i < 2; i++ {
			if r, err := s.Check(); err != nil || r != Unknown {
				t.Fatalf("Check() #%d = %v, %v, want unknown", i+1, r, err)
			}
		}
		if err := s.SetResourceLimit(0); err != nil {
			t.Fatal(err)
		}
		s2 := newSolver(t, c)
		if err := s2.SetResourceLimit(1000); err != nil {
			t.Fatal(err)
		}
		v := mkVars(c)
		if err := s2.Assert(c.Eq(c.Add(v.x, v.y), c.IntVal(3))); err != nil {
			t.Fatal(err)
		}
		if r, err := s2.Check(); err != nil || r != Sat {
			t.Fatalf("Check() of an easy formula = %v, %v, want sat", r, err)
		}
	})
	t.Run("negative", func(t *testing.T) {
		c := newContext(t, Config{})
		if err := newSolver(t, c).SetTimeout(-d); err == nil {
			t.Error("SetTimeout(-50ms) succeeded")
		}
	})
}

func TestInterrupt(t *testing.T) {
	c := newContext(t, Config{})
	s := newSolver(t, c)
	if err := s.SetTimeout(20 * time.Second); err != nil { // a backstop only
		t.Fatal(err)
	}
	if err := s.Assert(cubes(c)...); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		// Interrupt until the check has returned: an interrupt that comes
		// before the check starts is lost.
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				c.Interrupt()
			}
		}
	}()
	var r Result
	var err error
	// CPU time: on a loaded machine the wall time grows with the load.
	_, cpu := cputime.Measure(func() { r, err = s.Check() })
	close(done)
	if err != nil || r != Unknown {
		t.Fatalf("interrupted Check() = %v, %v, want unknown", r, err)
	}
	if cpu > 10*time.Second {
		t.Errorf("interrupt took %v of CPU time", cpu)
	}
	// The Context works normally afterwards.
	x := c.Int("x")
	if ok, err := newSolver(t, c).Valid(c.Le(x, c.Add(x, c.IntVal(1)))); err != nil || !ok {
		t.Errorf("after an interrupt: Valid(x <= x+1) = %v, %v", ok, err)
	}
}

func TestClose(t *testing.T) {
	c, err := NewContext(Config{})
	if err != nil {
		t.Fatal(err)
	}
	x := c.Int("x")
	s := newSolver(t, c)
	if err := s.Assert(c.Gt(x, c.IntVal(0))); err != nil {
		t.Fatal(err)
	}
	if r, err := s.Check(); err != nil || r != Sat {
		t.Fatalf("Check() = %v, %v", r, err)
	}
	m, err := s.Model()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Check(); err == nil || !strings.Contains(err.Error(), "solver is closed") {
		t.Errorf("Check on a closed solver: %v", err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	checks := []struct {
		name string
		err  error
	}{
		{"constant", c.Int("y").Err()},
		{"add", c.Add(x, x).Err()},
		{"solver", func() error { _, err := c.NewSolver(); return err }()},
		{"check", func() error { _, err := s.Check(); return err }()},
		{"model", func() error { _, err := m.Int(x); return err }()},
		{"simplify", func() error { _, err := c.Simplify(x); return err }()},
		{"qe", func() error { _, err := c.QE(x); return err }()},
	}
	for _, ch := range checks {
		if !errors.Is(ch.err, ErrClosed) {
			t.Errorf("%s after Close: %v, want ErrClosed", ch.name, ch.err)
		}
	}
	if got := x.String(); got != "<closed>" {
		t.Errorf("String() after Close = %q", got)
	}
	if x.Op() != OpOther || x.Args() != nil || x.Name() != "" {
		t.Errorf("inspection after Close returns data")
	}
	if err := s.Close(); err != nil {
		t.Errorf("Close of a solver of a closed context: %v", err)
	}
	// x, s and m are dead here: their cleanups run against the deleted
	// context.
	collect()
}

func TestConcurrent(t *testing.T) {
	c := newContext(t, Config{})
	shared := newSolver(t, c)
	const workers, queries = 4, 150
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			own, err := c.NewSolver()
			if err != nil {
				errs <- err
				return
			}
			for i := range queries {
				a, b := implicationQuery(c, int64(w*queries+i))
				for _, s := range []*Solver{own, shared} {
					ok, err := s.Implies(a, b)
					if err != nil {
						errs <- err
						return
					}
					if !ok {
						errs <- errors.New("implication query not valid")
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
