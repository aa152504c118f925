package integration

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestPlainGitHook installs scripts/pre-commit as .git/hooks/pre-commit and
// checks that it vets the staged version of the packages of staged .go files
// only: the store-buffering module's commit is refused while its stores are
// plain in the index (whatever the working tree holds), accepted once they are
// atomic, and a commit that touches only another package does not vet the
// broken one.
func TestPlainGitHook(t *testing.T) {
	requireIntegration(t)
	bin := fencecheckBinary(t)
	// The fixture is amd64-only code: races off, the barriers on.
	env := append([]string{"FENCECHECK=" + bin, "FENCECHECK_FLAGS=-races=false", "GOTOOLCHAIN=local"}, gitEnv...)

	repo := t.TempDir()
	gitInit(t, repo)
	// The module is nested one level down, as in a repository that holds
	// more than Go code.
	mod := filepath.Join(repo, "lockfree")
	copyTree(t, filepath.Join("testdata", "lockfree"), mod)
	if err := os.Remove(filepath.Join(mod, "sb", "sb.go.golden")); err != nil {
		t.Fatal(err)
	}
	hook := filepath.Join(repo, ".git", "hooks", "pre-commit")
	if err := copyFile(filepath.Join(repoRoot(t), "scripts", "pre-commit"), hook); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(hook, 0o755); err != nil {
		t.Fatal(err)
	}
	head := func() string {
		r := run(t, repo, gitEnv, "git", "rev-parse", "-q", "--verify", "HEAD")
		return strings.TrimSpace(r.out)
	}

	// A commit of the broken module is refused with fencecheck's diagnostic.
	mustRun(t, repo, gitEnv, "git", "add", "-A")
	r := run(t, repo, env, "git", "commit", "-m", "store buffering")
	checkHookRefused(t, "first commit", r)
	if h := head(); h != "" {
		t.Fatalf("the commit was made (%s) although the hook refused it", h)
	}

	// Fixed in the working tree but not staged: still refused, because the
	// hook vets what would be committed.
	writeFile(t, mod, "sb/sb.go", fixedSB(t))
	r = run(t, repo, env, "git", "commit", "-m", "store buffering")
	checkHookRefused(t, "commit with the fix unstaged", r)

	// Staged: accepted.
	mustRun(t, repo, gitEnv, "git", "add", "lockfree/sb/sb.go")
	mustRun(t, repo, env, "git", "commit", "-q", "-m", "store buffering with barriers")
	if head() == "" {
		t.Fatal("no commit after the hook accepted it")
	}

	// Break sb behind the hook's back, then commit a change to another
	// package only: the hook does not vet sb, so the commit goes through.
	sbSrc, err := os.ReadFile(filepath.Join("testdata", "lockfree", "sb", "sb.go"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, mod, "sb/sb.go", sbSrc)
	mustRun(t, repo, gitEnv, "git", "commit", "-q", "--no-verify", "-am", "plain stores again")
	replaceLine(t, mod, "counter/counter.go", 1, func(s string) string { return s + " It" })
	mustRun(t, repo, gitEnv, "git", "add", "lockfree/counter/counter.go")
	before := head()
	r = run(t, repo, env, "git", "commit", "-m", "counter docs")
	if r.code != 0 || head() == before {
		t.Fatalf("a commit that touches only package counter was refused (exit %d)\n%s", r.code, r.out)
	}
	if strings.Contains(r.out, "x86-TSO") {
		t.Errorf("the hook vetted package sb although no file of it was staged\n%s", r.out)
	}

	// A commit without Go files does not run fencecheck at all.
	writeFile(t, repo, "README", []byte("notes\n"))
	mustRun(t, repo, gitEnv, "git", "add", "README")
	r = run(t, repo, append([]string{"FENCECHECK=/nonexistent/fencecheck"}, gitEnv...), "git", "commit", "-m", "readme")
	if r.code != 0 {
		t.Errorf("a commit without .go files ran fencecheck (exit %d)\n%s", r.code, r.out)
	}
}

// checkHookRefused checks that git commit failed with go vet's report of
// both stores of sb/sb.go.
func checkHookRefused(t *testing.T, what string, r result) {
	t.Helper()
	if r.code == 0 {
		t.Fatalf("%s: the commit went through\n%s", what, r.out)
	}
	if !strings.Contains(r.out, "x86-TSO: ") || !strings.Contains(r.out, "fencecheck (go vet) reported problems") {
		t.Fatalf("%s: output lacks the x86-TSO diagnostic and the hook's message\n%s", what, r.out)
	}
	for _, line := range sbStoreLines {
		if !strings.Contains(r.out, "lockfree/sb/sb.go:"+strconv.Itoa(line)+":") {
			t.Errorf("%s: no diagnostic at lockfree/sb/sb.go:%d (relative to the work tree)\n%s", what, line, r.out)
		}
	}
}
