package integration

import (
	"maps"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestExamplesFixed applies every fix fencecheck offers to the bundled
// examples and checks the whole promise: the fixed module builds and passes
// go vet's own analyzers (copylocks among them, which flags copied atomics),
// and fencecheck then reports no race and no missing barrier; what is left
// are the SC: findings of the broken locks, which no barrier or atomic can
// fix, and the blocking bugs of the pipeline examples (two deadlock:, one
// leak:), which are no matter of atomics either.
func TestExamplesFixed(t *testing.T) {
	requireIntegration(t)
	bin := fencecheckBinary(t)
	env := []string{"GOTOOLCHAIN=local"}
	dir := filepath.Join(t.TempDir(), "examples")
	copyTree(t, filepath.Join(repoRoot(t), "examples"), dir)

	fixed := run(t, dir, env, bin, "-fix", "./...")
	mustRun(t, dir, env, "go", "build", "./...")
	mustRun(t, dir, env, "go", "vet", "./...")
	after := run(t, dir, env, bin, "./...")
	if after.code != 3 {
		t.Errorf("fencecheck after -fix: exit %d, want 3 (the broken locks)\n%s", after.code, after.out)
	}
	finding := regexp.MustCompile(`(?m)^\S+:\d+:\d+: (\S+:)`)
	kinds := map[string]int{}
	for _, m := range finding.FindAllStringSubmatch(after.out, -1) {
		kinds[m[1]]++
	}
	if want := map[string]int{"SC:": 2, "deadlock:": 2, "leak:": 1}; !maps.Equal(kinds, want) {
		t.Errorf("fencecheck after -fix: findings by kind %v, want %v (the broken locks and the blocking bugs)\n%s", kinds, want, after.out)
	}
	// The -fix run itself printed what it left: the same SC: findings.
	if strings.Count(fixed.out, " SC: ") != 2 || fixed.code != 3 {
		t.Errorf("fencecheck -fix: exit %d, output\n%s\nwant 3 and the 2 SC: findings it cannot fix", fixed.code, fixed.out)
	}
}
