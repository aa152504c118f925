package explicit_test

import (
	"context"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/explicit"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/modelfile"
)

// BenchmarkScale checks every model of testdata/scale under TSO with the
// explicit engine, with its reductions (reduced) and without them
// (unreduced), each within a 10-second budget (the target of
// testdata/scale/README.md). It reports the states explored, whether the
// answer was decided (1) or inconclusive (0), whether a Safe answer is exact
// (1) or holds up to a buffer bound (0), and the heap in use at the end of
// the search, before it is collected, in MB. An inconclusive answer is
// reported, not a failure: the benchmark measures.
//
//	go test ./engines/explicit -run XXX -bench Scale -benchtime 1x
func BenchmarkScale(b *testing.B) {
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "scale", "*.fcm"))
	if err != nil || len(files) == 0 {
		b.Fatalf("no scale models: %v", err)
	}
	for _, file := range files {
		p, err := modelfile.Load(file)
		if err != nil {
			b.Fatal(err)
		}
		for _, v := range []struct {
			name string
			e    explicit.Engine
		}{
			{"reduced", explicit.Engine{}},
			{"unreduced", explicit.Engine{NoPOR: true, NoSymmetry: true}},
		} {
			b.Run(filepath.Base(file)+"/"+v.name, func(b *testing.B) {
				var res *engines.Result
				var heap uint64
				for b.Loop() {
					runtime.GC()
					ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
					res, err = v.e.Check(ctx, p, model.TSO)
					cancel()
					if err != nil {
						b.Fatal(err)
					}
					var ms runtime.MemStats
					runtime.ReadMemStats(&ms)
					heap = max(heap, ms.HeapAlloc)
				}
				decided, exact := 1.0, 1.0
				if res.Status == engines.Inconclusive {
					decided = 0
				}
				if res.Bound != "" || res.Status == engines.Inconclusive {
					exact = 0
				}
				b.ReportMetric(float64(res.Stats.States), "states")
				b.ReportMetric(decided, "decided")
				b.ReportMetric(exact, "exact")
				b.ReportMetric(float64(heap)/(1<<20), "heap-MB")
			})
		}
	}
}
