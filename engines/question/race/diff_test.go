package race_test

import (
	"context"
	"flag"
	"fmt"
	"maps"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/explicit"
	"github.com/fencecheck/fencecheck/engines/lib/smt"
	"github.com/fencecheck/fencecheck/engines/pred"
	"github.com/fencecheck/fencecheck/engines/question/race"
	"github.com/fencecheck/fencecheck/engines/sb"
	"github.com/fencecheck/fencecheck/engines/wrap/coi"
	"github.com/fencecheck/fencecheck/internal/longtest"
	"github.com/fencecheck/fencecheck/internal/progen"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/facts"
	"github.com/fencecheck/fencecheck/model/native"
)

var long = flag.Bool("long", false, "run the long differential tests (20,000 programs each)")

// z3 reports whether the predicate engine can run: the build has Z3 and its
// library loads.
func z3() bool { return smt.Available && smt.Version() != "" }

// outcome is how an answer of [race.Check] compares with the oracle.
type outcome uint8

const (
	// decided: the answer decided every pair, and its races are exactly
	// the oracle's.
	decided outcome = iota
	// stoppedAtFault: the answer is Inconclusive because the program faults
	// under SC (the oracle finds a fault too), or is incomplete in a program
	// that faults; the races it found are among the oracle's.
	stoppedAtFault
	// undecided: the engine ran out of budget or is unavailable; the races
	// it found are among the oracle's.
	undecided
)

// checkRace checks one race of p: A and B are accesses of two processes
// that conflict on Var, and the race's trace executes step by step under SC
// and ends, without a fault, with A's process at A's source location and
// either B's process at B's source location too, or an execution of B that
// does not happen before that point, by the vector clocks of the trace (see
// [unordered]).
func checkRace(p *model.Program, r race.Race) error {
	if r.A.Proc == r.B.Proc {
		return fmt.Errorf("pair %+v: one process", r.Pair)
	}
	ta, tb := p.Procs[r.A.Proc].Trans[r.A.Trans], p.Procs[r.B.Proc].Trans[r.B.Trans]
	if conflicts(footprint(ta.Op), footprint(tb.Op))&(1<<r.Var) == 0 {
		return fmt.Errorf("pair %+v: the accesses do not conflict on %s", r.Pair, p.Vars[r.Var].Name)
	}
	if r.Trace == nil || r.Trace.Model != model.SC {
		return fmt.Errorf("pair %+v: no SC trace", r.Pair)
	}
	states, err := p.Execute(r.Trace)
	if err != nil {
		return fmt.Errorf("pair %+v: the trace does not execute: %v", r.Pair, err)
	}
	last := states[len(states)-1]
	if last.Fault != nil {
		return fmt.Errorf("pair %+v: the trace ends in a fault", r.Pair)
	}
	if last.Locs[r.A.Proc] != ta.From {
		return fmt.Errorf("pair %+v: the trace ends at locations %v, not at A", r.Pair, last.Locs)
	}
	if last.Locs[r.B.Proc] != tb.From && !unordered(p, r.Trace, r.A.Proc, r.B) {
		return fmt.Errorf("pair %+v: the trace ends away from B, and B has not run or happens before A\n%s", r.Pair, p.FormatTrace(r.Trace, states))
	}
	return nil
}

// unordered reports whether, at the end of the SC trace t of p, access b
// has run and its last execution does not happen before the current point
// of process q, by vector clocks: every step advances its process's clock;
// an atomic load and a locked operation that observes a variable (see
// [synchronises]) join the clock the last write of the variable left, if
// that was a locked write; a locked write leaves its process's clock, a
// plain write none.
func unordered(p *model.Program, t *model.Trace, q int, b race.Access) bool {
	n := len(p.Procs)
	clock := make([][]int, n)
	for i := range clock {
		clock[i] = make([]int, n)
	}
	left := make([][]int, len(p.Vars))
	ran := 0 // b's process's clock at b's last execution; 0 when it has not run
	for _, st := range t.Steps {
		op := p.Procs[st.Proc].Trans[st.Trans].Op
		c := clock[st.Proc]
		for _, x := range synchronises(op) {
			for i, v := range left[x] {
				c[i] = max(c[i], v)
			}
		}
		c[st.Proc]++
		if st.Proc == b.Proc && st.Trans == b.Trans {
			ran = c[st.Proc]
		}
		f := footprint(op)
		for x := range p.Vars {
			switch {
			case f.writes&(1<<x) == 0:
			case f.plain:
				left[x] = nil
			default:
				left[x] = slices.Clone(c)
			}
		}
	}
	return ran > 0 && ran > clock[q][b.Proc]
}

