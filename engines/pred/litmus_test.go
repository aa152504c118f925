package pred_test

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/pred"
	"github.com/fencecheck/fencecheck/internal/litmus"
	"github.com/fencecheck/fencecheck/model"
)

var long = flag.Bool("long", false, "run the whole litmus corpus and larger differential tests")

// corpus is the shared litmus corpus, beside the repository.
var corpus = filepath.Join("..", "..", "..", "shared", "litmus", "x86-tso.json")

// TestLitmus checks the engine's TSO and SC verdicts against herd7's on the
// litmus corpus: a sample normally, every test with -long. Unsafe answers
// carry traces that replayed (engines.Verify ran in the engine).
func TestLitmus(t *testing.T) {
	requireZ3(t)
	if _, err := os.Stat(corpus); err != nil {
		t.Skipf("litmus corpus not found at %s: %v", corpus, err)
	}
	tests, err := litmus.Load(corpus)
	if err != nil {
		t.Fatal(err)
	}
	step := 8
	if *long {
		step = 1
	}
	agree, total := 0, 0
	for i := 0; i < len(tests); i += step {
		lt := tests[i]
		p, err := lt.Program()
		if err != nil {
			t.Errorf("%s: %v", lt.Name, err)
			continue
		}
		total++
		ok := true
		for _, c := range []struct {
			m    model.Model
			want string
		}{{model.TSO, lt.TSO}, {model.SC, lt.SC}} {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			res, err := (&pred.Engine{}).Check(ctx, p, c.m)
			cancel()
			if err != nil {
				t.Errorf("%s under %v: %v", lt.Name, c.m, err)
				ok = false
				continue
			}
			if res.Status == engines.Inconclusive {
				t.Errorf("%s under %v: %v", lt.Name, c.m, res)
				ok = false
				continue
			}
			got := "forbidden"
			if res.Status == engines.Unsafe {
				got = "allowed"
				if res.Trace == nil || res.Trace.Model != c.m {
					t.Errorf("%s under %v: unsafe without a trace of the model", lt.Name, c.m)
				}
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
	t.Logf("litmus: %d/%d tests agree with herd7 under both TSO and SC", agree, total)
}
