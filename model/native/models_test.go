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
			if len(p.Procs) == 0 || len(p.Bad) == 0 {
				t.Errorf("%s: %d processes, %d bad states", file, len(p.Procs), len(p.Bad))
			}
			roundTrip(t, p)
		})
	}
}
