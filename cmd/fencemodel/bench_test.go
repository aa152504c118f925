package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/explicit"
	"github.com/fencecheck/fencecheck/engines/lib/smt"
	"github.com/fencecheck/fencecheck/engines/question/fence"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/modelfile"
)

var (
	table1Dir = filepath.Join("..", "..", "testdata", "table1")
	kabsDir   = filepath.Join("..", "..", "testdata", "kabs")
)

// writeManifest writes entries (with absolute file paths) to a manifest in a
// fresh directory and returns its path.
func writeManifest(t *testing.T, entries []map[string]any) string {
	t.Helper()
	for _, e := range entries {
		if f, ok := e["file"].(string); ok && !filepath.IsAbs(f) {
			abs, err := filepath.Abs(filepath.Join(table1Dir, f))
			if err != nil {
				t.Fatal(err)
			}
			e["file"] = abs
		}
	}
	data, err := json.Marshal(entries)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "manifest.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestBench(t *testing.T) {
	one, zero := 1, 0
	good := writeManifest(t, []map[string]any{
		{"file": "simple_dekker.rmm", "name": "Simple Dekker", "paper_row": 1, "paper_fences_per_proc": one, "paper_sets": 1, "paper_time_cheapest_s": 0.02, "paper_time_all_s": 0.02},
		{"file": "task_scheduling.rmm", "name": "Task", "paper_row": 11, "paper_fences_per_proc": zero, "paper_sets": 1},
		{"file": "prodcons_v1_n2.rmm", "name": "PC v1", "paper_row": 14, "paper_erroneous": true},
	})
	wrong := writeManifest(t, []map[string]any{
		{"file": "simple_dekker.rmm", "name": "Simple Dekker", "paper_fences_per_proc": 2, "paper_sets": 1},
	})
	documented := writeManifest(t, []map[string]any{
		{"file": "simple_dekker.rmm", "name": "Simple Dekker", "paper_fences_per_proc": one, "paper_sets": 3, "deviation": "our encoding has fewer write places"},
	})
	missing := writeManifest(t, []map[string]any{
		{"file": filepath.Join(t.TempDir(), "none.rmm"), "name": "None"},
	})
	badJSON := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(badJSON, []byte(`[{"file": 3}]`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		args     []string
		code     int
		stdout   []string // substrings, in order
		unwanted string
		stderr   string
	}{
		{
			name:   "agreeing rows as text",
			args:   []string{"-manifest=" + good},
			code:   exitSafe,
			stdout: []string{"program", "Simple Dekker", "fixable", "1/proc", "yes", "Task", "correct", "PC v1", "wrong under SC", "erroneous", "yes", "engine explicit"},
		},
		{
			name:   "markdown",
			args:   []string{"-manifest=" + good, "-format=markdown"},
			code:   exitSafe,
			stdout: []string{"| # | program |", "| --- |", "| 1 | Simple Dekker | 2/", "| 0.02 s | 0.02 s | yes |"},
		},
		{
			name:     "run filter",
			args:     []string{"-manifest=" + good, "-run=task"},
			code:     exitSafe,
			stdout:   []string{"Task"},
			unwanted: "Simple Dekker",
		},
		{
			name:   "undocumented difference fails",
			args:   []string{"-manifest=" + wrong},
			code:   exitUnsafe,
			stdout: []string{"2/proc, 1 set", "no", "Simple Dekker: differs from the paper"},
		},
		{
			name:   "documented difference passes",
			args:   []string{"-manifest=" + documented},
			code:   exitSafe,
			stdout: []string{"no (documented)", "Simple Dekker: our encoding has fewer write places"},
		},
		{
			name:   "budget ends in inconclusive",
			args:   []string{"-manifest=" + good, "-run=Dekker", "-max-states=3"},
			code:   exitInconclusive,
			stdout: []string{"inconclusive (bound)", "> budget", "state budget of 3 states exhausted"},
		},
		{
			name:   "time budget ends in inconclusive",
			args:   []string{"-manifest=" + good, "-run=Dekker", "-budget=1ns"},
			code:   exitInconclusive,
			stdout: []string{"inconclusive (bound)"},
		},
		{name: "missing program file", args: []string{"-manifest=" + missing}, code: exitUsage, stdout: []string{"None", "error"}, stderr: "none.rmm"},
		{name: "malformed manifest", args: []string{"-manifest=" + badJSON}, code: exitUsage, stderr: "bad.json"},
		{name: "missing manifest", args: []string{"-manifest=" + badJSON + ".none"}, code: exitUsage, stderr: "reading manifest"},
		{name: "unknown format", args: []string{"-manifest=" + good, "-format=html"}, code: exitUsage, stderr: "unknown format"},
		{name: "stray argument", args: []string{"-manifest=" + good, "x.rmm"}, code: exitUsage, stderr: "unexpected arguments"},
		{name: "no program matches", args: []string{"-manifest=" + good, "-run=nothing"}, code: exitUsage, stderr: "no program"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			args := append([]string{"bench", "-engine=explicit", "-sample=1ms"}, tc.args...)
			code := run(args, &out, &errb)
			if code != tc.code {
				t.Errorf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.code, out.String(), errb.String())
			}
			rest := out.String()
			for _, s := range tc.stdout {
				i := strings.Index(rest, s)
				if i < 0 {
					t.Errorf("stdout lacks %q (in order)\n%s", s, out.String())
					break
				}
				rest = rest[i+len(s):]
			}
			if tc.unwanted != "" && strings.Contains(out.String(), tc.unwanted) {
				t.Errorf("stdout has %q:\n%s", tc.unwanted, out.String())
			}
			if tc.stderr != "" && !strings.Contains(errb.String(), tc.stderr) {
				t.Errorf("stderr lacks %q:\n%s", tc.stderr, errb.String())
			}
		})
	}
}

