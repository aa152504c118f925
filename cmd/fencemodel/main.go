// Command fencemodel checks model files (Memorax .rmm or native .fcm) directly:
// it decides whether a bad state is reachable, prints the counterexample with
// the store buffers at each step, and reports statistics.
//
// Usage:
//
//	fencemodel check [-engine=auto|explicit|sb|sb-backward|pred|bmc|bdd|zone|modular|coherence|sb+bmc|...] [-model=tso|sc|pso] [-buffer=N] [-por=false] [-symmetry=false] [-budget=D] [-max-states=N] [-maxwork=N] [-memory=MiB] [-reduce=false] FILE...
//	fencemodel fences [-all] [-placement=after-writes|anywhere] [-engine=...] [-model=tso|pso] [flags of check] FILE...
//	fencemodel bench [-engine=sb|explicit|pred|bmc|coherence] [-manifest=FILE] [-budget=D] [-format=text|markdown] [-runs=N] [-abstractions=LIST] [-model=tso|pso]
//	fencemodel bench -engines [-manifest=FILE] [-maxwork=N] [-budget=D] [-format=text|markdown] [-run=RE] [-runs=N]
//	fencemodel race [-engine=auto|explicit|sb|pred|bmc] [-budget=D] FILE...
//
// The engines, with their capabilities, are those of engines/registry:
// auto, the default, chooses per program as fencecheck chooses per system
// (registry.Choose, on the program as read, before any reduction);
// explicit (breadth-first search with bounded store buffers under TSO,
// exact when fences and locked operations bound them, complete under SC;
// with partial-order and symmetry reduction), sb (exact single-buffer
// backward reachability under TSO; sb-backward runs that backward search
// alone, without the bounded and forward searches that usually answer
// first) and pred (k-abstraction of the buffers with predicate abstraction
// of the data, refined by counterexamples; it takes unbounded integers),
// bmc (bounded, loops unrolled), bdd (symbolic, for finite programs under
// SC or whose reads find their buffers empty), and the proof-only zone
// (zones for unbounded integers) and modular (views of a few processes at
// a time), which answer safe or inconclusive.
//
// -model=pso checks under SPARC's partial store order (one store buffer per
// process and variable, for models of other machines), with the engines
// that decide it (auto takes explicit; the others refuse).
//
// fences prints the minimal sets of barriers that make each program correct
// under TSO, or PSO with -model=pso, where a store-store fence (ssfence,
// printed as P0@q0->q1(ss)) is offered beside the full one and preferred
// where it suffices (Algorithm 2 of the single-buffer paper), each barrier by its
// place and source position — a barrier after a write belongs to that write's
// edge (process@from->to), so where two writes reach one location each is
// named — or says that the program is already correct, or wrong under SC.
//
// race decides the data races of each program under the Go memory model
// (docs/design.md §2): pairs of accesses to one variable by different processes, at
// least one a write and at least one plain (not a locked operation, not a
// read marked atomic), that no happens-before edge orders in some SC
// execution. It prints each racing pair with the SC trace that reaches the
// first access of the pair while the second has run unordered before it.
//
// bench runs fences (a cheapest set, then all minimal sets) over the programs
// of a manifest (by default testdata/table1/expected.json, the programs of
// Table 1 of the single-buffer paper) and prints a table of sizes, explored
// states, verdicts, barrier counts, times and peak heap beside the paper's
// results (with the engine pred, also the most predicates and the largest k
// any check needed); see bench.go for the manifest's fields. It exits 1 when a
// result differs from the paper's and the manifest documents no deviation, 3
// when a budget ran out.
//
// bench -engine=bmc prints the table of Fig. 11 of the interference-
// abstraction paper instead, over the programs of testdata/fig11 by default
// (goroutines synchronising by a spin lock, a flag barrier and a
// publication flag, correct and with a seeded bug): each checked under SC
// within its manifest entry's unrolling bound, with every axiom
// instantiated at once and with refinement (REF), with the CPU time of the
// fastest of -runs runs, the sizes of the interference abstractions, the
// speed-up, and REF's total speed-up on the hardest half of the programs.
// It exits 1 when an answer differs from the entry's expect field.
//
// bench -engine=coherence prints Tables 1 and 2 of the partial-coherence
// paper instead, over testdata/coherence by default: for each abstraction
// of -abstractions (set, fdN, pdN) a table of every program checked under
// -model (PSO by default) with that abstraction alone, its verdict
// (safe, unsafe, or a spurious counterexample), abstract states and CPU
// time, and for the under-fenced programs of Table 2 the fences inferred
// over the engine with that abstraction, beside the paper's cells.
//
// bench -engines runs every engine of the registry but auto (and
// sb-backward, a part of sb) on each system of a manifest (by default
// testdata/engines.json: model files, and systems of Go packages, which it
// lowers with package extract as the analyzer does), under x86-TSO and
// under SC, each check behind the cone-of-influence reduction within
// -maxwork units (default 500,000) and -budget (default 5 minutes), and prints
// a table of each engine's verdict and CPU time (the least of -runs runs,
// default 1), the fastest to a verdict in bold, with the plan of the auto
// mode beside them, then how often each engine is the fastest. It exits 1
// when two engines disagree.

