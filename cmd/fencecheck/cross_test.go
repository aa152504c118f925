package main_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// TestCrossPackageDrivers checks that go vet and the standalone command
// give the same findings on a system that calls into another package of
// its module and, through it, into a dependency (a module of its own,
// required through a replace directive): under go vet each package sees
// its imports as export data only, so the callees' source must be found
// from it.
func TestCrossPackageDrivers(t *testing.T) {
	bin, gocmd := buildTool(t)
	root := filepath.Join(t.TempDir(), "cross")
	if err := os.CopyFS(root, os.DirFS(filepath.Join("testdata", "cross"))); err != nil {
		t.Fatal(err)
	}
	app := filepath.Join(root, "app")
	_, standalone, code := run(t, app, bin, "./lib/", "./use/")
	if code != 3 {
		t.Errorf("fencecheck ./lib/ ./use/: exit status %d, want 3:\n%s", code, standalone)
	}
	_, vet, code := run(t, app, gocmd, "vet", "-vettool="+bin, "./lib/", "./use/")
	if code != 1 {
		t.Errorf("go vet: exit status %d, want 1:\n%s", code, vet)
	}
	a, b := findingLines(standalone), findingLines(vet)
	if !slices.Equal(a, b) {
		t.Errorf("the drivers disagree:\nstandalone:\n%s\ngo vet:\n%s", strings.Join(a, "\n"), strings.Join(b, "\n"))
	}
	want := []string{
		`use.go:20:6: race: .* stores b\.v here while main loads b\.v at ring\.go:36:9, .*\(system handOffEarly; at ring\.go:29:2 in package example\.com/dep/ring\)`,
		`ring.go:29:2: 	the finding is here, in package example\.com/dep/ring`,
		`use.go:24:3: SC: system handOffEarly is wrong even under sequential consistency`,
	}
	for _, w := range want {
		re := regexp.MustCompile(w)
		if !slices.ContainsFunc(a, re.MatchString) {
			t.Errorf("no finding matches %q:\n%s", w, strings.Join(a, "\n"))
		}
	}
	if strings.Contains(standalone, "handOff ") || strings.Contains(standalone, "system handOff)") {
		t.Errorf("a finding on the correct system handOff:\n%s", standalone)
	}
}

// TestCrossPackageClosure checks systems that use a dependency's package
// (a float gauge behind an interface, in the style of client_golang) whose
// own imports the system's package never sees: one of them is known to it
// only through the types of the other, and that one's import not at all.
// Both drivers must read the gauge's code and decide the systems; a
// function written in assembly is refused at its call, while the Go
// functions of its package are used. A variable of another package has the
// value its initialisation gives it (not zero), and an external test sees
// the names its package's test files declare.
func TestCrossPackageClosure(t *testing.T) {
	bin, gocmd := buildTool(t)
	root := filepath.Join(t.TempDir(), "cross")
	if err := os.CopyFS(root, os.DirFS(filepath.Join("testdata", "cross"))); err != nil {
		t.Fatal(err)
	}
	app := filepath.Join(root, "app")
	_, standalone, code := run(t, app, bin, "./metric/")
	if code != 3 {
		t.Errorf("fencecheck ./metric/: exit status %d, want 3:\n%s", code, standalone)
	}
	_, vet, code := run(t, app, gocmd, "vet", "-vettool="+bin, "./metric/")
	if code != 1 {
		t.Errorf("go vet: exit status %d, want 1:\n%s", code, vet)
	}
	a, b := findingLines(standalone), findingLines(vet)
	if !slices.Equal(a, b) {
		t.Errorf("the drivers disagree:\nstandalone:\n%s\ngo vet:\n%s", strings.Join(a, "\n"), strings.Join(b, "\n"))
	}
	want := []string{`metric\.go:\d+:\d+: SC: system gaugeAddsRacy is wrong even under sequential consistency`}
	if runtime.GOARCH == "amd64" {
		want = append(want, `metric\.go:\d+:\d+: inconclusive: system summed: a run reaches a call of example\.com/dep/asmsum\.Sum \(it has no Go body: its code is assembly`)
	}
	for _, w := range want {
		re := regexp.MustCompile(w)
		if !slices.ContainsFunc(a, re.MatchString) {
			t.Errorf("no finding matches %q:\n%s", w, strings.Join(a, "\n"))
		}
	}
	for _, l := range a {
		if (strings.Contains(l, "unsupported") || strings.Contains(l, "inconclusive")) && !strings.Contains(l, "asmsum.Sum ") {
			t.Errorf("a call refused: %s", l)
		}
		if strings.Contains(l, "system gaugeAdds ") || strings.Contains(l, "system doubled") ||
			strings.Contains(l, "system bounded") || strings.Contains(l, "system gaugeFromTest") {
			t.Errorf("a finding on a correct system: %s", l)
		}
	}
}

// TestCrossPackageUnknownVariable checks that a system reading a variable
// of a package that cannot be read from source (it uses cgo, so its
// initialisation does not run in the model) is refused where it reads it,
// with the reason, by both drivers: the variable is not zero.
func TestCrossPackageUnknownVariable(t *testing.T) {
	bin, gocmd := buildTool(t)
	if out, err := exec.Command(gocmd, "env", "CGO_ENABLED").Output(); err != nil || strings.TrimSpace(string(out)) != "1" {
		t.Skip("cgo is not enabled")
	}
	root := filepath.Join(t.TempDir(), "cross")
	if err := os.CopyFS(root, os.DirFS(filepath.Join("testdata", "cross"))); err != nil {
		t.Fatal(err)
	}
	app := filepath.Join(root, "app")
	_, standalone, _ := run(t, app, bin, "./climit/")
	_, vet, _ := run(t, app, gocmd, "vet", "-vettool="+bin, "./climit/")
	want := regexp.MustCompile(`climit\.go:\d+:\d+: inconclusive: system bounded: a run reaches the initial value of cvals\.Max, which depends on the initialisation of package example\.com/dep/cvals, which is not read from source \(package example\.com/dep/cvals uses cgo`)
	for _, out := range []string{standalone, vet} {
		lines := findingLines(out)
		if len(lines) != 1 || !want.MatchString(lines[0]) {
			t.Errorf("findings:\n%s\nwant one matching %q", strings.Join(lines, "\n"), want)
		}
	}
}

// findingLines returns the lines of a driver's output that carry a
// position, with the position's directories dropped, in order.
func findingLines(out string) []string {
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		if i := strings.Index(l, ".go:"); i >= 0 {
			l = filepath.Base(l[:i]) + l[i:]
		}
		lines = append(lines, l)
	}
	return lines
}
