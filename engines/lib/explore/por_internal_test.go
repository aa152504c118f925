package explore

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/native"
)

// TestProvisos shows that each proviso of the partial-order reduction is
// needed: on a program made for it, the reduction without the proviso
// misses the bad state that the full reduction finds.
func TestProvisos(t *testing.T) {
	local := func(name string) *model.Process {
		q := &model.Process{Name: name}
		for _, l := range []string{"A", "B", "C"} {
			q.AddLoc(l, model.Pos{})
		}
		q.AddTrans(0, model.NopOp(), 1, model.Pos{})
		q.AddTrans(1, model.NopOp(), 2, model.Pos{})
		return q
	}
	// C2: the bad state is P0 at B with P1 at C. P0's nops are
	// independent of everything, so without the visibility proviso P0 runs
	// to C before P1 moves.
	visible := &model.Program{Name: "visible", Procs: []*model.Process{local("P0"), local("P1")}}
	visible.Bad = []model.BadState{{Locs: []model.ProcLoc{{Proc: 0, Loc: 1}, {Proc: 1, Loc: 2}}}}
	// C3: P0 counts modulo 3 in a live register forever, by 1 or by 2 (two
	// enabled steps, which the search does not take in a row as it takes
	// a lone local step: see accelerate); P1's one step is bad. Without
	// the cycle proviso the search goes round P0's cycle only.
	flip := &model.Process{Name: "P0", Regs: []model.Reg{{Name: "r", Dom: model.Range(0, 2)}}}
	flip.AddLoc("L0", model.Pos{})
	flip.AddLoc("L1", model.Pos{})
	flip.AddTrans(0, model.AssignOp(0, model.Bin(model.OpMod, model.Bin(model.OpAdd, model.R(0), model.C(1)), model.C(3))), 0, model.Pos{})
	flip.AddTrans(0, model.AssignOp(0, model.Bin(model.OpMod, model.Bin(model.OpAdd, model.R(0), model.C(2)), model.C(3))), 0, model.Pos{})
	flip.AddTrans(0, model.GuardOp(model.Bin(model.OpEq, model.R(0), model.C(5))), 1, model.Pos{})
	cycle := &model.Program{Name: "cycle", Procs: []*model.Process{flip, local("P1")}}
	cycle.Bad = []model.BadState{{Locs: []model.ProcLoc{{Proc: 1, Loc: 1}}}}
	for _, tc := range []struct {
		name       string
		p          *model.Program
		noC2, noC3 bool
	}{
		{"visibility", visible, true, false},
		{"cycle", cycle, false, true},
	} {
		for _, m := range []model.Model{model.SC, model.TSO} {
			t.Run(tc.name+"/"+m.String(), func(t *testing.T) {
				tc.p.Index()
				for _, without := range []bool{false, true} {
					s := newSearch(tc.p, m, 1, &Options{}, 1000, engines.MeterOf(context.Background()))
					s.noC2, s.noC3 = without && tc.noC2, without && tc.noC3
					if reason, err := s.run(context.Background()); reason != "" || err != nil {
						t.Fatalf("search stopped: %q, %v", reason, err)
					}
					if found := s.badNode >= 0; found == without {
						t.Errorf("without the proviso: %v; bad state found: %v", without, found)
					}
				}
			})
		}
	}
}

// TestStateSet checks the visited set against a map, across its growth.
func TestStateSet(t *testing.T) {
	set := newStateSet()
	want := map[string]int{}
	for i := range 5000 {
		// Keys of different lengths, some repeated, some long enough to
		// fill a chunk or to need one of their own.
		pad := i % 7
		switch i % 1000 {
		case 17:
			pad = chunkSize / 3
		case 500:
			pad = chunkSize + 11
		}
		k := []byte(fmt.Sprint(i%3001, strings.Repeat("x", pad)))
		id, ok := want[string(k)]
		if got := set.find(k); ok != (got >= 0) || ok && got != id {
			t.Fatalf("find(%q) = %d, want %d (present %v)", k, got, id, ok)
		}
		if ok {
			continue
		}
		got, err := set.insert(k)
		if err != nil || got != len(want) {
			t.Fatalf("insert(%q) = %d, %v; want %d", k, got, err, len(want))
		}
		want[string(k)] = got
	}
	if len(set.chunks) < 3 {
		t.Errorf("%d chunks: the test does not cross a chunk's end", len(set.chunks))
	}
	if _, err := set.insert(make([]byte, refMask+1)); err == nil {
		t.Errorf("a key of %d bytes was accepted", refMask+1)
	}
	for k, id := range want {
		if got := set.find([]byte(k)); got != id {
			t.Fatalf("find(%q) = %d, want %d", k, got, id)
		}
		if string(set.key(id)) != k {
			t.Fatalf("key(%d) = %q, want %q", id, set.key(id), k)
		}
	}
}

// TestNeverEnabled checks the guards the reduction treats as never taken:
// only those no value of their registers satisfies or makes fault.
func TestNeverEnabled(t *testing.T) {
	src := `program "guards"
var x : [0:1] = 0
process P {
  reg $j : [0:5] = 0
  reg $k : [0:3] = 0
  reg $u : [0:9999] = 0
  locs L0 L1
  init L0
  L0 -> L1 : assume $j < 0 || $j >= 6
  L0 -> L1 : assume $j < 0 || $j >= 5
  L0 -> L1 : assume $j + $k > 8
  L0 -> L1 : assume $j + $k > 7
  L0 -> L1 : assume 6 / ($j - 6) == 5
  L0 -> L1 : assume 6 / $j == 7
  L0 -> L1 : assume $u > 99999
  L0 -> L1 : assume 0
  L0 -> L1 : $j := 7
}
`
	p, err := native.Parse("guards.fcm", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	q := p.Procs[0]
	// Never: out of range; only j=5: no; j+k <= 8: yes; j+k = 8 at (5,3):
	// no; 6/(j-6) is -1..-6: never 5, never a fault; 6/j faults at j = 0:
	// no; $u has too many values to try: no; constant 0: yes; not a
	// guard: no.
	want := []bool{true, false, true, false, true, false, false, true, false}
	for ti, tr := range q.Trans {
		if got := neverEnabled(q, tr.Op); got != want[ti] {
			t.Errorf("%s: neverEnabled = %v, want %v", tr.Op.Format(p, q), got, want[ti])
		}
	}
}