// check and fences first slice each program to the cone of influence of its
// bad states (package engines/wrap/coi: stores nothing observes, registers that
// reach nothing relevant, processes that influence nothing); -reduce=false
// searches the program as it is. Every command stops a search whose heap
// exceeds -memory MiB, and one whose work exceeds -maxwork units (the
// same on every machine), with an inconclusive answer.
//
// Exit status: 0 when no bad state is reachable in any file, 1 when one is
// reachable in some file, 2 on a usage or input error, 3 when a budget ran out
// (inconclusive) and no file was unsafe.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/question/fence"
	"github.com/fencecheck/fencecheck/engines/question/race"
	"github.com/fencecheck/fencecheck/engines/registry"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/modelfile"
)

// Exit codes.
const (
	exitSafe         = 0
	exitUnsafe       = 1
	exitUsage        = 2
	exitInconclusive = 3
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

const usage = `usage: fencemodel COMMAND [flags] FILE...

commands:
  check   decide whether a bad state is reachable; print the trace
  fences  compute the minimal sets of barriers that repair each program under TSO (or PSO)
  bench   run fences over a manifest of programs; print a table beside the paper's results
  race    find the data races of each program (Go memory model); print a trace to each
  help    print this text

run 'fencemodel COMMAND -h' for the flags of a command
`

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	switch args[0] {
	case "check":
		return check(args[1:], stdout, stderr)
	case "fences":
		return fences(args[1:], stdout, stderr)
	case "bench":
		return bench(args[1:], stdout, stderr)
	case "race":
		return races(args[1:], stdout, stderr)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return exitSafe
	}
	fmt.Fprintf(stderr, "fencemodel: unknown command %q\n%s", args[0], usage)
	return exitUsage
}

// engineFlags are the flags shared by the commands that run an engine.
type engineFlags struct {
	engine  string
	opts    registry.Options // the engine's options (-max-states, -buffer, -por, -symmetry)
	model   string
	budget  time.Duration
	memory  int64 // MiB of heap per file; 0: no limit
	maxWork int64 // work units per file (engines.Meter); 0: no bound
	reduce  bool  // slice to the cone of influence first (check, fences)
}

