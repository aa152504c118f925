package pred_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/pred"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/native"
)

func load(t testing.TB, name string) *model.Program {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	p, err := native.Parse(name, src)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestModels(t *testing.T) {
	requireZ3(t)
	for _, tc := range []struct {
		file string
		m    model.Model
		want engines.Status
	}{
		{"sb.fcm", model.SC, engines.Safe},
		{"sb.fcm", model.TSO, engines.Unsafe},
		{"counter.fcm", model.SC, engines.Unsafe},
		{"counter.fcm", model.TSO, engines.Unsafe},
		{"ticket.fcm", model.SC, engines.Safe},
		{"ticket.fcm", model.TSO, engines.Safe},
	} {
		t.Run(tc.file+"/"+tc.m.String(), func(t *testing.T) {
			p := load(t, tc.file)
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			rep, err := (&pred.Engine{}).Analyze(ctx, p, tc.m)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%v; k=%d, %d iterations, predicates %q, %d queries, %d solver calls", rep.Result, rep.K, rep.Iterations, rep.Predicates, rep.Queries, rep.SolverCalls)
			if rep.Result.Status != tc.want {
				t.Fatalf("got %v, want %v", rep.Result.Status, tc.want)
			}
		})
	}
}
