package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fencecheck/fencecheck/engines/lib/smt"
)

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	broken := filepath.Join(dir, "broken.fcm")
	if err := os.WriteFile(broken, []byte("program \"b\"\nvar x : [0:1] = 0\nprocess P0 {\n  locs L0 L1\n  L0 -> L1 : write y := 1\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rmm := func(name string) string { return filepath.Join("..", "..", "testdata", "rmm", name) }
	kabs := func(name string) string { return filepath.Join("..", "..", "testdata", "kabs", name) }
	scale := func(name string) string { return filepath.Join("..", "..", "testdata", "scale", name) }
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{"unsafe under TSO prints the trace", []string{"check", rmm("sb.rmm")}, exitUnsafe, "buffers: P0[x=1]", ""},
		{"safe under SC", []string{"check", "-model=sc", rmm("sb.rmm")}, exitSafe, "safe under sc", ""},
		{"bounded safety is qualified", []string{"check", "-engine=explicit", "-buffer=1", filepath.Join("..", "..", "testdata", "table1", "alternating_bit.rmm")}, exitSafe, "safe up to buffer bound 1", ""},
		{"reads that find their buffers empty: exact under any bound", []string{"check", "-engine=explicit", "-buffer=1", rmm("dekker_fenced.rmm")}, exitSafe, "safe under tso", ""},
		{"auto names its choice: explicit for loop-free goroutines", []string{"check", "-q", rmm("sb.rmm")}, exitUnsafe, "[auto: explicit]", ""},
		{"auto names its choice: sb with loops", []string{"check", "-q", rmm("dekker_fenced.rmm")}, exitSafe, "[auto: sb]", ""},
		{"fences bound the buffers: exact", []string{"check", rmm("dekker_fenced.rmm")}, exitSafe, "safe under tso", ""},
		{"input error names file and position", []string{"check", broken}, exitUsage, "", "broken.fcm:5:"},
		{"missing file", []string{"check", filepath.Join(dir, "none.fcm")}, exitUsage, "", "none.fcm"},
		{"unknown engine", []string{"check", "-engine=magic", rmm("sb.rmm")}, exitUsage, "", "unknown engine"},
		{"no file", []string{"check"}, exitUsage, "", "no model file"},
		{"unknown command", []string{"frobnicate"}, exitUsage, "", "unknown command"},
		{"fences for store buffering", []string{"fences", rmm("sb.rmm")}, exitUnsafe, "barrier after P0@q0->q1: write x := 1  (", ""},
		{"fences: correct program", []string{"fences", rmm("iriw.rmm")}, exitSafe, "correct", ""},
		{"fences: bad placement", []string{"fences", "-placement=nowhere", rmm("sb.rmm")}, exitUsage, "", "placement"},
		{"check with the sb engine", []string{"check", "-engine=sb", rmm("sb.rmm")}, exitUnsafe, "[sb]", ""},
		{"budget exhausted", []string{"check", "-max-states=3", rmm("dekker_fenced.rmm")}, exitInconclusive, "inconclusive", ""},
		{"check with the pred engine", []string{"check", "-engine=pred", rmm("sb.rmm")}, exitUnsafe, "[pred]", ""},
		{"pred: safe under SC", []string{"check", "-engine=pred", "-model=sc", rmm("sb.rmm")}, exitSafe, "safe under sc", ""},
		{"pred: unbounded ticket lock is safe", []string{"check", "-engine=pred", kabs("ticket_lock.rmm")}, exitSafe, "ticket_lock.rmm: safe under tso (", ""},
		{"fences with the pred engine", []string{"fences", "-engine=pred", kabs("simple_dekker.rmm")}, exitUnsafe, "barrier after", ""},
		{"race: plain message passing races on both variables", []string{"race", "-q", filepath.Join("..", "..", "testdata", "models", "mp.fcm")}, exitUnsafe, "2 racing pair(s)", ""},
		{"race: the trace to a race", []string{"race", filepath.Join("..", "..", "testdata", "models", "mp.fcm")}, exitUnsafe, "race on data: consumer: read $d := data", ""},
		{"race: an atomic flag orders the data", []string{"race", filepath.Join("..", "..", "testdata", "models", "mp_atomic.fcm")}, exitSafe, "race-free under SC", ""},
		{"race: knowledge flows through a WaitGroup chain", []string{"race", filepath.Join("..", "..", "testdata", "models", "wg_chain.fcm")}, exitSafe, "race-free under SC", ""},
		{"race with the sb engine", []string{"race", "-engine=sb", filepath.Join("..", "..", "testdata", "models", "mp_atomic.fcm")}, exitSafe, "race-free under SC [sb", ""},
		{"race with the pred engine", []string{"race", "-engine=pred", "-q", filepath.Join("..", "..", "testdata", "models", "mp.fcm")}, exitUnsafe, "race on data", ""},
		{"race with the bmc engine lists the published data", []string{"race", "-engine=bmc", "-q", filepath.Join("..", "..", "testdata", "models", "mp.fcm")}, exitUnsafe, "race on data: consumer: read $d := data", ""},
		{"race with the bmc engine: knowledge through a WaitGroup chain", []string{"race", "-engine=bmc", filepath.Join("..", "..", "testdata", "models", "wg_chain.fcm")}, exitSafe, "race-free under SC", ""},
		{"pred: state budget", []string{"check", "-engine=pred", "-max-states=2", kabs("peterson.rmm")}, exitInconclusive, "inconclusive", ""},
		{"the reduction removes unobservable stores", []string{"check", "-engine=sb", "-budget=20s", scale("writeloop.fcm")}, exitSafe, "writeloop.fcm: safe under tso", ""},
		{"the memory limit ends a search", []string{"check", "-reduce=false", "-memory=1", scale("stores2000.fcm")}, exitInconclusive, "memory limit", ""},
		{"the work bound ends a search", []string{"check", "-engine=sb", "-q", "-maxwork=1000", scale("ring5.fcm")}, exitInconclusive, "inconclusive: work bound of 1,000 units reached after 1,00", ""},
		{"the bounded engine finds the 4-process bakery's bug first", []string{"check", "-engine=sb+bmc", "-q", scale("bakery4.fcm")}, exitUnsafe, "unsafe under tso", ""},
		{"Memorax macros", []string{"check", "-engine=sb", "-q", rmm("peterson_macros.rmm")}, exitUnsafe, "unsafe under tso", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			needsZ3 := slices.ContainsFunc(tc.args, func(a string) bool {
				return a == "-engine=pred" || a == "-engine=bmc" || strings.HasSuffix(a, "+bmc")
			})
			if needsZ3 && !smt.Available {
				t.Skip("the predicate and bmc engines need Z3; this build has none")
			}
			var out, errb bytes.Buffer
			code := run(tc.args, &out, &errb)
			if code != tc.code {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.code, out.String(), errb.String())
			}
			if !strings.Contains(out.String(), tc.stdout) {
				t.Errorf("stdout lacks %q:\n%s", tc.stdout, out.String())
			}
			if !strings.Contains(errb.String(), tc.stderr) {
				t.Errorf("stderr lacks %q:\n%s", tc.stderr, errb.String())
			}
		})
	}
}
