package bmc_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/bmc"
	"github.com/fencecheck/fencecheck/engines/explicit"
	"github.com/fencecheck/fencecheck/engines/question/race"
	"github.com/fencecheck/fencecheck/internal/longtest"
	"github.com/fencecheck/fencecheck/internal/progen"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/facts"
)

// configs are the engine configurations the differential tests rotate
// through: refinement with each initial bias, the control-state start, and
// full instantiation.
var configs = []struct {
	name string
	eng  bmc.Engine
}{
	{"ref", bmc.Engine{}},
	{"ref-sync", bmc.Engine{Bias: bmc.BiasSync}},
	{"ref-oia", bmc.Engine{Bias: bmc.BiasNone}},
	{"ref-syncreads", bmc.Engine{SyncReads: true}},
	{"full", bmc.Engine{Full: true}},
}

// parallel runs f(i) for i in [0, n) on GOMAXPROCS goroutines.
func parallel(n int, f func(i int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				f(i)
			}
		}()
	}
	wg.Wait()
}

// diffProgram draws program i of a differential run: half from the race
// generator (locks, publication, atomics, spin loops) with a bad state,
// half from the single-buffer generator (fences, locked operations,
// faults, backward jumps), and an unrolling bound of 1 or 2.
func diffProgram(i int) (*model.Program, int) {
	rng := rand.New(rand.NewPCG(uint64(i), 0xb3c))
	var p *model.Program
	if i%2 == 0 {
		p = progen.Race(rng, progen.RaceOptions{Loops: rng.IntN(3) > 0, Bad: true})
	} else {
		p = progen.Simple(rng)
	}
	return p, 1 + rng.IntN(2)
}

// TestDiffReach compares the engine with the explicit-state engine within
// the same unrolling bound: the explicit engine searches the unrolled
// program, which has exactly the executions of at most k backward jumps
// per process, and the engine checks the original program with bound k.
// Both must agree under SC and under TSO; every unsafe answer's trace
// replays on the original program; a safe answer carries the bound exactly
// when the unrolling cut some execution.
func TestDiffReach(t *testing.T) {
	requireZ3(t)
	n := 1300
	if *long {
		n = 20000
	}
	if longtest.Quick() {
		n = 200
	}
	var (
		mu      sync.Mutex
		fails   int
		counts  = map[string]int{}
		started = time.Now()
	)
	report := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		fails++
		if fails <= 10 {
			t.Errorf(format, args...)
		}
	}
	parallel(n, func(i int) {
		p, k := diffProgram(i)
		u, err := bmc.Unroll(p, k)
		if err != nil {
			report("program %d: unroll: %v", i, err)
			return
		}
		cfg := configs[i%len(configs)]
		eng := cfg.eng
		eng.Unroll = k
		for _, m := range []model.Model{model.SC, model.TSO} {
			want, err := (&explicit.Engine{}).Check(context.Background(), u.Prog, m)
			if err != nil {
				report("program %d under %v: explicit: %v", i, m, err)
				return
			}
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			got, err := eng.Check(ctx, p, m)
			cancel()
			if err != nil {
				report("program %d (%s, k=%d) under %v: %v\n%s", i, cfg.name, k, m, err, dump(p))
				return
			}
			mu.Lock()
			counts[fmt.Sprintf("%v %v", m, want.Status)]++
			mu.Unlock()
			switch {
			case got.Status == engines.Inconclusive:
				report("program %d (%s, k=%d) under %v: %v", i, cfg.name, k, m, got)
			case got.Status != want.Status:
				report("program %d (%s, k=%d) under %v: got %v, explicit says %v\n%s", i, cfg.name, k, m, got.Status, want.Status, dump(p))
			case got.Status == engines.Unsafe:
				if _, err := p.Replay(got.Trace); err != nil || got.Trace.Model != m {
					report("program %d under %v: the trace does not replay: %v", i, m, err)
				}
			case got.Status == engines.Safe && (got.Bound != "") != u.Cut:
				report("program %d under %v: bound %q, but the unrolling cut executions: %v", i, m, got.Bound, u.Cut)
			}
		}
	})
	t.Logf("%d programs under SC and TSO in %v, %d disagreements; outcomes: %v", n, time.Since(started).Round(time.Millisecond), fails, counts)
}

