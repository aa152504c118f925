package native

import (
	"os"
	"path/filepath"
	"testing"
)

// TestModelFiles parses every model file in testdata/models and checks that
// each survives a round trip through Format.
func TestModelFiles(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "models", "*.fcm"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 3 {
		t.Fatalf("found %d model files, want at least 3", len(files))
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			p, err := Parse(file, src)
			if err != nil {
				t.Fatal(err)
			}
			// A model may have no bad state: race-only models ask
			// only whether two accesses are unordered.
			if len(p.Procs) == 0 {
				t.Errorf("%s: no processes", file)
			}
			roundTrip(t, p)
		})
	}
}
