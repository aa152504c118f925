package model_test

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/native"
)

// TestWrapValue checks WrapValue against Go's conversions.
func TestWrapValue(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	vals := []int64{0, 1, -1, 127, 128, -128, -129, 255, 256, 65535, 65536, math.MaxInt32, math.MinInt32, math.MaxInt64, math.MinInt64}
	for range 1000 {
		vals = append(vals, int64(r.Uint64()))
	}
	for _, v := range vals {
		for _, c := range []struct {
			bits   uint8
			signed bool
			want   int64
		}{
			{8, true, int64(int8(v))}, {8, false, int64(uint8(v))},
			{16, true, int64(int16(v))}, {16, false, int64(uint16(v))},
			{32, true, int64(int32(v))}, {32, false, int64(uint32(v))},
			{1, false, v & 1}, {1, true, -(v & 1)},
		} {
			if got := model.WrapValue(v, c.bits, c.signed); got != c.want {
				t.Errorf("WrapValue(%d, %d, %v) = %d, want %d", v, c.bits, c.signed, got, c.want)
			}
			e := model.W(model.C(v), c.bits, c.signed)
			if got, err := model.Eval(e, &model.Env{}); err != nil || got != c.want {
				t.Errorf("Eval(%s) = %d, %v; want %d", model.FormatExpr(e, nil, nil), got, err, c.want)
			}
		}
	}
}

// TestWrapInPrograms checks that a wrap validates, prints and parses as a
// conversion, and that a value outside a domain names its variable or
// register in the fault.
func TestWrapInPrograms(t *testing.T) {
	src := `program "w"
var x : [0:255] = 250
process P {
  reg $r : [0:255] = 0
  reg $s : [0:3] = 0
  locs L0 L1 L2 L3
  init L0
  L0 -> L1 : locked { read $r := x; write x := uint8(x + 10) }
  L1 -> L2 : $r := uint8($r + 10)
  L2 -> L3 : $s := $r
}
`
	p, err := native.Parse("w.fm", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	if got := string(native.Format(p)); !strings.Contains(got, "uint8(x + 10)") || !strings.Contains(got, "uint8($r + 10)") {
		t.Errorf("Format does not print the wraps as conversions:\n%s", got)
	}
	s := initial(t, p)
	s = run(t, p, model.SC, s, "0", "0")
	if s.Mem[0] != 4 || s.Regs[0][0] != 4 {
		t.Errorf("x = %d, $r = %d after wrapping 260 to uint8, want 4 and 4", s.Mem[0], s.Regs[0][0])
	}
	s = run(t, p, model.SC, s, "0")
	if f := s.Fault; f == nil || f.Reg != 1 || f.Var != -1 || f.Value != 4 || f.Proc != 0 {
		t.Errorf("fault %+v, want register 1 of P with value 4", f)
	}
	bad := &model.Program{Name: "b", Procs: []*model.Process{{Name: "P", Locs: []model.Loc{{Name: "L0"}, {Name: "L1"}},
		Trans: []model.Transition{{From: 0, To: 1, Op: model.GuardOp(model.W(model.C(1), 64, true))}}}}}
	if err := bad.Validate(); err == nil || !strings.Contains(err.Error(), "wrap to 64 bits") {
		t.Errorf("Validate of a 64-bit wrap: %v, want an error", err)
	}
}
