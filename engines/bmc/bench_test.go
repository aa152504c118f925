package bmc_test

import (
	"context"
	"flag"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/bmc"
	"github.com/fencecheck/fencecheck/engines/question/race"
	"github.com/fencecheck/fencecheck/internal/cputime"
	"github.com/fencecheck/fencecheck/model"
)

var fig11 = flag.Bool("fig11", false, "print the Fig. 11 table: full instantiation against REF on every benchmark system")

// benchTimeout bounds one check of the benchmark.
const benchTimeout = 120 * time.Second

// mainSuite are the systems of the Fig. 11-style benchmark: spin-lock
// mutual exclusion, a flag barrier and a publication protocol, with 3, 4,
// 6 and 8 goroutines, each correct and with a seeded bug. countingSuite
// are the systems whose proofs are counting arguments (the lost update of
// a locked counter, a WaitGroup-style counting barrier).
func mainSuite() []system {
	return filter(systems([]int{3, 4, 6, 8}), "mutex", "barrier", "publication")
}

func countingSuite() []system {
	return filter(systems([]int{3, 4, 6, 8}), "counter", "waitgroup")
}

func filter(ss []system, names ...string) []system {
	var out []system
	for _, s := range ss {
		if slices.Contains(names, s.name) {
			out = append(out, s)
		}
	}
	return out
}

func (s system) label() string {
	if s.bug {
		return s.prog.Name + "/bug"
	}
	return s.prog.Name + "/ok"
}

// strategies are the two columns of Fig. 11.
var strategies = []struct {
	name string
	full bool
}{{"full", true}, {"ref", false}}

// BenchmarkFig11 compares full instantiation with REF on the benchmark
// systems under SC, as Fig. 11 of the paper does: the time per check, and
// the size of the interference abstraction when it ends (A = Σ|W(r)|,
// B = |Λ|, C = |Σ|). go test -bench Fig11 -run ^$ ./engines/bmc; the
// counting systems run with -long.
func BenchmarkFig11(b *testing.B) {
	if !smtAvailable() {
		b.Skip("Z3 is unavailable")
	}
	suite := mainSuite()
	if *long {
		suite = append(suite, countingSuite()...)
	}
	for _, s := range suite {
		for _, st := range strategies {
			b.Run(s.label()+"/"+st.name, func(b *testing.B) {
				eng := &bmc.Engine{Unroll: s.unroll, Full: st.full}
				var rep *bmc.Report
				for b.Loop() {
					ctx, cancel := context.WithTimeout(context.Background(), benchTimeout)
					r, err := eng.Analyze(ctx, s.prog, model.SC)
					cancel()
					if err != nil {
						b.Fatal(err)
					}
					rep = r
				}
				if rep.Status == engines.Inconclusive {
					b.Logf("%s: %s", s.label(), rep.Reason)
				}
				b.ReportMetric(float64(rep.IA.LinkSets), "A")
				b.ReportMetric(float64(rep.IA.Lambda), "B")
				b.ReportMetric(float64(rep.IA.Sigma), "C")
				b.ReportMetric(float64(rep.IA.Iterations), "iters")
			})
		}
	}
}

// fig11Runs is how many times TestFig11 runs each check; the table keeps
// the run with the least CPU time, which a loaded machine disturbs least.
var fig11Runs = flag.Int("fig11runs", 3, "runs of each check for -fig11 (the table keeps the fastest)")

// row is one line of the Fig. 11 table: by strategy (full, REF), the
// report and the wall and CPU time of the fastest run.
type row struct {
	s         system
	reps      [2]*bmc.Report
	wall, cpu [2]time.Duration
}