func (f *engineFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.engine, "engine", registry.Auto, registry.Usage())
	fs.StringVar(&f.model, "model", "tso", "memory model: tso, sc or pso (pso, for model files: the engines "+registry.List(registry.Names(registry.ForPSO()))+")")
	fs.DurationVar(&f.budget, "budget", time.Minute, "time budget per file")
	fs.Int64Var(&f.memory, "memory", defaultMemory, "MiB of heap per file (0: no limit); beyond it the answer is inconclusive")
	f.opts.RegisterFlags(fs)
	fs.Int64Var(&f.maxWork, "maxwork", 0, fmt.Sprintf("work units per file, counted the same on every machine (states, %s constraints, %d per abstract state of %s, %d per solver call; 0: no bound); beyond it the answer is inconclusive",
		registry.SB, engines.AbstractStateWork, registry.Pred, engines.SolverCallWork))
}

func (f *engineFlags) newEngine() (engines.Engine, error) {
	return registry.New(f.engine, f.opts)
}

// forProgram returns the engine that checks p under m: with auto, the one
// chosen for p as read, before any reduction, as fencecheck chooses for a
// system (registry.ChooseFor); else eng. It fails when none can: under
// PSO, for a program without finite domains.
func forProgram(eng engines.Engine, p *model.Program, m model.Model) (engines.Engine, error) {
	if a, ok := eng.(*registry.AutoEngine); ok {
		return a.ForModel(p, m)
	}
	return eng, nil
}

// parseModel parses the -model flag and checks that the engine decides
// that model; it reports a usage error on stderr otherwise.
func (f *engineFlags) parseModel(stderr io.Writer) (model.Model, bool) {
	m, err := model.ParseModel(f.model)
	if err != nil {
		fmt.Fprintf(stderr, "fencemodel: %v\n", err)
		return 0, false
	}
	if m == model.PSO {
		if e := registry.Lookup(f.engine); e == nil || !e.PSO {
			fmt.Fprintf(stderr, "fencemodel: %v\n", &registry.ModelError{Engine: f.engine, Model: m})
			return 0, false
		}
	}
	return m, true
}

// fresh builds another engine like the one parse built (which succeeded
// with the same flags): each file gets its own, so that what an engine
// learns from one file's checks (the portfolio's knowledge that its
// bounded engine finds nothing, the predicate engine's predicates) does not
// decide how another file is checked.
func (f *engineFlags) fresh() engines.Engine {
	eng, err := f.newEngine()
	if err != nil {
		panic(fmt.Sprintf("fencemodel: flags accepted once and refused now: %v", err))
	}
	return eng
}

// parse parses a command's flags and builds its engine; it reports a usage
// error on stderr and returns nil when the command cannot run.
func (f *engineFlags) parse(fs *flag.FlagSet, args []string, stderr io.Writer) engines.Engine {
	if err := fs.Parse(args); err != nil {
		return nil
	}
	eng, err := f.newEngine()
	if err != nil {
		fmt.Fprintf(stderr, "fencemodel: %v\n", err)
		return nil
	}
	if fs.NArg() == 0 {
		fmt.Fprintf(stderr, "fencemodel %s: no model file given\n", fs.Name())
		return nil
	}
	return eng
}

// engineName names eng for a verdict line: with auto, the engine it chose
// for the last program.
func engineName(eng engines.Engine) string {
	if a, ok := eng.(*registry.AutoEngine); ok && a.Last() != "" {
		return "auto: " + a.Last()
	}
	return eng.Name()
}

// exitCode accumulates the exit status over files: the worst one wins
// (usage > unsafe > inconclusive > safe).
type exitCode int

func (c *exitCode) add(code int) {
	rank := map[int]int{exitSafe: 0, exitInconclusive: 1, exitUnsafe: 2, exitUsage: 3}
	if rank[code] > rank[int(*c)] {
		*c = exitCode(code)
	}
}

