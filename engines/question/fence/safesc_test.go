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
// without one. Without the option, the inference answers those sets by
// one search under SC: the answer is the same again, and it is the one of
// the searches under TSO.
func TestSafeUnderSC(t *testing.T) {
	tests := loadCorpus(t)
	ctx := context.Background()
	eng := &explicit.Engine{}
	compared, spared, bySCs := 0, 0, 0
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
		want, err := fence.Infer(ctx, eng, p, fence.Options{All: true, UnderModelOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		bySC, err := fence.Infer(ctx, eng, p, fence.Options{All: true})
		if err != nil {
			t.Fatal(err)
		}
		if bySC.Status != want.Status || !reflect.DeepEqual(bySC.Sets, want.Sets) {
			t.Fatalf("%s: with the sets that drain every read decided under SC %s; under TSO %s", lt.Name, bySC.Summary(p), want.Summary(p))
		}
		got, err := fence.Infer(ctx, eng, p, fence.Options{All: true, SafeUnderSC: true})
		if err != nil {
			t.Fatal(err)
		}
		if got.Status != want.Status || !reflect.DeepEqual(got.Sets, want.Sets) {
			t.Fatalf("%s: with SafeUnderSC %s; without %s", lt.Name, got.Summary(p), want.Summary(p))
		}
		if bySC.Stats.SCChecks > 0 {
			bySCs++
		}
		compared++
		if got.Stats.States < want.Stats.States {
			spared++
		}
	}
	if compared == 0 || spared == 0 || bySCs == 0 {
		t.Fatalf("%d tests compared, %d spared a search, %d decided sets under SC: an option went untested", compared, spared, bySCs)
	}
	t.Logf("%d tests compared, %d spared a search, %d decided sets under SC", compared, spared, bySCs)
}
