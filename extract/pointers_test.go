package extract_test

import (
	"context"
	"testing"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/explicit"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/native"
)

// TestPointers checks the verdicts of systems whose goroutines allocate
// objects and publish them through pointers, against what x86-TSO and SC
// allow for the Go code.
func TestPointers(t *testing.T) {
	const (
		S = engines.Safe
		U = engines.Unsafe
	)
	tests := []struct {
		name    string
		tso, sc engines.Status
	}{
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
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := system(t, "pointers", tt.name)
			if t.Failed() {
				return
			}
			for _, m := range []struct {
				m    model.Model
				want engines.Status
			}{{model.TSO, tt.tso}, {model.SC, tt.sc}} {
				eng := &explicit.Engine{Bound: 4}
				res, err := eng.Check(context.Background(), s.Program, m.m)
				if err != nil {
					t.Fatal(err)
				}
				if res.Status != m.want {
					t.Errorf("%v: got %v, want %v\n%s", m.m, res.Status, m.want, native.Format(s.Program))
				}
				if res.Trace != nil {
					if _, err := s.Program.Replay(res.Trace); err != nil {
						t.Errorf("%v: trace does not replay: %v", m.m, err)
					}
				}
			}
		})
	}
}
