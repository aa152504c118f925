// Package longtest says whether the long test suites run.
//
// `go test ./...` runs the quick suites: every package's tests, with the
// generated-program differentials, fuzz corpora and analyzer corpora cut to
// a size that keeps the whole run within minutes. Setting the environment
// variable FENCECHECK_LONG to a non-empty value (as the CI script does) runs
// them at full size. A few packages keep a -long flag of their own for
// sizes beyond that.
package longtest

import (
	"os"
	"testing"
)

// EnvVar is the environment variable that turns the long suites on.
const EnvVar = "FENCECHECK_LONG"

// Enabled reports whether the long suites run.
func Enabled() bool { return os.Getenv(EnvVar) != "" }

// Skip skips t unless the long suites run.
func Skip(t testing.TB) {
	t.Helper()
	if !Enabled() {
		t.Skipf("a long suite: set %s=1 to run it", EnvVar)
	}
}

// Size returns long when the long suites run and quick otherwise: the
// number of generated programs, iterations or corpus entries a test takes.
func Size(quick, long int) int {
	if Enabled() {
		return long
	}
	return quick
}

// Quick reports whether a test takes its quick size: always under
// -short, and unless the long suites run.
func Quick() bool { return testing.Short() || !Enabled() }
