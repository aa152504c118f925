package main_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/fencecheck/fencecheck/internal/longtest"
	"golang.org/x/tools/go/analysis/unitchecker"
)

// built is the fencecheck command, built once for every test of the
// package that needs it.
var built struct {
	once       sync.Once
	bin, gocmd string
	err        error
	out        []byte
}

// buildTool builds the fencecheck command (once) into a temporary directory
// and returns the path of the binary and of the go command.
func buildTool(t *testing.T) (bin, gocmd string) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the command and runs go vet")
	}
	built.once.Do(func() {
		built.gocmd, built.err = exec.LookPath("go")
		if built.err != nil {
			return
		}
		dir, err := os.MkdirTemp("", "fencecheck-cmd-test")
		if err != nil {
			built.err = err
			return
		}
		built.bin = filepath.Join(dir, "fencecheck")
		built.out, built.err = exec.Command(built.gocmd, "build", "-o", built.bin, ".").CombinedOutput()
	})
	switch {
	case built.gocmd == "":
		t.Skipf("no go command: %v", built.err)
	case built.err != nil:
		t.Fatalf("go build: %v\n%s", built.err, built.out)
	}
	return built.bin, built.gocmd
}

// TestMain removes the command built for the tests.
func TestMain(m *testing.M) {
	code := m.Run()
	if built.bin != "" {
		os.RemoveAll(filepath.Dir(built.bin))
	}
	os.Exit(code)
}

// module copies the testdata module into a temporary directory.
func module(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "mod")
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", "mod"))); err != nil {
		t.Fatal(err)
	}
	return dir
}

// run runs name with args in dir and returns its stdout, stderr and exit
// status.
func run(t *testing.T, dir, name string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=", "GO111MODULE=on")
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		t.Fatalf("%s %s: %v", name, strings.Join(args, " "), err)
	}
	return o.String(), e.String(), code
}

// sbFinding is how both drivers print the finding of the testdata module.
var sbFinding = regexp.MustCompile(`(?ms)^[^\n]*sb[/\\]sb\.go:12:3: x86-TSO: the store to x can still sit in the store buffer when the load of y at sb\.go:13:8 reads memory \(system storeBuffering\)$.*fix: add a barrier after this store: make every access to x atomic`)

// sbRace is how both drivers print the race on x in the testdata module.
var sbRace = regexp.MustCompile(`(?ms)^[^\n]*sb[/\\]sb\.go:12:3: race: go@11 stores x here while go@16 loads x at sb\.go:18:8, and nothing orders the two \(system storeBuffering\)$.*fix: make every access to x atomic: make it an atomic\.Int32 `)

// TestGoVet runs the real go vet with fencecheck as its vet tool.
func TestGoVet(t *testing.T) {
	bin, gocmd := buildTool(t)
	dir := module(t)

	stdout, stderr, code := run(t, dir, gocmd, "vet", "-vettool="+bin, "./...")
	if code != 1 {
		t.Errorf("go vet -vettool: exit status %d, want 1 (findings)\nstderr:\n%s", code, stderr)
	}
	if stdout != "" {
		t.Errorf("go vet -vettool: unexpected stdout:\n%s", stdout)
	}
	if !sbFinding.MatchString(stderr) {
		t.Errorf("go vet -vettool: stderr lacks the finding in sb.go:\n%s", stderr)
	}
	if got := strings.Count(stderr, "x86-TSO:"); got != 2 {
		t.Errorf("go vet -vettool: %d x86-TSO diagnostics, want 2 (one barrier per goroutine):\n%s", got, stderr)
	}
	if got := strings.Count(stderr, "race:"); got != 2 || !sbRace.MatchString(stderr) {
		t.Errorf("go vet -vettool: %d race diagnostics, want 2 (x and y), the one on x as sbRace:\n%s", got, stderr)
	}
	if strings.Contains(stderr, "clean") {
		t.Errorf("go vet -vettool: a diagnostic in the correct package:\n%s", stderr)
	}

	// With -witness the interleaving is in the message, as a table.
	_, stderr, code = run(t, dir, gocmd, "vet", "-vettool="+bin, "-witness", "./sb")
	if code != 1 || !strings.Contains(stderr, "| store buffers") {
		t.Errorf("go vet -vettool -witness: exit status %d, stderr:\n%s\nwant status 1 and a table with store buffers", code, stderr)
	}

	// With an invalid flag value go vet fails and names it.
	_, stderr, code = run(t, dir, gocmd, "vet", "-vettool="+bin, "-engine=fast", "./sb")
	if code == 0 || !strings.Contains(stderr, `invalid engine "fast"`) {
		t.Errorf("go vet -vettool -engine=fast: exit status %d, stderr:\n%s\nwant a failure naming the invalid engine", code, stderr)
	}
}

