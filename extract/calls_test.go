package extract_test

import "testing"

// TestCalls checks the verdicts of systems that use defer, RWMutex, Once,
// calls into other packages, goroutines started by a method, generic code
// and goroutines that start goroutines, against what Go allows (each
// system's comment in testdata/src/calls gives the reasoning).
func TestCalls(t *testing.T) {
	testVerdicts(t, "calls", []verdictCase{
		{"deferUnlock", S, S},
		{"unlockEarly", U, U},
		{"deferOrder", S, S},
		{"deferArgs", S, S},
		{"conditionalDefer", S, S},
		{"conditionalNoLock", U, U},
		{"deferInMain", S, S},
		{"rwMutex", S, S},
		{"rwMutexWriteUnderRLock", U, U},
		{"rUnlockUnlocked", U, U},
		{"onceInit", S, S},
		{"handOnce", U, U},
		{"pureCalls", S, S},
		{"errorResult", U, U},
		{"fatal", U, U},
		{"exitZero", S, S},
		{"wrapper", S, S},
		{"generic", S, S},
		{"nested", S, S},
		{"nestedLate", U, U},
		{"setupDefers", S, S},
	})
}
