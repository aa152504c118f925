package main_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fencecheck/fencecheck/analyzer"
	"github.com/fencecheck/fencecheck/docs"
)

// TestExplainPages checks that every finding kind has its page in
// docs/findings, and no page is left without a kind, and that each page
// has the sections -explain promises.
func TestExplainPages(t *testing.T) {
	kinds := slices.Clone(analyzer.Kinds)
	slices.Sort(kinds)
	if got := docs.FindingKinds(); !slices.Equal(got, kinds) {
		t.Errorf("docs/findings has pages for %v; the finding kinds are %v", got, kinds)
	}
	files, err := filepath.Glob(filepath.Join("..", "..", "docs", "findings", "*.md"))
	if err != nil || len(files) != len(kinds) {
		t.Errorf("docs/findings holds %d pages (%v); want %d", len(files), err, len(kinds))
	}
	for _, k := range analyzer.Kinds {
		page, err := docs.Finding(k)
		if err != nil {
			t.Error(err)
			continue
		}
		if !strings.HasPrefix(page, "# "+k+": ") {
			t.Errorf("the page of %s does not start with %q", k, "# "+k+": ")
		}
		for _, section := range []string{"## What it means", "## How to fix it", "## Silencing it"} {
			if !strings.Contains(page, "\n"+section+"\n") {
				t.Errorf("the page of %s has no section %q", k, section)
			}
		}
		if k != analyzer.KindInternal && !strings.Contains(page, "\n## Example\n") {
			t.Errorf("the page of %s has no example", k)
		}
	}
}

// TestExplain runs fencecheck -explain for every kind, in the forms a
// person types it, and for a kind that does not exist.
func TestExplain(t *testing.T) {
	bin, _ := buildTool(t)
	dir := t.TempDir()
	for _, k := range analyzer.Kinds {
		want, err := docs.Finding(k)
		if err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{{"-explain", k}, {"-explain=" + k}, {"--explain", strings.ToLower(k) + ":"}} {
			stdout, stderr, code := run(t, dir, bin, args...)
			if code != 0 || stdout != want || stderr != "" {
				t.Errorf("fencecheck %s: status %d, stderr %q, stdout starting %.60q; want 0 and the page", strings.Join(args, " "), code, stderr, stdout)
			}
		}
	}
	stdout, _, code := run(t, dir, bin, "-explain")
	if code != 0 {
		t.Errorf("fencecheck -explain: status %d; want 0", code)
	}
	for _, k := range analyzer.Kinds {
		if !strings.Contains(stdout, "\n  "+k+" ") {
			t.Errorf("fencecheck -explain does not list %s:\n%s", k, stdout)
		}
	}
	for _, args := range [][]string{{"-explain", "bogus"}, {"-explain", "race", "./..."}} {
		stdout, stderr, code := run(t, dir, bin, args...)
		if code == 0 || stdout != "" || !strings.HasPrefix(stderr, "fencecheck: ") {
			t.Errorf("fencecheck %s: status %d, stdout %q, stderr %q; want an error", strings.Join(args, " "), code, stdout, stderr)
		}
	}
	if _, stderr, _ := run(t, dir, bin, "-explain", "bogus"); !strings.Contains(stderr, `unknown finding kind "bogus"`) || !strings.Contains(stderr, "race, x86-TSO") {
		t.Errorf("fencecheck -explain bogus: stderr %q; want it to name the kinds", stderr)
	}
	// go vet asks for the analyzer flags with -flags: -explain is not one
	// of them, so go vet never passes it.
	if stdout, _, _ := run(t, dir, bin, "-flags"); strings.Contains(stdout, "explain") {
		t.Errorf("fencecheck -flags lists -explain:\n%s", stdout)
	}
}