// TestGoVetJSON runs go vet -json: the findings are JSON, and the status 0.
func TestGoVetJSON(t *testing.T) {
	bin, gocmd := buildTool(t)
	dir := module(t)
	stdout, stderr, code := run(t, dir, gocmd, "vet", "-vettool="+bin, "-json", "./...")
	if code != 0 {
		t.Errorf("go vet -vettool -json: exit status %d, want 0\nstderr:\n%s", code, stderr)
	}
	// go vet writes a JSON object per package, after a "# package" line.
	var diags []string
	stream := regexp.MustCompile(`(?m)^# .*$`).ReplaceAllString(stdout+stderr, "")
	dec := json.NewDecoder(strings.NewReader(stream))
	for {
		// package path -> analyzer -> diagnostics
		var tree map[string]map[string]json.RawMessage
		if err := dec.Decode(&tree); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("go vet -json: output is not JSON: %v\n%s", err, stream)
		}
		for pkg, byAnalyzer := range tree {
			var ds []struct {
				Posn    string `json:"posn"`
				Message string `json:"message"`
				Related []struct {
					Posn    string `json:"posn"`
					Message string `json:"message"`
				} `json:"related"`
				SuggestedFixes []struct {
					Message string `json:"message"`
				} `json:"suggested_fixes"`
			}
			if err := json.Unmarshal(byAnalyzer["fencecheck"], &ds); err != nil {
				t.Fatalf("go vet -json: %s: %v", pkg, err)
			}
			for _, d := range ds {
				line := d.Posn + ": " + d.Message
				for _, r := range d.Related {
					line += "\n\t" + r.Message
				}
				diags = append(diags, line)
				if len(d.Related) == 0 || len(d.SuggestedFixes) != 1 {
					t.Errorf("go vet -json: %s: %d related, %d fixes; want the other access or the overtaking load, and one fix", d.Posn, len(d.Related), len(d.SuggestedFixes))
				}
			}
		}
	}
	if all := strings.Join(diags, "\n"); len(diags) != 4 || !sbFinding.MatchString(all) || !sbRace.MatchString(all) {
		t.Errorf("go vet -json: diagnostics\n%s\nwant the two races and two barriers of sb.go", strings.Join(diags, "\n"))
	}
}

