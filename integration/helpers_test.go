package integration

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// EnvIntegration is the variable that turns the integration tests on.
const envIntegration = "FENCECHECK_INTEGRATION"

// requireIntegration skips t unless the integration tests are turned on, and
// fails it when they are but a program they need is missing.
func requireIntegration(t *testing.T, programs ...string) {
	t.Helper()
	if os.Getenv(envIntegration) != "1" {
		t.Skipf("integration test: set %s=1 to run it", envIntegration)
	}
	if runtime.GOOS == "windows" {
		t.Skip("the integration tests use POSIX shell scripts")
	}
	for _, p := range append([]string{"go", "git"}, programs...) {
		if _, err := exec.LookPath(p); err != nil {
			t.Fatalf("%s=1 but %s is not installed: %v", envIntegration, p, err)
		}
	}
}

// repoRoot returns the root of the repository (the main module's directory).
func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
		t.Fatalf("repository root %s has no go.mod: %v", dir, err)
	}
	return dir
}

// result is what a command did.
type result struct {
	out  string // stdout and stderr, interleaved
	code int    // exit status; -1 if it did not run to an exit
}

// run runs name with args in dir with env added to the environment and
// returns its combined output and exit status. A command that cannot start
// fails t.
func run(t *testing.T, dir string, env []string, name string, args ...string) result {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var buf bytes.Buffer
	cmd.Stdout = &buf
	cmd.Stderr = &buf
	start := time.Now()
	err := cmd.Run()
	t.Logf("%s$ %s %s  [exit %d, %v]", filepath.Base(dir), name, strings.Join(args, " "), cmd.ProcessState.ExitCode(), time.Since(start).Round(time.Millisecond))
	var exit *exec.ExitError
	switch {
	case err == nil:
		return result{out: buf.String(), code: 0}
	case errors.As(err, &exit):
		return result{out: buf.String(), code: exit.ExitCode()}
	default:
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, buf.String())
		return result{}
	}
}

// mustRun is run for a command that must exit 0.
func mustRun(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	r := run(t, dir, env, name, args...)
	if r.code != 0 {
		t.Fatalf("%s %s: exit %d\n%s", name, strings.Join(args, " "), r.code, r.out)
	}
	return r.out
}

// gitEnv makes git commits work without a user configuration.
var gitEnv = []string{
	"GIT_AUTHOR_NAME=fencecheck test", "GIT_AUTHOR_EMAIL=test@example.com",
	"GIT_COMMITTER_NAME=fencecheck test", "GIT_COMMITTER_EMAIL=test@example.com",
	"GIT_CONFIG_NOSYSTEM=1",
}

// gitInit makes dir a new git repository.
func gitInit(t *testing.T, dir string) {
	t.Helper()
	mustRun(t, dir, gitEnv, "git", "init", "-q", "-b", "main")
}

// copyTree copies the files under src into dst (created as needed).
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		return copyFile(path, filepath.Join(dst, rel))
	})
	if err != nil {
		t.Fatalf("copying %s to %s: %v", src, dst, err)
	}
}

// copyFile copies one regular file, keeping its permission bits.
func copyFile(src, dst string) error {
	info, err := os.Stat(src)
	if err != nil {
		return err
	}
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	return os.WriteFile(dst, data, info.Mode().Perm())
}

// lockfreeModule copies testdata/lockfree, a module with the store-buffering
// system in package sb, into a new temporary directory and returns it.
func lockfreeModule(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	copyTree(t, filepath.Join("testdata", "lockfree"), dir)
	// Keep the fixed version of sb.go out of the module under test.
	if err := os.Remove(filepath.Join(dir, "sb", "sb.go.golden")); err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	return dir
}

// fixedSB is sb/sb.go with both stores made atomic: what the analyzer's
// suggested fixes produce, and a system that is correct under x86-TSO.
func fixedSB(t *testing.T) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "lockfree", "sb", "sb.go.golden"))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// sbStoreLines are the lines of testdata/lockfree/sb/sb.go that hold the two
// plain stores (x = 1 and y = 1), where fencecheck reports the barriers.
var sbStoreLines = []int{16, 21}

// writeFile writes data to dir/name.
func writeFile(t *testing.T, dir, name string, data []byte) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// readFile returns the contents of dir/name.
func readFile(t *testing.T, dir, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// replaceLine replaces line n (1-based) of dir/name using f.
func replaceLine(t *testing.T, dir, name string, n int, f func(string) string) {
	t.Helper()
	lines := strings.Split(readFile(t, dir, name), "\n")
	if n < 1 || n > len(lines) {
		t.Fatalf("%s has no line %d", name, n)
	}
	lines[n-1] = f(lines[n-1])
	writeFile(t, dir, name, []byte(strings.Join(lines, "\n")))
}

// sharedDir holds what the tests of one run share: the binaries they build.
var sharedDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "fencecheck-integration-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	sharedDir = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

var (
	fencecheckOnce sync.Once
	fencecheckBin  string
	fencecheckErr  error
	fencecheckOut  []byte
)

// fencecheckBinary builds cmd/fencecheck once per test binary and returns its
// path.
func fencecheckBinary(t *testing.T) string {
	t.Helper()
	fencecheckOnce.Do(func() {
		fencecheckBin = filepath.Join(sharedDir, "bin", "fencecheck")
		cmd := exec.Command("go", "build", "-o", fencecheckBin, "./cmd/fencecheck")
		cmd.Dir = repoRoot(t)
		fencecheckOut, fencecheckErr = cmd.CombinedOutput()
	})
	if fencecheckErr != nil {
		t.Fatalf("building cmd/fencecheck: %v\n%s", fencecheckErr, fencecheckOut)
	}
	return fencecheckBin
}

// goEnv returns the value of a go env variable.
func goEnv(t *testing.T, name string) string {
	t.Helper()
	return strings.TrimSpace(mustRun(t, ".", nil, "go", "env", name))
}
