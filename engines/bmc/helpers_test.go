package bmc_test

import (
	"flag"
	"testing"

	"github.com/fencecheck/fencecheck/engines/smt"
)

var long = flag.Bool("long", false, "run the long differential tests and the larger benchmarks")

// requireZ3 skips t when Z3 cannot be used.
func requireZ3(t testing.TB) {
	t.Helper()
	if !smt.Available || smt.Version() == "" {
		t.Skip("Z3 is unavailable in this build")
	}
}

// smtAvailable reports whether Z3 can be used.
func smtAvailable() bool { return smt.Available && smt.Version() != "" }
