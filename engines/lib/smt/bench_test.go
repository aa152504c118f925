//go:build cgo && !fencecheck_noz3

package smt

import (
	"testing"
)

// implicationQuery builds a typical predicate-abstraction implication: the
// abstract state (a conjunction of predicates over tickets and counters)
// against one predicate, with the numeral k varying between queries.
func implicationQuery(c *Context, k int64) (a, b *Expr) {
	t, n, x, y := c.Int("t"), c.Int("n"), c.Int("x"), c.Int("y")
	kv := c.IntVal(k)
	a = c.And(
		c.Ge(t, n),
		c.Ge(n, kv),
		c.Eq(x, c.Add(y, c.IntVal(1))),
		c.Not(c.Eq(y, c.IntVal(0))),
	)
	b = c.Or(c.Gt(t, c.Sub(kv, c.IntVal(1))), c.Lt(x, y))
	return a, b
}

func newBenchSolver(b *testing.B) (*Context, *Solver) {
	b.Helper()
	c, err := NewContext(Config{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { c.Close() })
	s, err := c.NewSolver()
	if err != nil {
		b.Fatal(err)
	}
	return c, s
}

// BenchmarkImplies measures a typical implication check, formula building
// included, on one incremental solver; "no-auto-config" turns off Z3's
// per-logic configuration of its SMT core (Config.Params auto_config=false).
func BenchmarkImplies(b *testing.B) {
	for _, bc := range []struct {
		name   string
		params map[string]string
	}{
		{"default", nil},
		{"no-auto-config", map[string]string{"auto_config": "false"}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			c, err := NewContext(Config{Params: bc.params})
			if err != nil {
				b.Fatal(err)
			}
			defer c.Close()
			s, err := c.NewSolver()
			if err != nil {
				b.Fatal(err)
			}
			var k int64
			for b.Loop() {
				a, f := implicationQuery(c, k%64)
				k++
				ok, err := s.Implies(a, f)
				if err != nil || !ok {
					b.Fatalf("Implies = %v, %v", ok, err)
				}
			}
		})
	}
}

// BenchmarkImpliesFreshSolver is BenchmarkImplies with a new solver per
// query (no incremental state at all).
func BenchmarkImpliesFreshSolver(b *testing.B) {
	c, _ := newBenchSolver(b)
	var k int64
	for b.Loop() {
		a, f := implicationQuery(c, k%64)
		k++
		s, err := c.NewSolver()
		if err != nil {
			b.Fatal(err)
		}
		ok, err := s.Implies(a, f)
		if err != nil || !ok {
			b.Fatalf("Implies = %v, %v", ok, err)
		}
		s.Close()
	}
}

// BenchmarkBuild measures building the formulas of one implication query.
func BenchmarkBuild(b *testing.B) {
	c, _ := newBenchSolver(b)
	var k int64
	for b.Loop() {
		implicationQuery(c, k%64)
		k++
	}
}

// BenchmarkQE measures eliminating one existential from a small path
// formula.
func BenchmarkQE(b *testing.B) {
	c, _ := newBenchSolver(b)
	x, y, z := c.Int("x"), c.Int("y"), c.Int("z")
	q := c.Exists([]*Expr{y}, c.And(c.Eq(x, c.Add(y, c.IntVal(1))), c.Le(y, z), c.Ge(y, c.IntVal(0))))
	for b.Loop() {
		if _, err := c.QE(q); err != nil {
			b.Fatal(err)
		}
	}
}