// measure runs the check of s with each strategy runs times, alternating
// which goes first, and keeps the run with the least CPU time.
func measure(t *testing.T, s system, runs int) row {
	rw := row{s: s}
	for run := range runs {
		for o := range strategies {
			i := (o + run) % len(strategies)
			eng := &bmc.Engine{Unroll: s.unroll, Full: strategies[i].full}
			ctx, cancel := context.WithTimeout(context.Background(), benchTimeout)
			var r *bmc.Report
			var err error
			wall, cpu := cputime.Measure(func() { r, err = eng.Analyze(ctx, s.prog, model.SC) })
			cancel()
			if err != nil {
				t.Fatal(err)
			}
			if rw.reps[i] == nil || cpu < rw.cpu[i] {
				rw.reps[i], rw.wall[i], rw.cpu[i] = r, wall, cpu
			}
		}
	}
	return rw
}

// TestFig11 prints the Fig. 11 table for the benchmark systems (with
// -fig11; the counting systems too with -long) and the targets on the
// table: it checks that REF finds every seeded bug of a 6–8 goroutine
// system in under 10 s, and reports how much faster than full
// instantiation REF is in total on the hardest half of the main suite (by
// the CPU time of full instantiation; the target is 10×). Times are those
// of the fastest of -fig11runs runs.
func TestFig11(t *testing.T) {
	requireZ3(t)
	if !*fig11 {
		t.Skip("run with -fig11")
	}
	suite := mainSuite()
	if *long {
		suite = append(suite, countingSuite()...)
	}
	var rows []row
	var b strings.Builder
	fmt.Fprintf(&b, "%-20s %2s %-5s %4s %4s %5s | %9s %-17s | %9s %-17s | %s\n", "Bm", "N", "SAT", "R", "W", "|W|", "full CPU", "IA size", "REF CPU", "IA size", "speed-up")
	for _, s := range suite {
		rw := measure(t, s, max(1, *fig11Runs))
		want := map[bool]engines.Status{true: engines.Unsafe, false: engines.Safe}[s.bug]
		for i, r := range rw.reps {
			if r.Status != want && r.Status != engines.Inconclusive {
				t.Errorf("%s (%s): %v, want %v", s.label(), strategies[i].name, r.Status, want)
			}
		}
		rows = append(rows, rw)
		st := rw.reps[1].IA
		fmt.Fprintf(&b, "%-20s %2d %-5v %4d %4d %5.1f | %9s %-17s | %9s %-17s | %.1f×\n", s.label(), s.n, s.bug,
			st.Reads, st.Writes, st.AvgLinkSet, cell(rw.reps[0], rw.cpu[0]), size(rw.reps[0]),
			cell(rw.reps[1], rw.cpu[1]), size(rw.reps[1]), rw.cpu[0].Seconds()/rw.cpu[1].Seconds())
	}
	t.Logf("Fig. 11 (SC, timeout %v, fastest of %d runs):\n%s", benchTimeout, max(1, *fig11Runs), b.String())
	// Targets.
	var main []row
	for _, rw := range rows {
		if rw.s.bug && rw.s.n >= 6 && (rw.reps[1].Status != engines.Unsafe || rw.wall[1] > 10*time.Second) {
			t.Errorf("%s: REF %v after %v, want the bug in under 10 s", rw.s.label(), rw.reps[1].Status, rw.wall[1])
		}
		if slices.Contains([]string{"mutex", "barrier", "publication"}, rw.s.name) {
			main = append(main, rw)
		}
	}
	slices.SortFunc(main, func(a, b row) int { return int(b.cpu[0] - a.cpu[0]) })
	var full, ref, fullWall, refWall time.Duration
	for _, rw := range main[:len(main)/2] {
		full += rw.cpu[0]
		ref += rw.cpu[1]
		fullWall += rw.wall[0]
		refWall += rw.wall[1]
	}
	t.Logf("hardest half of the main suite (%d systems): CPU full instantiation %v, REF %v: %.1f× faster (wall %v against %v: %.1f×)",
		len(main)/2, full.Round(time.Millisecond), ref.Round(time.Millisecond), full.Seconds()/ref.Seconds(),
		fullWall.Round(time.Millisecond), refWall.Round(time.Millisecond), fullWall.Seconds()/refWall.Seconds())
	if full < 10*ref {
		// Reported, not failed: the target is a benchmark's.
		t.Logf("target not met: REF is %.1f× faster than full instantiation on the hardest half, the target is 10×", full.Seconds()/ref.Seconds())
	}
}