// eachFile runs a command on each model file it was given, in order: it
// loads the file, gives it its engine (eng for the first file, a fresh one
// for each other, see fresh) and its context, and calls run, which prints
// what it found and returns the file's exit status. A file that does not
// load, or an error of run, is reported on stderr as a usage error.
// eachFile returns the worst status of all files.
func (f *engineFlags) eachFile(files []string, eng engines.Engine, stderr io.Writer, run func(ctx context.Context, file string, p *model.Program, eng engines.Engine) (int, error)) int {
	var code exitCode
	for i, file := range files {
		p, err := modelfile.Load(file)
		if err != nil {
			fmt.Fprintf(stderr, "%v\n", err)
			code.add(exitUsage)
			continue
		}
		if i > 0 {
			eng = f.fresh()
		}
		ctx, cancel := f.context()
		status, err := run(ctx, file, p, eng)
		cancel()
		if err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", file, err)
		}
		code.add(status)
	}
	return int(code)
}

func check(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var ef engineFlags
	ef.register(fs)
	quiet := fs.Bool("q", false, "print only the verdict line of each file")
	ef.registerReduce(fs)
	eng := ef.parse(fs, args, stderr)
	if eng == nil {
		return exitUsage
	}
	m, ok := ef.parseModel(stderr)
	if !ok {
		return exitUsage
	}
	return ef.eachFile(fs.Args(), eng, stderr, func(ctx context.Context, file string, p *model.Program, eng engines.Engine) (int, error) {
		chosen, err := forProgram(eng, p, m)
		if err != nil {
			return exitUsage, err
		}
		res, err := ef.reduced(chosen).Check(ctx, p, m)
		if err != nil {
			return exitUsage, err
		}
		fmt.Fprintf(stdout, "%s: %s [%s]\n", file, res, engineName(eng))
		switch res.Status {
		case engines.Unsafe:
			if !*quiet {
				printTrace(stdout, p, res.Trace)
			}
			return exitUnsafe, nil
		case engines.Inconclusive:
			return exitInconclusive, nil
		}
		return exitSafe, nil
	})
}

