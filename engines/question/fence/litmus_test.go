package fence_test

import (
	"context"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"testing"

	"github.com/fencecheck/fencecheck/engines/explicit"
	"github.com/fencecheck/fencecheck/engines/question/fence"
	"github.com/fencecheck/fencecheck/internal/litmus"
	"github.com/fencecheck/fencecheck/internal/longtest"
	"github.com/fencecheck/fencecheck/model"
)

// TestLitmusCorpus runs the inference on every litmus test of the corpus with
// the explicit engine, which is exact on these loop-free programs:
//   - allowed under TSO, forbidden under SC: Fixable, under both placements;
//     every minimal set makes the TSO search find nothing and is minimal, and
//     the cheapest search (after writes) returns the first of all the sets;
//   - forbidden under TSO: Correct;
//   - allowed under SC: WrongUnderSC.
//
// The quick run (see internal/longtest) takes every sixth test of at most
// 4 threads.
func TestLitmusCorpus(t *testing.T) {
	tests := loadCorpus(t)
	ctx := context.Background()
	eng := &explicit.Engine{}
	var (
		fixable, correct, wrong int
		setSizes                = map[int]int{} // size of the cheapest set -> tests
		setCounts               = map[int]int{} // number of minimal sets -> tests
		differ                  int             // tests whose sets differ between placements
	)
	skipped := 0
	for i, lt := range tests {
		if longtest.Quick() && (len(lt.Threads) > 4 || i%6 != 0) {
			skipped++ // 6.SB alone would take most of the time
			continue
		}
		p, err := lt.Program()
		if err != nil {
			t.Errorf("%s: %v", lt.Name, err)
			continue
		}
		var want fence.Status
		switch {
		case litmus.Allowed(lt.SC):
			want = fence.WrongUnderSC
		case litmus.Allowed(lt.TSO):
			want = fence.Fixable
		default:
			want = fence.Correct
		}
		var all [2]*fence.Result
		checked := map[string]bool{} // sets already checked for minimality
		for gi, g := range []fence.Placement{fence.AfterWrites, fence.Anywhere} {
			res, err := fence.Infer(ctx, eng, p, fence.Options{All: true, Placement: g})
			if err != nil {
				t.Errorf("%s, %v: %v", lt.Name, g, err)
				continue
			}
			all[gi] = res
			if res.Status != want {
				t.Errorf("%s, %v: %s; want %v (TSO %s, SC %s, %s)", lt.Name, g, res.Summary(p), want, lt.TSO, lt.SC, lt.Condition)
				continue
			}
			if res.Bound != "" {
				t.Errorf("%s, %v: bounded verdict %q on a loop-free program", lt.Name, g, res.Bound)
			}
			if want != fence.Fixable {
				continue
			}
			for _, set := range res.Sets {
				// CheckMinimal first checks that the TSO search finds nothing
				// with barriers at set, then that every barrier is needed.
				if key := fmt.Sprint(set); !checked[key] {
					checked[key] = true
					if err := fence.CheckMinimal(ctx, eng, p, set); err != nil {
						t.Errorf("%s, %v: %v", lt.Name, g, err)
					}
				}
			}
			if g != fence.AfterWrites {
				continue
			}
			cheap, err := fence.Infer(ctx, eng, p, fence.Options{Placement: g})
			if err != nil {
				t.Errorf("%s, %v, cheapest: %v", lt.Name, g, err)
				continue
			}
			if cheap.Status != fence.Fixable || !reflect.DeepEqual(cheap.Sets[0], res.Sets[0]) {
				t.Errorf("%s, %v: cheapest search gives %s, all sets %s", lt.Name, g, cheap.Summary(p), res.Summary(p))
			}
		}
		if all[0] == nil || all[0].Status != want {
			continue
		}
		switch want {
		case fence.Fixable:
			fixable++
			setSizes[len(all[0].Sets[0])]++
			setCounts[len(all[0].Sets)]++
			if all[1] != nil && !reflect.DeepEqual(all[0].Sets, all[1].Sets) {
				differ++
			}
		case fence.Correct:
			correct++
		case fence.WrongUnderSC:
			wrong++
		}
	}
	t.Logf("litmus corpus: %d tests: %d fixable, %d correct under TSO, %d wrong under SC", len(tests), fixable, correct, wrong)
	t.Logf("fixable (after writes): smallest minimal set size -> tests: %s", histogram(setSizes))
	t.Logf("fixable (after writes): number of minimal sets -> tests: %s", histogram(setCounts))
	t.Logf("fixable: %d tests have other minimal sets when barriers may go anywhere", differ)
	if skipped > 0 {
		t.Logf("quick run: %d tests skipped", skipped)
		return
	}
	if len(tests) == 394 && (fixable != 128 || correct != 264 || wrong != 2) {
		t.Errorf("want 128 fixable, 264 correct, 2 wrong under SC")
	}
}

func histogram(m map[int]int) string {
	s := ""
	for _, k := range slices.Sorted(maps.Keys(m)) {
		s += fmt.Sprintf(" %d:%d", k, m[k])
	}
	return s
}

// BenchmarkInferLitmus infers barriers for the whole litmus corpus with the
// explicit engine, in both search modes and both placements; the last
// variant leaves out the tests of more than 4 threads (6.SB's explicit
// searches dominate the others).
func BenchmarkInferLitmus(b *testing.B) {
	tests := loadCorpus(b)
	var progs, small []*model.Program
	for _, lt := range tests {
		p, err := lt.Program()
		if err != nil {
			b.Fatal(err)
		}
		progs = append(progs, p)
		if len(lt.Threads) <= 4 {
			small = append(small, p)
		}
	}
	ctx := context.Background()
	for _, bc := range []struct {
		name  string
		progs []*model.Program
		opts  fence.Options
	}{
		{"cheapest", progs, fence.Options{}},
		{"all", progs, fence.Options{All: true}},
		{"all-anywhere", progs, fence.Options{All: true, Placement: fence.Anywhere}},
		{"all-workers=2", progs, fence.Options{All: true, Workers: 2}},
		{"cheapest-upto4threads", small, fence.Options{}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			var checks int
			var states int64
			for b.Loop() {
				checks, states = 0, 0
				for _, p := range bc.progs {
					res, err := fence.Infer(ctx, &explicit.Engine{}, p, bc.opts)
					if err != nil {
						b.Fatal(err)
					}
					checks += res.Stats.Checks + res.Stats.SCChecks
					states += res.Stats.States
				}
			}
			b.ReportMetric(float64(checks), "checks/op")
			b.ReportMetric(float64(states), "states/op")
		})
	}
}
