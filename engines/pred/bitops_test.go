package pred_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/pred"
	"github.com/fencecheck/fencecheck/internal/bitgen"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/native"
)

// TestBitopsDifferential compares the pred engine with the explicit engine
// on generated programs using the bitwise operators and shifts, under TSO
// and SC: with constant operands the verdicts agree; with the constructs the
// engine does not encode it may only be Inconclusive, saying so, never
// wrong.
func TestBitopsDifferential(t *testing.T) {
	requireZ3(t)
	n := 60
	if *long {
		n = 600
	}
	rng := rand.New(rand.NewPCG(11, 23))
	eng := &pred.Engine{Fresh: true}
	count := map[string]int{}
	for i := range n {
		p, exact := bitgen.Program(rng, i%3 == 2)
		if err := p.Validate(); err != nil {
			t.Fatalf("program %d: %v\n%s", i, err, native.Format(p))
		}
		for _, m := range []model.Model{model.TSO, model.SC} {
			got, want := runBoth(t, eng, i, p, m)
			if !exact && got.Status == engines.Inconclusive && strings.Contains(got.Reason, "not encoded") {
				count["inconclusive (not encoded)"]++
				continue
			}
			checkAgrees(t, i, p, m, got, want)
			count[fmt.Sprintf("%v %v", m, got.Status)]++
		}
	}
	t.Logf("%d programs: %v", n, count)
}
