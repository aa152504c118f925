package bdd_test

import (
	"context"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/bdd"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/modelfile"
)

// BenchmarkScale checks the models of testdata/scale that x86-TSO runs
// with SC's behaviours (a fence or locked operation between every write and
// the next read), and every model under SC, with the bdd engine within a
// 10-second budget (the target of testdata/scale/README.md). It reports
// the states reached, whether the answer was decided (1) or inconclusive
// (0), and the heap in use at the end, in MB.
//
//	go test ./engines/bdd -run XXX -bench Scale -benchtime 1x
func BenchmarkScale(b *testing.B) {
	var files []string
	for _, pat := range []string{"*.fcm", "*.rmm"} {
		fs, err := filepath.Glob(filepath.Join("..", "..", "testdata", "scale", pat))
		if err != nil {
			b.Fatal(err)
		}
		files = append(files, fs...)
	}
	for _, file := range files {
		p, err := modelfile.Load(file)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(filepath.Base(file), func(b *testing.B) {
			var res *engines.Result
			var heap uint64
			for b.Loop() {
				runtime.GC()
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				res, err = (&bdd.Engine{}).Check(ctx, p, model.SC)
				cancel()
				if err != nil {
					b.Fatal(err)
				}
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				heap = max(heap, ms.HeapAlloc)
			}
			decided := 1.0
			if res.Status == engines.Inconclusive {
				decided = 0
			}
			b.ReportMetric(float64(res.Stats.States), "states")
			b.ReportMetric(decided, "decided")
			b.ReportMetric(float64(heap)/(1<<20), "heap-MB")
		})
	}
}
