package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/coherence"
	"github.com/fencecheck/fencecheck/engines/question/fence"
	"github.com/fencecheck/fencecheck/engines/registry"
	"github.com/fencecheck/fencecheck/internal/cputime"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/modelfile"
)

// This file is the bench of the partial-coherence engine
// (-engine=coherence): Tables 1 and 2 of the partial-coherence paper
// (Kuperstein, Vechev, Yahav, PLDI 2011). For each abstraction (and k) it
// checks every program of the manifest with that abstraction alone, no
// refinement, and infers fences for the programs of Table 2 over the
// engine with that abstraction, beside the paper's results.

// coherenceManifest is the default manifest of bench -engine=coherence.
var coherenceManifest = filepath.Join("testdata", registry.Coherence, "expected.json")

// coherenceEntry is one program of the manifest.
type coherenceEntry struct {
	File string `json:"file"`
	Name string `json:"name"`
	// Table is the paper's table: 1 (verification of a fenced program)
	// or 2 (fence inference for an under-fenced one).
	Table int `json:"table"`
	// Expect is the program's verdict under the bench's memory model,
	// "safe" or "unsafe", which no conclusive answer may contradict.
	Expect string `json:"expect"`
	// Paper holds the paper's cell by abstraction ("set", "fd0", "pd1").
	Paper map[string]paperCell `json:"paper"`
	Notes string               `json:"notes"`
}

// paperCell is one cell of the paper's tables: the outcome ("verified",
// "spurious"; "optimal", "suboptimal", "unfixable"; "out of memory") and
// the states explored, in thousands (0 when the paper gives none).
type paperCell struct {
	Result  string  `json:"result"`
	KStates float64 `json:"kstates"`
}

// String renders c as the bench prints it.
func (c paperCell) String() string {
	if c.KStates == 0 {
		return c.Result
	}
	return fmt.Sprintf("%s, %sk", c.Result, strconv.FormatFloat(c.KStates, 'f', -1, 64))
}

func readCoherenceManifest(path string) ([]coherenceEntry, error) {
	entries, err := readJSONList[coherenceEntry](path, "program")
	if err != nil {
		return nil, err
	}
	for i := range entries {
		e := &entries[i]
		if e.File == "" || (e.Table != 1 && e.Table != 2) || (e.Expect != "safe" && e.Expect != "unsafe") {
			return nil, fmt.Errorf("manifest %s: entry %d needs a file, a table (1 or 2) and an expected verdict (safe or unsafe)", path, i+1)
		}
		if !filepath.IsAbs(e.File) {
			e.File = filepath.Join(filepath.Dir(path), e.File)
		}
	}
	return entries, nil
}

// coherenceColumns are the columns of each abstraction's table.
var coherenceColumns = []string{
	"table", "program", "verdict", "states", "CPU", "fences inferred", "inference states", "inference CPU", "paper", "agrees",
}

// coherenceOptions configure the bench.
type coherenceOptions struct {
	model     model.Model
	budget    time.Duration
	maxStates int64
	filter    *regexp.Regexp
	markdown  bool
}

func benchCoherence(entries []coherenceEntry, abstractions []coherence.Abstraction, o coherenceOptions, stdout, stderr io.Writer) int {
	var code exitCode
	progs := make([]*model.Program, len(entries))
	for i, e := range entries {
		p, err := modelfile.Load(e.File)
		if err != nil {
			fmt.Fprintf(stderr, "%v\n", err)
			return exitUsage
		}
		progs[i] = p
	}
	var wrong, notes []string
	for _, a := range abstractions {
		fmt.Fprintf(stdout, "\n%s (%s)\n\n", a.Title(), o.model)
		var rows [][]string
		for i, e := range entries {
			if o.filter != nil && !o.filter.MatchString(e.File) && !o.filter.MatchString(e.Name) {
				continue
			}
			row, bad, note := coherenceRow(e, progs[i], a, o)
			rows = append(rows, row)
			if bad != "" {
				wrong = append(wrong, bad)
				code.add(exitUnsafe)
			}
			if note != "" {
				notes = append(notes, note)
			}
		}
		if err := writeRows(stdout, coherenceColumns, rows, o.markdown); err != nil {
			fmt.Fprintf(stderr, "fencemodel bench: %v\n", err)
			return exitUsage
		}
	}
	fmt.Fprintf(stdout, "\neach abstraction alone (no refinement) under %s; states are abstract states (the paper's in thousands); CPU time of this process; budget %v per check and per inference\n", o.model, o.budget)
	for _, w := range append(wrong, notes...) {
		fmt.Fprintf(stdout, "- %s\n", w)
	}
	return int(code)
}

