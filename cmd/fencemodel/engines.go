package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/registry"
	"github.com/fencecheck/fencecheck/engines/wrap/coi"
	"github.com/fencecheck/fencecheck/internal/cputime"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/modelfile"
)

// This file is bench -engines: every engine of the registry on one set of
// systems, under each memory model, within one work bound, and for each
// system the engines that are the fastest to a verdict. It shows which
// engine earns its place where.

// enginesManifest is the default manifest of bench -engines.
var enginesManifest = filepath.Join("testdata", "engines.json")

// enginesWork is the work bound of each check of bench -engines when
// -maxwork is not given: about 3 s of one core.
const enginesWork = 500_000

// engineEntry is one system of the manifest of bench -engines: a model file,
// or a system of a Go package lowered by package extract as the analyzer
// lowers it.
type engineEntry struct {
	// Name is the row's name.
	Name string `json:"name"`
	// File is a model file, relative to the manifest's directory.
	File string `json:"file"`
	// Go is the directory of a Go package, relative to the manifest's
	// directory, and System the name of one of its systems.
	Go     string `json:"go"`
	System string `json:"system"`
}

// readEnginesManifest reads the manifest of bench -engines and resolves its
// paths against the manifest's directory.
func readEnginesManifest(path string) ([]engineEntry, error) {
	entries, err := readJSONList[engineEntry](path, "system")
	if err != nil {
		return nil, err
	}
	dir := filepath.Dir(path)
	for i := range entries {
		e := &entries[i]
		switch {
		case (e.File == "") == (e.Go == ""):
			return nil, fmt.Errorf("manifest %s: entry %d needs a file or a go package, not both", path, i+1)
		case e.Go != "" && e.System == "":
			return nil, fmt.Errorf("manifest %s: entry %d names a go package and no system", path, i+1)
		case e.File != "":
			e.File = resolve(dir, e.File)
			if e.Name == "" {
				e.Name = strings.TrimSuffix(filepath.Base(e.File), filepath.Ext(e.File))
			}
		default:
			e.Go = resolve(dir, e.Go)
			if e.Name == "" {
				e.Name = filepath.Base(e.Go) + "." + e.System
			}
		}
	}
	return entries, nil
}

// resolve resolves path against dir unless it is absolute.
func resolve(dir, path string) string {
	if filepath.IsAbs(path) {
		return path
	}
	return filepath.Join(dir, path)
}

// benchedEngines are the engines bench -engines compares: every engine of
// the registry but auto, whose plan is a column of its own, and
// sb-backward, a part of sb.
func benchedEngines() []*registry.Entry {
	return slices.DeleteFunc(registry.All(), func(e *registry.Entry) bool {
		return e.Name == registry.Auto || e.Name == registry.SBBackward
	})
}

// engineRun is one engine's answer on one system under one model.
type engineRun struct {
	res     *engines.Result
	err     error // the engine refused the program
	cpu     time.Duration
	verdict bool // a safe answer without a bound, or an unsafe one
}

// engineRow is one system under one model.
type engineRow struct {
	name  string
	procs int
	model model.Model
	runs  []engineRun // by benchedEngines
	auto  engineRun
	plan  string // auto's plan
	win   []bool // by benchedEngines: among the fastest to a verdict
}

// enginesOptions configure bench -engines.
type enginesOptions struct {
	engines []*registry.Entry
	opts    registry.Options
	budget  time.Duration
	maxWork int64
	runs    int
	// tie is the ratio to the fastest time, and slack the time, within
	// which an engine counts as fastest too.
	tie   float64
	slack time.Duration
}

// runEngine checks p under m with a fresh engine, behind the
// cone-of-influence reduction as fencemodel check does, runs times, and
// keeps the least CPU time.
func runEngine(newEng func() (engines.Engine, error), p *model.Program, m model.Model, o enginesOptions) engineRun {
	var best engineRun
	for i := range o.runs {
		eng, err := newEng()
		if err != nil {
			return engineRun{err: err}
		}
		eng = &coi.Engine{Inner: eng}
		runtime.GC() // the garbage of the run before is not this one's
		ctx, cancel := context.WithTimeout(context.Background(), o.budget)
		ctx = engines.WithMeter(ctx, engines.NewMeter(o.maxWork))
		ctx, stop := engines.WatchMemory(ctx, defaultMemory<<20, errMemory)
		var res *engines.Result
		_, cpu := cputime.Measure(func() { res, err = eng.Check(ctx, p, m) })
		stop()
		cancel()
		if err != nil {
			return engineRun{err: err}
		}
		if i == 0 || cpu < best.cpu {
			best = engineRun{res: res, cpu: cpu}
		}
	}
	r := best.res
	best.verdict = r.Status == engines.Unsafe || r.Status == engines.Safe && r.Bound == ""
	return best
}

