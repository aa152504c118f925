package extract_test

import "testing"

// TestSoundness checks the verdicts of systems written to break the
// lowering against what x86-TSO and SC allow for the Go code. The explicit
// engine is exact here: the processes are loop-free or their loops only
// spin, and the bound 0 picks the exact buffer bound of a loop-free program.
func TestSoundness(t *testing.T) {
	testVerdicts(t, "soundness", []verdictCase{
		{"doubleLoad", U, U},
		{"aliasSB", U, S},
		{"aliasForward", S, S},
		{"compound", U, U},
		{"swapSelf", S, S},
		{"swapObserve", S, S},
		{"swapTorn", U, U},
		{"setupStore", S, S},
		{"mainStore", U, U},
		{"dynamicStruct", U, U},
		{"casOnce", S, S},
		{"swapOld", S, S},
		{"addNew", S, S},
		{"mutexCount", S, S},
		{"waitOrder", S, S},
		{"inlinedPanic", U, U},
		{"notBool", U, U},
		{"narrow", U, U},
		{"guardOverflow", U, U},
		{"divZero", U, U},
		{"shadow", S, S},
		{"spinMP", S, S},
		{"gotoLoop", U, U},
		{"switchTag", U, U},
		{"switchOnce", U, U},
		{"captureLate", U, U},
		{"multiReturn", U, U},
		{"localCopy", S, S},
		{"setupPointer", U, U},
		{"loopRead", U, U},
	})
}
