package extract_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/fencecheck/fencecheck/extract"
	"github.com/fencecheck/fencecheck/model"
)

// TestLocalRange checks that a //fencecheck:range on a goroutine-local
// variable is the domain of the registers the variable becomes (so that the
// model is finite), and that a value outside it faults under SC, at the
// statement that assigns it, as a store outside the range of a shared
// variable does.
func TestLocalRange(t *testing.T) {
	tests := []struct {
		sys   string
		reg   string       // the registers of the variable: reg, reg_2, ...
		dom   model.Domain // their domain
		fault string       // the fault reached under SC, "" if none
		line  string       // the statement it is reached at
	}{
		{"spin", "n", model.Range(0, 3), "value 4 of $n", "n++ // leaves the range"},
		{"saturate", "n", model.Range(0, 3), "", ""},
		{"counted", "n", model.Range(0, 3), "", ""},
		{"private", "n", model.Range(0, 2), "value 3 of $n", "*p += 1"},
		{"mainCount", "k", model.Range(0, 1), "value 2 of $k", "k++"},
		{"inlined", "m", model.Range(0, 1), "value 2 of $m", "m := n + 1"},
		{"zeroOutside", "k", model.Range(1, 3), "value 0 of $k is outside [1:3]", "var k int32"},
	}
	l := load(t, "localrange")
	systems, diags := extract.Package(l.fset, l.pkg, l.files, l.info)
	for _, d := range diags {
		t.Errorf("%v: %s", l.fset.Position(d.Pos), d.Message)
	}
	for _, tt := range tests {
		t.Run(tt.sys, func(t *testing.T) {
			i := slices.IndexFunc(systems, func(s *extract.System) bool { return s.Name == tt.sys })
			if i < 0 {
				t.Fatalf("no system %s", tt.sys)
			}
			p := systems[i].Program
			regs := 0
			for _, q := range p.Procs {
				for _, r := range q.Regs {
					if r.Name == tt.reg || strings.HasPrefix(r.Name, tt.reg+"_") {
						regs++
						if r.Dom != tt.dom {
							t.Errorf("register %s of %s has domain %v, want %v", r.Name, q.Name, r.Dom, tt.dom)
						}
						if !r.Dom.Contains(r.Init.Value) {
							t.Errorf("register %s of %s starts at %d, outside %v", r.Name, q.Name, r.Init.Value, r.Dom)
						}
					}
				}
			}
			if regs == 0 {
				t.Errorf("no register %s", tt.reg)
			}
			if !p.Finite() {
				t.Errorf("the model is not finite")
			}
			var faults []string
			for _, o := range outcomes(t, p, model.SC, 0) {
				if m, ok := strings.CutPrefix(o, "fault: "); ok {
					faults = append(faults, m)
				}
			}
			switch {
			case tt.fault == "" && len(faults) > 0:
				t.Errorf("faults %q, want none", faults)
			case tt.fault != "" && (len(faults) != 1 || !strings.Contains(faults[0], tt.fault)):
				t.Errorf("faults %q, want one containing %q", faults, tt.fault)
			}
			if tt.line == "" {
				return
			}
			// The faulting transition is lowered from the statement.
			line := lineOf(t, "testdata/src/localrange/localrange.go", tt.line)
			found := false
			for _, q := range p.Procs {
				for _, tr := range q.Trans {
					if tr.Op.Kind == model.Assign && q.Regs[tr.Op.Reg].Dom == tt.dom && tr.Pos.Line == line {
						found = true
					}
				}
			}
			if !found {
				t.Errorf("no assignment to a register of domain %v at line %d (%s)", tt.dom, line, tt.line)
			}
		})
	}
}

// TestRangeInSetup checks that a value the setup gives a variable outside
// its range is reported at its declaration, and the system not returned.
func TestRangeInSetup(t *testing.T) {
	l := load(t, "rangediag")
	systems, diags := extract.Package(l.fset, l.pkg, l.files, l.info)
	if len(systems) != 0 {
		t.Errorf("%d systems, want none", len(systems))
	}
	file := "testdata/src/rangediag/rangediag.go"
	want := map[int]string{
		lineOf(t, file, "var x int32 //fencecheck:range 1..3"):   "the initial value 0 of x is outside its //fencecheck:range 1..3",
		lineOf(t, file, "k := int32(5) //fencecheck:range 0..3"): "the setup of system setupLocal gives k the value 5, outside its //fencecheck:range 0..3",
	}
	for _, d := range diags {
		line := l.fset.Position(d.Pos).Line
		if d.Message != want[line] {
			t.Errorf("line %d: %q, want %q", line, d.Message, want[line])
		}
		delete(want, line)
	}
	for line, msg := range want {
		t.Errorf("line %d: no diagnostic, want %q", line, msg)
	}
}
