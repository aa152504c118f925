package fence_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/fencecheck/fencecheck/engines/question/fence"
	"github.com/fencecheck/fencecheck/model"
)

// ov is the part of an Overtaking a test states: process, write step, read
// step and candidate places (all of process proc, as Place.Format names
// them without the process: from->to for a write's place, a location's name
// for a location's).
type ov struct {
	proc, write, read int
	places            string
}

func (o ov) String() string {
	return fmt.Sprintf("{P%d write %d read %d places %s}", o.proc, o.write, o.read, o.places)
}

func short(p *model.Program, o fence.Overtaking) ov {
	s := ov{proc: o.Proc, write: o.Write, read: o.Read}
	var names []string
	for _, pl := range o.Places {
		_, name, _ := strings.Cut(pl.Format(p), "@")
		names = append(names, name)
	}
	s.places = strings.Join(names, " ")
	return s
}

func TestOvertakings(t *testing.T) {
	one := model.C(1)
	x, y, z := 0, 1, 2
	W := func(v int) model.Op { return model.WriteOp(v, one) }
	R := func(v int) model.Op { return model.ReadOp(v, 0) }
	for _, tc := range []struct {
		name  string
		procs [][]model.Op
		steps []string
		want  []ov
	}{
		{
			name:  "store buffering: each load overtakes its own process's store",
			procs: [][]model.Op{{W(x), R(y)}, {W(y), R(x)}},
			steps: []string{"0", "1", "0", "1"},
			want:  []ov{{0, 0, 2, "L0->L1 L1"}, {1, 1, 3, "L0->L1 L1"}},
		},
		{
			name:  "a flushed store is not overtaken",
			procs: [][]model.Op{{W(x), R(y)}},
			steps: []string{"0", "f0", "0"},
		},
		{
			name:  "a load of the buffered variable overtakes only newer stores",
			procs: [][]model.Op{{W(x), W(y), R(x)}},
			steps: []string{"0", "0", "0"},
			want:  []ov{{0, 1, 2, "L1->L2 L2"}},
		},
		{
			name:  "a load of the newest buffered variable overtakes nothing",
			procs: [][]model.Op{{W(x), W(y), W(x), R(x)}},
			steps: []string{"0", "0", "0", "0"},
		},
		{
			name:  "newest store to the variable counts, not the oldest",
			procs: [][]model.Op{{W(x), W(y), W(x), R(y)}},
			steps: []string{"0", "0", "0", "0"},
			want:  []ov{{0, 2, 3, "L2->L3 L3"}},
		},
		{
			name:  "after a flush, the variable's store is gone from the buffer",
			procs: [][]model.Op{{W(x), W(y), R(x)}},
			steps: []string{"0", "0", "f0", "0"},
			want:  []ov{{0, 1, 3, "L1->L2 L2"}},
		},
		{
			name:  "a load of another variable overtakes every buffered store",
			procs: [][]model.Op{{W(x), W(y), R(z)}},
			steps: []string{"0", "0", "0"},
			want:  []ov{{0, 0, 2, "L0->L1 L1 L1->L2 L2"}, {0, 1, 2, "L1->L2 L2"}},
		},
		{
			name:  "places span the operations between store and load, not other processes' steps",
			procs: [][]model.Op{{W(x), model.NopOp(), R(y), R(z)}, {W(z), R(x)}},
			steps: []string{"0", "1", "0", "1", "0", "0"},
			want: []ov{
				{1, 1, 3, "L0->L1 L1"},
				{0, 0, 4, "L0->L1 L1 L2"},
				{0, 0, 5, "L0->L1 L1 L2 L3"},
			},
		},
		{
			name:  "a locked operation overtakes nothing",
			procs: [][]model.Op{{W(x), model.Exchange(y, 0, one)}},
			steps: []string{"0", "f0", "0"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := sequential([]string{"x", "y", "z"}, tc.procs...)
			// The bad state: every process at its last location.
			b := model.BadState{}
			for i, q := range p.Procs {
				b.Locs = append(b.Locs, model.ProcLoc{Proc: i, Loc: len(q.Locs) - 1})
			}
			p.Bad = []model.BadState{b}
			tr := run(t, p, model.TSO, tc.steps...)
			var got []ov
			for _, o := range fence.Overtakings(p, tr) {
				got = append(got, short(p, o))
				if p.Procs[o.Proc].Trans[o.ReadTrans].Op.Kind != model.Read {
					t.Errorf("overtaking by a %v", p.Procs[o.Proc].Trans[o.ReadTrans].Op.Kind)
				}
				if txt := o.Format(p); !strings.Contains(txt, "overtaken by") {
					t.Errorf("Format: %q", txt)
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("got  %v\nwant %v", got, tc.want)
			}
		})
	}
}

func TestOvertakingsSC(t *testing.T) {
	p := litmusProgram(t, sbJSON)
	tr := run(t, p, model.SC, "0", "0", "1", "1", "0", "1")
	if got := fence.Overtakings(p, tr); len(got) != 0 {
		t.Errorf("SC trace has overtakings: %v", got)
	}
}

// TestOvertakingsIllegalSuffix: a trace that stops replaying yields the
// overtakings of its legal prefix only.
func TestOvertakingsIllegalSuffix(t *testing.T) {
	p := litmusProgram(t, sbJSON)
	tr := run(t, p, model.TSO, "0", "1", "0", "1")
	// P0's final fence while its store is still buffered is not a step.
	tr.Steps = append(tr.Steps, model.Step{Proc: 0, Trans: 2, Var: -1})
	if _, err := p.Replay(tr); err == nil {
		t.Fatal("the edited trace replays")
	}
	got := fence.Overtakings(p, tr)
	if len(got) != 2 {
		t.Errorf("got %d overtakings, want the 2 of the prefix", len(got))
	}
}
