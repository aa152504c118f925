package sb_test

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/explicit"
	"github.com/fencecheck/fencecheck/engines/sb"
	"github.com/fencecheck/fencecheck/internal/longtest"
	"github.com/fencecheck/fencecheck/internal/progen"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/facts"
	"github.com/fencecheck/fencecheck/model/native"
)

// reductionModes are the SB search alone with its symmetry and
// partial-order reductions on and off.
var reductionModes = []struct {
	name string
	e    sb.Engine
}{
	{"both", sb.Engine{Backward: true}},
	{"no-symmetry", sb.Engine{Backward: true, NoSymmetry: true}},
	{"no-por", sb.Engine{Backward: true, NoPOR: true}},
	{"neither", sb.Engine{Backward: true, NoSymmetry: true, NoPOR: true}},
}

// TestReductionsDifferential compares the SB search alone (Engine.Backward)
// with its symmetry and partial-order reductions on and off, on generated
// programs with interchangeable processes (progen.Symmetric) and without
// (progen.Simple), with the truth: the explicit engine's answer with
// unbounded buffers for a loop-free program (exact), else the full engine's
// with both reductions off. A Safe answer is also checked against the
// explicit engine with buffers bounded by 1..4. Every Unsafe answer has
// been replayed by Check, the counterexamples found through canonical forms
// included. It logs, per mode, the answers and the constraints analysed on
// the programs every mode decided.
func TestReductionsDifferential(t *testing.T) {
	programs, budget, timeout := longtest.Size(20, 400), int64(20_000), 3*time.Second
	rng := rand.New(rand.NewPCG(5, 17))
	decided := make([]int, len(reductionModes))
	unsafe := make([]int, len(reductionModes))
	constraints := make([]int64, len(reductionModes))
	for i := range programs {
		gen := "symmetric"
		p := progen.Symmetric(rng)
		if i%3 == 2 {
			gen, p = "simple", progen.Simple(rng)
		}
		truth := reductionTruth(t, p)
		var counts []int64
		all := true
		for k, m := range reductionModes {
			e := m.e
			e.MaxConstraints = budget
			ctx, cancel := context.WithTimeout(context.Background(), timeout)
			got, err := e.Check(ctx, p, model.TSO)
			cancel()
			if err != nil {
				t.Fatalf("program %d (%s), %s: %v\n%s", i, gen, m.name, err, native.Format(p))
			}
			counts = append(counts, lastSearch.count)
			switch {
			case got.Status == engines.Inconclusive:
				all = false
				continue
			case truth != engines.Inconclusive && got.Status != truth:
				t.Fatalf("program %d (%s): the SB search alone (%s) says %v, the truth is %v\n%s", i, gen, m.name, got.Status, truth, native.Format(p))
			case got.Status == engines.Safe && explicitBug(t, p):
				t.Fatalf("program %d (%s): the SB search alone (%s) says safe, the explicit engine finds a bug\n%s", i, gen, m.name, native.Format(p))
			}
			decided[k]++
			if got.Status == engines.Unsafe {
				unsafe[k]++
			}
		}
		if all {
			for k, n := range counts {
				constraints[k] += n
			}
		}
	}
	for k, m := range reductionModes {
		t.Logf("%s: %d of %d programs decided (%d unsafe); %d constraints on the programs every mode decided",
			m.name, decided[k], programs, unsafe[k], constraints[k])
	}
	if unsafe[0] == 0 || unsafe[0] == decided[0] {
		t.Errorf("the generated programs were all safe or all unsafe: %d unsafe of %d decided", unsafe[0], decided[0])
	}
}

// reductionTruth returns the TSO answer for p that the reductions are
// checked against: the explicit engine's with unbounded buffers for a
// loop-free program, else the full engine's without the reductions
// (Inconclusive when it gives none within 20 seconds).
func reductionTruth(t *testing.T, p *model.Program) engines.Status {
	t.Helper()
	if _, acyclic := facts.MaxWritesOnPath(p); acyclic {
		res, err := (&explicit.Engine{MaxStates: 2_000_000}).Check(context.Background(), p, model.TSO)
		if err != nil {
			t.Fatalf("explicit: %v\n%s", err, native.Format(p))
		}
		if res.Bound != "" {
			t.Fatalf("the explicit engine bounded a loop-free program: %v", res)
		}
		return res.Status
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res, err := (&sb.Engine{NoSymmetry: true, NoPOR: true}).Check(ctx, p, model.TSO)
	if err != nil {
		t.Fatalf("sb: %v\n%s", err, native.Format(p))
	}
	return res.Status
}
