package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/pred"
	"github.com/fencecheck/fencecheck/engines/question/fence"
	"github.com/fencecheck/fencecheck/engines/registry"
	"github.com/fencecheck/fencecheck/engines/wrap/coi"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/modelfile"
)

// benchEntry is one program of a bench manifest: a model file and what the
// paper it comes from reports for it. The manifest is a JSON array of
// entries; fields the bench does not know are ignored.
type benchEntry struct {
	// File is the model file, relative to the manifest's directory.
	File string `json:"file"`
	// Name is the program's name in the paper.
	Name string `json:"name"`
	// PaperRow is the program's row in the paper's table.
	PaperRow int `json:"paper_row"`
	// PaperSize is the paper's size column (processes/states/variables/
	// transitions for the single-buffer paper).
	PaperSize string `json:"paper_size"`
	// PaperFencesPerProc is the paper's number of barriers per process in a
	// smallest set: 0 for a program correct without barriers; null when the
	// paper reports the program erroneous.
	PaperFencesPerProc *int `json:"paper_fences_per_proc"`
	// PaperSets is the paper's number of minimal barrier sets (1 for a
	// correct program: the empty set; 0 for an erroneous one; 0 also when the
	// paper does not say).
	PaperSets int `json:"paper_sets"`
	// PaperTimeCheapestS and PaperTimeAllS are the paper's times, in seconds,
	// for one (a smallest) set and for all minimal sets. PaperTimeS is a
	// single total time, for papers that report one.
	PaperTimeCheapestS float64 `json:"paper_time_cheapest_s"`
	PaperTimeAllS      float64 `json:"paper_time_all_s"`
	PaperTimeS         float64 `json:"paper_time_s"`
	// PaperPredicates is the largest number of predicates the paper's
	// predicate-abstraction engine used, when it reports one.
	PaperPredicates int `json:"paper_predicates"`
	// PaperErroneous says the paper reports the program wrong under SC.
	PaperErroneous bool `json:"paper_erroneous"`
	// Deviation, when set, documents why this project's result for the
	// program differs from the paper's; a difference with no deviation is a
	// failure of the bench.
	Deviation string `json:"deviation"`
	// Notes say how the model encodes the published algorithm.
	Notes string `json:"notes"`
	// Unroll is the bound of the bounded engine (bench -engine=bmc): the
	// backward jumps each process may take; 0 is the engine's default.
	Unroll int `json:"unroll"`
	// Expect is the verdict the bounded engine must reach within the
	// bound: "safe" or "unsafe"; empty when not known.
	Expect string `json:"expect"`
}

// readJSONList reads a manifest: a JSON list of entries, of which there
// must be one at least (what names one, for the message).
func readJSONList[T any](path, what string) ([]T, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading manifest: %w", err)
	}
	var entries []T
	if err := json.Unmarshal(data, &entries); err != nil {
		return nil, fmt.Errorf("manifest %s: %w", path, err)
	}
	if len(entries) == 0 {
		return nil, fmt.Errorf("manifest %s lists no %s", path, what)
	}
	return entries, nil
}

// readManifest reads a bench manifest and resolves its files against the
// manifest's directory.
func readManifest(path string) ([]benchEntry, error) {
	entries, err := readJSONList[benchEntry](path, "program")
	if err != nil {
		return nil, err
	}
	dir := filepath.Dir(path)
	for i := range entries {
		e := &entries[i]
		if e.File == "" {
			return nil, fmt.Errorf("manifest %s: entry %d has no file", path, i+1)
		}
		if !filepath.IsAbs(e.File) {
			e.File = filepath.Join(dir, e.File)
		}
		if e.Name == "" {
			e.Name = strings.TrimSuffix(filepath.Base(e.File), filepath.Ext(e.File))
		}
		if e.PaperErroneous && e.PaperFencesPerProc != nil {
			return nil, fmt.Errorf("manifest %s: %s is erroneous yet has fences per process", path, e.Name)
		}
	}
	return entries, nil
}

// paperVerdict is the paper's result for e in the words of [fence.Status].
func (e *benchEntry) paperVerdict() fence.Status {
	switch {
	case e.PaperErroneous:
		return fence.WrongUnderSC
	case e.PaperFencesPerProc != nil && *e.PaperFencesPerProc == 0:
		return fence.Correct
	}
	return fence.Fixable
}

