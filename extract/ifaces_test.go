package extract_test

import "testing"

// TestInterfaces checks the verdicts of systems whose goroutines store
// interface values, use atomic.Value, sentinel errors and function values,
// against what x86-TSO and SC allow for the Go code.
func TestInterfaces(t *testing.T) {
	testVerdicts(t, "ifaces", []verdictCase{
		{"anyStack", S, S},      // the three payloads are popped and told apart
		{"anyStackWrong", U, U}, // the int payload is 1, not 2
		{"cellAfterWait", S, S}, // the store is seen after the wait
		{"cellNoWait", U, U},    // the cell may still be nil
		{"methodSplit", S, S},   // the *square's method after the wait
		{"methodRace", U, U},    // the rect's method before the store
		{"valueHolder", S, S},   // either config, never nil
		{"valueUnset", U, U},    // Load before Store is nil: the assertion panics
		{"valueMixed", U, U},    // storing an int after a *config panics
		{"valueSwapCAS", S, S},  // exactly one CAS succeeds
	})
}

// TestSentinels checks systems that return package-level errors.New
// sentinels and tell them apart by identity.
func TestSentinels(t *testing.T) {
	testVerdicts(t, "errsent", []verdictCase{
		{"sentinel", S, S},        // the errors are told apart by identity
		{"sentinelWrong", U, U},   // close may come first
		{"madeInGoroutine", S, S}, // each goroutine's errors.New is a distinct error
		{"sameError", U, U},       // and so never equal to the other's
	})
}

// TestFuncValues checks systems that call function values chosen at run
// time: an errgroup-like Group and a local closure variable.
func TestFuncValues(t *testing.T) {
	testVerdicts(t, "funcvals", []verdictCase{
		{"group", S, S},       // Wait returns the one error
		{"groupNoWait", U, U}, // the error read before the wait
		{"funcLocal", S, S},   // the second function is called
	})
}

// TestAppends checks systems that append to slices with room, in the
// set-up and in goroutines.
func TestAppends(t *testing.T) {
	testVerdicts(t, "appends", []verdictCase{
		{"setupLoop", S, S},    // the three values appended in the set-up
		{"sharedArray", S, S},  // the append writes the shared array's next cell
		{"sharedNoWait", U, U}, // read before the append
		{"local", S, S},        // a goroutine's own slice
	})
}