// coherenceRow checks and, for Table 2, repairs one program with the
// abstraction a; it returns the row, a note when an answer contradicts
// the program's expected verdict, and one saying why a check or an
// inference was inconclusive for another reason than a spurious
// counterexample.
func coherenceRow(e coherenceEntry, p *model.Program, a coherence.Abstraction, o coherenceOptions) (row []string, bad, note string) {
	eng := &coherence.Engine{Abstraction: a, NoRefine: true, MaxStates: o.maxStates}
	ctx, cancel := context.WithTimeout(context.Background(), o.budget)
	defer cancel()
	var (
		res *engines.Result
		err error
	)
	_, cpu := cputime.Measure(func() { res, err = eng.Check(ctx, p, o.model) })
	row = []string{strconv.Itoa(e.Table), e.Name, "", "", cpuText(cpu), "-", "-", "-", "-", ""}
	if cell, ok := e.Paper[a.String()]; ok {
		row[8] = cell.String()
	}
	if err != nil {
		row[2] = "error: " + err.Error()
		return row, "", ""
	}
	row[2], row[3] = coherenceVerdict(res), strconv.FormatInt(res.Stats.States, 10)
	if row[2] == "out of budget" || row[2] == "inconclusive" {
		note = fmt.Sprintf("%s with %s: %s", e.Name, a.Title(), res.Reason)
	}
	if res.Status != engines.Inconclusive && res.Status.String() != e.Expect {
		bad = fmt.Sprintf("%s with %s: %s, expected %s", e.Name, a.Title(), res.Status, e.Expect)
	}
	if e.Table == 2 {
		ictx, icancel := context.WithTimeout(context.Background(), o.budget)
		defer icancel()
		var inf *fence.Result
		_, icpu := cputime.Measure(func() {
			inf, err = fence.Infer(ictx, eng, p, fence.Options{Model: o.model})
		})
		switch {
		case err != nil:
			row[5] = "error: " + err.Error()
		case inf.Status == fence.Fixable:
			row[5] = fenceCount(p, inf.Sets[0])
		case inf.Status == fence.Inconclusive:
			row[5] = "inconclusive"
			if strings.Contains(inf.Reason, "spurious") {
				row[5] += " (spurious)"
			} else {
				note = fmt.Sprintf("%s with %s: inference inconclusive: %s", e.Name, a.Title(), inf.Reason)
			}
		default:
			row[5] = inf.Status.String()
		}
		if err == nil {
			row[6], row[7] = strconv.FormatInt(inf.Stats.States, 10), cpuText(icpu)
		}
	}
	row[9] = coherenceAgrees(e, a, res, row[5])
	return row, bad, note
}

// coherenceVerdict names a check's outcome: safe, unsafe, spurious, or
// the budget that ended it.
func coherenceVerdict(r *engines.Result) string {
	switch {
	case r.Status != engines.Inconclusive:
		return r.Status.String()
	case strings.Contains(r.Reason, "is spurious"):
		return "spurious"
	case strings.Contains(r.Reason, "budget"), strings.Contains(r.Reason, "bound"):
		return "out of budget"
	}
	return "inconclusive"
}

// fenceCount describes a barrier set: per process when every process has
// as many, with the store-store ones counted apart.
func fenceCount(p *model.Program, set []fence.Place) string {
	s := perProc(p, set)
	ss := 0
	for _, pl := range set {
		if pl.StoreStore {
			ss++
		}
	}
	if ss > 0 {
		s += fmt.Sprintf(" (%d store-store)", ss)
	}
	return s
}

// coherenceAgrees compares a row with the paper's cell: for Table 1 the
// verdict (verified: safe; spurious: spurious), for Table 2 whether fences
// were inferred (optimal or suboptimal: fixable; unfixable: not). A cell
// the paper does not have, or where it ran out of memory, compares with
// nothing.
func coherenceAgrees(e coherenceEntry, a coherence.Abstraction, r *engines.Result, fences string) string {
	cell, ok := e.Paper[a.String()]
	if !ok || cell.Result == "out of memory" {
		return "-"
	}
	var same bool
	switch cell.Result {
	case "verified":
		same = r.Status == engines.Safe
	case "spurious":
		same = coherenceVerdict(r) == "spurious"
	case "optimal", "suboptimal":
		same = strings.Contains(fences, "/proc") || strings.Contains(fences, ":")
	case "unfixable":
		same = strings.HasPrefix(fences, "inconclusive") || fences == fence.NotFixable.String()
	}
	if same {
		return "yes"
	}
	return "no"
}

func cpuText(d time.Duration) string {
	switch {
	case d < time.Second:
		return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond))
	}
	return fmt.Sprintf("%.2f s", d.Seconds())
}

// runCoherenceBench reads the flags of bench -engine=coherence and runs it.
func runCoherenceBench(fs *flag.FlagSet, manifest, abstractions, modelName, runRE string, markdown bool, ef engineFlags, stdout, stderr io.Writer) int {
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "fencemodel bench: "+format+"\n", a...)
		return exitUsage
	}
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == "manifest" })
	if !set {
		manifest = coherenceManifest
	}
	m, err := model.ParseModel(modelName)
	if err != nil || m == model.SC {
		return fail("-model=%s: want tso or pso", modelName)
	}
	var abs []coherence.Abstraction
	for _, name := range strings.Split(abstractions, ",") {
		a, err := coherence.ParseAbstraction(name, 0)
		if err != nil {
			return fail("-abstractions: %v", err)
		}
		abs = append(abs, a)
	}
	o := coherenceOptions{model: m, budget: ef.budget, maxStates: ef.opts.MaxStates, markdown: markdown}
	if runRE != "" {
		if o.filter, err = regexp.Compile(runRE); err != nil {
			return fail("-run: %v", err)
		}
	}
	entries, err := readCoherenceManifest(manifest)
	if err != nil {
		return fail("%v", err)
	}
	return benchCoherence(entries, abs, o, stdout, stderr)
}
