package sb_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/sb"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/modelfile"
)

func benchProgram(b *testing.B, p *model.Program, e *sb.Engine) {
	b.Helper()
	var res *engines.Result
	for b.Loop() {
		var err error
		res, err = e.Check(context.Background(), p, model.TSO)
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(res.Stats.States), "states")
	if res.Status == engines.Inconclusive {
		b.Fatalf("%v", res)
	}
}

func benchLitmus(b *testing.B, name string) {
	for _, lt := range loadCorpus(b) {
		if lt.Name == name {
			p, err := lt.Program()
			if err != nil {
				b.Fatal(err)
			}
			benchProgram(b, p, &sb.Engine{})
			return
		}
	}
	b.Fatalf("no litmus test %s", name)
}

func benchFile(b *testing.B, dir, file string) {
	p, err := modelfile.Load(filepath.Join("..", "..", "testdata", dir, file))
	if err != nil {
		b.Fatal(err)
	}
	benchProgram(b, p, &sb.Engine{})
}

func BenchmarkSBLitmusSB(b *testing.B)          { benchLitmus(b, "SB") }
func BenchmarkSBLitmusSBFences(b *testing.B)    { benchLitmus(b, "SB+mfences") }
func BenchmarkSBLitmusMP(b *testing.B)          { benchLitmus(b, "MP") }
func BenchmarkSBLitmusIRIW(b *testing.B)        { benchLitmus(b, "iriw") }
func BenchmarkSBDekker(b *testing.B)            { benchFile(b, "rmm", "dekker.rmm") }
func BenchmarkSBDekkerFenced(b *testing.B)      { benchFile(b, "rmm", "dekker_fenced.rmm") }
func BenchmarkSBPeterson(b *testing.B)          { benchFile(b, "rmm", "peterson.rmm") }
func BenchmarkSBPetersonNative(b *testing.B)    { benchFile(b, "models", "peterson.fcm") }
func BenchmarkSBProducerUnbounded(b *testing.B) { benchProgram(b, producer(true), &sb.Engine{}) }

// BenchmarkSBBackwardHandSB measures the SB search alone on the two-process
// store-buffering program.
func BenchmarkSBBackwardHandSB(b *testing.B) {
	w := func(x int, v int64) model.Op { return model.WriteOp(x, model.C(v)) }
	p := straightLine([][]model.Op{{w(0, 1), model.ReadOp(1, 0)}, {w(1, 1), model.ReadOp(0, 0)}}, []int64{0, 0})
	benchProgram(b, p, &sb.Engine{Backward: true})
}
