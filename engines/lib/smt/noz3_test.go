//go:build !cgo || fencecheck_noz3

package smt

import (
	"errors"
	"testing"
)

// TestUnavailable checks that a build without Z3 says so: NewContext fails
// with ErrUnavailable, and so does every operation reachable without a
// Context.
func TestUnavailable(t *testing.T) {
	if Available {
		t.Fatal("Available is true in a build without Z3")
	}
	ctx, err := NewContext(Config{})
	if !errors.Is(err, ErrUnavailable) {
		t.Fatalf("NewContext error = %v, want one wrapping ErrUnavailable", err)
	}
	if ctx != nil {
		t.Errorf("NewContext returned a Context with error %v", err)
	}
	var c *Context
	var s *Solver
	var m *Model
	x := c.Int("x")
	tests := []struct {
		name string
		err  error
	}{
		{"Expr.Err", x.Err()},
		{"nested Expr.Err", c.Le(x, c.IntVal(1)).Err()},
		{"NewSolver", second(c.NewSolver())},
		{"Simplify", second(c.Simplify(x))},
		{"QE", second(c.QE(x))},
		{"ApplyTactic", second(c.ApplyTactic(x, "simplify"))},
		{"Assert", s.Assert(x)},
		{"Check", second(s.Check())},
		{"Valid", second(s.Valid(x))},
		{"Model", second(s.Model())},
		{"Model.Int", second(m.Int(x))},
	}
	for _, tt := range tests {
		if !errors.Is(tt.err, ErrUnavailable) {
			t.Errorf("%s error = %v, want one wrapping ErrUnavailable", tt.name, tt.err)
		}
	}
	if r, err := s.Check(); r != Unknown || err == nil {
		t.Errorf("Check() = %v, %v; want unknown and an error", r, err)
	}
}

// second returns the error of a two-valued call.
func second[T any](_ T, err error) error { return err }
