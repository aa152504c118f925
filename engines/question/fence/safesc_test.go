package fence_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/explicit"
	"github.com/fencecheck/fencecheck/engines/question/fence"
	"github.com/fencecheck/fencecheck/internal/longtest"
	"github.com/fencecheck/fencecheck/model"
)

// TestSafeUnderSC checks that Options.SafeUnderSC, given for the litmus
// tests that the explicit engine finds safe under SC, leaves the answer
// of the inference as it was (status and every minimal set), and that it
// spares engine checks: the barrier sets that drain every read are decided
// without one.
func TestSafeUnderSC(t *testing.T) {
	tests := loadCorpus(t)
	ctx := context.Background()
	eng := &explicit.Engine{}
	compared, spared := 0, 0
	for i, lt := range tests {
		if longtest.Quick() && (len(lt.Threads) > 4 || i%3 != 0) {
			continue
		}
		p, err := lt.Program()
		if err != nil {
			t.Fatalf("%s: %v", lt.Name, err)
		}
		sc, err := eng.Check(ctx, p, model.SC)
		if err != nil {
			t.Fatal(err)
		}
		if sc.Status != engines.Safe || sc.Bound != "" {
			continue
		}
		want, err := fence.Infer(ctx, eng, p, fence.Options{All: true})
		if err != nil {
			t.Fatal(err)
		}
		got, err := fence.Infer(ctx, eng, p, fence.Options{All: true, SafeUnderSC: true})
		if err != nil {
			t.Fatal(err)
		}
		if got.Status != want.Status || !reflect.DeepEqual(got.Sets, want.Sets) {
			t.Fatalf("%s: with SafeUnderSC %s; without %s", lt.Name, got.Summary(p), want.Summary(p))
		}
		compared++
		if got.Stats.States < want.Stats.States {
			spared++
		}
	}
	if compared == 0 || spared == 0 {
		t.Fatalf("%d tests compared, %d spared a search: the option went untested", compared, spared)
	}
	t.Logf("%d tests compared, %d spared a search", compared, spared)
}
