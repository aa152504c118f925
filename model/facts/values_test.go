package facts_test

import (
	"context"
	"testing"

	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/facts"
	"github.com/fencecheck/fencecheck/model/native"
)

// TestSearchValues checks the discovery of the values of unbounded cells:
// a counter bounded by a loop gets the interval of its values; a counter
// incremented forever grows, named with the transition that made its last
// value, whether it passes the bound of values or the search runs out of
// states while it still takes new ones; a cell that starts with any
// integer stops the search.
func TestSearchValues(t *testing.T) {
	const bounded = `
var x : int = 0
process P {
  reg $i : int = 0
  L0 -> L1 : assume $i < 37
  L1 -> L2 : write x := $i * 2
  L2 -> L0 : $i := $i + 1
  L0 -> L3 : assume $i >= 37
}
process Q {
  reg $r : int = 0
  L0 -> L1 : read $r := x
}
`
	const forever = `
var x : int = 0
process P {
  reg $i : int = 0
  L0 -> L1 : write x := $i
  L1 -> L0 : $i := $i + 1 @ f.go:7:3
}
`
	const anyStart = `
var x : int = *
process P {
  L0 -> L1 : write x := 1
}
`
	parse := func(src string) *model.Program {
		p, err := native.Parse("v.fcm", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	ctx := context.Background()

	vs := facts.SearchValues(ctx, parse(bounded), 1<<14, 100)
	if vs.Doms == nil {
		t.Fatalf("bounded: no domains (%+v)", vs)
	}
	want := map[facts.Cell]model.Domain{{Proc: -1, Index: 0}: model.Range(0, 72), {Proc: 0, Index: 0}: model.Range(0, 37), {Proc: 1, Index: 0}: model.Range(0, 72)}
	for c, d := range want {
		if vs.Doms[c] != d {
			t.Errorf("bounded: %+v has %v, want %v", c, vs.Doms[c], d)
		}
	}

	for _, tt := range []struct {
		name                 string
		maxStates, maxValues int
	}{
		{"values", 1 << 14, 50},
		{"states", 200, 1 << 20},
	} {
		p := parse(forever)
		vs = facts.SearchValues(ctx, p, tt.maxStates, tt.maxValues)
		if vs.Grows == nil || vs.Doms != nil {
			t.Fatalf("forever (%s): %+v, want a growing cell", tt.name, vs)
		}
		g := vs.Grows
		if g.Cell.Name(p) != "x" && g.Cell.Name(p) != "P.$i" {
			t.Errorf("forever (%s): %s grows, want x or P.$i", tt.name, g.Cell.Name(p))
		}
		if g.Values < 50 {
			t.Errorf("forever (%s): %d values", tt.name, g.Values)
		}
		if pos := g.Pos(p); g.Cell.Name(p) == "P.$i" && pos.String() != "f.go:7:3" {
			t.Errorf("forever (%s): made at %v, want f.go:7:3", tt.name, pos)
		}
	}

	if vs = facts.SearchValues(ctx, parse(anyStart), 1<<14, 100); vs.Doms != nil || vs.Grows != nil || vs.Reason == "" {
		t.Errorf("any start: %+v, want a reason and nothing else", vs)
	}
}
