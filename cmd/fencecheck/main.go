// Command fencecheck reports the data races of lock-free Go code under the Go
// memory model and the memory barriers it needs on x86-TSO, and proves the
// rest correct.
//
// It checks the functions marked //fencecheck:system in the packages named
// on its command line:
//
//	fencecheck ./...
//	go vet -vettool=$(which fencecheck) ./...
//
// Run standalone, it exits with status 3 when it reports a finding; under
// go vet, go vet exits with status 1. Flags (-engine, -fences, -placement,
// -budget, -witness) are described in the documentation of package analyzer
// and by fencecheck -help.
//
// fencecheck -explain KIND prints the page of a finding kind (race,
// x86-TSO, SC, range, deadlock, leak, inconclusive, unsupported, directive,
// internal): what it means, an example, how to fix it and how to silence it.
// fencecheck -explain alone lists the kinds.
//
// Under go vet, a package without //fencecheck: directives costs one read of
// its files: fencecheck neither parses nor type-checks it.
package main

import (
	"errors"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis/singlechecker"

	"github.com/fencecheck/fencecheck/analyzer"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix(analyzer.Analyzer.Name + ": ")
	args := os.Args[1:]
	if mark := os.Getenv(limitMarkEnv); mark != "" {
		analyzer.OnLimit = func(error) { os.WriteFile(mark, nil, 0o666) }
	}
	if len(args) == 1 && slices.Contains([]string{"-V", "--V", "-V=true", "--V=true", "-version", "--version"}, args[0]) {
		// go vet asks -V=full, which singlechecker answers; a person asks
		// this.
		fmt.Println(version())
		return
	}
	if rest, ok := explainArgs(args); ok {
		os.Exit(explain(os.Stdout, os.Stderr, rest))
	}
	if dir, rest, ok := htmlArgs(args); ok {
		os.Exit(writeHTMLReport(dir, rest, os.Stderr))
	}
	if fix, rest, diff := fixFlags(args); fix && os.Getenv(fixChildEnv) == "" {
		os.Exit(fixThenReport(args, rest, diff))
	}
	if cfgFile, out, ok := parseUnitArgs(analyzer.Analyzer, args); ok {
		if code, done := runUnit(cfgFile, out, args); done {
			os.Exit(code)
		}
	}
	singlechecker.Main(analyzer.Analyzer)
}

// runUnit runs fencecheck on the go vet unit cfgFile, args being the whole
// command line, and returns the exit status, or done false when
// singlechecker is to run the unit as given. A unit without directives takes
// the fast path of fastUnit. For one with directives fencecheck runs itself
// on the unit (on a copy with the types filled in when its imports lack
// them), as unitchecker exits when done: the copy must then be removed, and
// a run whose answer a time or memory limit cut short must not be cached.
func runUnit(cfgFile string, out unitOutput, args []string) (code int, done bool) {
	if ok, err := fastUnit(cfgFile, out); err != nil {
		log.Print(err)
		return 1, true
	} else if ok {
		return 0, true
	}
	if os.Getenv(limitMarkEnv) != "" {
		// This is the run that runUnit started: analyse in this process.
		return 0, false
	}
	dir, err := os.MkdirTemp("", "fencecheck-")
	if err != nil {
		log.Print(err)
		return 1, true
	}
	defer os.RemoveAll(dir)
	typed, err := unitWithTypes(cfgFile, dir)
	if err != nil {
		log.Print(err)
		return 1, true
	}
	mark := filepath.Join(dir, "limit")
	code, err = rerunEnv(append(args[:len(args)-1:len(args)-1], typed), limitMarkEnv+"="+mark)
	if err != nil {
		log.Print(err)
		return 1, true
	}
	if _, err := os.Stat(mark); err == nil {
		// An answer was cut short by the time budget or the memory limit:
		// without the unit's facts file go vet does not cache the run, so
		// the next run decides again instead of replaying "inconclusive".
		if cfg, err := readUnitConfig(cfgFile); err == nil && cfg.VetxOutput != "" {
			os.Remove(cfg.VetxOutput)
		}
	}
	return code, true
}

