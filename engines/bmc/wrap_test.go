package bmc_test

import (
	"context"
	"testing"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/bmc"
	"github.com/fencecheck/fencecheck/engines/explicit"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/native"
)

// TestWraps checks that the engine evaluates wraps (Go's narrow integer
// types) as the model does: its verdicts are the explicit engine's.
func TestWraps(t *testing.T) {
	for _, c := range []struct {
		name, cond string
		want       engines.Status
	}{
		{"uint8 300 is 44", "$r == 44", engines.Unsafe},
		{"uint8 300 is not 300", "$r == 300", engines.Safe},
		{"int8 120+10 is -126", "$s == -126", engines.Unsafe},
		{"int8 120+10 is not 130", "$s > 127", engines.Safe},
	} {
		src := `program "w"
var x : [0:255] = 200
process P {
  reg $r : [0:255] = 0
  reg $s : [-128:127] = 120
  locs L0 L1 L2 L3
  init L0
  L0 -> L1 : locked { read $r := x; write x := uint8(x + 100) }
  L1 -> L2 : $s := int8($s + 10)
  L2 -> L3 : locked { read $r := x }
}
bad "b" : P@L3 && P.` + c.cond + `
`
		checkLikeExplicit(t, c.name, src, c.want)
	}
}

// TestWraps64 checks that 64-bit sums, differences, products and negations
// wrap as in Go and the model, where the operands' domains let them leave
// int64: the engine's verdicts are the explicit engine's, and a
// counterexample replays.
func TestWraps64(t *testing.T) {
	for _, c := range []struct {
		name, op, cond string
		want           engines.Status
	}{
		{"MaxInt64 + 1 is MinInt64", "$r + 1", "$s == -9223372036854775808", engines.Unsafe},
		{"MaxInt64 + 1 is not positive", "$r + 1", "$s > 0", engines.Safe},
		{"MinInt64 - 1 is MaxInt64", "0 - $r - 2", "$s == 9223372036854775807", engines.Unsafe},
		{"MaxInt64 * 2 is -2", "$r * 2", "$s == -2", engines.Unsafe},
		{"MaxInt64 * 2 is not 2^64-2", "$r * 2", "$s > 0", engines.Safe},
		{"-MinInt64 is MinInt64", "-(0 - $r - 1)", "$s < 0", engines.Unsafe},
	} {
		src := `program "w"
var x : [9223372036854775806:9223372036854775807] = 9223372036854775807
process P {
  reg $r : [9223372036854775806:9223372036854775807] = 9223372036854775806
  reg $s : int = 0
  locs L0 L1 L2
  init L0
  L0 -> L1 : read $r := x
  L1 -> L2 : $s := ` + c.op + `
}
bad "b" : P@L2 && P.` + c.cond + `
`
		checkLikeExplicit(t, c.name, src, c.want)
	}
}

// TestMathematical64 checks that nothing wraps in a program whose integers
// are mathematical (a Memorax model's): MaxInt64 + 1 is not MinInt64, nor
// MinInt64 - 1 MaxInt64, for the bounded engine as for the explicit one
// (whose step to a value beyond int64 is not taken).
func TestMathematical64(t *testing.T) {
	for _, c := range []struct {
		name, op, cond string
	}{
		{"MaxInt64 + 1 is not MinInt64", "$r + 1", "$s == -9223372036854775808"},
		{"MinInt64 - 1 is not MaxInt64", "0 - $r - 2", "$s == 9223372036854775807"},
		{"MaxInt64 * 2 is not -2", "$r * 2", "$s == -2"},
	} {
		src := `program "w" integers mathematical
var x : [9223372036854775806:9223372036854775807] = 9223372036854775807
process P {
  reg $r : [9223372036854775806:9223372036854775807] = 9223372036854775806
  reg $s : int = 0
  locs L0 L1 L2
  init L0
  L0 -> L1 : read $r := x
  L1 -> L2 : $s := ` + c.op + `
}
bad "b" : P@L2 && P.` + c.cond + `
`
		checkLikeExplicit(t, c.name, src, engines.Safe)
	}
}

// checkLikeExplicit checks that the engine's verdict on the model src is
// want, and the explicit engine's, under SC and TSO.
func checkLikeExplicit(t *testing.T, name, src string, want engines.Status) {
	t.Helper()
	p, err := native.Parse("w.fm", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []model.Model{model.SC, model.TSO} {
		exact, err := (&explicit.Engine{}).Check(context.Background(), p, m)
		if err != nil {
			t.Fatal(err)
		}
		got, err := (&bmc.Engine{}).Check(context.Background(), p, m)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if exact.Status != want || got.Status != want {
			t.Errorf("%s under %v: bmc %v, explicit %v; want %v", name, m, got.Status, exact.Status, want)
		}
	}
}
