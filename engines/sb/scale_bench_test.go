package sb_test

import (
	"context"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"testing"
	"time"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/explicit"
	"github.com/fencecheck/fencecheck/engines/sb"
	"github.com/fencecheck/fencecheck/engines/wrap/coi"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/modelfile"
)

// scaleBudget is the time budget of one check in the scale benchmarks.
const scaleBudget = 20 * time.Second

// benchScale checks the model testdata/scale/file under TSO once per
// iteration, with the time budget scaleBudget, and reports the explored
// states, whether the answer was decided (1) or inconclusive (0), and the
// peak heap in MB. An inconclusive answer is reported, not a failure: the
// benchmarks measure; testdata/scale/README.md records the targets.
func benchScale(b *testing.B, file string, e engines.Engine) {
	p, err := modelfile.Load(filepath.Join("..", "..", "testdata", "scale", file))
	if err != nil {
		b.Fatal(err)
	}
	var res *engines.Result
	var peak uint64
	for b.Loop() {
		runtime.GC()
		stop := watchPeak(&peak)
		ctx, cancel := context.WithTimeout(context.Background(), scaleBudget)
		res, err = e.Check(ctx, p, model.TSO)
		cancel()
		stop()
		if err != nil {
			b.Fatal(err)
		}
	}
	decided := 1.0
	if res.Status == engines.Inconclusive {
		decided = 0
		b.Logf("%s: %v", file, res)
	}
	b.ReportMetric(float64(res.Stats.States), "states")
	b.ReportMetric(decided, "decided")
	b.ReportMetric(float64(peak)/(1<<20), "peak-MB")
}

// watchPeak samples the heap every 10ms into *peak until the returned
// function is called.
func watchPeak(peak *uint64) func() {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() {
		metrics.Read(sample)
		if v := sample[0].Value.Uint64(); v > *peak {
			*peak = v
		}
	}
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(10 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				read()
				return
			case <-t.C:
				read()
			}
		}
	}()
	return func() {
		close(done)
		<-finished
	}
}

// The scale models of testdata/scale, with the sb engine as it is and
// behind the cone-of-influence reduction (Reduced), and the explicit engine
// on the straight-line stores.
func BenchmarkScaleBarrier6(b *testing.B)      { benchScale(b, "barrier6.fcm", &sb.Engine{}) }
func BenchmarkScaleRing5(b *testing.B)         { benchScale(b, "ring5.fcm", &sb.Engine{}) }
func BenchmarkScaleCASLock4x3(b *testing.B)    { benchScale(b, "caslock4x3.fcm", &sb.Engine{}) }
func BenchmarkScaleBakery4(b *testing.B)       { benchScale(b, "bakery4.fcm", &sb.Engine{}) }
func BenchmarkScaleBakery4Fenced(b *testing.B) { benchScale(b, "bakery4_fenced.fcm", &sb.Engine{}) }
func BenchmarkScaleWriteLoop(b *testing.B)     { benchScale(b, "writeloop.fcm", &sb.Engine{}) }
func BenchmarkScaleWriteLoopReduced(b *testing.B) {
	benchScale(b, "writeloop.fcm", reduced(&sb.Engine{}))
}
func BenchmarkScaleWriteLoopBase(b *testing.B) { benchScale(b, "writeloop_base.fcm", &sb.Engine{}) }
func BenchmarkScaleStores2000(b *testing.B)    { benchScale(b, "stores2000.fcm", &explicit.Engine{}) }
func BenchmarkScaleStores2000Reduced(b *testing.B) {
	benchScale(b, "stores2000.fcm", reduced(&explicit.Engine{}))
}

// BenchmarkScaleBarrier6Backward runs the SB search alone (the forward
// abstraction only prunes it).
func BenchmarkScaleBarrier6Backward(b *testing.B) {
	benchScale(b, "barrier6.fcm", &sb.Engine{Backward: true})
}

// BenchmarkScaleCASLock4x3Backward runs the SB search alone on the CAS
// lock of four interchangeable goroutines, with its symmetry and
// partial-order reductions and (NoReductions) without.
func BenchmarkScaleCASLock4x3Backward(b *testing.B) {
	benchScale(b, "caslock4x3.fcm", &sb.Engine{Backward: true})
}
func BenchmarkScaleCASLock4x3BackwardNoReductions(b *testing.B) {
	benchScale(b, "caslock4x3.fcm", &sb.Engine{Backward: true, NoSymmetry: true, NoPOR: true})
}

func reduced(e engines.Engine) engines.Engine { return &coi.Engine{Inner: e} }
