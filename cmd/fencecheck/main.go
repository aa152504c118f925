// Command fencecheck reports the memory barriers that lock-free Go code needs
// on x86-TSO, and proves the rest correct.
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
// Under go vet, a package without //fencecheck: directives costs one read of
// its files: fencecheck neither parses nor type-checks it.
package main

import (
	"errors"
	"fmt"
	"log"
	"os"
	"os/exec"

	"golang.org/x/tools/go/analysis/singlechecker"

	"github.com/fencecheck/fencecheck/analyzer"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix(analyzer.Analyzer.Name + ": ")
	args := os.Args[1:]
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
// the fast path of fastUnit. For one with directives whose imports lack
// types, fencecheck runs itself on a copy of the unit with the types filled
// in, as unitchecker exits when done and the copy must then be removed.
func runUnit(cfgFile string, out unitOutput, args []string) (code int, done bool) {
	if ok, err := fastUnit(cfgFile, out); err != nil {
		log.Print(err)
		return 1, true
	} else if ok {
		return 0, true
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
	if typed == cfgFile {
		return 0, false
	}
	code, err = rerun(append(args[:len(args)-1:len(args)-1], typed))
	if err != nil {
		log.Print(err)
		return 1, true
	}
	return code, true
}

// rerun runs this program with args, sharing its standard streams, and
// returns its exit status.
func rerun(args []string) (int, error) {
	exe, err := os.Executable()
	if err != nil {
		return 0, fmt.Errorf("finding the fencecheck executable: %w", err)
	}
	cmd := exec.Command(exe, args...)
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
