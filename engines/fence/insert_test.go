package fence_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/explicit"
	"github.com/fencecheck/fencecheck/engines/fence"
	"github.com/fencecheck/fencecheck/model"
)

func TestInsertStructure(t *testing.T) {
	// P0: L0 -write x-> L1 -read y-> L2, and a second exit L1 -nop-> L2.
	base := func() *model.Program {
		p := sequential([]string{"x", "y"},
			[]model.Op{model.WriteOp(0, model.C(1)), model.ReadOp(1, 0)},
			[]model.Op{model.WriteOp(1, model.C(1))})
		p.Procs[0].AddTrans(1, model.NopOp(), 2, model.Pos{File: "seq", Line: 9})
		p.Bad = []model.BadState{{Locs: []model.ProcLoc{{Proc: 0, Loc: 1}}}}
		return p
	}
	for _, tc := range []struct {
		name   string
		places []fence.Place
		// per process: the fence transitions expected, as from -> new location
		fences map[int][]int
	}{
		{"no place", nil, nil},
		{"after the write", []fence.Place{{0, 1}}, map[int][]int{0: {1}}},
		{"duplicates once", []fence.Place{{0, 1}, {0, 1}}, map[int][]int{0: {1}}},
		{"initial location", []fence.Place{{0, 0}}, map[int][]int{0: {0}}},
		{"two processes", []fence.Place{{1, 1}, {0, 1}}, map[int][]int{0: {1}, 1: {1}}},
		{"two places in one process", []fence.Place{{0, 1}, {0, 0}}, map[int][]int{0: {0, 1}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := base()
			orig := base()
			fp := fence.Insert(p, tc.places)
			if !reflect.DeepEqual(p, orig) {
				t.Fatal("Insert modified its argument")
			}
			if err := fp.Validate(); err != nil {
				t.Fatalf("fenced program invalid: %v", err)
			}
			if !reflect.DeepEqual(fp.Bad, p.Bad) || !reflect.DeepEqual(fp.Vars, p.Vars) {
				t.Error("bad states or variables changed")
			}
			for qi, q := range p.Procs {
				fq := fp.Procs[qi]
				want := tc.fences[qi]
				if len(fq.Locs) != len(q.Locs)+len(want) || len(fq.Trans) != len(q.Trans)+len(want) {
					t.Fatalf("%s: %d locations and %d transitions, want %d and %d",
						q.Name, len(fq.Locs), len(fq.Trans), len(q.Locs)+len(want), len(q.Trans)+len(want))
				}
				if fq.Init != q.Init || !reflect.DeepEqual(fq.Locs[:len(q.Locs)], q.Locs) {
					t.Errorf("%s: existing locations changed", q.Name)
				}
				newLoc := map[int]int{} // fenced location -> its new location
				for k, f := range want {
					ft := fq.Trans[len(q.Trans)+k]
					if ft.From != f || ft.Op.Kind != model.Fence || ft.To != len(q.Locs)+k {
						t.Errorf("%s: transition %d is %+v, want fence %d -> %d", q.Name, len(q.Trans)+k, ft, f, len(q.Locs)+k)
					}
					if ft.Pos != q.Locs[f].Pos || fq.Locs[ft.To].Pos != q.Locs[f].Pos {
						t.Errorf("%s: fence at %v, want the position %v of its location", q.Name, ft.Pos, q.Locs[f].Pos)
					}
					newLoc[f] = ft.To
				}
				for ti, tr := range q.Trans {
					got := fq.Trans[ti]
					wantFrom := tr.From
					if nl, ok := newLoc[tr.From]; ok {
						wantFrom = nl
					}
					if got.From != wantFrom || got.To != tr.To || !reflect.DeepEqual(got.Op, tr.Op) || got.Pos != tr.Pos {
						t.Errorf("%s: transition %d is %+v, want %+v from %d", q.Name, ti, got, tr, wantFrom)
					}
				}
			}
		})
	}
}

func TestInsertPositionFromTransition(t *testing.T) {
	p := sequential([]string{"x"}, []model.Op{model.WriteOp(0, model.C(1)), model.ReadOp(0, 0)})
	p.Procs[0].Locs[1].Pos = model.Pos{}
	fp := fence.Insert(p, []fence.Place{{0, 1}})
	ft := fp.Procs[0].Trans[len(fp.Procs[0].Trans)-1]
	if want := p.Procs[0].Trans[1].Pos; ft.Pos != want {
		t.Errorf("fence at %v, want the position %v of the read leaving the location", ft.Pos, want)
	}
	if name := fp.Procs[0].Locs[ft.To].Name; fp.Procs[0].LocIndex(name) != ft.To {
		t.Errorf("new location name %q is not unique", name)
	}
}

func TestInsertPanicsOnBadPlace(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("no panic for a place outside the program")
		}
	}()
	fence.Insert(litmusProgram(t, sbJSON), []fence.Place{{0, 99}})
}

// TestInsertFixesSB checks the fenced programs' behaviour with the explicit
// engine: SB needs a barrier in both processes.
func TestInsertFixesSB(t *testing.T) {
	p := litmusProgram(t, sbJSON)
	l1 := loc(t, p, 0, "L1")
	for _, tc := range []struct {
		name   string
		places []fence.Place
		want   engines.Status
	}{
		{"none", nil, engines.Unsafe},
		{"P0 only", []fence.Place{{0, l1}}, engines.Unsafe},
		{"P1 only", []fence.Place{{1, l1}}, engines.Unsafe},
		{"both", []fence.Place{{0, l1}, {1, l1}}, engines.Safe},
		{"before the writes", []fence.Place{{0, 0}, {1, 0}}, engines.Unsafe},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fp := fence.Insert(p, tc.places)
			res, err := (&explicit.Engine{}).Check(context.Background(), fp, model.TSO)
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != tc.want || res.Bound != "" {
				t.Fatalf("got %v, want %v (exact)", res, tc.want)
			}
			if res.Status == engines.Unsafe {
				// The fenced program's trace is a trace of the original.
				if _, err := p.Replay(fence.Unfence(p, res.Trace)); err != nil {
					t.Errorf("unfenced trace does not replay: %v", err)
				}
			}
		})
	}
}

func TestUnfence(t *testing.T) {
	p := litmusProgram(t, sbJSON)
	fp := fence.Insert(p, []fence.Place{{0, loc(t, p, 0, "L1")}})
	// In fp, P0 is L0 -W-> L1 -fence-> L1' -R-> L2 -fence-> END.
	tr := run(t, fp, model.TSO, "0", "1", "1", "f0", "0", "0", "f1", "0", "1")
	if _, err := fp.Replay(tr); err != nil {
		t.Fatalf("trace of the fenced program: %v", err)
	}
	u := fence.Unfence(p, tr)
	if len(u.Steps) != len(tr.Steps)-1 {
		t.Errorf("%d steps, want %d", len(u.Steps), len(tr.Steps)-1)
	}
	if _, err := p.Replay(u); err != nil {
		t.Errorf("unfenced trace: %v", err)
	}
	if len(tr.Steps) != 9 {
		t.Error("Unfence modified its argument")
	}
}
