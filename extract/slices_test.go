package extract_test

import (
	"slices"
	"testing"
)

// TestSliceVerdicts checks the verdicts of systems over slices, struct
// values, named types and strings against what x86-TSO and SC allow for
// the Go code.
func TestSliceVerdicts(t *testing.T) {
	testVerdicts(t, "slices", []verdictCase{
		{"sliceMP", S, S},
		{"sliceSB", U, S},
		{"window", U, U},
		{"windowMiss", S, S},
		{"dynIndex", U, U},
		{"dynWindow", U, U},
		{"dynWindowSafe", S, S},
		{"constOutOfRange", U, U},
		{"rangeFill", S, S},
		{"spsc", S, S},
		{"tornPair", U, U},
		{"lockedPair", S, S},
		{"copyOrder", S, S},
		{"valueCtor", U, U},
		{"namedTypes", S, S},
		{"stringFlag", S, S},
		{"stringOrder", U, U},
		{"globalSlice", S, S},
	})
}

// TestSliceNames checks that the elements of a slice are named after the
// variable or field that holds it, and the cells of a struct value after
// its fields.
func TestSliceNames(t *testing.T) {
	tests := []struct {
		sys  string
		vars []string
		bad  []string
	}{
		{"sliceMP", []string{"buf[0]", "buf[1]"}, []string{`panic("stale data")`}},
		{"window", []string{"a[1]"}, []string{`panic("a[1] written through w")`}},
		{"dynIndex", []string{"t.idx", "t.s[0]", "t.s[1]"}, []string{"index out of range", `panic("wrote slot 1")`}},
		{"constOutOfRange", nil, []string{"index out of range"}},
		{"spsc", []string{"r.tail", "r.head", "r.buf[0]", "r.buf[1]"}, []string{"index out of range", `panic("lost element")`, "leak"}},
		{"tornPair", []string{"s.pair.a", "s.pair.b"}, []string{`panic("torn read")`}},
		{"valueCtor", []string{"s.top", "s.buf[1]", "s.slots[1]"}, []string{`panic("top copied")`}},
		{"stringFlag", []string{"m.data", "m.state"}, []string{`panic("stale data")`}},
		{"globalSlice", []string{"flags[0]", "flags[1]"}, []string{`panic("stale flag")`}},
	}
	for _, tt := range tests {
		t.Run(tt.sys, func(t *testing.T) {
			s := system(t, "slices", tt.sys)
			var vars []string
			for _, v := range s.Program.Vars {
				vars = append(vars, v.Name)
			}
			if !slices.Equal(vars, tt.vars) {
				t.Errorf("variables = %q, want %q", vars, tt.vars)
			}
			var bad []string
			for _, b := range s.Program.Bad {
				if !slices.Contains(bad, b.Name) {
					bad = append(bad, b.Name)
				}
			}
			if !slices.Equal(bad, tt.bad) {
				t.Errorf("bad states = %q, want %q", bad, tt.bad)
			}
		})
	}
}