// benchSystem runs every engine and auto's plan on p under m.
func benchSystem(name string, p *model.Program, m model.Model, o enginesOptions) *engineRow {
	row := &engineRow{name: name, procs: registry.Goroutines(p), model: m}
	for _, e := range o.engines {
		row.runs = append(row.runs, runEngine(func() (engines.Engine, error) { return e.New(o.opts), nil }, p, m, o))
	}
	if pl, err := registry.Choose(registry.Auto, p, registry.Reach); err == nil {
		row.plan = pl.String()
		row.auto = runEngine(func() (engines.Engine, error) { return pl.New(o.opts), nil }, p, m, o)
	} else {
		row.auto = engineRun{err: err}
	}
	row.win = wins(row.runs, o)
	return row
}

// wins marks the runs among the fastest to a verdict: within o.tie times or
// o.slack of the fastest.
func wins(runs []engineRun, o enginesOptions) []bool {
	var fastest time.Duration = -1
	for _, r := range runs {
		if r.verdict && (fastest < 0 || r.cpu < fastest) {
			fastest = r.cpu
		}
	}
	win := make([]bool, len(runs))
	for i, r := range runs {
		win[i] = r.verdict && (float64(r.cpu) <= float64(fastest)*o.tie || r.cpu <= fastest+o.slack)
	}
	return win
}

// conflict returns a description of two engines that disagree on the row,
// or "".
func (r *engineRow) conflict(es []*registry.Entry) string {
	var safe, unsafe []string
	for i, run := range append(slices.Clone(r.runs), r.auto) {
		name := registry.Auto
		if i < len(es) {
			name = es[i].Name
		}
		switch {
		case !run.verdict:
		case run.res.Status == engines.Safe:
			safe = append(safe, name)
		default:
			unsafe = append(unsafe, name)
		}
	}
	if len(safe) > 0 && len(unsafe) > 0 {
		return fmt.Sprintf("%s under %s: %s say safe, %s unsafe", r.name, r.model, strings.Join(safe, ", "), strings.Join(unsafe, ", "))
	}
	return ""
}

// cell renders one engine's answer: its verdict and CPU time, bold when it
// is among the fastest.
func (run engineRun) cell(win bool) string {
	switch {
	case run.err != nil:
		return "refused"
	case run.res.Status == engines.Inconclusive:
		return "inconclusive"
	}
	s := run.res.Status.String()
	if run.res.Bound != "" {
		s += " (bounded)"
	}
	s += " " + cpuString(run.cpu)
	if win {
		s = "**" + s + "**"
	}
	return s
}

// cpuString prints a CPU time to two or three significant digits.
func cpuString(d time.Duration) string {
	switch {
	case d < 10*time.Millisecond:
		return strconv.FormatFloat(float64(d)/float64(time.Millisecond), 'f', 2, 64) + " ms"
	case d < time.Second:
		return strconv.FormatFloat(float64(d)/float64(time.Millisecond), 'f', 0, 64) + " ms"
	}
	return strconv.FormatFloat(d.Seconds(), 'f', 2, 64) + " s"
}

func (r *engineRow) cells() []string {
	row := []string{r.name, strconv.Itoa(r.procs), r.model.String()}
	for i, run := range r.runs {
		row = append(row, run.cell(r.win[i]))
	}
	auto := r.auto.cell(false)
	if r.plan != "" {
		auto = r.plan + ": " + auto
	}
	return append(row, auto)
}