// TestDiffRaces compares the races the engine finds (package race asking
// it, on the original program with bound k: the first phase by the query
// program, the second natively, see [bmc.Engine.Enumerate]) with those the
// explicit engine finds on the program unrolled to k, by both phases of
// race.Check (the second on the program instrumented with happens-before
// bits): the same verdict, the same pairs of access sites of the original
// program, every trace executing on it and ending with the pair unordered.
func TestDiffRaces(t *testing.T) {
	requireZ3(t)
	n := 700
	if *long {
		n = 10000
	}
	if longtest.Quick() {
		n = 100
	}
	var (
		mu      sync.Mutex
		fails   int
		racy    int
		hbOnly  atomic.Int64 // races whose accesses are not enabled together
		started = time.Now()
	)
	report := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		fails++
		if fails <= 10 {
			t.Errorf(format, args...)
		}
	}
	parallel(n, func(i int) {
		rng := rand.New(rand.NewPCG(uint64(i), 0x7ace))
		p := progen.Race(rng, progen.RaceOptions{Loops: rng.IntN(3) > 0})
		k := 1 + rng.IntN(2)
		u, err := bmc.Unroll(p, k)
		if err != nil {
			report("program %d: unroll: %v", i, err)
			return
		}
		// Sites of the unrolled program are the original's transitions.
		key := func(a race.Access) string { return fmt.Sprintf("%d/%d", a.Proc, u.Trans[a.Proc][a.Trans]) }
		want, err := race.Check(context.Background(), &explicit.Engine{}, u.Prog, race.Options{Key: key})
		if err != nil {
			report("program %d: explicit: %v", i, err)
			return
		}
		cfg := configs[i%len(configs)]
		eng := cfg.eng
		eng.Unroll = k
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		got, err := race.Check(ctx, &eng, p, race.Options{})
		cancel()
		if err != nil {
			report("program %d (%s): %v\n%s", i, cfg.name, err, dump(p))
			return
		}
		if want.Status == engines.Unsafe {
			mu.Lock()
			racy++
			mu.Unlock()
		}
		// A program that faults under SC stops race.Check at the first
		// fault trace an engine returns, so which races come first depends
		// on the engine; then only the races found are checked.
		faults := got.Faults || want.Faults
		if faults {
			f := u.Prog.Clone()
			f.Bad = nil
			if r, err := (&explicit.Engine{}).Check(context.Background(), f, model.SC); err != nil || r.Status != engines.Unsafe {
				report("program %d: stopped at a fault, but the program does not fault (%v)", i, err)
				return
			}
		} else if got.Status != want.Status {
			report("program %d (%s, k=%d): got %v (%s), explicit says %v\n%s", i, cfg.name, k,
				got.Status, got.Reason, want.Status, dump(p))
			return
		}
		if got.Incomplete != "" {
			report("program %d (%s): incomplete: %s", i, cfg.name, got.Incomplete)
		}
		wantSet := map[string]bool{}
		for _, r := range want.Races {
			wantSet[pairKey(r.A.Proc, u.Trans[r.A.Proc][r.A.Trans], r.B.Proc, u.Trans[r.B.Proc][r.B.Trans], r.Var)] = true
		}
		gotSet := map[string]bool{}
		for _, r := range got.Races {
			gotSet[pairKey(r.A.Proc, r.A.Trans, r.B.Proc, r.B.Trans, r.Var)] = true
			if err := unordered(p, r); err != nil {
				report("program %d: %v", i, err)
			}
			if states, err := p.Execute(r.Trace); err == nil && states[len(states)-1].Locs[r.B.Proc] != p.Procs[r.B.Proc].Trans[r.B.Trans].From {
				hbOnly.Add(1)
			}
		}
		if faults {
			return
		}
		if want.Incomplete != "" {
			// The explicit engine's second phase stopped (at a fault of
			// the instrumented program, say): its races are among ours.
			for key := range wantSet {
				if !gotSet[key] {
					report("program %d (%s, k=%d): race %s missing (explicit incomplete: %s)\n%s", i, cfg.name, k, key, want.Incomplete, dump(p))
				}
			}
			return
		}
		if !sameKeys(wantSet, gotSet) {
			report("program %d (%s, k=%d): races %v, explicit finds %v\n%s", i, cfg.name, k, keys(gotSet), keys(wantSet), dump(p))
		}
	})
	t.Logf("%d programs (%d racy, %d races of the second phase) in %v, %d disagreements", n, racy, hbOnly.Load(), time.Since(started).Round(time.Millisecond), fails)
}

func pairKey(pa, ta, pb, tb, x int) string {
	a, b := fmt.Sprintf("%d/%d", pa, ta), fmt.Sprintf("%d/%d", pb, tb)
	if b < a {
		a, b = b, a
	}
	return fmt.Sprintf("%s-%s@%d", a, b, x)
}

