//go:build cgo && !fencecheck_noz3

package smt

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// loadChildEnv names the environment variable that makes TestLazyLoad run
// one of its cases in a fresh process, where the library is not loaded yet.
const loadChildEnv = "FENCECHECK_SMT_LOAD_CHILD"

// z3Mapped reports whether a Z3 library is mapped into this process.
func z3Mapped(t *testing.T) bool {
	t.Helper()
	maps, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		t.Skipf("cannot read the process's mappings: %v", err)
	}
	return bytes.Contains(maps, []byte("libz3"))
}

// loadCases are the cases of TestLazyLoad, each run by a child process.
var loadCases = []struct {
	name string
	run  func(t *testing.T)
}{
	{"FirstNewContextLoads", func(t *testing.T) {
		if z3Mapped(t) || lib.loaded.Load() {
			t.Fatal("Z3 is loaded before the first NewContext")
		}
		if n := EstimatedAllocSize(); n != 0 {
			t.Fatalf("EstimatedAllocSize before loading = %d, want 0", n)
		}
		if z3Mapped(t) {
			t.Fatal("EstimatedAllocSize loaded Z3")
		}
		c, err := NewContext(Config{})
		if err != nil {
			t.Fatalf("NewContext: %v", err)
		}
		defer c.Close()
		if !z3Mapped(t) || !lib.loaded.Load() {
			t.Fatal("Z3 is not loaded after NewContext")
		}
		if v := Version(); !strings.HasPrefix(v, "4.") {
			t.Errorf("Version() = %q, want 4.x", v)
		}
	}},
	{"MissingLibrary", func(t *testing.T) {
		const name = "libfencecheck-test-missing-z3.so"
		libNames = []string{name}
		_, err := NewContext(Config{})
		if !errors.Is(err, ErrUnavailable) {
			t.Fatalf("NewContext error = %v, want one wrapping ErrUnavailable", err)
		}
		if !strings.Contains(err.Error(), name) {
			t.Errorf("NewContext error = %q, want it to name %s", err, name)
		}
		if _, err2 := NewContext(Config{}); !errors.Is(err2, ErrUnavailable) {
			t.Errorf("second NewContext error = %v, want one wrapping ErrUnavailable", err2)
		}
		if v := Version(); v != "" {
			t.Errorf("Version() = %q, want \"\" without the library", v)
		}
		if z3Mapped(t) {
			t.Error("a Z3 library is mapped although none could be loaded")
		}
	}},
}

// TestLazyLoad checks that Z3 is loaded by the first NewContext and not at
// start-up, and that a missing library makes NewContext fail with
// ErrUnavailable. Each case runs in a child process of the test binary, since
// the library stays loaded once it is.
func TestLazyLoad(t *testing.T) {
	if name := os.Getenv(loadChildEnv); name != "" {
		for _, tc := range loadCases {
			if tc.name == name {
				tc.run(t)
				return
			}
		}
		t.Fatalf("unknown case %q", name)
	}
	for _, tc := range loadCases {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestLazyLoad$", "-test.count=1", "-test.v")
			cmd.Env = append(os.Environ(), loadChildEnv+"="+tc.name)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("child process: %v\n%s", err, out)
			}
			if !bytes.Contains(out, []byte("--- PASS: TestLazyLoad")) {
				t.Fatalf("child process did not run the case:\n%s", out)
			}
			if bytes.Contains(out, []byte("--- SKIP")) {
				t.Skipf("child process skipped:\n%s", out)
			}
		})
	}
}
