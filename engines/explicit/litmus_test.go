package explicit_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/explicit"
	"github.com/fencecheck/fencecheck/internal/litmus"
	"github.com/fencecheck/fencecheck/model"
)

// corpus is the shared litmus corpus, beside the repository.
var corpus = filepath.Join("..", "..", "..", "shared", "litmus", "x86-tso.json")

func loadCorpus(t *testing.T) []litmus.Test {
	t.Helper()
	if _, err := os.Stat(corpus); err != nil {
		t.Skipf("litmus corpus not found at %s (it sits beside the repository in the project's checkout): %v", corpus, err)
	}
	tests, err := litmus.Load(corpus)
	if err != nil {
		t.Fatal(err)
	}
	return tests
}

// TestLitmusConformance requires the TSO and SC verdict of every litmus test.
func TestLitmusConformance(t *testing.T) {
	tests := loadCorpus(t)
	if len(tests) != 394 {
		t.Errorf("corpus has %d tests, want 394", len(tests))
	}
	agree := 0
	for _, lt := range tests {
		p, err := lt.Program()
		if err != nil {
			t.Errorf("%s: %v", lt.Name, err)
			continue
		}
		ok := true
		for _, c := range []struct {
			m    model.Model
			want string
		}{{model.TSO, lt.TSO}, {model.SC, lt.SC}} {
			res, err := (&explicit.Engine{}).Check(context.Background(), p, c.m)
			if err != nil {
				t.Errorf("%s under %v: %v", lt.Name, c.m, err)
				ok = false
				continue
			}
			if res.Status == engines.Safe && res.Bound != "" {
				t.Errorf("%s under %v: loop-free program got a bounded answer %q", lt.Name, c.m, res.Bound)
			}
			got := "forbidden"
			if res.Status == engines.Unsafe {
				got = "allowed"
			}
			if got != c.want {
				t.Errorf("%s under %v: got %s, want %s (%s)", lt.Name, c.m, got, c.want, lt.Condition)
				ok = false
			}
		}
		if ok {
			agree++
		}
	}
	t.Logf("litmus conformance: %d/%d tests agree under both TSO and SC", agree, len(tests))
}

// BenchmarkLitmusLargest measures throughput on the litmus test with the
// largest TSO state space.
func BenchmarkLitmusLargest(b *testing.B) {
	if _, err := os.Stat(corpus); err != nil {
		b.Skip("litmus corpus not found")
	}
	tests, err := litmus.Load(corpus)
	if err != nil {
		b.Fatal(err)
	}
	var (
		largest *model.Program
		most    int64
	)
	for _, lt := range tests {
		p, err := lt.Program()
		if err != nil {
			b.Fatal(err)
		}
		res, err := (&explicit.Engine{}).Check(context.Background(), p, model.TSO)
		if err != nil {
			b.Fatal(err)
		}
		if res.Stats.States > most {
			largest, most = p, res.Stats.States
		}
	}
	b.Logf("largest litmus test: %s, %d TSO states", largest.Name, most)
	b.ResetTimer()
	for b.Loop() {
		if _, err := (&explicit.Engine{}).Check(context.Background(), largest, model.TSO); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(most)*float64(b.N)/b.Elapsed().Seconds(), "states/s")
}
