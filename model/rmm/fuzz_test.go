package rmm

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzParse checks that Parse never panics and that what it returns is
// well formed: a valid program with positions everywhere, or positioned
// errors.
func FuzzParse(f *testing.F) {
	for _, tt := range lowerTests {
		f.Add([]byte(tt.src))
	}
	for _, tt := range errorTests {
		f.Add([]byte(tt.src))
	}
	for _, tt := range reachTests {
		f.Add([]byte(tt.src))
	}
	files, _ := filepath.Glob(filepath.Join(testdataDir, "*.rmm"))
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		p, err := Parse("f.rmm", src)
		if err != nil {
			if p != nil {
				t.Fatalf("Parse returned both a program and the error %v", err)
			}
			if strings.Contains(err.Error(), "internal error") {
				t.Fatalf("Parse: %v", err)
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v is a %T, not an *Error", err, err)
			}
			if e.Pos.File != "f.rmm" || !e.Pos.IsValid() || e.Pos.Col < 1 {
				t.Fatalf("error %v has no proper position", err)
			}
			return
		}
		if err := p.Validate(); err != nil {
			t.Fatalf("Validate: %v", err)
		}
		if err := checkPositions(p, "f.rmm"); err != nil {
			t.Fatal(err)
		}
		for _, q := range p.Procs {
			names := map[string]bool{}
			for _, l := range q.Locs {
				if l.Name == "" || names[l.Name] {
					t.Fatalf("process %s: location name %q empty or repeated", q.Name, l.Name)
				}
				names[l.Name] = true
			}
		}
	})
}
