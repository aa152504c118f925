package bmc_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/bmc"
	"github.com/fencecheck/fencecheck/engines/explicit"
	"github.com/fencecheck/fencecheck/internal/bitgen"
	"github.com/fencecheck/fencecheck/model"
)

// TestBitopsDiff compares the bmc engine with the explicit engine on
// generated loop-free programs using the bitwise operators and shifts,
// including operators on two run-time values and shifts by run-time and
// negative counts (a fault), under SC and TSO: the verdicts agree.
func TestBitopsDiff(t *testing.T) {
	requireZ3(t)
	n := 30
	if *long {
		n = 600
	}
	rng := rand.New(rand.NewPCG(13, 29))
	count := map[string]int{}
	for i := range n {
		p, _ := bitgen.Program(rng, i%2 == 1)
		for _, m := range []model.Model{model.SC, model.TSO} {
			want, err := (&explicit.Engine{}).Check(context.Background(), p, m)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			got, err := (&bmc.Engine{Unroll: 1}).Check(ctx, p, m)
			cancel()
			if err != nil {
				t.Fatalf("program %d under %v: %v\n%s", i, m, err, dump(p))
			}
			if got.Status != want.Status {
				t.Fatalf("program %d under %v: bmc says %v, explicit %v\n%s", i, m, got, want.Status, dump(p))
			}
			if got.Status == engines.Unsafe {
				if _, err := p.Replay(got.Trace); err != nil || got.Trace.Model != m {
					t.Fatalf("program %d under %v: the trace does not replay: %v", i, m, err)
				}
			}
			count[fmt.Sprintf("%v %v", m, got.Status)]++
		}
	}
	t.Logf("%d programs: %v", n, count)
}
