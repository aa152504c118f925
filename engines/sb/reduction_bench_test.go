package sb_test

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/sb"
	"github.com/fencecheck/fencecheck/internal/progen"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/modelfile"
)

// symmetricModels are models of testdata with interchangeable processes.
var symmetricModels = []string{
	"rmm/spinlock.rmm", "rmm/ticket.rmm", "table1/sense_barrier.rmm",
	"table1/task_scheduling.rmm", "coherence/sense1.rmm", "scale/caslock4x3.fcm",
}

// BenchmarkReductions measures the SB search's symmetry and partial-order
// reductions on models with interchangeable processes (symmetricModels,
// and 40 programs of progen.Symmetric), with the SB search alone
// (Engine.Backward, every mode of reductionModes, pruned by the forward
// abstraction and not) and with the default schedule (reductions on and
// off), within scaleBudget per check. It
// reports the constraints the SB search analysed (Backward mode; states of
// all searches for the default schedule) and whether the answer was
// decided: it measures and fails only on an error.
func BenchmarkReductions(b *testing.B) {
	modes := append([]struct {
		name string
		e    sb.Engine
	}{}, reductionModes...)
	for _, m := range reductionModes {
		m.name += "-noprune"
		m.e.NoPrune = true
		modes = append(modes, m)
	}
	modes = append(modes,
		struct {
			name string
			e    sb.Engine
		}{"default", sb.Engine{}},
		struct {
			name string
			e    sb.Engine
		}{"default-neither", sb.Engine{NoSymmetry: true, NoPOR: true}})
	for _, f := range symmetricModels {
		p, err := modelfile.Load(filepath.Join("..", "..", "testdata", f))
		if err != nil {
			b.Fatal(err)
		}
		for _, m := range modes {
			b.Run(f+"/"+m.name, func(b *testing.B) {
				var res *engines.Result
				for b.Loop() {
					res = checkWithin(b, &m.e, p)
				}
				reportReduction(b, &m.e, res)
			})
		}
	}
	for _, m := range modes {
		b.Run("progen.Symmetric/"+m.name, func(b *testing.B) {
			var total, decided int64
			for b.Loop() {
				rng := rand.New(rand.NewPCG(11, 3))
				total, decided = 0, 0
				for range 40 {
					e := m.e
					e.MaxConstraints = 50_000
					res := checkWithin(b, &e, progen.Symmetric(rng))
					if res.Status != engines.Inconclusive {
						decided++
					}
					if e.Backward {
						total += lastSearch.count
					} else {
						total += res.Stats.States
					}
				}
			}
			unit := "states"
			if m.e.Backward {
				unit = "constraints"
			}
			b.ReportMetric(float64(total), unit)
			b.ReportMetric(float64(decided), "decided")
		})
	}
}

// checkWithin checks p under TSO with e within scaleBudget.
func checkWithin(b *testing.B, e *sb.Engine, p *model.Program) *engines.Result {
	b.Helper()
	lastSearch.count, lastSearch.pruned = 0, 0 // a search cut before the SB search reports none
	ctx, cancel := context.WithTimeout(context.Background(), scaleBudget)
	defer cancel()
	start := time.Now()
	res, err := e.Check(ctx, p, model.TSO)
	if err != nil {
		b.Fatal(err)
	}
	if res.Status == engines.Inconclusive {
		b.Logf("%v after %v", res, time.Since(start).Round(time.Millisecond))
	}
	return res
}

// reportReduction reports the constraints (or states) of res and whether
// it was decided.
func reportReduction(b *testing.B, e *sb.Engine, res *engines.Result) {
	if e.Backward {
		b.ReportMetric(float64(lastSearch.count), "constraints")
	} else {
		b.ReportMetric(float64(res.Stats.States), "states")
	}
	decided := 1.0
	if res.Status == engines.Inconclusive {
		decided = 0
	}
	b.ReportMetric(decided, "decided")
}
