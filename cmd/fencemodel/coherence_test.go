package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// TestBenchCoherence runs the partial-coherence bench on parts of its
// manifest and on manifests that are wrong.
func TestBenchCoherence(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "coherence")
	abs := func(f string) string {
		a, err := filepath.Abs(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	wrong := writeManifest(t, []map[string]any{{"file": abs("pet0.rmm"), "name": "Pet0", "table": 1, "expect": "safe"}})
	bad := writeManifest(t, []map[string]any{{"file": abs("pet0.rmm"), "name": "Pet0", "table": 3, "expect": "safe"}})
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		output []string // substrings of stdout
		stderr string
	}{
		{"tables 1 and 2", []string{"-manifest=" + filepath.Join(dir, "expected.json"), "-run=^(Pet|Dek)", "-abstractions=set,fd1"}, exitSafe, []string{
			"Set (pso)", "FD_1 (pso)",
			"| 1 | Pet2 | spurious |", "| spurious, 7.7k | yes |",
			"| 1 | Dek2 | safe |", "| verified, 3.1k | yes |",
			"| 2 | Pet0 | unsafe |", "| optimal, 524.5k | yes |",
		}, ""},
		{"under TSO", []string{"-manifest=" + filepath.Join(dir, "expected.json"), "-run=^Pet2", "-abstractions=fd0", "-model=tso"}, exitSafe, []string{"FD_0 (tso)", "| 1 | Pet2 | safe |"}, ""},
		{"wrong expectation", []string{"-manifest=" + wrong, "-abstractions=fd1"}, exitUnsafe, []string{"Pet0 with FD_1: unsafe, expected safe"}, ""},
		{"malformed manifest", []string{"-manifest=" + bad}, exitUsage, nil, "a table (1 or 2)"},
		{"unknown abstraction", []string{"-abstractions=fd1,bag"}, exitUsage, nil, `unknown abstraction "bag"`},
		{"SC", []string{"-model=sc"}, exitUsage, nil, "want tso or pso"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := run(append([]string{"bench", "-engine=coherence", "-format=markdown"}, tc.args...), &out, &errb)
			if code != tc.code {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.code, out.String(), errb.String())
			}
			for _, s := range tc.output {
				if !strings.Contains(out.String(), s) {
					t.Errorf("stdout lacks %q:\n%s", s, out.String())
				}
			}
			if !strings.Contains(errb.String(), tc.stderr) {
				t.Errorf("stderr lacks %q:\n%s", tc.stderr, errb.String())
			}
		})
	}
}