// benchAllEngines is bench -engines.
func benchAllEngines(entries []engineEntry, filter *regexp.Regexp, o enginesOptions, markdown bool, stdout, stderr io.Writer) int {
	var (
		code  exitCode
		rows  []*engineRow
		cells [][]string
		notes []string
		gos   goSystems
	)
	header := false
	for _, e := range entries {
		if filter != nil && !filter.MatchString(e.Name) && !filter.MatchString(e.File) && !filter.MatchString(e.Go) {
			continue
		}
		var (
			p   *model.Program
			err error
		)
		if e.File != "" {
			p, err = modelfile.Load(e.File)
		} else {
			p, err = gos.system(e.Go, e.System)
		}
		if err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", e.Name, err)
			code.add(exitUsage)
			continue
		}
		for _, m := range []model.Model{model.TSO, model.SC} {
			start := time.Now()
			r := benchSystem(e.Name, p, m, o)
			fmt.Fprintf(stderr, "%s under %s: %v\n", e.Name, m, time.Since(start).Round(time.Millisecond))
			if c := r.conflict(o.engines); c != "" {
				code.add(exitUnsafe)
				notes = append(notes, "the engines disagree: "+c)
			}
			rows = append(rows, r)
			cells = append(cells, r.cells())
			if markdown {
				// Markdown rows are printed as they are made, so that a
				// long run shows its progress.
				if !header {
					_ = writeRows(stdout, enginesColumns(o), nil, true)
					header = true
				}
				markdownRow(stdout, r.cells())
			}
		}
	}
	if len(rows) == 0 {
		if code == exitSafe {
			fmt.Fprintf(stderr, "fencemodel bench: no system matches -run\n")
		}
		return exitUsage
	}
	if !markdown {
		if err := writeRows(stdout, enginesColumns(o), cells, false); err != nil {
			fmt.Fprintf(stderr, "fencemodel bench: %v\n", err)
			return exitUsage
		}
	}
	fmt.Fprintf(stdout, "\nCPU time of each check (the least of %d runs), within %d work units and %v; in bold the engines within %g× or %v of the fastest to a verdict (a bounded safe answer is none); refused: the engine does not take the program's data or operations.\n\n",
		o.runs, o.maxWork, o.budget, o.tie, o.slack)
	for _, line := range winSummary(rows, o.engines) {
		fmt.Fprintln(stdout, line)
	}
	for _, n := range notes {
		fmt.Fprintf(stdout, "- %s\n", n)
	}
	return int(code)
}

// enginesColumns are the columns of bench -engines' table.
func enginesColumns(o enginesOptions) []string {
	columns := []string{"system", "goroutines", "model"}
	columns = append(columns, registry.Names(o.engines)...)
	return append(columns, "auto (its plan)")
}

// winSummary says, for each engine, on how many rows it is among the
// fastest to a verdict, and where it is the only one.
func winSummary(rows []*engineRow, es []*registry.Entry) []string {
	var out []string
	for i, e := range es {
		var wins, alone []string
		for _, r := range rows {
			if !r.win[i] {
				continue
			}
			wins = append(wins, r.name+" ("+r.model.String()+")")
			if slices.Index(r.win, true) == i && slices.Index(r.win[i+1:], true) < 0 {
				alone = append(alone, r.name+" ("+r.model.String()+")")
			}
		}
		line := fmt.Sprintf("- %s: fastest on %d of %d", e.Name, len(wins), len(rows))
		if len(alone) > 0 {
			line += fmt.Sprintf("; the only fastest on %s", strings.Join(alone, ", "))
		}
		out = append(out, line)
	}
	return out
}

// enginesBudget is the time budget of each check of bench -engines when
// -budget is not given: beyond the work bound only on a loaded machine.
const enginesBudget = 5 * time.Minute

// benchEnginesMode is bench -engines with bench's parsed flags.
func benchEnginesMode(fs *flag.FlagSet, ef *engineFlags, manifest, runRE string, runs int, markdown bool, stdout, stderr io.Writer) int {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if !set["manifest"] {
		manifest = enginesManifest
	}
	o := enginesOptions{engines: benchedEngines(), opts: ef.opts, budget: ef.budget, maxWork: ef.maxWork, runs: runs, tie: 1.25, slack: time.Millisecond}
	if !set["budget"] {
		o.budget = enginesBudget
	}
	if o.maxWork <= 0 {
		o.maxWork = enginesWork
	}
	if !set["runs"] {
		o.runs = 1
	}
	if o.runs < 1 {
		fmt.Fprintf(stderr, "fencemodel bench: -runs=%d: want at least 1\n", runs)
		return exitUsage
	}
	var filter *regexp.Regexp
	if runRE != "" {
		var err error
		if filter, err = regexp.Compile(runRE); err != nil {
			fmt.Fprintf(stderr, "fencemodel bench: -run: %v\n", err)
			return exitUsage
		}
	}
	entries, err := readEnginesManifest(manifest)
	if err != nil {
		fmt.Fprintf(stderr, "fencemodel bench: %v\n", err)
		return exitUsage
	}
	return benchAllEngines(entries, filter, o, markdown, stdout, stderr)
}
