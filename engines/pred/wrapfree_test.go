package pred

import (
	"context"
	"strings"
	"testing"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/native"
)

// TestWrapFree checks the growth bound on hand-worked programs: how many
// operations every run performs before a value can leave int64, and the
// expression named.
func TestWrapFree(t *testing.T) {
	tests := []struct {
		name string
		src  string
		// atLeast ≤ ops ≤ atMost.
		atLeast, atMost uint64
		where           string // a part of the expression named
	}{
		{
			name: "ticket taken one above another",
			src: `
var n0 : int = 0
var n1 : int = 0
process P0 {
  reg $t : int = 0
  L0 -> L1 : read $t := n1
  L1 -> L0 : write n0 := $t + 1
}
process P1 {
  reg $t : int = 0
  L0 -> L1 : read $t := n0
  L1 -> L0 : write n1 := $t + 1
}`,
			// n1 ≤ n: $t + 1 wraps no earlier than operation 2^63 - 1.
			atLeast: 1<<63 - 2, atMost: 1<<63 - 1, where: "$t + 1",
		},
		{
			name: "counter near the end of int64",
			src: `
var x : int = 9223372036854775804
process P0 {
  reg $r : int = 0
  L0 -> L1 : read $r := x
  L1 -> L0 : write x := $r + 1
}`,
			// x ≤ MaxInt64-3 + n: the fourth operation may wrap, so at
			// most the first 3 are free of it.
			atLeast: 1, atMost: 4, where: "$r + 1",
		},
		{
			name: "doubling",
			src: `
var x : int = 1
process P0 {
  reg $r : int = 0
  L0 -> L1 : read $r := x
  L1 -> L0 : write x := $r + $r
}`,
			atLeast: 0, atMost: 0, where: "$r + $r",
		},
		{
			name: "doubling by a product",
			src: `
var x : int = 1
process P0 {
  reg $r : int = 0
  L0 -> L1 : read $r := x
  L1 -> L0 : write x := 2 * $r
}`,
			atLeast: 0, atMost: 0, where: "2 * $r",
		},
		{
			name: "difference of two tickets, not fed back",
			src: `
var a : int = 0
var b : int = 0
process P0 {
  reg $r : int = 0
  L0 -> L1 : read $r := a
  L1 -> L0 : write a := $r + 1
}
process P1 {
  reg $r : int = 0
  L0 -> L1 : read $r := b
  L1 -> L0 : write b := $r + 1
}
process P2 {
  reg $x : int = 0
  reg $y : int = 0
  reg $d : int = 0
  L0 -> L1 : read $x := a
  L1 -> L2 : read $y := b
  L2 -> L3 : $d := $x - $y
  L3 -> L0 : assume $d == 0
}`,
			// |$x - $y| ≤ 2n.
			atLeast: 1 << 61, atMost: 1 << 62, where: "$x - $y",
		},
		{
			name: "bounded values only",
			src: `
var x : [0:3] = 0
process P0 {
  reg $r : [0:3] = 0
  L0 -> L1 : read $r := x
  L1 -> L0 : write x := ($r + 1) % 4
}`,
			atLeast: noWrapLimit, atMost: noWrapLimit,
		},
		{
			name: "unbounded but only copied",
			src: `
var x : int = 5
process P0 {
  reg $r : int = 0
  L0 -> L1 : read $r := x
  L1 -> L0 : write x := $r
}`,
			atLeast: noWrapLimit, atMost: noWrapLimit,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := native.Parse(tt.name, []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			got := wrapFree(p)
			if got.ops < tt.atLeast || got.ops > tt.atMost {
				t.Errorf("wrapFree = %d operations (%s), want %d..%d", got.ops, got.where, tt.atLeast, tt.atMost)
			}
			if !strings.Contains(got.where, tt.where) {
				t.Errorf("wrapFree names %q, want it to name %q", got.where, tt.where)
			}
		})
	}
}

