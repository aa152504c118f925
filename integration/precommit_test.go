package integration

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// snapshotRepo copies the repository's working tree (tracked files and
// untracked ones that .gitignore does not exclude) into a new git repository
// with one commit, as pre-commit needs a committed hook repository, and
// returns its directory and commit.
func snapshotRepo(t *testing.T) (dir, rev string) {
	t.Helper()
	root := repoRoot(t)
	dir = filepath.Join(t.TempDir(), "fencecheck")
	files := mustRun(t, root, nil, "git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	n := 0
	for _, f := range strings.Split(files, "\x00") {
		if f == "" {
			continue
		}
		src := filepath.Join(root, f)
		info, err := os.Lstat(src)
		if err != nil || !info.Mode().IsRegular() {
			continue // deleted from the working tree, or not a file
		}
		if err := copyFile(src, filepath.Join(dir, f)); err != nil {
			t.Fatal(err)
		}
		n++
	}
	if n == 0 {
		t.Fatalf("git ls-files listed no files in %s", root)
	}
	gitInit(t, dir)
	mustRun(t, dir, gitEnv, "git", "add", "-A")
	mustRun(t, dir, gitEnv, "git", "commit", "-q", "-m", "snapshot")
	rev = strings.TrimSpace(mustRun(t, dir, gitEnv, "git", "rev-parse", "HEAD"))
	return dir, rev
}

// preCommitEnv runs pre-commit in a home of its own, with the system Go
// (language_version: system is pre-commit's default when go is on PATH),
// without toolchain downloads, and with the Go module cache this machine
// already has (pre-commit points GOPATH into its hook environment, which
// would otherwise start an empty module cache there).
func preCommitEnv(t *testing.T) []string {
	t.Helper()
	return append([]string{
		"PRE_COMMIT_HOME=" + filepath.Join(t.TempDir(), "pre-commit-home"),
		"GOTOOLCHAIN=local",
		"GOMODCACHE=" + goEnv(t, "GOMODCACHE"),
		"GOCACHE=" + goEnv(t, "GOCACHE"),
		"PRE_COMMIT_COLOR=never",
	}, gitEnv...)
}

// TestPreCommit runs the real pre-commit framework with the repository's
// .pre-commit-hooks.yaml: try-repo reports the store-buffering module's
// stores, a commit with the hook installed is refused with fencecheck's
// diagnostic, and accepted once the stores are atomic.
func TestPreCommit(t *testing.T) {
	requireIntegration(t, "pre-commit")
	hookRepo, rev := snapshotRepo(t)
	env := preCommitEnv(t)

	user := lockfreeModule(t)
	gitInit(t, user)
	config := fmt.Sprintf("repos:\n  - repo: %s\n    rev: %s\n    hooks:\n      - id: fencecheck\n        args: [-races=false, ./...]\n", hookRepo, rev)
	writeFile(t, user, ".pre-commit-config.yaml", []byte(config))
	mustRun(t, user, gitEnv, "git", "add", "-A")

	// try-repo: the hook as the reader would first try it.
	r := run(t, user, env, "pre-commit", "try-repo", hookRepo, "fencecheck", "--all-files")
	checkRefused(t, "pre-commit try-repo", r)

	// The installed hook refuses the commit.
	mustRun(t, user, env, "pre-commit", "install")
	r = run(t, user, env, "git", "commit", "-m", "store buffering")
	checkRefused(t, "git commit", r)
	if run(t, user, gitEnv, "git", "rev-parse", "-q", "--verify", "HEAD").code == 0 {
		t.Fatal("the commit was made although the hook refused it")
	}

	// With both stores atomic the commit goes through.
	writeFile(t, user, "sb/sb.go", fixedSB(t))
	mustRun(t, user, gitEnv, "git", "add", "sb/sb.go")
	r = run(t, user, env, "git", "commit", "-m", "store buffering with barriers")
	if r.code != 0 || !strings.Contains(r.out, "fencecheck") || !strings.Contains(r.out, "Passed") {
		t.Fatalf("commit of the fixed module: exit %d, want 0 with the fencecheck hook passed\n%s", r.code, r.out)
	}
	mustRun(t, user, gitEnv, "git", "rev-parse", "-q", "--verify", "HEAD")
}

// checkRefused checks that a pre-commit run failed with fencecheck's
// diagnostics on both stores of sb/sb.go.
func checkRefused(t *testing.T, what string, r result) {
	t.Helper()
	if r.code == 0 {
		t.Fatalf("%s: exit 0 on a module whose stores need barriers\n%s", what, r.out)
	}
	if !strings.Contains(r.out, "Failed") || !strings.Contains(r.out, "x86-TSO: ") {
		t.Fatalf("%s: output lacks the failed hook and the x86-TSO diagnostic\n%s", what, r.out)
	}
	for _, line := range sbStoreLines {
		if !strings.Contains(r.out, fmt.Sprintf("sb.go:%d:", line)) {
			t.Errorf("%s: output names no diagnostic at sb.go:%d\n%s", what, line, r.out)
		}
	}
	// singlechecker's exit status for findings, which pre-commit shows.
	if !strings.Contains(r.out, "exit code: 3") {
		t.Errorf("%s: want fencecheck's exit code 3 in pre-commit's report\n%s", what, r.out)
	}
}