func cell(r *bmc.Report, d time.Duration) string {
	if r.Status == engines.Inconclusive {
		return ">" + d.Round(time.Second).String()
	}
	return d.Round(time.Millisecond).String()
}

func size(r *bmc.Report) string {
	return fmt.Sprintf("%d/%d/%d", r.IA.LinkSets, r.IA.Lambda, r.IA.Sigma)
}

// TestTargets checks, in the normal run, the targets on the seeded bugs of
// the 6 and 8 goroutine systems: REF finds every bug, and a data race of
// every buggy system, in under 10 s of CPU time each (under SC; the bugs
// under TSO too; the wall time grows with the machine's load), with traces
// that replay; the correct systems have no race within the bound.
func TestTargets(t *testing.T) {
	requireZ3(t)
	// The counting barrier (waitgroup) is left to the benchmark: its
	// witness is a chain of every goroutine's increment, which Z3 finds
	// in 0.1 to 15 s depending on its search, too close to the target for
	// a timed test on a loaded machine.
	for _, s := range filter(systems([]int{6, 8}), "mutex", "barrier", "publication", "counter") {
		if !s.bug && s.name == "counter" {
			continue // a counting proof: see the benchmark
		}
		t.Run(s.label(), func(t *testing.T) {
			eng := &bmc.Engine{Unroll: s.unroll}
			if s.bug {
				for _, m := range []model.Model{model.SC, model.TSO} {
					ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
					var r *engines.Result
					var err error
					_, d := cputime.Measure(func() { r, err = eng.Check(ctx, s.prog, m) })
					cancel()
					if err != nil {
						t.Fatal(err)
					}
					if r.Status != engines.Unsafe || d > 10*time.Second {
						t.Errorf("%v: %v after %v, want the bug in under 10 s of CPU time", m, r, d)
					} else if err := engines.Verify(s.prog, r); err != nil {
						t.Error(err)
					}
				}
			}
			if s.name == "counter" {
				return // its races are those of mutex
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			var rc *race.Race
			var r *engines.Result
			var err error
			_, d := cputime.Measure(func() { rc, r, err = raceOnce(ctx, eng, s.prog) })
			cancel()
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case s.bug && (rc == nil || d > 10*time.Second):
				t.Errorf("race: %v after %v, want a race in under 10 s of CPU time", r, d)
			case !s.bug && rc != nil:
				t.Errorf("race %+v in a correct system", rc.Pair)
			case !s.bug && r.Status != engines.Safe:
				t.Errorf("race question: %v", r)
			}
			if rc != nil {
				if _, err := s.prog.Execute(rc.Trace); err != nil {
					t.Errorf("race trace: %v", err)
				}
			}
		})
	}
}

// BenchmarkRaces lists the data races of the benchmark systems with both
// phases of race.Check (the second answered by bmc.Engine.Enumerate on one
// solver): go test -bench Races -run ^$ ./engines/bmc. It reports the
// races found and the engine runs.
func BenchmarkRaces(b *testing.B) {
	if !smtAvailable() {
		b.Skip("Z3 is unavailable")
	}
	for _, s := range mainSuite() {
		b.Run(s.label(), func(b *testing.B) {
			eng := &bmc.Engine{Unroll: s.unroll}
			var res *race.Result
			for b.Loop() {
				ctx, cancel := context.WithTimeout(context.Background(), benchTimeout)
				r, err := race.Check(ctx, eng, s.prog, race.Options{})
				cancel()
				if err != nil {
					b.Fatal(err)
				}
				res = r
			}
			if res.Status == engines.Inconclusive || res.Incomplete != "" {
				b.Logf("%s: %s%s", s.label(), res.Reason, res.Incomplete)
			}
			b.ReportMetric(float64(len(res.Races)), "races")
			b.ReportMetric(float64(res.Checks), "checks")
		})
	}
}
