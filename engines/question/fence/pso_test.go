package fence_test

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/explicit"
	"github.com/fencecheck/fencecheck/engines/question/fence"
	"github.com/fencecheck/fencecheck/internal/litmus"
	"github.com/fencecheck/fencecheck/internal/longtest"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/modelfile"
)

// TestLitmusCorpusPSO runs the inference under PSO on the litmus tests of
// the corpus of at most 4 threads with the explicit engine (the quick run
// takes every twelfth; 6.SB, which has 635,070 states under PSO, where the
// engine runs without its partial-order reduction, is left out), against the corpus's interpreter
// (litmus.Test.Reachable):
//   - allowed under PSO, forbidden under SC: Fixable; every minimal set
//     makes the PSO search find nothing, is minimal, and none of its full
//     fences can be a store-store fence; the cheapest search returns the
//     first of all the sets;
//   - forbidden under PSO: Correct;
//   - allowed under SC: WrongUnderSC, which no barrier repairs.
func TestLitmusCorpusPSO(t *testing.T) {
	tests := loadCorpus(t)
	ctx := context.Background()
	eng := &explicit.Engine{}
	counts := map[fence.Status]int{}
	kinds := map[string]int{} // the kinds of barriers of the cheapest sets
	for i, lt := range tests {
		if len(lt.Threads) > 4 || longtest.Quick() && i%12 != 0 {
			continue
		}
		p, err := lt.Program()
		if err != nil {
			t.Fatalf("%s: %v", lt.Name, err)
		}
		pso, _, err := lt.Reachable(litmus.PSO)
		if err != nil {
			t.Fatalf("%s: %v", lt.Name, err)
		}
		want := fence.Correct
		switch {
		case litmus.Allowed(lt.SC):
			want = fence.WrongUnderSC
		case pso:
			want = fence.Fixable
		}
		res, err := fence.Infer(ctx, eng, p, fence.Options{All: true, Model: model.PSO})
		if err != nil {
			t.Fatalf("%s: %v", lt.Name, err)
		}
		counts[res.Status]++
		if res.Status != want {
			t.Errorf("%s: %s; want %v", lt.Name, res.Summary(p), want)
			continue
		}
		if want != fence.Fixable {
			continue
		}
		for _, set := range res.Sets {
			if err := fence.CheckMinimalUnder(ctx, eng, p, set, model.PSO); err != nil {
				t.Errorf("%s: %v", lt.Name, err)
			}
			if err := fence.CheapestUnder(ctx, eng, p, set, model.PSO); err != nil {
				t.Errorf("%s: %v", lt.Name, err)
			}
		}
		cheap, err := fence.Infer(ctx, eng, p, fence.Options{Model: model.PSO})
		if err != nil {
			t.Fatalf("%s, cheapest: %v", lt.Name, err)
		}
		if cheap.Status != fence.Fixable || !reflect.DeepEqual(cheap.Sets[0], res.Sets[0]) {
			t.Errorf("%s: cheapest search gives %s, all sets %s", lt.Name, cheap.Summary(p), res.Summary(p))
			continue
		}
		ss, full := 0, 0
		for _, pl := range cheap.Sets[0] {
			if pl.StoreStore {
				ss++
			} else {
				full++
			}
		}
		kinds[fmt.Sprintf("%d store-store + %d full", ss, full)]++
	}
	t.Logf("verdicts: %v; cheapest sets: %v", counts, kinds)
}

// TestPSOFences checks the inference under PSO by hand: message passing
// needs a store-store fence between its writes, store buffering full
// fences, and the costs follow FullFenceWeight.
func TestPSOFences(t *testing.T) {
	ctx := context.Background()
	eng := &explicit.Engine{}
	for _, tc := range []struct {
		name    string
		threads [][]litmus.Instr
		cond    *litmus.Cond
		want    fence.Status
		sets    string // Summary's sets
		cost    int
	}{
		{"MP", [][]litmus.Instr{{w("x", 1), w("y", 1)}, {r("y", "a"), r("x", "b")}},
			and(reg(1, "a", 1), reg(1, "b", 0)), fence.Fixable, "fixable: 1 minimal set(s): {P0@L0->L1(ss)}", 1},
		{"SB", [][]litmus.Instr{{w("x", 1), r("y", "a")}, {w("y", 1), r("x", "b")}},
			and(reg(0, "a", 0), reg(1, "b", 0)), fence.Fixable, "fixable: 1 minimal set(s): {P0@L0->L1 P1@L0->L1}", 2 * fence.FullFenceWeight},
		{"2+2W", [][]litmus.Instr{{w("x", 1), w("y", 2)}, {w("y", 1), w("x", 2)}},
			and(mem("x", 1), mem("y", 1)), fence.Fixable, "fixable: 1 minimal set(s): {P0@L0->L1(ss) P1@L0->L1(ss)}", 2},
		{"MP+mfence", [][]litmus.Instr{{w("x", 1), {Op: "MFENCE"}, w("y", 1)}, {r("y", "a"), r("x", "b")}},
			and(reg(1, "a", 1), reg(1, "b", 0)), fence.Correct, "correct", 0},
		{"SC-wrong", [][]litmus.Instr{{w("x", 1)}, {r("x", "a")}},
			reg(1, "a", 1), fence.WrongUnderSC, "wrong under SC: no barrier can repair it", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lt := litmus.Test{Name: tc.name, Threads: tc.threads, Cond: tc.cond}
			p, err := lt.Program()
			if err != nil {
				t.Fatal(err)
			}
			res, err := fence.Infer(ctx, eng, p, fence.Options{All: true, Model: model.PSO})
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != tc.want || len(res.Summary(p)) < len(tc.sets) || res.Summary(p)[:len(tc.sets)] != tc.sets {
				t.Errorf("%s, want %q", res.Summary(p), tc.sets)
			}
			if tc.want == fence.Fixable && res.Costs[0] != tc.cost {
				t.Errorf("cost %d, want %d", res.Costs[0], tc.cost)
			}
			if tc.want == fence.WrongUnderSC && (res.SCTrace == nil || res.SCTrace.Model != model.SC) {
				t.Errorf("no SC trace: %+v", res.SCTrace)
			}
			// Under TSO message passing and 2+2W need nothing.
			tso, err := fence.Infer(ctx, eng, p, fence.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if tc.name == "MP" && tso.Status != fence.Correct {
				t.Errorf("under TSO: %s", tso.Summary(p))
			}
		})
	}
}