// paperSummary describes the paper's result in the bench's words.
func (e *benchEntry) paperSummary() string {
	switch {
	case e.PaperErroneous:
		return "erroneous"
	case e.PaperFencesPerProc == nil:
		return "?"
	case *e.PaperFencesPerProc == 0:
		return "0 fences" + e.predicates()
	}
	s := fmt.Sprintf("%d/proc", *e.PaperFencesPerProc)
	if e.PaperSets > 0 {
		s += fmt.Sprintf(", %d set", e.PaperSets)
		if e.PaperSets > 1 {
			s += "s"
		}
	}
	return s + e.predicates()
}

// predicates mentions the paper's predicate count, when it gives one.
func (e *benchEntry) predicates() string {
	if e.PaperPredicates == 0 {
		return ""
	}
	if e.PaperPredicates == 1 {
		return ", 1 pred"
	}
	return fmt.Sprintf(", %d preds", e.PaperPredicates)
}

// benchRow is the outcome of one program.
type benchRow struct {
	entry benchEntry
	prog  *model.Program
	err   error

	// cheapest is the run for one cheapest set; all the run for all minimal
	// sets, nil when it was not run (not asked for, or the cheapest run was
	// inconclusive).
	cheapest, all *fence.Result
	peak          uint64 // bytes; 0 when not measured
	// abs is what the pred engine's checks needed, nil for other engines.
	abs *absStats
}

// absStats collects the abstraction the pred engine's checks of one program
// ended with: the most parameterized predicates and the largest k.
type absStats struct {
	mu         sync.Mutex
	predicates int
	k          int
}

func (s *absStats) observe(r *pred.Report) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.predicates = max(s.predicates, len(r.Predicates))
	s.k = max(s.k, r.K)
}

// verdict is the status the row is judged by: that of the all-sets run when
// it finished, else that of the cheapest run.
func (r *benchRow) verdict() *fence.Result {
	if r.all != nil && r.all.Status != fence.Inconclusive {
		return r.all
	}
	return r.cheapest
}

// perProc counts the barriers of set by process: "k/proc" when every
// process has k, else one count per process.
func perProc(p *model.Program, set []fence.Place) string {
	counts := make([]int, len(p.Procs))
	for _, pl := range set {
		counts[pl.Proc]++
	}
	same := true
	for _, c := range counts {
		same = same && c == counts[0]
	}
	if same && len(counts) > 0 {
		return fmt.Sprintf("%d/proc", counts[0])
	}
	parts := make([]string, len(counts))
	for i, c := range counts {
		parts[i] = fmt.Sprintf("%s:%d", p.Procs[i].Name, c)
	}
	return strings.Join(parts, " ")
}

// agreement compares the row with the paper: "yes", "no", "no (documented)",
// "inconclusive" or "error".
func (r *benchRow) agreement() string {
	if r.err != nil {
		return "error"
	}
	v := r.verdict()
	if v == nil || v.Status == fence.Inconclusive {
		return "inconclusive"
	}
	e := &r.entry
	ok := v.Status == e.paperVerdict()
	if ok && v.Status == fence.Fixable {
		ok = perProc(r.prog, v.Sets[0]) == fmt.Sprintf("%d/proc", *e.PaperFencesPerProc)
		if r.all != nil && r.all.Status == fence.Fixable && e.PaperSets > 0 {
			ok = ok && len(r.all.Sets) == e.PaperSets
		}
	}
	switch {
	case ok:
		return "yes"
	case e.Deviation != "":
		return "no (documented)"
	}
	return "no"
}

// benchOptions configure one bench run.
type benchOptions struct {
	eng       engines.Engine
	budget    time.Duration
	placement fence.Placement
	all       bool
	sample    time.Duration // memory sampling interval; 0 disables it
}