func TestPerProc(t *testing.T) {
	p := &model.Program{Procs: []*model.Process{{Name: "P0"}, {Name: "P1"}, {Name: "P2"}}}
	for _, tc := range []struct {
		set  []fence.Place
		want string
	}{
		{nil, "0/proc"},
		{[]fence.Place{{Proc: 0}, {Proc: 1}, {Proc: 2}}, "1/proc"},
		{[]fence.Place{{Proc: 0, Loc: 1}, {Proc: 0, Loc: 2}, {Proc: 2}}, "P0:2 P1:0 P2:1"},
	} {
		if got := perProc(p, tc.set); got != tc.want {
			t.Errorf("perProc(%v) = %q, want %q", tc.set, got, tc.want)
		}
	}
}

// TestTable1Corpus checks every program of Table 1 of the single-buffer
// paper: it parses and validates, and the explicit engine's fence inference
// (store buffers bounded at 4) gives the paper's verdict, barriers per
// process and number of minimal sets, unless the manifest documents why
// not.
func TestTable1Corpus(t *testing.T) {
	entries, err := readManifest(filepath.Join(table1Dir, "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 17 {
		t.Errorf("the manifest lists %d programs, Table 1 has 17", len(entries))
	}
	rows := map[int]bool{}
	for _, e := range entries {
		rows[e.PaperRow] = true
		t.Run(strings.TrimSuffix(filepath.Base(e.File), ".rmm"), func(t *testing.T) {
			t.Parallel()
			p, err := modelfile.Load(e.File)
			if err != nil {
				t.Fatal(err)
			}
			if !p.Finite() {
				t.Errorf("%s has an unbounded domain; Table 1's programs are finite-state", e.File)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			res, err := fence.Infer(ctx, &explicit.Engine{}, p, fence.Options{All: true})
			if err != nil {
				t.Fatal(err)
			}
			got := describe(p, res)
			want := e.paperSummary()
			if e.Deviation != "" {
				t.Logf("%s: documented deviation: %s (ours: %s, paper: %s)", e.Name, e.Deviation, got, want)
				return
			}
			if res.Status != e.paperVerdict() {
				t.Fatalf("%s: %s, paper: %s", e.Name, res.Summary(p), want)
			}
			if res.Status == fence.Fixable {
				if pp := perProc(p, res.Sets[0]); pp != fmt.Sprintf("%d/proc", *e.PaperFencesPerProc) {
					t.Errorf("%s: smallest set has %s barriers, paper: %s", e.Name, pp, want)
				}
				if len(res.Sets) != e.PaperSets {
					t.Errorf("%s: %d minimal sets, paper: %s\n%s", e.Name, len(res.Sets), want, res.Summary(p))
				}
			}
		})
	}
	for i := 1; i <= 17; i++ {
		if !rows[i] {
			t.Errorf("no program for row %d of Table 1", i)
		}
	}
}

func describe(p *model.Program, r *fence.Result) string {
	if r.Status != fence.Fixable {
		return r.Status.String()
	}
	return fmt.Sprintf("%s, %d sets", perProc(p, r.Sets[0]), len(r.Sets))
}

// TestKabsCorpus checks the eight programs of Table 1 of the
// predicate-abstraction paper: they parse and validate with unbounded
// domains; none reaches its bad state under SC (within a state budget for
// the two whose values grow without bound); those the paper fences reach
// it under TSO.
func TestKabsCorpus(t *testing.T) {
	entries, err := readManifest(filepath.Join(kabsDir, "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 8 {
		t.Errorf("the manifest lists %d programs, the paper's Table 1 has 8", len(entries))
	}
	// values_grow_unboundedly is a field of this manifest only.
	var grows []struct {
		File  string `json:"file"`
		Grows bool   `json:"values_grow_unboundedly"`
	}
	data, err := os.ReadFile(filepath.Join(kabsDir, "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &grows); err != nil {
		t.Fatal(err)
	}
	unboundedValues := map[string]bool{}
	for _, g := range grows {
		unboundedValues[g.File] = g.Grows
	}
	for _, e := range entries {
		base := filepath.Base(e.File)
		t.Run(strings.TrimSuffix(base, ".rmm"), func(t *testing.T) {
			t.Parallel()
			p, err := modelfile.Load(e.File)
			if err != nil {
				t.Fatal(err)
			}
			if p.Finite() {
				t.Errorf("%s: every domain is finite; the paper's programs have integer variables", base)
			}
			if e.PaperFencesPerProc == nil || e.PaperPredicates == 0 || e.PaperTimeS == 0 {
				t.Errorf("%s: the manifest lacks the paper's fences, predicates or time", base)
			}
			eng := &explicit.Engine{MaxStates: 20000}
			ctx := context.Background()
			sc, err := eng.Check(ctx, p, model.SC)
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case sc.Status == engines.Unsafe:
				t.Fatalf("%s: bad state reachable under SC:\n%s", base, sc)
			case unboundedValues[base] != (sc.Status == engines.Inconclusive):
				t.Errorf("%s: values_grow_unboundedly is %v, but the SC search is %s", base, unboundedValues[base], sc)
			}
			tso, err := eng.Check(ctx, p, model.TSO)
			if err != nil {
				t.Fatal(err)
			}
			if needs := *e.PaperFencesPerProc > 0; needs != (tso.Status == engines.Unsafe) {
				t.Errorf("%s: paper: %d barriers per process; explicit search under TSO: %s", base, *e.PaperFencesPerProc, tso)
			}
			// The finite version of the program in testdata/table1, where there
			// is one, has the same automata.
			if fin, err := modelfile.Load(filepath.Join(table1Dir, base)); err == nil && !unboundedValues[base] {
				if size(fin) != size(p) {
					t.Errorf("%s: size %s, its finite version %s", base, size(p), size(fin))
				}
			}
		})
	}
}

// TestCorpusMutants breaks each Table 1 program in one place, in a way that
// defeats the algorithm, and checks that its bad state then becomes
// reachable already under SC: the bad states of the corpus are not vacuous.
func TestCorpusMutants(t *testing.T) {
	for _, tc := range []struct{ file, old, new string }{
		{"simple_dekker.rmm", "read: $f := flag1;", "$f := 0;"},
		{"full_dekker.rmm", "read: $w := want1;", "$w := 0;"},
		{"peterson.rmm", "read: $f := flag1;", "$f := 0;"},
		{"bakery.rmm", "read: choosing1 = 0;\n  L2:\n    read: $n := number1;", "read: choosing1 = 0;\n  L2:\n    $n := 0;"},
		{"lamport_fast.rmm", "read: $x := x;\n    if $x != 1", "$x := 1;\n    if $x != 1"},
		{"clh.rmm", "read: [$pred] = 0;", "nop;"},
		{"sense_barrier.rmm", "read: sense = 1;", "nop;"},
		{"burns.rmm", "read: flag1 = 0;", "nop;"},
		{"dijkstra.rmm", "read: $f := flag1;\n    if $f = 2", "$f := 0;\n    if $f = 2"},
		{"tournament_barrier.rmm", "read: wakeup = 1;", "nop;"},
		{"task_scheduling.rmm", "cas(ready, 1, 0);\n  read:", "read: ready = 1;\n  read:"},
		{"increasing_sequence.rmm", "write: x := 2;", "write: x := 0;"},
		{"alternating_bit.rmm", "read: a = 1", "nop"},
		{"prodcons_v2_n2.rmm", "read: $c := count;\n    if $c = 2 then goto L;", "read: $c := count;"},
		{"prodcons_v2_n3.rmm", "if $c = 0 then goto L;", "nop;"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			path := filepath.Join(table1Dir, tc.file)
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Contains(src, []byte(tc.old)) {
				t.Fatalf("%s lacks %q", tc.file, tc.old)
			}
			mut := bytes.Replace(src, []byte(tc.old), []byte(tc.new), 1)
			for _, c := range []struct {
				src  []byte
				want engines.Status
			}{{src, engines.Safe}, {mut, engines.Unsafe}} {
				p, err := modelfile.Parse(path, c.src)
				if err != nil {
					t.Fatal(err)
				}
				res, err := (&explicit.Engine{}).Check(context.Background(), p, model.SC)
				if err != nil {
					t.Fatal(err)
				}
				if res.Status != c.want {
					t.Errorf("%s (mutated: %v): %s, want %s", tc.file, c.want == engines.Unsafe, res, c.want)
				}
			}
		})
	}
}

// TestBenchPred runs the bench with the pred engine on the quick programs of
// the kabs manifest: the table has the predicate and k columns filled, and
// the results agree with the paper's.
func TestBenchPred(t *testing.T) {
	if !smt.Available {
		t.Skip("the predicate engine needs Z3; this build has none")
	}
	manifest := filepath.Join(kabsDir, "expected.json")
	var out, errb bytes.Buffer
	code := run([]string{"bench", "-engine=pred", "-sample=0", "-format=markdown", "-manifest=" + manifest, "-run=^(Simple Dekker|Peterson|Linux Ticket Lock)$"}, &out, &errb)
	if code != exitSafe {
		t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, exitSafe, out.String(), errb.String())
	}
	lines := strings.Split(out.String(), "\n")
	if !strings.Contains(lines[0], "| preds | k |") {
		t.Errorf("header lacks the predicate and k columns: %s", lines[0])
	}
	rows := 0
	for _, l := range lines[2:] {
		if !strings.HasPrefix(l, "|") {
			continue
		}
		rows++
		cells := strings.Split(l, " | ")
		// cells[4] and cells[5] are preds and k.
		if n, err := strconv.Atoi(cells[4]); err != nil || n < 1 {
			t.Errorf("predicates %q, want a positive count: %s", cells[4], l)
		}
		if k, err := strconv.Atoi(cells[5]); err != nil || k < 1 {
			t.Errorf("k %q, want a positive number: %s", cells[5], l)
		}
		if !strings.HasSuffix(l, "| yes |") {
			t.Errorf("row disagrees with the paper: %s", l)
		}
	}
	if rows != 3 {
		t.Errorf("%d rows, want 3:\n%s", rows, out.String())
	}
	if !strings.Contains(out.String(), "engine pred; explored = abstract configurations") {
		t.Errorf("footer does not name the pred engine:\n%s", out.String())
	}
}

// TestBenchBMC runs the Fig. 11 comparison of bench -engine=bmc on the
// small systems of testdata/fig11 and on manifests whose expectations are
// wrong or malformed.
func TestBenchBMC(t *testing.T) {
	if !smt.Available || smt.Version() == "" {
		t.Skip("the bmc engine needs Z3; this build has none")
	}
	fig11 := filepath.Join("..", "..", "testdata", "fig11")
	abs := func(f string) string {
		a, err := filepath.Abs(filepath.Join(fig11, f))
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	wrong := writeManifest(t, []map[string]any{{"file": abs("mutex3_bug.fcm"), "name": "mutex3/bug", "unroll": 2, "expect": "safe"}})
	bad := writeManifest(t, []map[string]any{{"file": abs("mutex3.fcm"), "name": "mutex3/ok", "unroll": 2, "expect": "maybe"}})
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		output []string // substrings of stdout
		stderr string
	}{
		{"fig11 manifest", []string{"-manifest=" + filepath.Join(fig11, "manifest.json"), "-run=^(mutex3|publication3)", "-format=markdown"}, exitSafe,
			[]string{"| program | P | R | W |", "| mutex3/ok | 3 |", "| publication3/bug | 3 |", "| unsafe | unsafe | yes |", "hardest half (2 programs"}, ""},
		{"wrong expectation", []string{"-manifest=" + wrong}, exitUnsafe, []string{"mutex3/bug: full instantiation says unsafe, REF unsafe, the manifest safe"}, ""},
		{"malformed expectation", []string{"-manifest=" + bad}, exitUsage, nil, `expects "maybe"`},
		{"no run", []string{"-manifest=" + wrong, "-runs=0"}, exitUsage, nil, "-runs=0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := run(append([]string{"bench", "-engine=bmc", "-runs=1"}, tc.args...), &out, &errb)
			if code != tc.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.code, out.String(), errb.String())
			}
			for _, s := range tc.output {
				if !strings.Contains(out.String(), s) {
					t.Errorf("stdout lacks %q:\n%s", s, out.String())
				}
			}
			if !strings.Contains(errb.String(), tc.stderr) {
				t.Errorf("stderr lacks %q:\n%s", tc.stderr, errb.String())
			}
		})
	}
}