func w(loc string, v int64) litmus.Instr   { return litmus.Instr{Op: "W", Loc: loc, Val: v} }
func r(loc, reg string) litmus.Instr       { return litmus.Instr{Op: "R", Loc: loc, Reg: reg} }
func mem(loc string, v int64) *litmus.Cond { return &litmus.Cond{Mem: loc, Val: v} }
func and(cs ...*litmus.Cond) *litmus.Cond  { return &litmus.Cond{And: cs} }
func reg(th int, name string, v int64) *litmus.Cond {
	c := &litmus.Cond{Val: v}
	c.Reg = &struct {
		Thread int    `json:"thread"`
		Reg    string `json:"reg"`
	}{th, name}
	return c
}

// TestPSOFastMutex is a regression test: Lamport's fast mutex without
// fences is fixable under PSO. A set with a store-store fence whose next
// counterexample only a full fence at the same place would forbid was
// once taken for a program no barrier repairs ("not fixable").
func TestPSOFastMutex(t *testing.T) {
	ctx := context.Background()
	p, err := modelfile.Load(filepath.Join("..", "..", "..", "testdata", "coherence", "fast0.rmm"))
	if err != nil {
		t.Fatal(err)
	}
	eng := &explicit.Engine{}
	res, err := fence.Infer(ctx, eng, p, fence.Options{Model: model.PSO})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != fence.Fixable {
		t.Fatalf("%s", res.Summary(p))
	}
	if err := fence.CheckMinimalUnder(ctx, eng, p, res.Sets[0], model.PSO); err != nil {
		t.Error(err)
	}
	if err := fence.CheapestUnder(ctx, eng, p, res.Sets[0], model.PSO); err != nil {
		t.Error(err)
	}
	t.Log(res.Summary(p))
}

// TestPSOAllMinimalSets checks, on the litmus tests with at most four
// places for a barrier (every thirty-sixth test in the quick run), that the inference
// under PSO with Options.All finds every minimal set: those a brute force
// over every choice of no barrier, a store-store or a full fence at each
// place finds safe with no safe weakening (a barrier left out, or a full
// fence made a store-store one).
func TestPSOAllMinimalSets(t *testing.T) {
	tests := loadCorpus(t)
	ctx := context.Background()
	eng := &explicit.Engine{}
	step := longtest.Size(36, 1)
	checked := 0
	for i, lt := range tests {
		if i%step != 0 || len(lt.Threads) > 4 {
			continue
		}
		p, err := lt.Program()
		if err != nil {
			t.Fatal(err)
		}
		places := fence.Candidates(p, fence.AfterWrites, nil)
		if len(places) > 4 {
			continue
		}
		// safe[c] for every choice c, a number in base 3: 0 none, 1
		// store-store, 2 full fence at each place.
		n := 1
		for range places {
			n *= 3
		}
		set := func(c int) []fence.Place {
			var s []fence.Place
			for _, pl := range places {
				switch c % 3 {
				case 1:
					s = append(s, pl.AsStoreStore())
				case 2:
					s = append(s, pl)
				}
				c /= 3
			}
			return s
		}
		safe := make([]bool, n)
		for c := range n {
			res, err := eng.Check(ctx, fence.Insert(p, set(c)), model.PSO)
			if err != nil {
				t.Fatal(err)
			}
			safe[c] = res.Status == engines.Safe
		}
		// weaker reports whether choice a weakens b: at every place no
		// more than b.
		weaker := func(a, b int) bool {
			for range places {
				if a%3 > b%3 {
					return false
				}
				a, b = a/3, b/3
			}
			return true
		}
		var want []string
		for c := range n {
			if safe[c] && !slices.ContainsFunc(seq(n), func(d int) bool { return d != c && safe[d] && weaker(d, c) }) {
				want = append(want, fmt.Sprint(set(c)))
			}
		}
		res, err := fence.Infer(ctx, eng, p, fence.Options{All: true, Model: model.PSO})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, s := range res.Sets {
			got = append(got, fmt.Sprint(s))
		}
		if res.Status == fence.Correct {
			got = []string{fmt.Sprint(set(0))}
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s: %s; the minimal sets are %v", lt.Name, res.Summary(p), want)
		}
		checked++
	}
	t.Logf("%d tests with at most 4 places, every choice of barriers checked", checked)
}

// seq returns 0, ..., n-1.
func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}
