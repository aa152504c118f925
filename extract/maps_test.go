package extract_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fencecheck/fencecheck/extract"
	"github.com/fencecheck/fencecheck/model"
)

// TestMapVerdicts checks the verdicts of systems over maps against what
// x86-TSO and SC allow for the Go code: every order of a range is
// explored, a nil map's assignment panics.
func TestMapVerdicts(t *testing.T) {
	testVerdicts(t, "mapsys", []verdictCase{
		{"guarded", S, S},
		{"unguarded", S, S},
		{"readOnly", S, S},
		{"nilMap", U, U},
		{"rangeSum", S, S},
		{"rangeFirst", U, U},
		{"local", S, S},
		{"swap", S, S},
		{"swapLost", U, U},
		{"nilReads", S, S},
		{"structKeys", S, S},
		{"errorResult", S, S},
		{"visited", S, S},
		{"chanKeys", S, S},
		{"anyKeys", S, S},
		{"clearAll", S, S},
		{"lazyInit", S, S},
		{"readerFirst", U, U},
	})
}

// TestMapCells checks what a map becomes: the map's own variable, and a
// presence flag and the element's cells for each key, named as Go spells
// them; the keys a goroutine computes get slots too.
func TestMapCells(t *testing.T) {
	tests := []struct {
		sys  string
		vars []string
		regs []string // registers of the first process that must exist
		bad  []string
	}{
		{"guarded", []string{"mu", "m", `present(m["a"])`, `m["a"]`, "wg", `present(m["b"])`, `m["b"]`}, nil,
			[]string{`panic("lost a")`, `panic("lost a key")`, "deadlock", "leak"}},
		{"readOnly", []string{"i", "m", "m[0]", "m[1]", "m[2]", "sum[0]", "sum[1]", "wg", "i#2"}, nil,
			[]string{"index out of range", `panic("wrong sum")`, "deadlock"}},
		{"nilMap", nil, nil, []string{"assignment to entry in nil map"}},
		{"local", nil, []string{"present(seen[0])", "seen[0]", "present(seen[1])", "seen[1]"}, nil},
		{"structKeys", []string{"mu", "i", "m", "present(m[{0, false}])", "m[{0, false}]", "present(m[{1, true}])", "m[{1, true}]", "wg", "i#2"}, nil, nil},
		// Flush's map is a shared map of its own, and the field holds
		// which map is the cache's.
		{"swap", []string{"c.mu", "c.items", "c.items@182", `present(c.items@182["b"])`, `c.items@182["b"]`,
			"c.items@174", `present(c.items@174["b"])`, `c.items@174["b"]`, "wg", `present(c.items@182["a"])`}, nil, nil},
		// Keys nothing bounds: an insertion of another key leaves the
		// domain of a count, an inconclusive answer.
		{"counterKeys", nil, []string{"m.others"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.sys, func(t *testing.T) {
			s := system(t, "mapsys", tt.sys)
			var vars []string
			for _, v := range s.Program.Vars {
				vars = append(vars, v.Name)
			}
			if tt.vars != nil && !slices.Equal(vars, tt.vars) {
				t.Errorf("variables = %q, want %q", vars, tt.vars)
			}
			for _, r := range tt.regs {
				if s.Program.Procs[0].RegIndex(r) < 0 {
					t.Errorf("no register %s in %s", r, s.Program.Procs[0].Name)
				}
			}
			var bad []string
			for _, b := range s.Program.Bad {
				if !slices.Contains(bad, b.Name) {
					bad = append(bad, b.Name)
				}
			}
			if tt.bad != nil && !slices.Equal(bad, tt.bad) {
				t.Errorf("bad states = %q, want %q", bad, tt.bad)
			}
			if tt.sys != "counterKeys" && !s.Program.Finite() {
				t.Errorf("not finite")
			}
		})
	}
}

// TestMapAccesses checks that every access to a map the set-up made
// touches the map's own variable, whatever its key: a write for an
// assignment, a read for a lookup, so that the two race.
func TestMapAccesses(t *testing.T) {
	s := system(t, "mapsys", "guarded")
	x := s.Program.VarIndex("m")
	if x < 0 {
		t.Fatal("no variable m")
	}
	for i, tt := range []struct {
		reads, writes int
	}{
		{0, 1}, // m["a"] = 1
		{1, 1}, // m["b"] = m["a"] + 1
		{2, 0}, // main: len(m), m["a"]
	} {
		q := s.Program.Procs[i]
		reads, writes := 0, 0
		for _, tr := range q.Trans {
			switch {
			case tr.Op.Kind == model.Read && tr.Op.Var == x:
				reads++
			case tr.Op.Kind == model.Write && tr.Op.Var == x:
				writes++
			}
		}
		if reads != tt.reads || writes != tt.writes {
			t.Errorf("%s reads m %d times and writes it %d times, want %d and %d", q.Name, reads, writes, tt.reads, tt.writes)
		}
	}
}

// TestMapDiagnostics checks what is reported about maps fencecheck cannot
// model, on its line, and that a system beside them is lowered.
func TestMapDiagnostics(t *testing.T) {
	l := load(t, "mapsdiag")
	systems, diags := refusing(l)
	var names []string
	for _, s := range systems {
		names = append(names, s.Name)
	}
	if !slices.Equal(names, []string{"globals"}) {
		t.Errorf("systems = %v, want [globals]", names)
	}
	file := filepath.Join("testdata", "src", "mapsdiag", "mapsdiag.go")
	tests := []struct{ line, msg string }{
		{"m := map[complex128]int{}", "unsupported in a fencecheck system: a map whose keys are of type complex128 (keys of integers, booleans, strings, floats, pointers, interface values and channels, and of structs and arrays of them, are modelled)"},
		{"m[i] = i // more than 64 keys", "unsupported in a fencecheck system: more than 64 keys in the map m (fencecheck keeps at most 16 keys of a map, 64 of one the set-up fills; it has 0, 1, 2,"},
		{"var fromEnv = ", "unsupported in a fencecheck system: the initial value of the map in package-level variable fromEnv, which depends on a call of os.Getenv"},
	}
	got := map[int][]string{}
	for _, d := range diags {
		got[l.fset.Position(d.Pos).Line] = append(got[l.fset.Position(d.Pos).Line], d.Message)
	}
	for _, tt := range tests {
		line := lineOf(t, file, tt.line)
		found := false
		for _, m := range got[line] {
			found = found || strings.HasPrefix(m, tt.msg)
		}
		if !found {
			t.Errorf("line %d (%q): got %q, want a message starting %q", line, tt.line, got[line], tt.msg)
		}
		delete(got, line)
	}
	for line, msgs := range got {
		t.Errorf("unexpected diagnostics at line %d: %q", line, msgs)
	}
}

// TestMapGlobals checks the maps of package-level variables: the
// initialisation fills them as Go does.
func TestMapGlobals(t *testing.T) {
	l := load(t, "mapsdiag")
	systems, _ := extract.Package(l.fset, l.pkg, l.files, l.info)
	for _, s := range systems {
		if s.Name != "globals" {
			continue
		}
		var vars []string
		for _, v := range s.Program.Vars {
			if v.Init.Value != 0 && (strings.Contains(v.Name, "counts") || strings.Contains(v.Name, "limits")) {
				vars = append(vars, fmt.Sprintf("%s=%d", v.Name, v.Init.Value))
			}
		}
		want := []string{`present(counts["boot"])=1`, `counts["boot"]=1`, `limits["big"]=3`, `limits["small"]=1`}
		slices.Sort(vars)
		slices.Sort(want)
		if !slices.Equal(vars, want) {
			t.Errorf("initial values = %q, want %q", vars, want)
		}
		checkVerdicts(t, s.Program, 4, S, S)
	}
}
