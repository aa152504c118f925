package race

import (
	"slices"
	"testing"

	"github.com/fencecheck/fencecheck/model"
)

// lockProgram builds two processes that each take lock m by acq, access x
// by a plain store, and release m by rel; the variable m starts at init.
func lockProgram(acq, rel model.Op, init int64) *model.Program {
	p := &model.Program{Vars: []model.Var{
		{Name: "m", Dom: model.Range(0, 1), Init: model.Init{Value: init}},
		{Name: "x", Dom: model.Range(0, 1)},
	}}
	for i := range 2 {
		q := &model.Process{Name: []string{"P", "Q"}[i]}
		l0 := q.AddLoc("try", model.Pos{})
		l1 := q.AddLoc("cs", model.Pos{})
		l2 := q.AddLoc("out", model.Pos{})
		l3 := q.AddLoc("done", model.Pos{})
		q.AddTrans(l0, acq, l1, model.Pos{})
		q.AddTrans(l0, model.CASFailure(0, -1, model.C(0)), l0, model.Pos{})
		q.AddTrans(l1, model.WriteOp(1, model.C(1)), l2, model.Pos{})
		q.AddTrans(l2, rel, l3, model.Pos{})
		p.Procs = append(p.Procs, q)
	}
	return p
}

// TestHeldLocks checks which variables the static pruning takes for spin
// locks, and where they are held.
func TestHeldLocks(t *testing.T) {
	cas := model.CASSuccess(0, -1, model.C(0), model.C(1))
	for _, tc := range []struct {
		name string
		p    *model.Program
		lock bool // m is held at cs and out, nowhere else
	}{
		{"compare-and-swap and locked release", lockProgram(cas, model.LockedOp(model.WriteOp(0, model.C(0))), 0), true},
		{"plain release carries no knowledge", lockProgram(cas, model.WriteOp(0, model.C(0)), 0), false},
		{"release of another value", lockProgram(cas, model.LockedOp(model.WriteOp(0, model.C(1))), 0), false},
		{"lock initially held", lockProgram(cas, model.LockedOp(model.WriteOp(0, model.C(0))), 1), false},
		{"exchange is no compare-and-swap", lockProgram(model.Exchange(0, -1, model.C(1)), model.LockedOp(model.WriteOp(0, model.C(0))), 0), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			held := heldLocks(tc.p)
			for qi, q := range tc.p.Procs {
				for l, loc := range q.Locs {
					want := tc.lock && (loc.Name == "cs" || loc.Name == "out")
					if got := slices.Contains(held[qi][l], 0); got != want {
						t.Errorf("%s@%s: held %v, want %v", q.Name, loc.Name, got, want)
					}
					if slices.Contains(held[qi][l], 1) {
						t.Errorf("%s@%s: x taken for a lock", q.Name, loc.Name)
					}
				}
			}
			// The pruning answers exactly the questions between the
			// critical sections.
			in := instrument(tc.p, func(a Access) string { return "" })
			pruned := 0
			for _, ck := range in.checks {
				if in.ordered(ck, statics{held: held}) {
					pruned++
				}
			}
			if (pruned > 0) != tc.lock {
				t.Errorf("%d of %d questions answered statically", pruned, len(in.checks))
			}
		})
	}
}