// runBench runs the cheapest-set and the all-sets inference on one program,
// each under its own budget, and samples the heap meanwhile.
func runBench(e benchEntry, o benchOptions) *benchRow {
	row := &benchRow{entry: e}
	p, err := modelfile.Load(e.File)
	if err != nil {
		row.err = err
		return row
	}
	row.prog = p
	inner, reduce := o.eng, false
	if ce, ok := inner.(*coi.Engine); ok {
		inner, reduce = ce.Inner, true
	}
	if pe, ok := inner.(*pred.Engine); ok {
		// A fresh engine per program, which reports its abstractions.
		row.abs = &absStats{}
		o.eng = &pred.Engine{K: pe.K, Oldest: pe.Oldest, MaxIterations: pe.MaxIterations, MaxStates: pe.MaxStates, Fresh: pe.Fresh, Zones: pe.Zones, Observe: row.abs.observe}
		if reduce {
			o.eng = &coi.Engine{Inner: o.eng}
		}
	}
	var sampler *heapSampler
	if o.sample > 0 {
		sampler = startHeapSampler(o.sample)
	}
	infer := func(all bool) (*fence.Result, error) {
		ctx, cancel := context.WithTimeout(context.Background(), o.budget)
		defer cancel()
		// The engine's own searches under the model, as the papers
		// measure them.
		return fence.Infer(ctx, o.eng, p, fence.Options{All: all, Placement: o.placement, UnderModelOnly: true})
	}
	row.cheapest, row.err = infer(false)
	switch {
	case row.err != nil, !o.all, row.cheapest.Status == fence.Inconclusive:
	case row.cheapest.Status != fence.Fixable:
		// Correct or wrong under SC: the cheapest search already examined
		// the only candidate sets there are; all sets is the same run.
		row.all = row.cheapest
	default:
		row.all, row.err = infer(true)
	}
	if sampler != nil {
		row.peak = sampler.stop()
	}
	return row
}

// heapSampler records the peak of the heap's object bytes (live and not yet
// swept, the quantity of runtime.MemStats.HeapAlloc) read through
// runtime/metrics, which does not stop the world, at a fixed interval.
type heapSampler struct {
	done chan struct{}
	wg   sync.WaitGroup
	peak uint64
}

const heapMetric = "/memory/classes/heap/objects:bytes"

func startHeapSampler(every time.Duration) *heapSampler {
	// Start from a collected heap, so that garbage of the previous program
	// is not charged to this one.
	runtime.GC()
	s := &heapSampler{done: make(chan struct{})}
	sample := []metrics.Sample{{Name: heapMetric}}
	read := func() {
		metrics.Read(sample)
		if sample[0].Value.Kind() == metrics.KindUint64 {
			s.peak = max(s.peak, sample[0].Value.Uint64())
		}
	}
	read()
	s.wg.Go(func() {
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-s.done:
				read()
				return
			case <-t.C:
				read()
			}
		}
	})
	return s
}

// stop ends the sampling and returns the peak in bytes.
func (s *heapSampler) stop() uint64 {
	close(s.done)
	s.wg.Wait()
	return s.peak
}

// benchColumns are the table's columns.
var benchColumns = []string{
	"#", "program", "size P/L/V/T", "explored", "preds", "k", "verdict", "fences", "sets",
	"cheapest", "all sets", "peak heap", "paper", "paper cheapest", "paper all", "agrees",
}

// cells renders the row; explored names what the engine counts.
func (r *benchRow) cells() []string {
	e := &r.entry
	row := []string{"", e.Name, "", "", "-", "-", "", "", "", "", "", "", e.paperSummary(), seconds(e.PaperTimeCheapestS), seconds(e.PaperTimeAllS), r.agreement()}
	if e.PaperRow > 0 {
		row[0] = strconv.Itoa(e.PaperRow)
	}
	if e.PaperTimeAllS == 0 && e.PaperTimeS > 0 {
		row[14] = seconds(e.PaperTimeS)
	}
	if r.prog != nil {
		row[2] = size(r.prog)
	}
	if r.abs != nil {
		r.abs.mu.Lock()
		row[4], row[5] = strconv.Itoa(r.abs.predicates), strconv.Itoa(r.abs.k)
		r.abs.mu.Unlock()
	}
	if r.err != nil {
		row[6] = "error"
		return row
	}
	v := r.verdict()
	states := r.cheapest.Stats.States
	if r.all != nil && r.all != r.cheapest {
		states += r.all.Stats.States
	}
	row[3] = strconv.FormatInt(states, 10)
	row[6] = v.Status.String()
	if v.Status == fence.Inconclusive {
		row[6] = "inconclusive (bound)"
	}
	if v.Bound != "" {
		row[6] += " (bounded)"
	}
	switch v.Status {
	case fence.Correct:
		row[7], row[8] = "0", "1"
	case fence.Fixable:
		row[7] = perProc(r.prog, v.Sets[0])
		row[8] = "-"
		if r.all != nil && r.all.Status == fence.Fixable {
			row[8] = strconv.Itoa(len(r.all.Sets))
		}
	case fence.WrongUnderSC, fence.NotFixable:
		row[7], row[8] = "-", "0"
	default:
		row[7], row[8] = "-", "-"
	}
	row[9] = duration(r.cheapest)
	row[10] = "-"
	if r.all != nil {
		row[10] = duration(r.all)
	}
	if r.peak > 0 {
		row[11] = fmt.Sprintf("%.1f MiB", float64(r.peak)/(1<<20))
	}
	return row
}

