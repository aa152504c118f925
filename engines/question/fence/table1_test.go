package fence_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fencecheck/fencecheck/engines/question/fence"
	"github.com/fencecheck/fencecheck/engines/sb"
	"github.com/fencecheck/fencecheck/model/modelfile"
)

// TestTable1MinimalSets checks every minimal barrier set of the programs of
// Table 1 of the single-buffer paper (testdata/table1, whose counts the
// bench of cmd/fencemodel compares with the paper's) with the exact sb
// engine: every barrier is after one write, on that write's own edge; the
// program with the set's barriers is correct; and without any one of them it
// is not (CheckMinimal).
func TestTable1MinimalSets(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "..", "testdata", "table1", "*.rmm"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no Table 1 programs: %v", err)
	}
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".rmm"), func(t *testing.T) {
			t.Parallel()
			p, err := modelfile.Load(f)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			eng := &sb.Engine{}
			res, err := fence.Infer(ctx, eng, p, fence.Options{All: true})
			if err != nil {
				t.Fatal(err)
			}
			t.Log(res.Summary(p))
			if res.Status != fence.Fixable {
				return
			}
			for i, set := range res.Sets {
				for _, pl := range set {
					if !pl.OnWrite() {
						t.Errorf("set %d: %s is not after a write", i+1, pl.Format(p))
					}
				}
				if err := fence.CheckMinimal(ctx, eng, p, set); err != nil {
					t.Errorf("set %d: %v", i+1, err)
				}
			}
		})
	}
}
