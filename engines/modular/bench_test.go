package modular_test

import (
	"context"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/modular"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/modelfile"
)

// BenchmarkScale proves the fenced bakeries of testdata/scale (x86-TSO
// with a fence after each store of the entry protocol, which has SC's
// behaviours) within the 10-second target of testdata/scale/README.md,
// and fails on any answer but safe. It reports the views stored and the
// heap in use at the end, in MB.
//
//	go test ./engines/modular -run '^$' -bench Scale -benchtime 1x
func BenchmarkScale(b *testing.B) {
	for _, name := range []string{"bakery4_fenced.rmm", "bakery4_fenced.fcm", "bakery5_fenced.rmm"} {
		p, err := modelfile.Load(filepath.Join("..", "..", "testdata", "scale", name))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			var res *engines.Result
			var heap uint64
			for b.Loop() {
				runtime.GC()
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				res, err = (&modular.Engine{}).Check(ctx, p, model.TSO)
				cancel()
				if err != nil {
					b.Fatal(err)
				}
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				heap = max(heap, ms.HeapAlloc)
			}
			if res.Status != engines.Safe {
				b.Fatalf("%v, want safe", res)
			}
			b.ReportMetric(float64(res.Stats.States), "views")
			b.ReportMetric(float64(heap)/(1<<20), "heap-MB")
		})
	}
}
