package extract_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fencecheck/fencecheck/extract"
)

// lineOf returns the line on which the only occurrence of marker in file
// starts.
func lineOf(tb testing.TB, file, marker string) int {
	tb.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		tb.Fatal(err)
	}
	if n := strings.Count(string(data), marker); n != 1 {
		tb.Fatalf("%s: marker %q occurs %d times, want once", file, marker, n)
	}
	i := strings.Index(string(data), marker)
	return strings.Count(string(data[:i]), "\n") + 1
}

// TestDiagnostics checks that every malformed directive and unsupported
// construct is reported on its line, and nothing else is.
func TestDiagnostics(t *testing.T) {
	type want struct{ line, msg string }
	tests := []struct {
		pkg     string
		want    []want
		systems []string
	}{
		{"directives", []want{
			{"//fencecheck:system\nvar notAFunc", ""},
			{"//fencecheck:range 5", "malformed //fencecheck:range: want LO..HI"},
			{"//fencecheck:range 3..1", "empty range 3..1"},
			{"//fencecheck:range 0..x", `bad upper bound "x"`},
			{"//fencecheck:range 0..3", "misplaced //fencecheck:range"},
			{"//fencecheck:foo", "unknown directive //fencecheck:foo"},
			{"//fencecheck:system now", "it takes no arguments"},
			{"x++ //fencecheck:critical", "misplaced //fencecheck:critical: it must stand on its own line"},
			{"\t//fencecheck:nofence\n}", "misplaced //fencecheck:nofence: no statement follows it"},
			{"atomic.StoreInt32(&fine, 1) //fencecheck:nofence", "unused //fencecheck:nofence: the statement it marks makes no plain store to shared memory"},
		}, []string{"good"}},
		{"unsupported", []want{
			{"c := make(chan int, i+1)", "unsupported in a fencecheck system: a channel whose capacity the setup cannot compute"},
			{"m := map[complex128]int{}", "unsupported in a fencecheck system: a map whose keys are of type complex128 (keys of integers, booleans, strings, floats, pointers, interface values and channels, and of structs and arrays of them, are modelled)"},
			{"defer atomic.StoreInt32", "unsupported in a fencecheck system: defer in a loop"},
			{"go func(p *int32) { *p = 1 }(&spawnPair[n])", "unsupported in a fencecheck system: a go statement inside a goroutine with a pointer chosen at run time"},
			{"c = other(c, d)", "unsupported in a fencecheck system: a channel variable set to the channel b, not known where its value is chosen at run time"},
			{"go func() { i = impl{}; i.m(); _ = i == iface(impl{}) }()", "unsupported in a fencecheck system: comparing interface values that may hold a struct, an array, a function or a channel (Go compares their payloads, fencecheck their boxes)"},
			{`err := fmt.Errorf("again: %w, %w", errBase, errBase)`, "unsupported in a fencecheck system: the error returned by fmt.Errorf(\"again: %w, %w\", errBase, errBase) where a pointer is expected"},
			{"go func() { x = 1 }()", "unsupported in a fencecheck system: go statements in a loop without a constant bound"},
			{"n := v.(int32)", "the setup of system setupAssert panics: interface conversion: interface is string, not int32"},
			{"s = append(s, 1)", "unsupported in a fencecheck system: append beyond the capacity of the slice (length 2 + 1 > capacity 2"},
			{`_ = os.Getenv("X")`, "unsupported in a fencecheck system: a call of os.Getenv (not modelled"},
			{"fmt.Println(&x)", "unsupported in a fencecheck system: passing a value of type *int32 (it may point into the system's memory) to fmt.Println"},
			{"rec(n - 1)", "unsupported in a fencecheck system: recursion more than 2 calls deep (rec calls itself)"},
		}, nil}, // every construct a goroutine reaches is refused where a run reaches it (analyzer testdata uncomputed, unsupported, stdcalls; TestRefusedWhereReached)
		{"pkginitdiag", []want{
			{"var start = int32(os.Getpid())", "unsupported in a fencecheck system: the initial value of package-level variable start, which depends on a call of os.Getpid"},
			{"var workers int32 = 2", "unsupported in a fencecheck system: the initial value of package-level variable workers, which depends on a call of flag.Func, which may change it"},
			{"var mode int32", "unsupported in a fencecheck system: the initial value of package-level variable mode, which depends on code of the package's initialisation that cannot be run (pkginitdiag.go:69: a branch on a call of os.Getenv)"},
			{"var viaOnce int32", "unsupported in a fencecheck system: the initial value of package-level variable viaOnce, which depends on a call of (*sync.Once).Do, which may change it"},
		}, []string{"clean"}},
		{"slicesdiag", []want{
			{"w := b.buf[n:]", "unsupported in a fencecheck system: a slice expression with bounds known only at run time"},
			{"go func() { b.buf = b.arr[:] }()", "unsupported in a fencecheck system: storing in memory a slice over an array inside another object"},
			{`b.name = b.name + "b"`, "unsupported in a fencecheck system: concatenating strings known only at run time (strings are opaque values: only ==, != and len of a constant are modelled)"},
			{"s.seed = s.seed - 1", "unsupported in a fencecheck system: s.seed, which holds random numbers (rand.Int63()), any value (only % n and & m of it, with constants n from 1 to 16 and m below it, are modelled)"},
			{"s.seed = -1", "unsupported in a fencecheck system: storing a value other than a non-negative constant in seed, which holds random numbers (rand.Int63())"},
			{"go func() { b.dones()[b.n] <- 1 }()", "unsupported in a fencecheck system: indexing an array value of channels, functions, slices, maps or interfaces with an index known only at run time"},
		}, []string{"order", "runtimeStringLen", "arrayValueIndex", "pointerArrayValueIndex"}}, // < on a string known only at run time, and its len: over the system's strings; arrays of integers and of pointers indexed at run time
		{"pointersdiag", []want{
			{"n.Store(uintptr(", "unsupported in a fencecheck system: a conversion from unsafe.Pointer to uintptr"},
		}, nil},
		{"soundnessdiag", nil, []string{"methodValue", "betweenSpawns"}},
	}
	for _, tt := range tests {
		t.Run(tt.pkg, func(t *testing.T) {
			l := load(t, tt.pkg)
			systems, diags := refusing(l)
			var names []string
			for _, s := range systems {
				names = append(names, s.Name)
			}
			if strings.Join(names, ",") != strings.Join(tt.systems, ",") {
				t.Errorf("systems = %v, want %v", names, tt.systems)
			}
			file := filepath.Join("testdata", "src", tt.pkg, tt.pkg+".go")
			got := map[int][]string{}
			for _, d := range diags {
				p := l.fset.Position(d.Pos)
				got[p.Line] = append(got[p.Line], d.Message)
			}
			seen := map[int]bool{}
			for _, w := range tt.want {
				first, _, _ := strings.Cut(w.line, "\n")
				line := lineOf(t, file, w.line)
				seen[line] = true
				ok := false
				for _, m := range got[line] {
					if strings.Contains(m, w.msg) {
						ok = true
					}
				}
				if !ok {
					t.Errorf("line %d (%q): got %q, want a message containing %q", line, first, got[line], w.msg)
				}
			}
			for line, msgs := range got {
				if !seen[line] {
					t.Errorf("unexpected diagnostics at line %d: %q", line, msgs)
				}
			}
		})
	}
}

