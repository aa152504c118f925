package extract_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestFanOut checks the verdicts of goroutines that start goroutines in
// counted loops and pass them values known only at run time, loop
// variables their closures capture, and channels the parent made (each
// system's comment in testdata/src/fanout gives the reasoning).
func TestFanOut(t *testing.T) {
	testVerdicts(t, "fanout", []verdictCase{
		{"fanOutSum", S, S},
		{"fanOutEarly", U, U},
		{"fanOutDown", S, S},
		{"runTimeCapture", S, S},
		{"capturedSum", S, S},
		{"capturedShared", U, U},
		{"capturedRange", U, U},
		{"capturedParent", S, S},
		{"fanIn", S, S},
		{"fanInFirst", U, U},
		{"chanTwice", U, U},
	})
}

// TestFanOutProcs checks that a go statement in a counted loop starts one
// process per iteration, named after the loop variable (for a closure,
// go@LINE(i=0), compared without its line).
func TestFanOutProcs(t *testing.T) {
	for _, tt := range []struct {
		name  string
		procs []string
	}{
		{"fanOutSum", []string{"add(i=0)", "add(i=1)", "add(i=2)"}},
		{"fanOutEarly", []string{"add(i=0)", "add(i=1)", "add(i=2)"}},
		{"fanOutDown", []string{"add(i=6)", "add(i=4)", "add(i=2)"}},
		{"capturedSum", []string{"go@(i=0)", "go@(i=1)", "go@(i=2)"}},
		{"capturedRange", []string{"go@(i=0)", "go@(i=1)", "go@(i=2)"}},
	} {
		s := system(t, "fanout", tt.name)
		var got []string
		for _, q := range s.Program.Procs {
			name := q.Name // go@LINE(i=0) without its line
			if k := strings.Index(q.Name, "("); k >= 0 && strings.HasPrefix(q.Name, "go@") {
				name = "go@" + q.Name[k:]
			}
			if strings.HasPrefix(name, "add") || strings.Contains(name, "(i=") {
				got = append(got, name)
			}
		}
		if !slices.Equal(got, tt.procs) {
			t.Errorf("%s: processes %q, want %q", tt.name, got, tt.procs)
		}
	}
}

// TestFanOutDiagnostics checks the go statements in goroutines that are
// refused: too many iterations of a counted loop, a pointer chosen at run
// time. (A loop that cannot be counted gets a few slots: values/spawns.go
// in the analyzer's testdata.)
func TestFanOutDiagnostics(t *testing.T) {
	l := load(t, "fanoutdiag")
	systems, diags := refusing(l)
	if len(systems) != 0 {
		t.Errorf("%d systems lowered, want none", len(systems))
	}
	file := filepath.Join("testdata", "src", "fanoutdiag", "fanoutdiag.go")
	want := map[int]string{
		lineOf(t, file, "// tooMany"):   "a go statement in a loop inside a goroutine that runs it 9 times (fencecheck models at most 8",
		lineOf(t, file, "go set(&pair"): "a go statement inside a goroutine with a pointer chosen at run time",
	}
	got := map[int]string{}
	for _, d := range diags {
		got[l.fset.Position(d.Pos).Line] = d.Message
	}
	for line, msg := range want {
		if !strings.Contains(got[line], msg) {
			t.Errorf("line %d: got %q, want a message containing %q", line, got[line], msg)
		}
	}
	if len(got) != len(want) {
		t.Errorf("got diagnostics %v, want %d", got, len(want))
	}
}

// TestGoInCalledLoop checks a group with a limit, as errgroup's SetLimit
// makes one: its method sends on a channel and then starts a goroutine
// that calls the task, a captured function value, and the system calls it
// in a counted loop. The set-up ends before the loop, whose iterations the
// system function's process runs, starting one goroutine each; a
// goroutine started by a process calls the task (a call through a
// function value, lowered after the process that starts it).
func TestGoInCalledLoop(t *testing.T) {
	testVerdicts(t, "limitgroup", []verdictCase{
		{"limitOne", S, S},
		{"limitTwo", U, U},
		{"noLimit", U, U},
		{"firstError", S, S},
	})
	s := system(t, "limitgroup", "limitOne")
	var got []string
	for _, q := range s.Program.Procs {
		if k := strings.Index(q.Name, "("); k >= 0 && strings.HasPrefix(q.Name, "go@") {
			got = append(got, "go@"+q.Name[k:])
		}
	}
	if want := []string{"go@(i=0)", "go@(i=1)", "go@(i=2)"}; !slices.Equal(got, want) {
		t.Errorf("limitOne: processes %q, want %q", got, want)
	}
}

// TestChannelsInMemory checks a pool whose first run makes its channel of
// tasks under a sync.Once, after the set-up ended (it sends between go
// statements): the system function's goroutine stores the channel in the
// pool and its workers, started later, load it (a shared cell holding the
// channel's index), range over it and call the tasks. Called in a loop,
// the Once's function still makes one channel.
func TestChannelsInMemory(t *testing.T) {
	testVerdicts(t, "taskpool", []verdictCase{
		{"twoLocked", S, S},
		{"twoPlain", U, U},
		{"loopLocked", S, S},
		{"loopPlain", U, U},
	})
}