// limitMarkEnv names the file a unit run creates when an answer is cut
// short by a limit that depends on the machine (see runUnit).
const limitMarkEnv = "FENCECHECK_LIMIT_MARK"

// version describes this build: the module version (or "(devel)"), the
// revision it was built from when known, and the Go version.
func version() string {
	v := "(devel)"
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "fencecheck " + v
	}
	if info.Main.Version != "" {
		v = info.Main.Version
	}
	var rev, modified string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				modified = "+modified"
			}
		}
	}
	out := "fencecheck " + v
	if rev != "" {
		out += " (" + rev[:min(12, len(rev))] + modified + ")"
	}
	return out + " " + info.GoVersion
}

// fixChildEnv marks the run of fencecheck -fix that fixThenReport starts.
const fixChildEnv = "FENCECHECK_FIX_RUN"

// fixFlags reports whether args ask for -fix, and returns args without -fix
// and -diff, and whether -diff was asked for.
func fixFlags(args []string) (fix bool, rest []string, diff bool) {
	for _, a := range args {
		name, value, hasValue := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-"), "=")
		on := !hasValue || value == "true" || value == "1"
		switch {
		case strings.HasPrefix(a, "-") && name == "fix":
			fix = on
			continue
		case strings.HasPrefix(a, "-") && name == "diff":
			diff = on
			continue
		}
		rest = append(rest, a)
	}
	return fix, rest, diff
}

// fixThenReport runs fencecheck with -fix (args), then again without it
// (rest) to report what the fixes leave: the drivers of x/tools print
// nothing under -fix and exit 0, which would hide every finding that has no
// fix (an SC: finding, a race on a type no rewrite handles).
//
// Standalone, the first run rewrites the files and the second reports all
// that is left; with -diff the files are unchanged, so the second reports
// only the findings without a fix. Under go vet, the go command applies a
// package's fixes only when the vet tool succeeds on it, after every
// package is done: the second run reports the findings without a fix, and
// when there are any the package fails, with its fixes unapplied, rather
// than pass with findings hidden.
func fixThenReport(args, rest []string, diff bool) int {
	cfgFile, _, unit := parseUnitArgs(analyzer.Analyzer, args)
	fixCode, err := rerunEnv(args, fixChildEnv+"=1")
	if err != nil {
		log.Print(err)
		return 1
	}
	// Each unit run rewrites the unit's stdout file (where the diffs of
	// -diff go): keep the first run's.
	var stdoutFile string
	var firstStdout []byte
	if unit {
		if cfg, err := readUnitConfig(cfgFile); err == nil && cfg.Stdout != "" {
			stdoutFile = cfg.Stdout
			firstStdout, _ = os.ReadFile(stdoutFile)
		}
	}
	if diff || unit {
		// The analyzer flag goes before the patterns or the unit file.
		rest = append([]string{"-unfixed"}, rest...)
	}
	code, err := rerunEnv(rest, fixChildEnv+"=1")
	if err != nil {
		log.Print(err)
		return 1
	}
	if stdoutFile != "" {
		second, _ := os.ReadFile(stdoutFile)
		if err := os.WriteFile(stdoutFile, append(firstStdout, second...), 0o666); err != nil {
			log.Print(err)
			return 1
		}
	}
	if unit && code != 0 && !diff {
		log.Print("go vet -fix applies no fix to a package with a finding that has none: fix the findings above by hand, or run fencecheck -fix, which applies the fixes it has and reports the rest")
	}
	return max(code, fixCode)
}

// rerun runs this program with args, sharing its standard streams, and
// returns its exit status.
func rerun(args []string) (int, error) {
	return rerunEnv(args)
}

// rerunEnv runs this program with args and env added to the environment,
// sharing its standard streams, and returns its exit status.
func rerunEnv(args []string, env ...string) (int, error) {
	exe, err := os.Executable()
	if err != nil {
		return 0, fmt.Errorf("finding the fencecheck executable: %w", err)
	}
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err = cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.Exited() {
		return exit.ExitCode(), nil
	}
	if err != nil {
		return 0, fmt.Errorf("running %s: %w", exe, err)
	}
	return 0, nil
}