// unorderedPair returns pr with its accesses in process order: a race
// between two accesses is reported once, in one direction.
func unorderedPair(pr race.Pair) race.Pair {
	if pr.B.Proc < pr.A.Proc {
		pr.A, pr.B = pr.B, pr.A
	}
	return pr
}

// symmetric returns the pairs of set in process order.
func symmetric(set map[race.Pair]bool) map[race.Pair]bool {
	out := map[race.Pair]bool{}
	for pr := range set {
		out[unorderedPair(pr)] = true
	}
	return out
}

// compare checks res, the answer of race.Check for p, against the oracle's
// answer or: every race is one the oracle finds, in the same direction, and
// checks out; and an answer that decided every pair finds the oracle's
// races exactly, each in one direction.
func compare(p *model.Program, res *race.Result, or *oracleResult) (outcome, error) {
	got := map[race.Pair]bool{}
	for _, r := range res.Races {
		if !or.races[r.Pair] {
			return decided, fmt.Errorf("pair %+v is not a race for the oracle", r.Pair)
		}
		if err := checkRace(p, r); err != nil {
			return decided, err
		}
		if got[unorderedPair(r.Pair)] {
			return decided, fmt.Errorf("pair %+v reported twice", r.Pair)
		}
		got[unorderedPair(r.Pair)] = true
	}
	want := symmetric(or.races)
	switch {
	case res.Incomplete != "" && or.fault:
		// The search for unordered pairs stopped, maybe at the fault.
		return stoppedAtFault, nil
	case res.Status == engines.Inconclusive && !res.Faults, res.Incomplete != "":
		return undecided, nil
	}
	switch res.Status {
	case engines.Inconclusive:
		if !or.fault {
			return stoppedAtFault, fmt.Errorf("inconclusive at a fault (%s), the oracle reaches none", res.Reason)
		}
		return stoppedAtFault, nil
	case engines.Safe:
		if len(res.Races) > 0 {
			return decided, fmt.Errorf("safe with %d races", len(res.Races))
		}
	case engines.Unsafe:
		if len(res.Races) == 0 {
			return decided, fmt.Errorf("unsafe without races")
		}
	}
	if !maps.Equal(got, want) {
		missed := map[race.Pair]bool{}
		for pr := range want {
			if !got[pr] {
				missed[pr] = true
			}
		}
		return decided, fmt.Errorf("%v with %d races, the oracle finds %d\nmissed:\n%s",
			res.Status, len(got), len(want), formatPairs(p, missed))
	}
	return decided, nil
}

// diffCounts are the counts of a differential run.
type diffCounts struct {
	mu                  sync.Mutex
	programs, loopy     int
	racy, raceFree      int
	locOnly, moreHB     int
	tooBig              int
	oracleFault         int
	states              int64
	compared, atFault   map[string]int
	undecided           map[string]int
	tooLarge            map[string]int
	checks              map[string]int
	reasonsForUndecided map[string]int
}

