package directive

import (
	"go/ast"
	"strings"
	"testing"
)

func TestParseDirective(t *testing.T) {
	for _, tc := range []struct {
		text     string
		ok       bool
		name     string
		args     string
		problems int
		meant    string
	}{
		{text: "//fencecheck:system", ok: true, name: "system"},
		{text: "//fencecheck:range 0..3 // the ring's size", ok: true, name: "range", args: "0..3"},
		{text: "//fencecheck:range\t0..3", ok: true, name: "range", args: "0..3"},
		{text: "//fencecheck:bogus", ok: true, name: "bogus"},
		{text: "// fencecheck:system", ok: true, name: "system", problems: 1, meant: "//fencecheck:system"},
		{text: "/* fencecheck:system */", ok: true, name: "system", problems: 1, meant: "//fencecheck:system"},
		{text: "//Fencecheck:system", ok: true, name: "system", problems: 1, meant: "//fencecheck:system"},
		// Unknown kinds written as directives are directives: Collect
		// reports them, with the kind probably meant.
		{text: "//fencecheck:sytem", ok: true, name: "sytem"},
		{text: "//fencecheck:range0..3", ok: true, name: "range0..3"},
		{text: "// fencecheck:range0..3", ok: true, name: "range", args: "0..3", problems: 2, meant: "//fencecheck:range 0..3"},
		{text: "//fencecheck: system", ok: true, name: "system", problems: 1, meant: "//fencecheck:system"},
		{text: "// fencecheck: a prose summary of the analyzer", ok: false},
		{text: "// an ordinary comment", ok: false},
	} {
		dir, ok := parseDirective(&ast.Comment{Text: tc.text})
		if ok != tc.ok {
			t.Errorf("%q: ok %v, want %v", tc.text, ok, tc.ok)
			continue
		}
		if !ok {
			continue
		}
		if dir.name != tc.name || dir.args != tc.args || len(dir.problems) != tc.problems || dir.meant != tc.meant {
			t.Errorf("%q: name %q args %q problems %q meant %q; want %q %q %d problems, meant %q",
				tc.text, dir.name, dir.args, dir.problems, dir.meant, tc.name, tc.args, tc.problems, tc.meant)
		}
	}
}

func TestParseRange(t *testing.T) {
	for _, tc := range []struct {
		in     string
		lo, hi int64
		err    string
	}{
		{in: "0..3", hi: 3},
		{in: "-2 .. 0x10", lo: -2, hi: 16},
		{in: "3..1", err: "empty range"},
		{in: "3", err: "want LO..HI"},
		{in: "a..3", err: "bad lower bound"},
	} {
		d, err := parseRange(tc.in)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%q: error %v, want one containing %q", tc.in, err, tc.err)
		case tc.err == "" && (err != nil || d.Lo != tc.lo || d.Hi != tc.hi):
			t.Errorf("%q: %v, %v; want %d..%d", tc.in, d, err, tc.lo, tc.hi)
		}
	}
}

// FuzzParseDirective checks that no comment makes the parser panic, that a
// near miss always says what is wrong, and that what it says to write
// instead is itself a directive without problems.
func FuzzParseDirective(f *testing.F) {
	for _, s := range []string{"//fencecheck:system", "// fencecheck:range 0..3", "/*Fencecheck:nofence*/", "//fencecheck:critical // x", "//fencecheck:\trange\t1..2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		dir, ok := parseDirective(&ast.Comment{Text: text})
		if !ok {
			return
		}
		if len(dir.problems) > 0 {
			if msg := dir.malformed(); !strings.HasPrefix(msg, "malformed directive ") {
				t.Fatalf("%q: message %q", text, msg)
			}
			if dir.meant != "" {
				if again, ok := parseDirective(&ast.Comment{Text: dir.meant}); !ok || len(again.problems) > 0 {
					t.Fatalf("%q: the suggested %q is not a clean directive: %v", text, dir.meant, again.problems)
				}
			}
		}
		_, _ = parseRange(dir.args)
	})
}