// size is P/L/V/T: processes, locations, variables and transitions, the
// paper's size measure.
func size(p *model.Program) string {
	locs, trans := 0, 0
	for _, q := range p.Procs {
		locs += len(q.Locs)
		trans += len(q.Trans)
	}
	return fmt.Sprintf("%d/%d/%d/%d", len(p.Procs), locs, len(p.Vars), trans)
}

func duration(r *fence.Result) string {
	if r.Status == fence.Inconclusive {
		return "> budget"
	}
	d := r.Stats.Duration
	switch {
	case d < time.Millisecond:
		return fmt.Sprintf("%.3f ms", float64(d)/float64(time.Millisecond))
	case d < time.Second:
		return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond))
	}
	return fmt.Sprintf("%.2f s", d.Seconds())
}

func seconds(s float64) string {
	if s == 0 {
		return "-"
	}
	return strconv.FormatFloat(s, 'g', -1, 64) + " s"
}

// writeTable prints rows as an aligned text table or as Markdown.
func writeTable(w io.Writer, rows [][]string, markdown bool) error {
	return writeRows(w, benchColumns, rows, markdown)
}

// markdownRow prints one row of a Markdown table.
func markdownRow(w io.Writer, cells []string) {
	esc := make([]string, len(cells))
	for i, c := range cells {
		esc[i] = strings.ReplaceAll(c, "|", `\|`)
	}
	fmt.Fprintf(w, "| %s |\n", strings.Join(esc, " | "))
}

// writeRows prints rows under columns as an aligned text table or as
// Markdown.
func writeRows(w io.Writer, benchColumns []string, rows [][]string, markdown bool) error {
	if markdown {
		markdownRow(w, benchColumns)
		sep := make([]string, len(benchColumns))
		for i := range sep {
			sep[i] = "---"
		}
		markdownRow(w, sep)
		for _, r := range rows {
			markdownRow(w, r)
		}
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(benchColumns, "\t"))
	for _, r := range rows {
		fmt.Fprintln(tw, strings.Join(r, "\t"))
	}
	return tw.Flush()
}

