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
	"github.com/fencecheck/fencecheck/engines/race"
	"github.com/fencecheck/fencecheck/internal/progen"
	"github.com/fencecheck/fencecheck/model"
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
	if testing.Short() {
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
// it, on the original program with bound k) with those the explicit engine
// finds on the program unrolled to k, by the first phase of race.Check:
// the same verdict, the same pairs of access sites of the original program
// enabled at once, every trace executing on it.
func TestDiffRaces(t *testing.T) {
	requireZ3(t)
	n := 700
	if *long {
		n = 10000
	}
	if testing.Short() {
		n = 100
	}
	var (
		mu      sync.Mutex
		fails   int
		racy    int
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
		want, err := race.Check(context.Background(), &explicit.Engine{}, u.Prog, race.Options{Key: key, Enumerate: firstPhase{}})
		if err != nil {
			report("program %d: explicit: %v", i, err)
			return
		}
		cfg := configs[i%len(configs)]
		eng := cfg.eng
		eng.Unroll = k
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		got, err := eng.Races(ctx, p)
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
		if (got.Incomplete != "") != (got.Status == engines.Unsafe) {
			report("program %d: incomplete %q with status %v", i, got.Incomplete, got.Status)
		}
		wantSet := map[string]bool{}
		for _, r := range want.Races {
			wantSet[pairKey(r.A.Proc, u.Trans[r.A.Proc][r.A.Trans], r.B.Proc, u.Trans[r.B.Proc][r.B.Trans], r.Var)] = true
		}
		gotSet := map[string]bool{}
		for _, r := range got.Races {
			gotSet[pairKey(r.A.Proc, r.A.Trans, r.B.Proc, r.B.Trans, r.Var)] = true
			states, err := p.Execute(r.Trace)
			if err != nil || r.Trace.Model != model.SC {
				report("program %d: a race trace does not execute: %v", i, err)
				continue
			}
			last := states[len(states)-1]
			if last.Fault != nil || last.Locs[r.A.Proc] != p.Procs[r.A.Proc].Trans[r.A.Trans].From ||
				last.Locs[r.B.Proc] != p.Procs[r.B.Proc].Trans[r.B.Trans].From {
				report("program %d: the trace of race %+v does not end with both accesses enabled", i, r.Pair)
			}
		}
		if faults {
			return
		}
		if !sameKeys(wantSet, gotSet) {
			report("program %d (%s, k=%d): races %v, explicit finds %v\n%s", i, cfg.name, k, keys(gotSet), keys(wantSet), dump(p))
		}
	})
	t.Logf("%d programs (%d racy) in %v, %d disagreements", n, racy, time.Since(started).Round(time.Millisecond), fails)
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

// firstPhase declines the questions of race.Check's second phase.
type firstPhase struct{}

func (firstPhase) Name() string { return "first-phase" }

func (firstPhase) Check(_ context.Context, _ *model.Program, m model.Model) (*engines.Result, error) {
	return &engines.Result{Status: engines.Inconclusive, Model: m, Reason: "first phase only"}, nil
}
