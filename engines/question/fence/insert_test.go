package fence_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/explicit"
	"github.com/fencecheck/fencecheck/engines/question/fence"
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
		{"after the write's target", []fence.Place{fence.AfterLoc(0, 1)}, map[int][]int{0: {1}}},
		{"duplicates once", []fence.Place{fence.AfterLoc(0, 1), fence.AfterLoc(0, 1)}, map[int][]int{0: {1}}},
		{"initial location", []fence.Place{fence.AfterLoc(0, 0)}, map[int][]int{0: {0}}},
		{"two processes", []fence.Place{fence.AfterLoc(1, 1), fence.AfterLoc(0, 1)}, map[int][]int{0: {1}, 1: {1}}},
		{"two places in one process", []fence.Place{fence.AfterLoc(0, 1), fence.AfterLoc(0, 0)}, map[int][]int{0: {0, 1}}},
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
	fp := fence.Insert(p, []fence.Place{fence.AfterLoc(0, 1)})
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
	fence.Insert(litmusProgram(t, sbJSON), []fence.Place{fence.AfterLoc(0, 99)})
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
		{"P0 only", []fence.Place{fence.AfterLoc(0, l1)}, engines.Unsafe},
		{"P1 only", []fence.Place{fence.AfterLoc(1, l1)}, engines.Unsafe},
		{"both", []fence.Place{fence.AfterLoc(0, l1), fence.AfterLoc(1, l1)}, engines.Safe},
		{"before the writes", []fence.Place{fence.AfterLoc(0, 0), fence.AfterLoc(1, 0)}, engines.Unsafe},
		{"after P0's write only", []fence.Place{fence.AfterWrite(0, 0)}, engines.Unsafe},
		{"after both writes", []fence.Place{fence.AfterWrite(0, 0), fence.AfterWrite(1, 0)}, engines.Safe},
		{"after one write and one location", []fence.Place{fence.AfterWrite(0, 0), fence.AfterLoc(1, l1)}, engines.Safe},
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
	for _, pl := range []fence.Place{fence.AfterLoc(0, loc(t, p, 0, "L1")), fence.AfterWrite(0, 0)} {
		t.Run(pl.Format(p), func(t *testing.T) {
			fp := fence.Insert(p, []fence.Place{pl})
			// In fp, P0 is L0 -W-> L1 -fence-> L1' -R-> L2 -fence-> END, or
			// L0 -W-> m -fence-> L1 -R-> L2 -fence-> END.
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
		})
	}
}

// TestInsertWrite checks the structure of a barrier on a write's edge: the
// write goes to a new location m, and a fence from m to the write's old
// target is appended; the other writes into that target, and every other
// transition, are unchanged, so they are not followed by the barrier.
func TestInsertWrite(t *testing.T) {
	for _, tc := range []struct {
		name   string
		src    string
		places string // in the form of places()
	}{
		{"one write", joinSrc, "P1@L0->L1"},
		{"one arm of a join", joinSrc, "P0@T->J"},
		{"both arms of a join", joinSrc, "P0@E->J P0@T->J"},
		{"a write and the join it reaches", joinSrc, "P0@T->J P0@J"},
		{"a store before a loop and one inside it", reraiseSrc, "P0@A->H P0@B2->H P1@B2->H"},
		{"a write and a location it leaves", reraiseSrc, "P0@B2->H P0@B2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := parsed(tc.src)(t)
			pls := places(t, p, tc.places)
			fp := fence.Insert(p, pls)
			if err := fp.Validate(); err != nil {
				t.Fatalf("fenced program invalid: %v", err)
			}
			for qi, q := range p.Procs {
				fq := fp.Procs[qi]
				var writes, locs []fence.Place
				for _, pl := range pls {
					switch {
					case pl.Proc != qi:
					case pl.OnWrite():
						writes = append(writes, pl)
					default:
						locs = append(locs, pl)
					}
				}
				n := len(writes) + len(locs)
				if len(fq.Locs) != len(q.Locs)+n || len(fq.Trans) != len(q.Trans)+n {
					t.Fatalf("%s: %d locations and %d transitions, want %d and %d", q.Name, len(fq.Locs), len(fq.Trans), len(q.Locs)+n, len(q.Trans)+n)
				}
				for _, pl := range writes {
					w, fw := q.Trans[pl.Trans], fq.Trans[pl.Trans]
					if fw.To < len(q.Locs) || !reflect.DeepEqual(fw.Op, w.Op) || fw.Pos != w.Pos {
						t.Errorf("%s: the write %s is %+v after insertion", q.Name, pl.Format(p), fw)
						continue
					}
					out := fq.Out(fw.To)
					if len(out) != 1 || fq.Trans[out[0]].Op.Kind != model.Fence || fq.Trans[out[0]].To != w.To || fq.Trans[out[0]].Pos != w.Pos {
						t.Errorf("%s: after the write %s, transitions %v, want one fence to %s at %v", q.Name, pl.Format(p), out, q.Locs[w.To].Name, w.Pos)
					}
				}
				// Every other original transition keeps its target; its source
				// moves only for a location place.
				for ti, tr := range q.Trans {
					if containsPlace(writes, fence.AfterWrite(qi, ti)) {
						continue
					}
					if got := fq.Trans[ti]; got.To != tr.To {
						t.Errorf("%s: transition %d now goes to %d, want %d (only its own barrier follows a write)", q.Name, ti, got.To, tr.To)
					}
				}
			}
			// The fenced program's traces are traces of p.
			res, err := (&explicit.Engine{}).Check(context.Background(), fp, model.TSO)
			if err != nil {
				t.Fatal(err)
			}
			if res.Status == engines.Unsafe {
				if _, err := p.Replay(fence.Unfence(p, res.Trace)); err != nil {
					t.Errorf("unfenced trace does not replay: %v", err)
				}
			}
		})
	}
}

func TestPlaceFormat(t *testing.T) {
	p := parsed(joinSrc)(t)
	// A second write from T to J: the places of the two are told apart.
	p.Procs[0].AddTrans(p.Procs[0].LocIndex("T"), model.WriteOp(0, model.C(2)), p.Procs[0].LocIndex("J"), model.Pos{})
	for _, tc := range []struct {
		pl   fence.Place
		want string
	}{
		{fence.AfterLoc(0, 4), "P0@J"},
		{fence.AfterWrite(0, 4), "P0@E->J"},
		{fence.AfterWrite(0, 3), "P0@T->J#3"},
		{fence.AfterWrite(0, 6), "P0@T->J#6"},
		{fence.AfterWrite(0, 99), "P0@t99"},
		{fence.AfterLoc(7, 1), "p7@1"},
	} {
		if got := tc.pl.Format(p); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.pl, got, tc.want)
		}
	}
}
