package extract_test

import (
	"slices"
	"testing"

	"github.com/fencecheck/fencecheck/extract"
	"github.com/fencecheck/fencecheck/model"
)

// TestRelationalBounds checks that the domain inference bounds a loop
// counter by the register it is compared with (i < backoff), and that
// register by its own guard, so that the model is finite without a
// //fencecheck:range.
func TestRelationalBounds(t *testing.T) {
	tests := []struct {
		sys string
		reg string       // a register of a goroutine
		dom model.Domain // its domain
	}{
		{"backoff", "i", model.Range(0, 16)},
		{"backoff", "backoff", model.Range(1, 16)},
		{"countdown", "j", model.Range(0, 5)},
	}
	l := load(t, "relbound")
	systems, diags := extract.Package(l.fset, l.pkg, l.files, l.info)
	for _, d := range diags {
		t.Errorf("%v: %s", l.fset.Position(d.Pos), d.Message)
	}
	for _, tt := range tests {
		t.Run(tt.sys+"/"+tt.reg, func(t *testing.T) {
			i := slices.IndexFunc(systems, func(s *extract.System) bool { return s.Name == tt.sys })
			if i < 0 {
				t.Fatalf("no system %s", tt.sys)
			}
			p := systems[i].Program
			found := false
			for _, q := range p.Procs {
				for _, r := range q.Regs {
					if r.Name != tt.reg {
						continue
					}
					found = true
					if r.Dom.Unbounded || r.Dom.Lo > tt.dom.Lo || r.Dom.Hi < tt.dom.Hi || r.Dom.Hi > 64 {
						t.Errorf("register %s of %s has domain %v, want a small one containing %v", r.Name, q.Name, r.Dom, tt.dom)
					}
				}
			}
			if !found {
				t.Fatalf("no register %s", tt.reg)
			}
			if !p.Finite() {
				t.Errorf("the model is not finite")
			}
		})
	}
}

// TestBoundedBesideUnbounded checks that a variable written a bounded
// number of times keeps a bounded domain beside one a loop writes
// without bound.
func TestBoundedBesideUnbounded(t *testing.T) {
	l := load(t, "relbound")
	systems, _ := extract.Package(l.fset, l.pkg, l.files, l.info)
	i := slices.IndexFunc(systems, func(s *extract.System) bool { return s.Name == "addsBesideWorker" })
	if i < 0 {
		t.Fatal("no system addsBesideWorker")
	}
	p := systems[i].Program
	want := map[string]bool{"count": true, "spin": false} // bounded?
	for _, v := range p.Vars {
		b, ok := want[v.Name]
		if !ok {
			continue
		}
		delete(want, v.Name)
		if got := !v.Dom.Unbounded && v.Dom.Hi-v.Dom.Lo < 64; got != b {
			t.Errorf("%s has domain %v, want bounded %v", v.Name, v.Dom, b)
		}
	}
	for name := range want {
		t.Errorf("no variable %s", name)
	}
}

// TestInferBudget checks that a domain inference out of work leaves every
// variable at least the values the full inference gives it: the rounds
// stop, and the variables may hold any value (but those nothing reads,
// which keep their initial value either way).
func TestInferBudget(t *testing.T) {
	l := load(t, "relbound")
	full, _ := extract.Package(l.fset, l.pkg, l.files, l.info)
	old := extract.SetInferBudget(0)
	defer extract.SetInferBudget(old)
	cut, diags := extract.Package(l.fset, l.pkg, l.files, l.info)
	for _, d := range diags {
		t.Errorf("%v: %s", l.fset.Position(d.Pos), d.Message)
	}
	wider := 0
	for i, s := range full {
		if s.Program == nil || cut[i].Program == nil || len(cut[i].Program.Vars) != len(s.Program.Vars) {
			t.Fatalf("system %s: the two lowerings differ", s.Name)
		}
		for x, v := range s.Program.Vars {
			d := cut[i].Program.Vars[x].Dom
			if d.Size() == 1 && d.Contains(v.Init.Value) {
				continue // unobserved: frozen at its initial value
			}
			if !d.Unbounded && (v.Dom.Unbounded || d.Lo > v.Dom.Lo || d.Hi < v.Dom.Hi) {
				t.Errorf("system %s: %s has %v out of work, narrower than %v", s.Name, v.Name, d, v.Dom)
			}
			if d.Size() > v.Dom.Size() {
				wider++
			}
		}
	}
	if wider == 0 {
		t.Errorf("no variable is wider out of work: the budget is not checked")
	}
}
