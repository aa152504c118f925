package coherence_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/fencecheck/fencecheck/engines/coherence"
	"github.com/fencecheck/fencecheck/model"
)

// BenchmarkTable1 checks the fenced programs of Table 1 of the
// partial-coherence paper under PSO with FD_1, which proves them all, and
// reports the abstract states explored per second.
//
//	go test -run '^$' -bench Table1 ./engines/coherence
func BenchmarkTable1(b *testing.B) {
	for _, name := range []string{"sense1", "pet2", "dek2", "lam2", "fast3", "clh2"} {
		b.Run(name, func(b *testing.B) {
			p := load(b, filepath.Join("..", "..", "..", "testdata", "coherence", name+".rmm"))
			eng := &coherence.Engine{Abstraction: coherence.Abstraction{Kind: coherence.FD, K: 1}, NoRefine: true}
			var states int64
			for b.Loop() {
				res, err := eng.Check(context.Background(), p, model.PSO)
				if err != nil {
					b.Fatal(err)
				}
				states = res.Stats.States
			}
			b.ReportMetric(float64(states)*float64(b.N)/b.Elapsed().Seconds(), "states/s")
		})
	}
}