func bench(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, "usage: fencemodel bench [flags]\n\n"+
			"Runs fence inference over the programs of a manifest (cheapest set, then\n"+
			"all minimal sets) and prints a table beside the paper's results. With\n"+
			"-engine=bmc it prints the table of Fig. 11 of the interference-abstraction\n"+
			"paper instead: each program checked under SC with full instantiation and\n"+
			"with REF (default manifest testdata/fig11/manifest.json).\n\n")
		fs.PrintDefaults()
	}
	var ef engineFlags
	fs.StringVar(&ef.engine, "engine", registry.SB, "reachability engine: "+registry.Describe(benchEngines())+"; "+registry.BMC+" runs the Fig. 11 comparison instead")
	ef.opts.RegisterFlags(fs)
	fs.DurationVar(&ef.budget, "budget", time.Minute, "time budget per program for each of the two runs (cheapest set, all sets)")
	manifest := fs.String("manifest", filepath.Join("testdata", "table1", "expected.json"), "the manifest: JSON list of programs and the paper's results")
	format := fs.String("format", "text", "output: text (aligned) or markdown")
	all := fs.Bool("all", true, "also compute all minimal sets")
	placement := fs.String("placement", "after-writes", "where barriers may go: after-writes or anywhere")
	runRE := fs.String("run", "", "only programs whose file or name matches this regular expression")
	sample := fs.Duration("sample", 2*time.Millisecond, "heap sampling interval (0: do not measure memory)")
	runs := fs.Int("runs", 3, "with -engine=bmc or -engines: runs of each check (the fastest is kept)")
	every := fs.Bool("engines", false, "run every engine on each system of the manifest (default "+enginesManifest+") under TSO and SC, within -maxwork units (default "+strconv.Itoa(enginesWork)+"), and mark the fastest to a verdict")
	fs.Int64Var(&ef.maxWork, "maxwork", 0, "with -engines: work units of each check (0: "+strconv.Itoa(enginesWork)+")")
	abstractions := fs.String("abstractions", "set,fd0,fd1,pd0,pd1,pd2", "with -engine="+registry.Coherence+": the abstractions, one table each")
	benchModel := fs.String("model", "pso", "with -engine="+registry.Coherence+": the memory model (tso or pso)")
	ef.registerReduce(fs)
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "fencemodel bench: "+format+"\n", a...)
		return exitUsage
	}
	if fs.NArg() > 0 {
		return fail("unexpected arguments %q (the programs come from -manifest)", fs.Args())
	}
	if *format != "text" && *format != "markdown" {
		return fail("unknown format %q (want text or markdown)", *format)
	}
	if *every {
		return benchEnginesMode(fs, &ef, *manifest, *runRE, *runs, *format == "markdown", stdout, stderr)
	}
	if ef.engine == registry.Coherence {
		return runCoherenceBench(fs, *manifest, *abstractions, *benchModel, *runRE, *format == "markdown", ef, stdout, stderr)
	}
	if ef.engine == registry.BMC {
		set := false
		fs.Visit(func(f *flag.Flag) { set = set || f.Name == "manifest" })
		if !set {
			*manifest = fig11Manifest
		}
		if *runs < 1 {
			return fail("-runs=%d: want at least 1", *runs)
		}
		var filter *regexp.Regexp
		if *runRE != "" {
			var err error
			if filter, err = regexp.Compile(*runRE); err != nil {
				return fail("-run: %v", err)
			}
		}
		entries, err := readManifest(*manifest)
		if err != nil {
			return fail("%v", err)
		}
		for _, e := range entries {
			if e.Expect != "" && e.Expect != "safe" && e.Expect != "unsafe" {
				return fail("manifest %s: %s expects %q (want safe or unsafe)", *manifest, e.Name, e.Expect)
			}
		}
		return benchFig11(entries, filter, ef.budget, ef.opts.MaxStates, *runs, *format == "markdown", stdout, stderr)
	}
	eng, err := ef.newEngine()
	if err != nil {
		return fail("%v", err)
	}
	eng = ef.reduced(eng)
	g, err := fence.ParsePlacement(*placement)
	if err != nil {
		return fail("%v", err)
	}
	var filter *regexp.Regexp
	if *runRE != "" {
		if filter, err = regexp.Compile(*runRE); err != nil {
			return fail("-run: %v", err)
		}
	}
	entries, err := readManifest(*manifest)
	if err != nil {
		return fail("%v", err)
	}
	opts := benchOptions{eng: eng, budget: ef.budget, placement: g, all: *all, sample: *sample}
	var (
		code  exitCode
		cells [][]string
		notes []string
	)
	for i, e := range entries {
		if filter != nil && !filter.MatchString(e.File) && !filter.MatchString(e.Name) {
			continue
		}
		if i > 0 {
			opts.eng = ef.reduced(ef.fresh()) // nothing learnt carries over to another program
		}
		r := runBench(e, opts)
		cells = append(cells, r.cells())
		switch r.agreement() {
		case "error":
			fmt.Fprintf(stderr, "%s: %v\n", e.File, r.err)
			code.add(exitUsage)
		case "no":
			code.add(exitUnsafe)
			notes = append(notes, fmt.Sprintf("%s: differs from the paper and no deviation is documented", e.Name))
		case "no (documented)":
			notes = append(notes, fmt.Sprintf("%s: %s", e.Name, e.Deviation))
		case "inconclusive":
			code.add(exitInconclusive)
			notes = append(notes, fmt.Sprintf("%s: %s", e.Name, r.verdict().Reason))
		}
	}
	if len(cells) == 0 {
		return fail("no program of %s matches -run=%q", *manifest, *runRE)
	}
	if err := writeTable(stdout, cells, *format == "markdown"); err != nil {
		return fail("%v", err)
	}
	fmt.Fprintf(stdout, "\nengine %s; explored = %s summed over the engine calls of both runs; budget %v per run; peak heap sampled every %v\n",
		eng.Name(), exploredUnit(eng), ef.budget, *sample)
	for _, n := range notes {
		fmt.Fprintf(stdout, "- %s\n", n)
	}
	return int(code)
}

// benchEngines are the engines that the bench's help suggests: those of
// the papers' tables.
func benchEngines() []*registry.Entry {
	return []*registry.Entry{registry.Lookup(registry.SB), registry.Lookup(registry.Explicit), registry.Lookup(registry.Pred), registry.Lookup(registry.Coherence)}
}

// exploredUnit names what the engine's state counter counts.
func exploredUnit(eng engines.Engine) string {
	e := registry.Lookup(eng.Name())
	switch {
	case e == nil:
		return "states"
	case e.Name == registry.Pred:
		return e.Counts + " (preds = most parameterized predicates, k = largest k of any check)"
	}
	return e.Counts
}