// runParallel calls f(i) for i in [0, n) on GOMAXPROCS goroutines.
func runParallel(n int, f func(i int)) {
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range next {
				f(i)
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}

// Size limits of the differential test: programs with more reachable SC
// states are left out (their happens-before states can be a hundred times
// as many), and the predicate engine runs only on the smaller ones.
const (
	maxStates     = 20000
	maxPredStates = 2000
	// diffWork bounds each engine run in work units (engines.Meter):
	// more than a program of maxStates SC states needs with its
	// happens-before knowledge.
	diffWork = 10_000_000
)

// TestDifferential generates programs (150; 2,000 in the long suites, 20,000 with -long), with
// and without loops, and checks that race.Check with the explicit engine,
// with sb and, for every tenth program when Z3 is available and the program
// is small, with pred (all under SC) agrees with the oracles ([oracles]):
// the same races exactly, every trace checking out (see [checkRace]).
// Programs that reach a fault under SC are compared as far as the check
// went before it stopped there. It also checks the direction of Boehm and
// Adve's theorem that the first phase of race.Check relies on: a program
// with a happens-before race has two conflicting accesses at their
// locations at once.
func TestDifferential(t *testing.T) {
	n := longtest.Size(150, 2000)
	if *long {
		n = 20000
	}
	usePred := z3()
	if !usePred {
		t.Log("Z3 is unavailable: the predicate engine is left out")
	}
	rng := rand.New(rand.NewPCG(11, 29))
	progs := make([]*model.Program, n)
	for i := range progs {
		progs[i] = progen.Race(rng, progen.RaceOptions{Loops: i%3 != 0, Bad: i%4 == 0, Join: i%5 == 1})
	}
	c := &diffCounts{compared: map[string]int{}, atFault: map[string]int{}, undecided: map[string]int{}, tooLarge: map[string]int{},
		checks: map[string]int{}, reasonsForUndecided: map[string]int{}}
	runParallel(n, func(i int) {
		if t.Failed() {
			return
		}
		p := progs[i]
		if size, err := locOracle(p); err != nil || size.states > maxStates {
			if err != nil {
				t.Errorf("program %d: oracle: %v", i, err)
			}
			c.mu.Lock()
			c.tooBig++
			c.mu.Unlock()
			return
		}
		or, loc, hb, err := oracles(p)
		if err != nil {
			t.Errorf("program %d: oracle: %v", i, err)
			return
		}
		if len(hb.races) > 0 && len(loc.races) == 0 {
			t.Errorf("program %d has a happens-before race and never two conflicting accesses at their locations at once\n%s\n%s",
				i, formatPairs(p, hb.races), native.Format(p))
			return
		}
		_, acyclic := facts.MaxWritesOnPath(p)
		c.mu.Lock()
		c.programs++
		if !acyclic {
			c.loopy++
		}
		if len(or.races) > 0 {
			c.racy++
		} else {
			c.raceFree++
		}
		if len(hb.races) == 0 && len(loc.races) > 0 {
			c.locOnly++
		}
		if len(symmetric(hb.races)) > len(symmetric(loc.races)) {
			c.moreHB++
		}
		if or.fault {
			c.oracleFault++
		}
		c.states += int64(or.states)
		c.mu.Unlock()
		type run struct {
			name  string
			eng   engines.Engine
			opt   race.Options
			exact bool
		}
		runs := []run{
			{"explicit", &explicit.Engine{}, race.Options{}, true},
			{"sb", &sb.Engine{}, race.Options{}, true},
			// The analyzer's configuration: the second phase's instrumented
			// program sliced to the cone of influence of the questions
			// still open, each time one is asked.
			{"explicit+coi", &explicit.Engine{}, race.Options{Enumerate: &coi.Engine{Inner: &explicit.Engine{}}, Reach: i%2 == 0}, true},
		}
		if usePred && i%10 == 0 && loc.states <= maxPredStates {
			runs = append(runs, run{"pred", &pred.Engine{}, race.Options{}, false})
		}
		for _, rn := range runs {
			name := rn.name
			// A work bound decides when a check gives up, so that the
			// answer does not depend on the machine's load; the wall clock
			// is a safety net whose expiry is counted, not failed.
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			res, err := race.Check(engines.WithMeter(ctx, engines.NewMeter(diffWork)), rn.eng, p, rn.opt)
			timedOut := ctx.Err() != nil
			cancel()
			if timedOut {
				c.mu.Lock()
				c.undecided[name]++
				c.reasonsForUndecided["the wall-clock safety net"]++
				c.mu.Unlock()
				continue
			}
			if err != nil && !rn.exact && strings.Contains(err.Error(), "takes at most") {
				// The query program has more variables than the engine takes.
				c.mu.Lock()
				c.tooLarge[name]++
				c.mu.Unlock()
				continue
			}
			if err != nil {
				t.Errorf("program %d, %s: %v\n%s", i, name, err, native.Format(p))
				return
			}
			out, err := compare(p, res, or)
			if err == nil && rn.exact && (out == undecided || res.Bound != "") {
				err = fmt.Errorf("%v (bound %q): %s%s", res.Status, res.Bound, res.Reason, res.Incomplete)
			}
			if err != nil {
				t.Errorf("program %d, %s: %v\nprogram:\n%s", i, name, err, native.Format(p))
				return
			}
			c.mu.Lock()
			c.checks[name] += res.Checks
			switch out {
			case decided:
				c.compared[name]++
			case stoppedAtFault:
				c.atFault[name]++
			case undecided:
				c.undecided[name]++
				c.reasonsForUndecided[firstWords(res.Reason+res.Incomplete)]++
			}
			c.mu.Unlock()
		}
	})
	t.Logf("%d programs (%d with loops, %d more left out for their size): %d racy, %d race-free; "+
		"%d reach a fault under SC; %d SC states with happens-before knowledge in all",
		c.programs, c.loopy, c.tooBig, c.racy, c.raceFree, c.oracleFault, c.states)
	t.Logf("%d racy programs have no happens-before race (conflicting accesses that never run); "+
		"%d have more happens-before races than pairs at their locations at once", c.locOnly, c.moreHB)
	for _, name := range []string{"explicit", "sb", "explicit+coi", "pred"} {
		if c.compared[name]+c.atFault[name]+c.undecided[name]+c.tooLarge[name] == 0 {
			continue
		}
		t.Logf("%s: %d compared exactly, %d stopped at a fault (compared up to it), %d undecided, "+
			"%d too large for the engine; %d engine runs", name, c.compared[name], c.atFault[name], c.undecided[name], c.tooLarge[name], c.checks[name])
	}
	if len(c.reasonsForUndecided) > 0 {
		t.Logf("undecided: %v", c.reasonsForUndecided)
	}
}

// firstWords returns the first words of an inconclusive reason, to count
// reasons by kind.
func firstWords(s string) string {
	f := strings.Fields(s)
	return strings.Join(f[:min(len(f), 4)], " ")
}

// TestDRFSC checks the DRF-SC property on generated loop-free programs with
// a bad state (150; 2,000 in the long suites, 20,000 with -long): when no two conflicting
// accesses are ever at their locations at once ([locOracle]; the program
// is then free of happens-before races too, see TestDifferential), the
// explicit engine, exact under TSO for loop-free programs, gives the same
// verdict under TSO as under SC. Racy programs are counted, with those whose verdicts differ.
func TestDRFSC(t *testing.T) {
	n := longtest.Size(150, 2000)
	if *long {
		n = 20000
	}
	rng := rand.New(rand.NewPCG(3, 7))
	progs := make([]*model.Program, n)
	for i := range progs {
		progs[i] = progen.Race(rng, progen.RaceOptions{Bad: true})
	}
	var (
		mu                                         sync.Mutex
		raceFree, unsafe, faulty, racy, racyDiffer int
	)
	runParallel(n, func(i int) {
		if t.Failed() {
			return
		}
		p := progs[i]
		if _, acyclic := facts.MaxWritesOnPath(p); !acyclic {
			t.Errorf("program %d has a loop", i)
			return
		}
		or, err := locOracle(p)
		if err != nil {
			t.Errorf("program %d: oracle: %v", i, err)
			return
		}
		var verdict [2]*engines.Result
		for k, m := range []model.Model{model.SC, model.TSO} {
			r, err := (&explicit.Engine{}).Check(context.Background(), p, m)
			if err != nil || r.Status == engines.Inconclusive || r.Bound != "" {
				t.Errorf("program %d under %v: %v, %v", i, m, r, err)
				return
			}
			verdict[k] = r
		}
		differ := verdict[0].Status != verdict[1].Status
		mu.Lock()
		defer mu.Unlock()
		if len(or.races) > 0 {
			racy++
			if differ {
				racyDiffer++
			}
			return
		}
		raceFree++
		if or.fault {
			faulty++
		}
		if verdict[0].Status == engines.Unsafe {
			unsafe++
		}
		if differ {
			r := verdict[1]
			if r.Status == engines.Safe {
				r = verdict[0]
			}
			states, _ := p.Replay(r.Trace)
			t.Errorf("program %d is race-free, %v under SC but %v under TSO\n%s\ntrace:\n%s", i,
				verdict[0].Status, verdict[1].Status, native.Format(p), p.FormatTrace(r.Trace, states))
		}
	})
	t.Logf("%d loop-free programs: %d race-free (%d unsafe under SC and TSO, %d reach a fault), "+
		"%d racy (%d of them with different verdicts under SC and TSO)", n, raceFree, unsafe, faulty, racy, racyDiffer)
	if raceFree == 0 || unsafe == 0 || racyDiffer == 0 {
		t.Errorf("the generator does not cover the property: %d race-free, %d unsafe, %d racy with different verdicts",
			raceFree, unsafe, racyDiffer)
	}
}

// benchPrograms returns the programs of the benchmark: the racy and the
// race-free program with the most reachable SC states among 400 generated
// programs with loops that do not fault.
func benchPrograms(b *testing.B) map[string]*model.Program {
	rng := rand.New(rand.NewPCG(1, 2))
	out := map[string]*model.Program{}
	best := map[string]int{}
	for range 400 {
		p := progen.Race(rng, progen.RaceOptions{Loops: true})
		or, err := locOracle(p)
		if err != nil {
			b.Fatal(err)
		}
		if or.fault {
			continue
		}
		kind := "race-free"
		if len(or.races) > 0 {
			kind = "racy"
		}
		if or.states > best[kind] {
			best[kind], out[kind] = or.states, p
		}
	}
	return out
}

// BenchmarkCheck measures race.Check with the explicit engine on two
// generated programs with loops, a racy one and a race-free one.
func BenchmarkCheck(b *testing.B) {
	progs := benchPrograms(b)
	for _, kind := range slices.Sorted(maps.Keys(progs)) {
		p := progs[kind]
		b.Run(kind, func(b *testing.B) {
			for b.Loop() {
				if _, err := race.Check(context.Background(), &explicit.Engine{}, p, race.Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
