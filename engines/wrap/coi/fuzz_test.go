package coi_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"testing"
	"time"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/explicit"
	"github.com/fencecheck/fencecheck/engines/sb"
	"github.com/fencecheck/fencecheck/engines/wrap/coi"
	"github.com/fencecheck/fencecheck/internal/cputime"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/native"
)

// Limits of FuzzPipeline: every engine call gets fuzzBudget, must return
// within fuzzSlack more, and must not grow the heap by more than fuzzHeap.
const (
	fuzzBudget = 200 * time.Millisecond
	fuzzSlack  = 2 * time.Second
	fuzzHeap   = 1 << 30
)

// wideSeed has domains of 2^63 values in every place an engine used to
// enumerate them: initial values '*', a bad-state condition, a read into a
// narrow register.
const wideSeed = `
var x : [0:9223372036854775807] = *
var y : [-9223372036854775808:9223372036854775807] = 0
process P {
  reg $r : [0:9223372036854775807] = 0
  reg $s : [0:1] = 0
  L0 -> L1 : write y := 1
  L1 -> L2 : read $r := x
  L2 -> L3 : read $s := y
}
bad : P@L3 & P.$r < 5
`

// FuzzPipeline parses model files and runs them through the engines, as
// they are and reduced, under SC and TSO: whatever the input, every call
// must end within its time budget (plus slack) without growing the heap
// beyond fuzzHeap, and every unsafe answer must replay. The seeds are the
// scale models and programs with wide domains.
func FuzzPipeline(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "..", "testdata", "scale", "*.fcm"))
	for _, file := range files {
		if data, err := os.ReadFile(file); err == nil && len(data) < 8000 {
			f.Add(data)
		}
	}
	f.Add([]byte(wideSeed))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := native.Parse("fuzz.fcm", data)
		if err != nil || p.Validate() != nil {
			return
		}
		for _, e := range []engines.Engine{&sb.Engine{}, &explicit.Engine{}, &coi.Engine{Inner: &sb.Engine{}}, &coi.Engine{Inner: &explicit.Engine{}}} {
			for _, m := range []model.Model{model.SC, model.TSO} {
				runtime.GC()
				before := heap()
				var peak uint64
				stop := make(chan struct{})
				done := make(chan struct{})
				go func() {
					defer close(done)
					for {
						if h := heap(); h > peak {
							peak = h
						}
						select {
						case <-stop:
							return
						case <-time.After(5 * time.Millisecond):
						}
					}
				}()
				ctx, cancel := context.WithTimeout(context.Background(), fuzzBudget)
				var res *engines.Result
				var err error
				// CPU time: the wall time grows with the machine's load.
				_, elapsed := cputime.Measure(func() { res, err = e.Check(ctx, p, m) })
				cancel()
				close(stop)
				<-done
				if elapsed > fuzzBudget+fuzzSlack {
					t.Errorf("%T under %v: %v after %v of CPU time, budget %v", e, m, res, elapsed, fuzzBudget)
				}
				if peak > before+fuzzHeap {
					t.Errorf("%T under %v: the heap grew by %d MiB", e, m, (peak-before)>>20)
				}
				if err == nil && res.Status == engines.Unsafe {
					if _, rerr := p.Replay(res.Trace); rerr != nil {
						t.Errorf("%T under %v: the trace does not replay: %v", e, m, rerr)
					}
				}
			}
		}
	})
}

func heap() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}
