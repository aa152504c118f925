package extract

import (
	"testing"

	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/native"
)

// casLoop is the model of for { old := x.Load(); if x.CompareAndSwap(old,
// old+1.5) { break } }, then, in a second loop, a swap that may stay.
const casLoop = `program "cas"

var x : int = 0
var y : int = 0

process P {
  reg $old : int = 0
  reg $ok : [0:1] = 0
  reg $n : int = 0
  locs L0 L1 L2 L3 L4 L5 L6
  init L0
  L0 -> L1 : atomic read $old := x
  L1 -> L2 : locked { read x == $old; write x := fadd64($old, 4609434218613702656); $ok := 1 }
  L1 -> L2 : locked { assume x != $old; read x; $ok := 0 }
  L2 -> L3 : assume $ok
  L2 -> L0 : assume !$ok
  L3 -> L4 : read $n := y
  L4 -> L5 : locked { read y; write y := $n + 1; $ok := 1 }
  L5 -> L3 : assume $ok
  L5 -> L6 : assume $n > 3
}
`

// TestExitsLoop checks that the successful swap of a compare-and-swap loop
// counts as a write that runs once, and that a write after which the loop
// may go on does not.
func TestExitsLoop(t *testing.T) {
	p, err := native.Parse("cas.fcm", []byte(casLoop))
	if err != nil {
		t.Fatal(err)
	}
	q := p.Procs[0]
	_, comp := q.Cycles()
	want := map[int]bool{1: true, 2: false, 6: false}
	for ti, w := range want {
		if got := exitsLoop(q, comp, q.Trans[ti]); got != w {
			t.Errorf("transition %d (%s): exitsLoop = %v, want %v", ti, model.FormatExpr(q.Trans[ti].Op.Expr, p, q), got, w)
		}
	}
}

// TestFloatCells checks which cells hold float bits: the variable a float
// sum is written to and the registers that load it, not the others.
func TestFloatCells(t *testing.T) {
	p, err := native.Parse("cas.fcm", []byte(casLoop))
	if err != nil {
		t.Fatal(err)
	}
	vars, regs := floatCells(p)
	if !vars[0] || vars[1] {
		t.Errorf("float variables = %v, want [true false]", vars)
	}
	if !regs[0][0] || regs[0][1] || regs[0][2] {
		t.Errorf("float registers = %v, want [true false false]", regs[0])
	}
	if d := floatDomain(model.Unbounded, true, 0, 1<<32-1); d.Unbounded || d.Lo != 0 || d.Hi != 1<<32-1 {
		t.Errorf("floatDomain(unbounded) = %+v, want 0..2^32-1", d)
	}
	if d := floatDomain(model.Unbounded, false, 0, 1); !d.Unbounded {
		t.Errorf("floatDomain of an integer cell = %+v, want unbounded", d)
	}
}

// TestFloatEntityValue checks that the values of float cells print as Go
// prints the floats.
func TestFloatEntityValue(t *testing.T) {
	tests := []struct {
		bits uint8
		v    int64
		want string
	}{
		{64, model.FloatBits(0.5, 64), "0.5"},
		{64, model.FloatBits(0.1, 64) ^ -1<<63, "-0.1"},
		{64, -0x8000000000000, "NaN"},
		{32, model.FloatBits(0.1, 32), "0.1"},
		{32, 0x80000000, "-0"},
	}
	for _, tt := range tests {
		if got := (Entity{Float: tt.bits}).Value(tt.v); got != tt.want {
			t.Errorf("Value(%#x) of a float%d = %s, want %s", tt.v, tt.bits, got, tt.want)
		}
	}
}