func sameKeys(a, b map[string]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// dump writes p in a readable form for failure messages.
func dump(p *model.Program) string {
	s := ""
	for _, v := range p.Vars {
		s += fmt.Sprintf("var %s %v = %v\n", v.Name, v.Dom, v.Init)
	}
	for _, q := range p.Procs {
		s += fmt.Sprintf("process %s init %s\n", q.Name, q.Locs[q.Init].Name)
		for _, tr := range q.Trans {
			s += fmt.Sprintf("  %s -> %s: %s\n", q.Locs[tr.From].Name, q.Locs[tr.To].Name, tr.Op.Format(p, q))
		}
	}
	for bi := range p.Bad {
		s += "bad " + p.BadName(bi) + "\n"
	}
	return s
}

// unordered checks that r's trace executes on p under SC without a fault
// and ends with r.A's process at r.A's source location and an execution of
// r.B's transition that does not happen before that point, by the vector
// clocks of the trace: program order, and a locked operation or atomic
// load that observes a variable after a locked operation last wrote it.
func unordered(p *model.Program, r race.Race) error {
	states, err := p.Execute(r.Trace)
	if err != nil || r.Trace.Model != model.SC {
		return fmt.Errorf("the trace of race %+v does not execute: %v", r.Pair, err)
	}
	last := states[len(states)-1]
	if last.Fault != nil || last.Locs[r.A.Proc] != p.Procs[r.A.Proc].Trans[r.A.Trans].From {
		return fmt.Errorf("the trace of race %+v does not end at A", r.Pair)
	}
	n := len(p.Procs)
	clock := make([][]int, n) // clock[q][p]: steps of p that happen before q's point
	for q := range clock {
		clock[q] = make([]int, n)
	}
	rel := map[int][]int{} // variable -> clock of its last locked writer
	ranB := -1             // the step count of B's process at B's last run
	steps := make([]int, n)
	join := func(a, b []int) {
		for i := range a {
			a[i] = max(a[i], b[i])
		}
	}
	for _, st := range r.Trace.Steps {
		q := st.Proc
		op := p.Procs[q].Trans[st.Trans].Op
		for _, x := range facts.Acquires(op) {
			if c, ok := rel[x]; ok {
				join(clock[q], c)
			}
		}
		steps[q]++
		clock[q][q] = steps[q]
		if q == r.B.Proc && st.Trans == r.B.Trans {
			ranB = steps[q]
		}
		for _, x := range writtenVars(op) {
			if op.Kind == model.Locked {
				rel[x] = slices.Clone(clock[q])
			} else {
				delete(rel, x) // a plain store carries no knowledge
			}
		}
	}
	if last.Locs[r.B.Proc] == p.Procs[r.B.Proc].Trans[r.B.Trans].From {
		return nil // both enabled
	}
	if ranB < 0 || clock[r.A.Proc][r.B.Proc] >= ranB {
		return fmt.Errorf("the trace of race %+v ends with B ordered before A (or not run)", r.Pair)
	}
	return nil
}

// writtenVars returns the variables op writes.
func writtenVars(op model.Op) []int {
	switch op.Kind {
	case model.Write:
		return []int{op.Var}
	case model.Locked:
		var xs []int
		for _, b := range op.Body {
			if b.Kind == model.Write && !slices.Contains(xs, b.Var) {
				xs = append(xs, b.Var)
			}
		}
		return xs
	}
	return nil
}

// TestRaceSystems compares the races of the benchmark systems with 3 and
// 4 goroutines that the engine finds (both phases of race.Check, the
// second answered natively) with those the explicit engine finds on the
// systems unrolled to the same bound.
func TestRaceSystems(t *testing.T) {
	requireZ3(t)
	for _, s := range filter(systems([]int{3, 4}), "mutex", "barrier", "publication") {
		t.Run(s.label(), func(t *testing.T) {
			u, err := bmc.Unroll(s.prog, s.unroll)
			if err != nil {
				t.Fatal(err)
			}
			key := func(a race.Access) string { return fmt.Sprintf("%d/%d", a.Proc, u.Trans[a.Proc][a.Trans]) }
			want, err := race.Check(context.Background(), &explicit.Engine{}, u.Prog, race.Options{Key: key})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			got, err := race.Check(ctx, &bmc.Engine{Unroll: s.unroll}, s.prog, race.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if ctx.Err() != nil {
				// Z3's time grows with the machine's load: the minute is a
				// safety net, not the test.
				t.Skipf("the minute ran out: %v (%s%s)", got.Status, got.Reason, got.Incomplete)
			}
			if got.Status != want.Status || got.Incomplete != "" || want.Incomplete != "" {
				t.Fatalf("got %v (%s%s), explicit %v (%s%s)", got.Status, got.Reason, got.Incomplete, want.Status, want.Reason, want.Incomplete)
			}
			if (got.Status == engines.Unsafe) != s.bug {
				t.Errorf("status %v for a system with bug=%v", got.Status, s.bug)
			}
			wantSet, gotSet := map[string]bool{}, map[string]bool{}
			for _, r := range want.Races {
				wantSet[pairKey(r.A.Proc, u.Trans[r.A.Proc][r.A.Trans], r.B.Proc, u.Trans[r.B.Proc][r.B.Trans], r.Var)] = true
			}
			for _, r := range got.Races {
				gotSet[pairKey(r.A.Proc, r.A.Trans, r.B.Proc, r.B.Trans, r.Var)] = true
				if err := unordered(s.prog, r); err != nil {
					t.Error(err)
				}
			}
			if !sameKeys(wantSet, gotSet) {
				t.Errorf("races %v, explicit finds %v", keys(gotSet), keys(wantSet))
			}
		})
	}
}