func fences(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("fences", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var ef engineFlags
	ef.register(fs)
	all := fs.Bool("all", false, "print every minimal set, not only a cheapest one")
	placement := fs.String("placement", "after-writes", "where barriers may go: after-writes or anywhere")
	ef.registerReduce(fs)
	eng := ef.parse(fs, args, stderr)
	if eng == nil {
		return exitUsage
	}
	g, err := fence.ParsePlacement(*placement)
	if err != nil {
		fmt.Fprintf(stderr, "fencemodel: %v\n", err)
		return exitUsage
	}
	m, ok := ef.parseModel(stderr)
	if !ok {
		return exitUsage
	}
	if m == model.SC {
		fmt.Fprintln(stderr, "fencemodel fences: no barrier changes anything under SC (want -model=tso or pso)")
		return exitUsage
	}
	return ef.eachFile(fs.Args(), eng, stderr, func(ctx context.Context, file string, p *model.Program, eng engines.Engine) (int, error) {
		chosen, err := forProgram(eng, p, m)
		if err != nil {
			return exitUsage, err
		}
		res, err := fence.Infer(ctx, ef.reduced(chosen), p, fence.Options{All: *all, Placement: g, Model: m})
		if err != nil {
			return exitUsage, err
		}
		fmt.Fprintf(stdout, "%s: %s\n", file, res.Summary(p))
		for i, set := range res.Sets {
			fmt.Fprintf(stdout, "  set %d (cost %d):\n", i+1, res.Costs[i])
			for _, pl := range set {
				fmt.Fprintf(stdout, "    %s  (%s)\n", describePlace(p, pl), placePos(p, pl))
			}
		}
		switch res.Status {
		case fence.Fixable, fence.WrongUnderSC, fence.NotFixable:
			return exitUnsafe, nil
		case fence.Inconclusive:
			return exitInconclusive, nil
		}
		return exitSafe, nil
	})
}

func races(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("race", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var ef engineFlags
	ef.register(fs)
	quiet := fs.Bool("q", false, "print only the verdict line and the racing pairs of each file")
	eng := ef.parse(fs, args, stderr)
	if eng == nil {
		return exitUsage
	}
	return ef.eachFile(fs.Args(), eng, stderr, func(ctx context.Context, file string, p *model.Program, eng engines.Engine) (int, error) {
		res, err := race.Check(ctx, eng, p, race.Options{})
		if err != nil {
			return exitUsage, err
		}
		verdict, status := "race-free", exitSafe
		switch res.Status {
		case engines.Unsafe:
			verdict, status = fmt.Sprintf("%d racing pair(s)", len(res.Races)), exitUnsafe
		case engines.Inconclusive:
			verdict, status = "inconclusive: "+res.Reason, exitInconclusive
		default:
			if res.Bound != "" {
				verdict += " up to " + res.Bound
			}
		}
		fmt.Fprintf(stdout, "%s: %s under SC [%s, %d checks, %d states, %v]\n", file, verdict, engineName(eng), res.Checks, res.States, res.Duration.Round(time.Microsecond))
		for _, r := range res.Races {
			a, b := p.Procs[r.A.Proc], p.Procs[r.B.Proc]
			fmt.Fprintf(stdout, "  race on %s: %s: %s (%s), with nothing ordering %s: %s (%s) before it\n", p.Vars[r.Var].Name,
				a.Name, a.Trans[r.A.Trans].Op.Format(p, a), a.Trans[r.A.Trans].Pos,
				b.Name, b.Trans[r.B.Trans].Op.Format(p, b), b.Trans[r.B.Trans].Pos)
			if *quiet {
				continue
			}
			states, err := p.Execute(r.Trace)
			if err != nil {
				fmt.Fprintf(stdout, "    internal error: trace does not replay: %v\n", err)
				continue
			}
			fmt.Fprint(stdout, indent(p.FormatTrace(r.Trace, states), "    "))
		}
		return status, nil
	})
}

// describePlace names a barrier place for the fences listing: a barrier
// after one write, on that write's own edge ("barrier after P0@q0->q1: write
// x := 1"), or at a location, before every transition leaving it ("barrier
// at P0@q3").
func describePlace(p *model.Program, pl fence.Place) string {
	kind := "barrier"
	if pl.StoreStore {
		kind = "store-store barrier"
	}
	full := pl.Full()
	if pl.OnWrite() {
		q := p.Procs[pl.Proc]
		return fmt.Sprintf("%s after %s: %s", kind, full.Format(p), q.Trans[pl.Trans].Op.Format(p, q))
	}
	return kind + " at " + full.Format(p)
}

// placePos is the source position of a barrier place: that of its write for
// a write's place; for a location's, that of the first transition leaving
// it (the barrier goes before it), else of the location.
func placePos(p *model.Program, pl fence.Place) model.Pos {
	q := p.Procs[pl.Proc]
	if pl.OnWrite() {
		return q.Trans[pl.Trans].Pos
	}
	for _, t := range q.Trans {
		if t.From == pl.Loc && t.Pos.IsValid() {
			return t.Pos
		}
	}
	return q.Locs[pl.Loc].Pos
}

func printTrace(w io.Writer, p *model.Program, t *model.Trace) {
	states, err := p.Replay(t)
	var re *model.ReplayError
	if errors.As(err, &re) {
		fmt.Fprintf(w, "  internal error: trace does not replay: %v\n", err)
		return
	}
	fmt.Fprintf(w, "  initial memory: %s\n", formatMem(p, t.InitMem))
	fmt.Fprint(w, indent(p.FormatTrace(t, states), "  "))
}

func formatMem(p *model.Program, mem []int64) string {
	s := ""
	for i, v := range mem {
		if i > 0 {
			s += " "
		}
		s += fmt.Sprintf("%s=%d", p.Vars[i].Name, v)
	}
	return s
}

func indent(s, prefix string) string {
	out := ""
	line := ""
	for _, r := range s {
		line += string(r)
		if r == '\n' {
			out += prefix + line
			line = ""
		}
	}
	if line != "" {
		out += prefix + line + "\n"
	}
	return out
}
