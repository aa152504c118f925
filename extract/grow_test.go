package extract_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/explicit"
	"github.com/fencecheck/fencecheck/model"
)

// TestGrow checks systems that grow slices by append: in goroutines, from
// nil, beyond a capacity, in loops and branches, and in the set-up.
func TestGrow(t *testing.T) {
	testVerdicts(t, "appends", []verdictCase{
		{"growLoop", S, S},
		{"growLoopWrong", U, U},
		{"growBranch", S, S},
		{"growMade", S, S},
		{"growPastEnd", U, U}, // index out of range
		{"growMove", S, S},
		{"setupGrow", S, S},
	})
}

// TestGrowBound checks that appending more elements than the model keeps
// is a fault naming the slice's length, never a verdict about the program.
func TestGrowBound(t *testing.T) {
	s := system(t, "appends", "growTooMany")
	res, err := (&explicit.Engine{Bound: 2}).Check(context.Background(), s.Program, model.SC)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != engines.Unsafe || res.Trace == nil {
		t.Fatalf("got %v, want a faulting trace", res)
	}
	states, err := s.Program.Replay(res.Trace)
	if err != nil {
		t.Fatal(err)
	}
	f := states[len(states)-1].Fault
	if f == nil || f.Reg < 0 {
		t.Fatalf("the trace ends in no fault of a register: %+v", f)
	}
	e := s.Regs[f.Proc][f.Reg]
	if !strings.HasPrefix(e.Name, "the length of xs, which goroutine") || e.Ranged || f.Value != 9 {
		t.Errorf("fault of %q (ranged %v) at value %d, want the length of xs at 9, not ranged", e.Name, e.Ranged, f.Value)
	}
}

// TestGrowDiagnostics checks that the appends the model cannot follow are
// reported on their lines: the old slice used after an append, more
// elements than the model keeps, cap, slicing and storing a grown slice.
func TestGrowDiagnostics(t *testing.T) {
	l := load(t, "appendsdiag")
	_, diags := refusing(l)
	got := map[int][]string{}
	for _, d := range diags {
		p := l.fset.Position(d.Pos)
		got[p.Line] = append(got[p.Line], d.Message)
	}
	file := filepath.Join("testdata", "src", "appendsdiag", "appendsdiag.go")
	for _, w := range []struct{ line, msg string }{
		{"ys := append(xs, 2)", "xs used after an append that may move its elements"},
		{"xs = append(xs, i) // first", "xs (also named first) used after an append"},
		{"ys = append(ys, 6, 7, 8, 9)", "append beyond the 8 elements fencecheck keeps for a slice grown by append (length 5 + 4)"},
		{"out.Store(int32(cap(xs)))", "cap of a slice grown by append"},
		{"box.s = xs", "storing a slice grown by append in memory"},
		{"b := append(a, 2)", "a used after an append that may move its elements"},
	} {
		line := lineOf(t, file, w.line)
		ok := false
		for _, m := range got[line] {
			ok = ok || strings.Contains(m, w.msg)
		}
		if !ok {
			t.Errorf("line %d (%q): got %q, want a message containing %q", line, w.line, got[line], w.msg)
		}
	}
}
