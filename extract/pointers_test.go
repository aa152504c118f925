package extract_test

import "testing"

// TestPointers checks the verdicts of systems whose goroutines allocate
// objects and publish them through pointers, against what x86-TSO and SC
// allow for the Go code.
func TestPointers(t *testing.T) {
	testVerdicts(t, "pointers", []verdictCase{
		{"treiber", S, S},           // pushes by CAS lose nothing; the pops see all three
		{"lostPush", U, U},          // load then store: two pushes may read the same head
		{"publish", S, S},           // fields written before the atomic store
		{"publishUnsafe", S, S},     // the same through atomic.StorePointer
		{"publishPlain", S, S},      // TSO keeps the stores in order (the race is separate)
		{"publishEarly", U, U},      // published before the fields are written
		{"nilDeref", U, U},          // the reader may load nil and dereference it
		{"msQueue", S, S},           // two enqueues by CAS, both dequeued
		{"msLost", U, U},            // an enqueue by store overwrites the other's link
		{"treiberLoop", S, S},       // two pushes in a loop take two nodes of the pool
		{"lostPushLoop", U, U},      // pushes in a loop still race with the other goroutine's
		{"viaInterface", S, S},      // an atomic increment called through an interface
		{"viaInterfacePlain", U, U}, // a plain one loses an increment
	})
}
