package pred_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/pred"
	"github.com/fencecheck/fencecheck/engines/question/fence"
	"github.com/fencecheck/fencecheck/engines/sb"
	"github.com/fencecheck/fencecheck/model/modelfile"
)

// slowTable1 are the finite programs whose analysis by the pred engine takes
// longer than the normal test run allows (run with -long).
var slowTable1 = map[string]bool{
	"alternating_bit.rmm": true, "bakery.rmm": true, "prodcons_v1_n2.rmm": true,
	"prodcons_v1_n3.rmm": true, "prodcons_v2_n2.rmm": true, "prodcons_v2_n3.rmm": true,
}

// table1Work bounds the work of the pred engine's fence inference on one
// program of TestFenceTable1.
const table1Work = 10_000_000

// TestFenceTable1 runs fence inference over the pred engine on the finite
// programs of Table 1 of the fence-insertion paper and compares the verdict
// and every minimal fence set with those the exact sb engine gives. With
// -long it takes every program, with a budget: an inconclusive pred answer
// is logged, a conclusive one must agree.
func TestFenceTable1(t *testing.T) {
	requireZ3(t)
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "table1", "*.rmm"))
	if len(files) == 0 {
		t.Skip("no table1 models")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			if slowTable1[filepath.Base(f)] && !*long {
				t.Skip("slow; run with -long")
			}
			p, err := modelfile.Load(f)
			if err != nil {
				t.Fatal(err)
			}
			// A work bound (about a minute of one core), so that the
			// answer is the same on a loaded machine; the wall clock is
			// only a safety net.
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
			defer cancel()
			got, err := fence.Infer(engines.WithMeter(ctx, engines.NewMeter(table1Work)), &pred.Engine{}, p, fence.Options{All: true})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("pred: %s", got.Summary(p))
			if got.Status == fence.Inconclusive {
				return
			}
			want, err := fence.Infer(ctx, &sb.Engine{}, p, fence.Options{All: true})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("sb:   %s", want.Summary(p))
			if got.Status != want.Status || len(got.Sets) != len(want.Sets) {
				t.Fatalf("pred and sb disagree")
			}
			for i := range got.Sets {
				if len(got.Sets[i]) != len(want.Sets[i]) {
					t.Fatalf("set %d differs", i)
				}
				for j := range got.Sets[i] {
					if got.Sets[i][j] != want.Sets[i][j] {
						t.Fatalf("set %d differs", i)
					}
				}
			}
		})
	}
}
