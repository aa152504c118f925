package pred_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/fencecheck/fencecheck/engines/pred"
	"github.com/fencecheck/fencecheck/engines/question/fence"
	"github.com/fencecheck/fencecheck/internal/longtest"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/modelfile"
)

// kabsDir holds the eight programs of Table 1 of the predicate-abstraction
// paper, with unbounded integers.
var kabsDir = filepath.Join("..", "..", "testdata", "kabs")

type kabsEntry struct {
	File        string  `json:"file"`
	Name        string  `json:"name"`
	PaperTime   float64 `json:"paper_time_s"`
	PaperFences int     `json:"paper_fences_per_proc"`
	PaperPreds  int     `json:"paper_predicates"`
}

func loadKabs(t testing.TB) []kabsEntry {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(kabsDir, "expected.json"))
	if err != nil {
		t.Skipf("kabs benchmarks not found: %v", err)
	}
	var es []kabsEntry
	if err := json.Unmarshal(data, &es); err != nil {
		t.Fatal(err)
	}
	return es
}

// kabsResult is one fence inference over the pred engine.
type kabsResult struct {
	res   *fence.Result
	preds int // the most parameterized predicates of any check
	k     int // the largest k of any check
	// queries and calls sum the satisfiability questions of every check
	// and those that reached Z3.
	queries, calls int64
}

func inferKabs(ctx context.Context, p *model.Program) (*kabsResult, error) {
	var mu sync.Mutex
	out := &kabsResult{}
	eng := &pred.Engine{Observe: func(r *pred.Report) {
		mu.Lock()
		out.preds = max(out.preds, len(r.Predicates))
		out.k = max(out.k, r.K)
		out.queries += r.Queries
		out.calls += r.SolverCalls
		mu.Unlock()
	}}
	res, err := fence.Infer(ctx, eng, p, fence.Options{})
	out.res = res
	return out, err
}

// fencesPerProc returns the number of barriers of the set per process, or
// -1 when processes differ.
func fencesPerProc(p *model.Program, set []fence.Place) int {
	n := make([]int, len(p.Procs))
	for _, pl := range set {
		n[pl.Proc]++
	}
	for _, c := range n[1:] {
		if c != n[0] {
			return -1
		}
	}
	return n[0]
}

// TestKabs infers fences with the pred engine on the eight programs of
// Table 1 of the paper and checks the number of barriers per process.
func TestKabs(t *testing.T) {
	requireZ3(t)
	for _, e := range loadKabs(t) {
		t.Run(e.Name, func(t *testing.T) {
			if !*long && e.PaperTime > 100 || longtest.Quick() && e.PaperTime > 10 {
				t.Skip("slow; run with -long")
			}
			p, err := modelfile.Load(filepath.Join(kabsDir, e.File))
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
			defer cancel()
			start := time.Now()
			r, err := inferKabs(ctx, p)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %s; %d predicates (paper %d), k = %d, %v (paper %gs)", e.Name, r.res.Summary(p), r.preds, e.PaperPreds, r.k, time.Since(start).Round(time.Millisecond), e.PaperTime)
			got := 0
			switch r.res.Status {
			case fence.Correct:
			case fence.Fixable:
				got = fencesPerProc(p, r.res.Sets[0])
			default:
				t.Fatalf("got %v", r.res.Status)
			}
			if got != e.PaperFences {
				t.Errorf("%d barriers per process, the paper has %d", got, e.PaperFences)
			}
		})
	}
}

// BenchmarkKabs infers fences with the pred engine on each program of
// Table 1 of the paper; it reports the most parameterized predicates any
// check used and the largest k.
func BenchmarkKabs(b *testing.B) {
	requireZ3(b)
	for _, e := range loadKabs(b) {
		b.Run(e.File, func(b *testing.B) {
			p, err := modelfile.Load(filepath.Join(kabsDir, e.File))
			if err != nil {
				b.Fatal(err)
			}
			var r *kabsResult
			for b.Loop() {
				r, err = inferKabs(context.Background(), p)
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(r.preds), "predicates")
			b.ReportMetric(float64(r.k), "k")
			b.ReportMetric(float64(r.queries), "queries")
			b.ReportMetric(float64(r.calls), "z3calls")
		})
	}
}
