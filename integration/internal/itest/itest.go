// Package itest holds what the integration tests that run fencecheck and
// the race detector on corpora of Go programs (integration/racecmp and
// integration/chanruns) share: turning them on, building fencecheck,
// running the go command and race-enabled binaries, and reading
// fencecheck's -json output and the file:line lines of stacks.
package itest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// envIntegration is the variable that turns the integration tests on.
const envIntegration = "FENCECHECK_INTEGRATION"

// goEnv is added to the environment of the go commands and fencecheck run
// by Command.
var goEnv = []string{"GOTOOLCHAIN=local", "GOWORK=off", "GOFLAGS="}

// RequireIntegration skips t unless the integration tests are turned on
// (FENCECHECK_INTEGRATION=1) and the race detector works on this platform,
// and fails it when they are on but go is not installed.
func RequireIntegration(t *testing.T) {
	t.Helper()
	if os.Getenv(envIntegration) != "1" {
		t.Skipf("integration test: set %s=1 to run it", envIntegration)
	}
	if !raceSupported() {
		t.Skipf("the race detector does not support %s/%s", runtime.GOOS, runtime.GOARCH)
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Fatalf("%s=1 but go is not installed: %v", envIntegration, err)
	}
}

// raceSupported reports whether go build -race and go test -race work on
// this platform.
func raceSupported() bool {
	switch runtime.GOOS + "/" + runtime.GOARCH {
	case "linux/amd64", "linux/arm64", "linux/ppc64le", "linux/s390x", "linux/loong64",
		"darwin/amd64", "darwin/arm64", "freebsd/amd64", "netbsd/amd64", "windows/amd64":
		return true
	}
	return false
}

// Command returns a command that runs name in dir with GOTOOLCHAIN=local,
// GOWORK=off and GOFLAGS= added to the environment.
func Command(dir, name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), goEnv...)
	return cmd
}

// BuildFencecheck builds cmd/fencecheck into dir and returns its path. The
// repository root is taken to be two directories above the working
// directory, which go test sets to the directory of the test's package,
// integration/<name>.
func BuildFencecheck(t *testing.T, dir string) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("repository root %s has no go.mod: %v", root, err)
	}
	bin := filepath.Join(dir, "fencecheck")
	t0 := time.Now()
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/fencecheck")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOTOOLCHAIN=local")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building cmd/fencecheck: %v\n%s", err, out)
	}
	t.Logf("go build ./cmd/fencecheck: %v", time.Since(t0).Round(time.Millisecond))
	return bin
}

// RunRace runs name, a binary built with -race, with args in dir (the
// current directory when dir is "") and returns its combined output. Its
// environment is this process's with GORACE=halt_on_error=0
// atexit_sleep_ms=0 (every race is reported, and the process does not
// linger at exit), then env. The process is killed after timeout, and
// the error is then that of the context (context.DeadlineExceeded when
// the timeout ran out).
func RunRace(ctx context.Context, timeout time.Duration, dir string, env []string, name string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "GORACE=halt_on_error=0 atexit_sleep_ms=0"), env...)
	var buf bytes.Buffer
	cmd.Stdout = &buf
	cmd.Stderr = &buf
	err := cmd.Run()
	if ctx.Err() != nil {
		err = ctx.Err()
	}
	return buf.String(), err
}

// Tail returns the last n lines of s.
func Tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// SplitPos splits a position "file:line:col" or "file:line" into the file
// and the line; a position without a line gives itself and 0.
func SplitPos(posn string) (string, int) {
	parts := strings.Split(posn, ":")
	for len(parts) > 1 {
		n, err := strconv.Atoi(parts[len(parts)-1])
		if err != nil {
			break
		}
		// The last number is a column when another number precedes it.
		if m, err := strconv.Atoi(parts[len(parts)-2]); err == nil && len(parts) > 2 {
			return strings.Join(parts[:len(parts)-2], ":"), m
		}
		return strings.Join(parts[:len(parts)-1], ":"), n
	}
	return posn, 0
}

// frameFileRE matches the file:line line of a frame in a Go stack, as the
// race detector and the run time print them.
var frameFileRE = regexp.MustCompile(`^\s+(\S.*):(\d+)(?: \+0x[0-9a-f]+)?$`)

// ParseFrameFile parses the file:line line of a frame in a Go stack
// ("\t/dir/file.go:12 +0x3f"), and says false for any other line.
func ParseFrameFile(s string) (file string, line int, ok bool) {
	m := frameFileRE.FindStringSubmatch(s)
	if m == nil {
		return "", 0, false
	}
	line, _ = strconv.Atoi(m[2])
	return m[1], line, true
}

// MessageKind returns what a fencecheck message is: the word before its
// first colon ("race", "deadlock", "leak", "SC", "x86-TSO",
// "inconclusive", …), or the whole message when it has no such word.
func MessageKind(msg string) string {
	if i := strings.Index(msg, ":"); i > 0 && !strings.Contains(msg[:i], " ") {
		return msg[:i]
	}
	return msg
}

// A Diagnostic is a diagnostic in the -json output of the analysis
// drivers.
type Diagnostic struct {
	Posn    string    `json:"posn"`
	Message string    `json:"message"`
	Related []Related `json:"related"`
}

// A Related is a related position of a Diagnostic, with its message.
type Related struct {
	Posn    string `json:"posn"`
	Message string `json:"message"`
}

// An Answer is what fencecheck's -json output holds for one analyzer on
// one package: a list of diagnostics, or something else (an object with
// an error).
type Answer struct {
	Path        string          // the package path
	Pkg         string          // the package name: the last element of Path
	Analyzer    string          // the analyzer's name
	Diagnostics []Diagnostic    // the diagnostics, when the answer is a list of them
	Other       json.RawMessage // the answer, when it is not a list of diagnostics
}

// ParseJSON reads fencecheck's -json output (package path → analyzer →
// diagnostics, or an error object) into its answers, in no particular
// order.
func ParseJSON(out []byte) ([]Answer, error) {
	var raw map[string]map[string]json.RawMessage
	if err := json.Unmarshal(out, &raw); err != nil {
		return nil, fmt.Errorf("fencecheck -json output: %v\n%s", err, out)
	}
	var answers []Answer
	for path, byAnalyzer := range raw {
		pkg := path[strings.LastIndex(path, "/")+1:]
		for analyzer, msg := range byAnalyzer {
			a := Answer{Path: path, Pkg: pkg, Analyzer: analyzer}
			if err := json.Unmarshal(msg, &a.Diagnostics); err != nil {
				a.Diagnostics, a.Other = nil, msg
			}
			answers = append(answers, a)
		}
	}
	return answers, nil
}
