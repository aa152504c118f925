package extract_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/fencecheck/fencecheck/extract"
)

// TestDirectiveHygiene checks that a comment that is almost a directive is
// reported with the directive to write, that prose mentioning fencecheck is
// not, and that every directive that matches nothing is reported once, at
// the directive.
func TestDirectiveHygiene(t *testing.T) {
	want := []struct {
		line, msg       string
		afterWritesOnly bool
	}{
		{"// fencecheck:system\n", `malformed directive "// fencecheck:system": no space may follow // (write //fencecheck:system)`, false},
		{"//fencecheck: system", `malformed directive "//fencecheck: system": no space may follow the colon (write //fencecheck:system)`, false},
		{"//Fencecheck:system", `malformed directive "//Fencecheck:system": directives are written in lower case (write //fencecheck:system)`, false},
		{"//FENCECHECK:SYSTEM", `malformed directive "//FENCECHECK:SYSTEM": directives are written in lower case (write //fencecheck:system)`, false},
		{"//fencecheck:sytem", `unknown directive //fencecheck:sytem (did you mean //fencecheck:system?)`, false},
		{"/* fencecheck:system */", `malformed directive "/* fencecheck:system */": a directive is a // line comment, not a /* */ comment (write //fencecheck:system)`, false},
		{"//fencecheck:range0..3", `unknown directive //fencecheck:range0..3 (did you mean //fencecheck:range 0..3?)`, false},
		{"var neverUsed int32", "unused //fencecheck:range: no goroutine of any system in this package uses neverUsed", false},
		{"var small uint8", "malformed //fencecheck:range: no value of small's type uint8 is in 300..400", false},
		{"var wide int8", "malformed //fencecheck:range: 0..1000 goes beyond the values of wide's type int8 (-128..127)", false},
		{"//fencecheck:system\nfunc sys()", "duplicate //fencecheck:system: sys is marked already", false},
		{"var flagged bool", "misplaced //fencecheck:range: flagged is a bool, whose only values are false and true", false},
		{"//fencecheck:range 0..3\nconst", "misplaced //fencecheck:range: notAVariable is not a variable or field", false},
		{"a, b int32", "unused //fencecheck:range: no goroutine of any system in this package uses a or b", false},
		{"//fencecheck:critical\n\tx++", "unused //fencecheck:critical: no goroutine of any system runs the statement after it", false},
		{"//fencecheck:nofence\n\tx++", "unused //fencecheck:nofence: no goroutine of any system runs the statement it marks", false},
		{"//fencecheck:nofence\n\t\tatomic", "unused //fencecheck:nofence: the statement it marks makes no plain store to shared memory in any system, and barriers go only after such stores", true},
		{"local := data //fencecheck:nofence", "unused //fencecheck:nofence: the statement it marks makes no plain store", true},
		{"local++       //fencecheck:nofence", "unused //fencecheck:nofence: the statement it marks makes no plain store", true},
	}
	l := load(t, "hygiene")
	if !extract.HasDirectives(l.files) {
		t.Errorf("HasDirectives(hygiene) = false")
	}
	systems, diags := extract.Package(l.fset, l.pkg, l.files, l.info)
	if len(systems) != 1 || systems[0].Name != "sys" {
		t.Errorf("systems = %v, want sys", systems)
	}
	file := filepath.Join("testdata", "src", "hygiene", "hygiene.go")
	type got struct {
		msg             string
		afterWritesOnly bool
	}
	byLine := map[int][]got{}
	for _, d := range diags {
		p := l.fset.Position(d.Pos)
		byLine[p.Line] = append(byLine[p.Line], got{d.Message, d.AfterWritesOnly})
	}
	for _, w := range want {
		line := lineOf(t, file, w.line) // the marker starts on the directive's line
		gs := byLine[line]
		if len(gs) != 1 || !strings.HasPrefix(gs[0].msg, w.msg) || gs[0].afterWritesOnly != w.afterWritesOnly {
			t.Errorf("line %d (%q): got %v, want one diagnostic %q (AfterWritesOnly %v)", line, w.line, gs, w.msg, w.afterWritesOnly)
		}
		delete(byLine, line)
	}
	for line, gs := range byLine {
		t.Errorf("unexpected diagnostics at line %d: %v", line, gs)
	}
}

func TestMayHoldDirectives(t *testing.T) {
	for _, tt := range []struct {
		src  string
		want bool
	}{
		{"package p\n\n//fencecheck:system\nfunc s() {}\n", true},
		{"package p\n\n// FenceCheck:system\nfunc s() {}\n", true},
		{"package p\n\n/* fencecheck:system */\n", true},
		{"fencecheck:", true},
		{"package p\n\n// fencecheck reports this: nothing else.\n", false},
		{"package p\n\nvar m = map[string]int{\"fencecheck\": 1}\n", false},
		{"encecheck:", false},
		{":", false},
		{"", false},
	} {
		if got := extract.MayHoldDirectives([]byte(tt.src)); got != tt.want {
			t.Errorf("MayHoldDirectives(%q) = %v, want %v", tt.src, got, tt.want)
		}
	}
}