func TestHasDirectives(t *testing.T) {
	for _, tt := range []struct {
		pkg  string
		want bool
	}{{"sb", true}, {"nodirectives", false}} {
		l := load(t, tt.pkg)
		if got := extract.HasDirectives(l.files); got != tt.want {
			t.Errorf("HasDirectives(%s) = %v, want %v", tt.pkg, got, tt.want)
		}
		if !tt.want {
			systems, diags := extract.Package(l.fset, l.pkg, l.files, l.info)
			if systems != nil || diags != nil {
				t.Errorf("Package(%s) = %v, %v; want nothing", tt.pkg, systems, diags)
			}
		}
	}
}

// TestRefusedWhereReached checks constructs that a system's runs may never
// reach, which are refused where a run reaches them: the system is lowered,
// with the refusal as a register of its own that names the construct.
func TestRefusedWhereReached(t *testing.T) {
	for _, tt := range []struct{ pkg, system, what string }{
		{"unsupported", "recursion", "recursion more than 2 calls deep (rec calls itself)"},
		{"appendsdiag", "sliced", "slicing a slice grown by append"},
	} {
		t.Run(tt.system, func(t *testing.T) {
			l := load(t, tt.pkg)
			systems, _ := extract.Package(l.fset, l.pkg, l.files, l.info)
			var names []string
			for _, s := range systems {
				if s.Name != tt.system {
					continue
				}
				for _, regs := range s.Regs {
					for _, e := range regs {
						if strings.Contains(e.Name, tt.what) {
							return
						}
						names = append(names, e.Name)
					}
				}
				t.Fatalf("system %s has no register named %q: %q", tt.system, tt.what, names)
			}
			t.Fatalf("no system %s", tt.system)
		})
	}
}

// refusing lowers the systems of l as extract.Package does, and returns
// as diagnostics, with the front end's, the run-time refusals of each
// system (the constructs a goroutine reaches that the model does not
// lower), in the words the front end would use; clean are the systems
// without any.
func refusing(l *loaded) (clean []*extract.System, diags []extract.Diagnostic) {
	systems, diags := extract.Package(l.fset, l.pkg, l.files, l.info)
	for _, s := range systems {
		refused := false
		for _, regs := range s.Regs {
			for _, e := range regs {
				if e.Refusal {
					refused = true
					diags = append(diags, extract.Diagnostic{Pos: e.Pos, Message: "unsupported in a fencecheck system: " + e.Name})
				}
			}
		}
		if !refused {
			clean = append(clean, s)
		}
	}
	return clean, diags
}