// TestStandalone runs fencecheck as a command, then with -fix on a copy,
// after which the system is correct.
func TestStandalone(t *testing.T) {
	bin, _ := buildTool(t)
	dir := module(t)

	stdout, stderr, code := run(t, dir, bin, "./...")
	if code != 3 {
		t.Errorf("fencecheck ./...: exit status %d, want 3 (findings)\nstderr:\n%s", code, stderr)
	}
	if stdout != "" {
		t.Errorf("fencecheck ./...: unexpected stdout:\n%s", stdout)
	}
	if !sbFinding.MatchString(stderr) {
		t.Errorf("fencecheck ./...: stderr lacks the finding in sb.go:\n%s", stderr)
	}

	_, stderr, code = run(t, dir, bin, "./clean")
	if code != 0 || stderr != "" {
		t.Errorf("fencecheck ./clean: exit status %d, stderr:\n%s\nwant 0 and nothing", code, stderr)
	}

	_, stderr, _ = run(t, dir, bin, "-fix", "./...")
	fixed, err := os.ReadFile(filepath.Join(dir, "sb", "sb.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"var x atomic.Int32", "x.Store(1)", "r0 = y.Load()", "y.Store(1)", `"sync/atomic"`} {
		if !bytes.Contains(fixed, []byte(want)) {
			t.Errorf("fencecheck -fix: sb.go lacks %s:\n%s\nstderr:\n%s", want, fixed, stderr)
		}
	}
	_, stderr, code = run(t, dir, bin, "./...")
	if code != 0 || stderr != "" {
		t.Errorf("fencecheck ./... after -fix: exit status %d, stderr:\n%s\nwant 0 and nothing: the fixed system is correct", code, stderr)
	}
}

// TestGoVetFix runs go vet -fix -diff, then go vet -fix, after which go vet
// finds nothing.
func TestGoVetFix(t *testing.T) {
	bin, gocmd := buildTool(t)
	dir := module(t)

	stdout, stderr, code := run(t, dir, gocmd, "vet", "-vettool="+bin, "-fix", "-diff", "./...")
	if code != 1 || !strings.Contains(stdout, "+\t\tx.Store(1)") || strings.Contains(stdout, "plain.go") {
		t.Errorf("go vet -vettool -fix -diff: exit status %d, stdout:\n%s\nstderr:\n%s\nwant status 1 and the diff of sb.go only", code, stdout, stderr)
	}
	if _, stderr, code = run(t, dir, gocmd, "vet", "-vettool="+bin, "-fix", "./..."); code != 0 {
		t.Errorf("go vet -vettool -fix: exit status %d, stderr:\n%s", code, stderr)
	}
	fixed, err := os.ReadFile(filepath.Join(dir, "sb", "sb.go"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(fixed, []byte("y.Store(1)")) {
		t.Errorf("go vet -vettool -fix: sb.go not fixed:\n%s", fixed)
	}
	if _, stderr, code = run(t, dir, gocmd, "vet", "-vettool="+bin, "./..."); code != 0 || stderr != "" {
		t.Errorf("go vet -vettool after -fix: exit status %d, stderr:\n%s\nwant 0 and nothing", code, stderr)
	}
}

// unit writes a go vet unit configuration for the package of the testdata
// module in subdirectory pkg into a temporary directory, the way go vet does,
// and returns the configuration file and the directory. Its import of sync
// comes with the compiler's export data and a vetx file without types, as
// fencecheck writes for packages without directives.
func unit(t *testing.T, gocmd, pkg string) (cfgFile, dir string) {
	t.Helper()
	export, err := exec.Command(gocmd, "list", "-export", "-f", "{{.Export}}", "sync").Output()
	if err != nil {
		t.Fatalf("go list -export sync: %v", err)
	}
	dir = t.TempDir()
	vetx := filepath.Join(dir, "sync.vetx")
	if err := os.WriteFile(vetx, []byte("vetx\x00\x00\x00\x00\x00\x00\x00\x00"), 0o666); err != nil {
		t.Fatal(err)
	}
	src, err := filepath.Abs(filepath.Join("testdata", "mod", pkg))
	if err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join(src, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := unitchecker.Config{
		ID:          "example.com/e2e/" + pkg,
		ImportPath:  "example.com/e2e/" + pkg,
		GoVersion:   "go1.26",
		GoFiles:     files,
		ImportMap:   map[string]string{"sync": "sync", "fmt": "fmt"},
		PackageFile: map[string]string{"sync": strings.TrimSpace(string(export))},
		PackageVetx: map[string]string{"sync": vetx},
		VetxOutput:  filepath.Join(dir, "vet.out"),
		Stdout:      filepath.Join(dir, "vet.stdout"),
	}
	js, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfgFile = filepath.Join(dir, "vet.cfg")
	if err := os.WriteFile(cfgFile, js, 0o666); err != nil {
		t.Fatal(err)
	}
	return cfgFile, dir
}

// TestUnit runs fencecheck as go vet does, on one package: one without
// directives takes the fast path, one with directives is analysed against
// the types of its imports that the fast path left out.
func TestUnit(t *testing.T) {
	bin, gocmd := buildTool(t)

	cfgFile, dir := unit(t, gocmd, "plain")
	stdout, stderr, code := run(t, dir, bin, "-json", cfgFile)
	if code != 0 || stdout != "" || stderr != "" {
		t.Errorf("fencecheck -json plain: exit status %d, stdout %q, stderr %q; want 0 and nothing", code, stdout, stderr)
	}
	if got, err := os.ReadFile(filepath.Join(dir, "vet.stdout")); err != nil || string(got) != "{}\n" {
		t.Errorf("fencecheck -json plain: JSON output %q, %v; want an empty tree", got, err)
	}
	if got, err := os.ReadFile(filepath.Join(dir, "vet.out")); err != nil || len(got) != 12 {
		t.Errorf("fencecheck -json plain: vetx file %q, %v; want a header without types or facts", got, err)
	}

	// The types of sync go through a temporary directory, removed after.
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	cfgFile, dir = unit(t, gocmd, "sb")
	stdout, stderr, code = run(t, dir, bin, cfgFile)
	if code != 1 || stdout != "" || !sbFinding.MatchString(stderr) {
		t.Errorf("fencecheck sb: exit status %d, stdout %q, stderr:\n%s\nwant 1 and the finding", code, stdout, stderr)
	}
	if got, err := os.ReadFile(filepath.Join(dir, "vet.out")); err != nil || len(got) <= 12 {
		t.Errorf("fencecheck sb: vetx file of %d bytes, %v; want the types of sb", len(got), err)
	}
	stdout, stderr, code = run(t, dir, bin, "-json", cfgFile)
	got, err := os.ReadFile(filepath.Join(dir, "vet.stdout"))
	if code != 0 || stdout != "" || stderr != "" || err != nil || !bytes.Contains(got, []byte("sb.go:12:3")) || !bytes.Contains(got, []byte("x86-TSO:")) {
		t.Errorf("fencecheck -json sb: exit status %d, stdout %q, stderr %q, JSON output (%v):\n%s\nwant 0 and the findings as JSON", code, stdout, stderr, err, got)
	}
	if entries, err := os.ReadDir(dir); err != nil || len(entries) != 4 {
		t.Errorf("fencecheck left files in the unit's directory: %v, %v", entries, err)
	}
	if entries, err := os.ReadDir(tmp); err != nil || len(entries) != 0 {
		t.Errorf("fencecheck left temporary files: %v, %v", entries, err)
	}
}

// brokenLock is a package whose system is wrong under SC: its finding has
// no fix.
const brokenLock = `// Package broken has a lock that is wrong under SC.
package broken

import (
	"sync"
	"sync/atomic"
)

//fencecheck:system
func brokenLock() {
	var locked atomic.Int32
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			for locked.Load() != 0 {
			}
			locked.Store(1)
			//fencecheck:critical
			locked.Store(0)
			wg.Done()
		}()
	}
	wg.Wait()
}
`

// TestFixReportsTheRest checks that -fix does not hide a finding that has
// no fix: standalone, the fixes are applied and the rest is reported with
// status 3; under go vet, the package with the unfixable finding fails (go
// vet then applies none of its fixes) and the others are fixed.
func TestFixReportsTheRest(t *testing.T) {
	bin, gocmd := buildTool(t)
	scFinding := regexp.MustCompile(`(?m)broken[/\\]broken\.go:20:4: SC: system brokenLock is wrong even under sequential consistency`)
	for _, tc := range []struct {
		name     string
		cmd      func(dir string, args ...string) (string, string, int)
		args     []string
		wantCode int
		fixed    bool // sb.go is rewritten
	}{
		{"standalone", func(dir string, args ...string) (string, string, int) { return run(t, dir, bin, args...) }, []string{"-fix", "./..."}, 3, true},
		{"standalone -diff", func(dir string, args ...string) (string, string, int) { return run(t, dir, bin, args...) }, []string{"-fix", "-diff", "./..."}, 3, false},
		{"go vet", func(dir string, args ...string) (string, string, int) {
			return run(t, dir, gocmd, append([]string{"vet", "-vettool=" + bin}, args...)...)
		}, []string{"-fix", "./..."}, 1, true},
		{"go vet -diff", func(dir string, args ...string) (string, string, int) {
			return run(t, dir, gocmd, append([]string{"vet", "-vettool=" + bin}, args...)...)
		}, []string{"-fix", "-diff", "./..."}, 1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := module(t)
			if err := os.MkdirAll(filepath.Join(dir, "broken"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "broken", "broken.go"), []byte(brokenLock), 0o644); err != nil {
				t.Fatal(err)
			}
			stdout, stderr, code := tc.cmd(dir, tc.args...)
			if code != tc.wantCode || !scFinding.MatchString(stderr) {
				t.Errorf("exit status %d, stderr:\n%s\nwant %d and the SC finding", code, stderr, tc.wantCode)
			}
			if strings.Contains(stderr, "race:") {
				t.Errorf("a fixed race is reported:\n%s", stderr)
			}
			fixed, err := os.ReadFile(filepath.Join(dir, "sb", "sb.go"))
			if err != nil {
				t.Fatal(err)
			}
			if got := bytes.Contains(fixed, []byte("x.Store(1)")); got != tc.fixed {
				t.Errorf("sb.go rewritten: %v, want %v:\n%s\nstdout:\n%s", got, tc.fixed, fixed, stdout)
			}
		})
	}
}

// TestVersion checks that fencecheck -V prints a version for a person, and
// -V=full still answers go vet's protocol.
func TestVersion(t *testing.T) {
	bin, _ := buildTool(t)
	for _, flag := range []string{"-V", "-version"} {
		stdout, stderr, code := run(t, t.TempDir(), bin, flag)
		if code != 0 || !regexp.MustCompile(`^fencecheck \S+.* go1\.\d+`).MatchString(stdout) {
			t.Errorf("fencecheck %s: status %d, stdout %q, stderr %q; want 0 and the version", flag, code, stdout, stderr)
		}
	}
	stdout, _, code := run(t, t.TempDir(), bin, "-V=full")
	if code != 0 || !strings.Contains(stdout, " version ") || !strings.Contains(stdout, "buildID=") {
		t.Errorf("fencecheck -V=full: status %d, stdout %q; want go vet's version line", code, stdout)
	}
}

// TestGoVetCache checks that go vet caches a complete answer, and one that
// the work bound cut short (the same on every machine), but not one that
// the time budget cut short: the second run of that answer runs fencecheck
// again instead of replaying "inconclusive".
func TestGoVetCache(t *testing.T) {
	bin, gocmd := buildTool(t)
	// A vet tool that logs the units it is run on.
	logFile := filepath.Join(t.TempDir(), "units")
	wrapper := filepath.Join(t.TempDir(), "fencecheck-logged")
	script := "#!/bin/sh\nfor a in \"$@\"; do case \"$a\" in *.cfg) echo \"$a\" >> " + logFile + ";; esac; done\nexec " + bin + " \"$@\"\n"
	if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	units := func() int {
		data, _ := os.ReadFile(logFile)
		os.Remove(logFile)
		return strings.Count(string(data), "\n")
	}
	for _, tc := range []struct {
		name       string
		flags      []string
		wantRerun  bool
		wantStderr string
	}{
		{"cut short", []string{"-budget=1ns"}, true, "inconclusive: system storeBuffering"},
		{"work bound", []string{"-maxwork=10"}, false, "reached the work bound of 10 units per system"},
		{"complete", nil, false, "race: go@11 stores x"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := module(t)
			args := append(append([]string{"vet", "-vettool=" + wrapper}, tc.flags...), "./sb")
			for i := range 2 {
				units()
				_, stderr, code := run(t, dir, gocmd, args...)
				if code != 1 || !strings.Contains(stderr, tc.wantStderr) {
					t.Fatalf("run %d: exit status %d, stderr:\n%s\nwant 1 and %q", i+1, code, stderr, tc.wantStderr)
				}
			}
			if rerun := units() > 0; rerun != tc.wantRerun {
				t.Errorf("second go vet ran fencecheck again: %v, want %v", rerun, tc.wantRerun)
			}
		})
	}
}

// TestExamplesFixed applies every suggested fix fencecheck offers on a copy
// of the bundled examples, then checks that the fixed code builds and that
// fencecheck finds no race and no x86-TSO finding in it: what is left are
// the bugs no fix can repair (SC findings, deadlocks and leaks), each
// still found. Long suites only: it analyses the examples twice.
func TestExamplesFixed(t *testing.T) {
	longtest.Skip(t)
	bin, gocmd := buildTool(t)
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "..", "examples"))); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := run(t, dir, bin, "-fix", "./..."); code != 3 {
		t.Fatalf("fencecheck -fix ./...: exit status %d, want 3 (findings)\n%s", code, stderr)
	}
	if _, stderr, code := run(t, dir, gocmd, "build", "./..."); code != 0 {
		t.Fatalf("go build after fencecheck -fix: exit status %d\n%s", code, stderr)
	}
	_, stderr, code := run(t, dir, bin, "./...")
	if code != 3 {
		t.Errorf("fencecheck ./... after -fix: exit status %d, want 3 (the bugs no fix repairs)\n%s", code, stderr)
	}
	kinds := map[string]int{}
	for _, m := range regexp.MustCompile(`(?m)^\S+\.go:\d+:\d+: ([A-Za-z0-9-]+): `).FindAllStringSubmatch(stderr, -1) {
		kinds[m[1]]++
	}
	if kinds["race"] != 0 || kinds["x86-TSO"] != 0 {
		t.Errorf("after every fix: %v findings, want no race and no x86-TSO finding\n%s", kinds, stderr)
	}
	if kinds["SC"] == 0 || kinds["deadlock"] == 0 || kinds["leak"] == 0 {
		t.Errorf("after every fix: %v findings, want the SC, deadlock and leak findings still there\n%s", kinds, stderr)
	}
}
