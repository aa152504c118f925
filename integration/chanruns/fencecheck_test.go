package chanruns

import (
	"fmt"
	"os/exec"
	"strings"
	"sync"

	"github.com/fencecheck/fencecheck/integration/internal/itest"
)

// A finding is one fencecheck diagnostic on a generated program.
type finding struct {
	kind    string // see findingKind
	line    int    // in the program's file
	message string
	related []string // "line: message"
}

// Kinds of findings beyond the prefixes of their messages ("race",
// "deadlock", "leak", "SC", "x86-TSO", "inconclusive").
const (
	kindUnsupported = "unsupported"
	kindInternal    = "internal error"
	kindError       = "error" // fencecheck could not analyse the package
)

// findingKind returns the kind of a diagnostic's message: the word before
// its first colon, or kindUnsupported, kindInternal, or the whole message
// when it has no such word.
func findingKind(msg string) string {
	switch {
	case strings.HasPrefix(msg, "unsupported in a fencecheck system:"):
		return kindUnsupported
	case strings.HasPrefix(msg, "internal error"):
		return kindInternal
	}
	return itest.MessageKind(msg)
}

// nonRace reports whether f is a finding of a bad state other than a data
// race: the one bad state fencecheck reports per system.
func (f finding) nonRace() bool {
	switch f.kind {
	case "deadlock", "leak", "SC", "x86-TSO":
		return true
	}
	return false
}

// failure reports whether f says that fencecheck did not decide the
// system: every construct the generator draws is meant to be supported.
func (f finding) failure() bool {
	switch f.kind {
	case "race", "deadlock", "leak", "SC", "x86-TSO":
		return false
	}
	return true
}

// String renders f as the text output does, one line.
func (f finding) String() string {
	s := fmt.Sprintf("line %d: %s", f.line, f.message)
	for _, r := range f.related {
		s += "\n\t" + r
	}
	return s
}

// parseFencecheckJSON reads fencecheck's -json output (package path →
// analyzer → diagnostics, or an object with an error) and returns the
// findings by package name. A package that could not be analysed gets one
// finding of kindError.
func parseFencecheckJSON(out []byte) (map[string][]finding, error) {
	answers, err := itest.ParseJSON(out)
	if err != nil {
		return nil, err
	}
	found := map[string][]finding{}
	for _, a := range answers {
		if a.Other != nil {
			found[a.Pkg] = append(found[a.Pkg], finding{kind: kindError, message: string(a.Other)})
			continue
		}
		for _, d := range a.Diagnostics {
			_, line := itest.SplitPos(d.Posn)
			f := finding{kind: findingKind(d.Message), line: line, message: d.Message}
			for _, r := range d.Related {
				_, rl := itest.SplitPos(r.Posn)
				f.related = append(f.related, fmt.Sprintf("%d: %s", rl, r.Message))
			}
			found[a.Pkg] = append(found[a.Pkg], f)
		}
	}
	return found, nil
}

// runFencecheck runs fencecheck -json with extra flags on packages pkgs of
// the generated module at root and returns the findings by package.
func runFencecheck(bin, root string, pkgs []string, flags ...string) (map[string][]finding, error) {
	args := append([]string{"-json"}, flags...)
	for _, p := range pkgs {
		args = append(args, "./"+p)
	}
	cmd := itest.Command(root, bin, args...)
	out, err := cmd.Output()
	if err != nil {
		msg := ""
		if ee, ok := err.(*exec.ExitError); ok {
			msg = string(ee.Stderr)
		}
		return nil, fmt.Errorf("fencecheck %s: %v\n%s%s", strings.Join(args, " "), err, out, msg)
	}
	return parseFencecheckJSON(out)
}

// fencecheckBatch is the number of packages of one fencecheck process.
// fencecheck ./... starts the analyses of all the packages at once, and
// each system's wall-clock budget (-budget, 2m) runs while it waits for a
// CPU: with hundreds of packages on two cores, systems that take a second
// alone come back inconclusive. Small batches, as many at once as there
// are CPUs, keep the answers those of -maxwork.
const fencecheckBatch = 4

// A fencecheckPass is one run of fencecheck over every program, with its
// flags.
type fencecheckPass struct {
	flags    []string
	findings map[string][]finding
	err      error
}

// runFencecheckPasses runs the passes over the packages in batches of
// fencecheckBatch, workers batches at once, and fills in their findings.
func runFencecheckPasses(bin, root string, pkgs []string, workers int, passes ...*fencecheckPass) {
	type job struct {
		pass *fencecheckPass
		pkgs []string
	}
	jobs := make(chan job)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range max(1, workers) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				found, err := runFencecheck(bin, root, j.pkgs, j.pass.flags...)
				mu.Lock()
				if err != nil && j.pass.err == nil {
					j.pass.err = err
				}
				for pkg, fs := range found {
					j.pass.findings[pkg] = append(j.pass.findings[pkg], fs...)
				}
				mu.Unlock()
			}
		}()
	}
	for _, p := range passes {
		p.findings = map[string][]finding{}
	}
	for i := 0; i < len(pkgs); i += fencecheckBatch {
		for _, p := range passes {
			jobs <- job{pass: p, pkgs: pkgs[i:min(i+fencecheckBatch, len(pkgs))]}
		}
	}
	close(jobs)
	wg.Wait()
}
