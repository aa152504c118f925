package native

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// FuzzParse checks that Parse never panics, that its errors are positioned
// in the file, and that whatever it accepts prints to a file that parses to
// the same program and prints the same again.
func FuzzParse(f *testing.F) {
	for _, p := range goPrograms() {
		f.Add(Format(p))
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 20 {
		f.Add(Format(randomProgram(r)))
	}
	for _, tt := range errorTests {
		f.Add([]byte(tt.src))
	}
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "models", "*.fcm"))
	for _, file := range files {
		if src, err := os.ReadFile(file); err == nil {
			f.Add(src)
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		p, err := Parse("fuzz.fcm", src)
		if err != nil {
			if p != nil {
				t.Errorf("Parse returned a program and an error")
			}
			for _, line := range strings.Split(err.Error(), "\n") {
				if !strings.HasPrefix(line, "fuzz.fcm:") {
					t.Errorf("error line %q does not start with the file name", line)
				}
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Errorf("error %v is not an *Error", err)
			}
			return
		}
		text := Format(p)
		p2, err := Parse("fuzz2.fcm", text)
		if err != nil {
			t.Fatalf("Parse(Format(p)): %v\ninput:\n%s\nformatted:\n%s", err, src, text)
		}
		if text2 := Format(p2); !bytes.Equal(text, text2) {
			t.Fatalf("Format(Parse(Format(p))) != Format(p)\nfirst:\n%s\nsecond:\n%s", text, text2)
		}
		// Every parsed transition has a valid position, which Format keeps.
		if !reflect.DeepEqual(normalize(p), normalize(p2)) {
			t.Fatalf("round trip changed the program\nformatted:\n%s", text)
		}
	})
}
