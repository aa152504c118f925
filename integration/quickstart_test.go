package integration

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// maxLineLength bounds every line the quick start prints: a finding's
// headline is one short sentence, its details are lines of their own.
const maxLineLength = 200

// TestQuickStart runs the README's first command (go vet with fencecheck
// as its vet tool, on examples/) and checks what it prints: exit 1, no
// line longer than maxLineLength, a system named in every finding, and
// the README's excerpt, the lines between the quick start's output fence
// and its "…", the same lines in the same order.
func TestQuickStart(t *testing.T) {
	requireIntegration(t)
	bin := fencecheckBinary(t)
	dir := filepath.Join(t.TempDir(), "examples")
	copyTree(t, filepath.Join(repoRoot(t), "examples"), dir)
	r := run(t, dir, []string{"GOTOOLCHAIN=local"}, "go", "vet", "-vettool="+bin, "./...")
	if r.code != 1 {
		t.Fatalf("go vet -vettool=fencecheck ./...: exit %d, want 1\n%s", r.code, r.out)
	}
	out := strings.Split(strings.TrimRight(r.out, "\n"), "\n")
	headline := regexp.MustCompile(`^\S+:\d+:\d+: ([a-zA-Z0-9-]+): `)
	findings := 0
	for _, l := range out {
		if len(l) > maxLineLength {
			t.Errorf("a line of %d characters (at most %d):\n%s", len(l), maxLineLength, l)
		}
		if headline.MatchString(l) {
			findings++
			if !regexp.MustCompile(`\(system \w+\)|system \w+ is wrong|after system \w+ returns`).MatchString(l) {
				t.Errorf("a finding that does not name its system:\n%s", l)
			}
		}
	}
	if findings == 0 {
		t.Fatalf("no finding in the output:\n%s", r.out)
	}

	readme, err := os.ReadFile(filepath.Join(repoRoot(t), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	excerpt := quickStartExcerpt(string(readme))
	if len(excerpt) == 0 {
		t.Fatal("README.md: no quick-start excerpt (a ``` block after the commands, ending in a line \"…\")")
	}
	for i := range out {
		if i+len(excerpt) <= len(out) && slices.Equal(out[i:i+len(excerpt)], excerpt) {
			return
		}
	}
	t.Errorf("README.md's quick-start excerpt is not what the command prints; it prints\n%s", r.out)
}

// quickStartExcerpt returns the lines of the README's first output block
// (the first ``` block after the ```sh block of the commands) up to its
// "…" line.
func quickStartExcerpt(readme string) []string {
	lines := strings.Split(readme, "\n")
	inSh, sawSh, inBlock := false, false, false
	var excerpt []string
	for _, l := range lines {
		switch {
		case !sawSh && l == "```sh":
			inSh, sawSh = true, true
		case inSh && l == "```":
			inSh = false
		case sawSh && !inSh && !inBlock && l == "```":
			inBlock = true
		case inBlock && (l == "…" || l == "```"):
			return excerpt
		case inBlock:
			excerpt = append(excerpt, l)
		}
	}
	return nil
}
