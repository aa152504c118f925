package sb_test

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/sb"
	"github.com/fencecheck/fencecheck/internal/bitgen"
)

// TestBitopsDifferential compares the engine with the explicit engine on
// generated programs computing with the bitwise operators and shifts
// (including shifts by negative counts, which fault), forwards and (one
// program in ten) by the SB search alone: never safe where the explicit engine finds a bug.
func TestBitopsDifferential(t *testing.T) {
	n := 150
	if *long {
		n = 1500
	}
	rng := rand.New(rand.NewPCG(17, 31))
	count := map[engines.Status]int{}
	for i := range n {
		p, _ := bitgen.Program(rng, i%2 == 1)
		count[differential(t, &sb.Engine{}, p, 5*time.Second)]++
		if i%10 == 0 {
			differential(t, &sb.Engine{Backward: true, MaxConstraints: 3000}, p, time.Second)
		}
		if t.Failed() {
			t.Fatalf("program %d failed", i)
		}
	}
	t.Logf("%d programs: %v", n, count)
}