// TestWrapFreeVerdicts checks that the engine gives no proof that needs
// 64-bit values to stay unbounded integers for fewer than MinWrapFreeOps
// operations, and no internal error for a counterexample whose values wrap:
// a counter that starts 3 below the end of int64 and a loop that makes it
// wrap, where Go's values go negative. Both programs are safe with
// mathematical integers and unsafe with Go's.
func TestWrapFreeVerdicts(t *testing.T) {
	for _, start := range []string{"9223372036854775804", "9223372036854775806"} {
		src := `
var x : int = ` + start + `
process inc {
  reg $r : int = 0
  L0 -> L1 : read $r := x
  L1 -> L0 : write x := $r + 1
}
process check {
  reg $v : int = 0
  L0 -> L1 : read $v := x
  L1 -> bad : assume $v < 0
}
bad "x wrapped" : check@bad
`
		p, err := native.Parse("wrap", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range []model.Model{model.SC, model.TSO} {
			e := &Engine{Fresh: true}
			res, err := e.Check(context.Background(), p, m)
			if err != nil {
				t.Fatalf("start %s under %v: %v", start, m, err)
			}
			if res.Status == engines.Safe {
				t.Errorf("start %s under %v: safe, but Go's x wraps to a negative value", start, m)
			}
			if res.Status == engines.Inconclusive && !strings.Contains(res.Reason, "wrap around") {
				t.Errorf("start %s under %v: inconclusive for another reason: %s", start, m, res.Reason)
			}
		}
	}
}

// TestCheckLimit checks that a Z3 check that runs out of its resource limit
// ends the analysis inconclusive, naming the limit, rather than in an error
// or the wall-clock budget: with a limit of 300 units, the first question
// outside difference logic (a product of two run-time values) exceeds it.
func TestCheckLimit(t *testing.T) {
	defer func(l uint32) { checkLimit = l }(checkLimit)
	checkLimit = 300
	src := `
var x : int = 3
process P0 {
  reg $r : int = 0
  reg $s : int = 0
  L0 -> L1 : read $r := x
  L1 -> L2 : read $s := x
  L2 -> bad : assume $r * $s == 10
  L2 -> L0 : assume $r * $s != 10
}
process P1 {
  reg $t : int = 0
  L0 -> L1 : read $t := x
  L1 -> L0 : write x := $t + 1
}
bad "product 10" : P0@bad
`
	p, err := native.Parse("limit", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	res, err := (&Engine{Fresh: true}).Check(context.Background(), p, model.SC)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != engines.Inconclusive || !strings.Contains(res.Reason, "resource limit") {
		t.Errorf("with a limit of 300 units: %v (%s), want inconclusive at the resource limit", res.Status, res.Reason)
	}
}

// TestModelsWithinInt64 is the model of a Go system that divides an
// unbounded uint64 counter by 3 (lowered to signed operations on its bit
// pattern): Z3's models of its questions gave values beyond int64, and the
// analysis ended in an error. The models are now asked within int64.
func TestModelsWithinInt64(t *testing.T) {
	src := `
var seq : int = 0
process inc {
  L0 -> L0 : locked { read seq; write seq := seq + 3 }
}
process check {
  reg $t0 : int = 0
  L0 -> L1 : atomic read $t0 := seq
  L1 -> L2 : assume $t0 % 3 + ($t0 < 0) * 1 + 3 * ($t0 % 3 + ($t0 < 0) * 1 < 0) != 0
  L1 -> L3 : assume $t0 % 3 + ($t0 < 0) * 1 + 3 * ($t0 % 3 + ($t0 < 0) * 1 < 0) == 0
  L3 -> L4 : assume $t0 < $t0 / 3 + ($t0 < 0) * 6148914691236517205 - ($t0 % 3 + ($t0 < 0) * 1 < 0) != ($t0 < 0 != ($t0 / 3 + ($t0 < 0) * 6148914691236517205 - ($t0 % 3 + ($t0 < 0) * 1 < 0) < 0))
  L3 -> L5 : assume $t0 < $t0 / 3 + ($t0 < 0) * 6148914691236517205 - ($t0 % 3 + ($t0 < 0) * 1 < 0) == ($t0 < 0 != ($t0 / 3 + ($t0 < 0) * 6148914691236517205 - ($t0 % 3 + ($t0 < 0) * 1 < 0) < 0))
}
bad "quotient" : check@L4
bad "not a multiple" : check@L2
`
	p, err := native.Parse("div", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	res, err := (&Engine{Fresh: true, MaxIterations: 4}).Check(context.Background(), p, model.SC)
	if err != nil {
		t.Fatalf("%v", err)
	}
	if res.Status == engines.Unsafe {
		t.Errorf("unsafe: %v", res.Trace)
	}
}

// TestWrapFreeReason checks the wording of the reason for a value that can
// double at every step, where no number of operations is safe.
func TestWrapFreeReason(t *testing.T) {
	p, err := native.Parse("double", []byte(`
var x : int = 1
process P0 {
  reg $r : int = 0
  L0 -> L1 : read $r := x
  L1 -> L0 : write x := $r + $r
}`))
	if err != nil {
		t.Fatal(err)
	}
	got := wrapFree(p).reason()
	if !strings.Contains(got, "$r + $r (P0, double:6:3) may wrap around at once, or grow past int64 in a few steps") {
		t.Errorf("reason = %q", got)
	}
}
