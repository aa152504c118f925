package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"time"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/bmc"
	"github.com/fencecheck/fencecheck/internal/cputime"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/modelfile"
)

// This file is the bench of the bounded engine (-engine=bmc): the table of
// Fig. 11 of the interference-abstraction paper, which checks each program
// under SC twice, with every axiom instantiated at once and with the
// refinement of interference abstractions (REF), and compares the times and
// the sizes of the abstractions.

// fig11Manifest is the default manifest of bench -engine=bmc.
var fig11Manifest = filepath.Join("testdata", "fig11", "manifest.json")

// fig11Columns are the columns of the table.
var fig11Columns = []string{
	"program", "P", "R", "W", "|W|", "full CPU", "full A/B/C", "REF CPU", "REF A/B/C", "speed-up", "REF iters", "verdict", "expected", "agrees",
}

// fig11Run is one program's row: by strategy (full, REF) the report and
// the wall and CPU time of the fastest run.
type fig11Run struct {
	entry     benchEntry
	prog      *model.Program
	err       error
	reps      [2]*bmc.Report
	wall, cpu [2]time.Duration
}

// runFig11 checks e's program with both strategies, runs times each
// (alternating which goes first), keeping the run with the least CPU time.
func runFig11(e benchEntry, budget time.Duration, maxWork int64, runs int) *fig11Run {
	row := &fig11Run{entry: e}
	p, err := modelfile.Load(e.File)
	if err != nil {
		row.err = err
		return row
	}
	row.prog = p
	for run := range runs {
		for o := range 2 {
			i := (o + run) % 2
			eng := &bmc.Engine{Unroll: e.Unroll, Full: i == 0, MaxWork: maxWork}
			ctx, cancel := context.WithTimeout(context.Background(), budget)
			var r *bmc.Report
			wall, cpu := cputime.Measure(func() { r, err = eng.Analyze(ctx, p, model.SC) })
			cancel()
			if err != nil {
				row.err = err
				return row
			}
			if row.reps[i] == nil || cpu < row.cpu[i] {
				row.reps[i], row.wall[i], row.cpu[i] = r, wall, cpu
			}
		}
	}
	return row
}

// verdict is the row's answer: REF's, or full instantiation's when REF's
// is inconclusive.
func (r *fig11Run) verdict() engines.Status {
	if r.reps[1].Status != engines.Inconclusive {
		return r.reps[1].Status
	}
	return r.reps[0].Status
}

// agreement compares the answers with the manifest's expect field: "yes",
// "no", "inconclusive" or "error"; both strategies must agree.
func (r *fig11Run) agreement() string {
	switch {
	case r.err != nil:
		return "error"
	case r.reps[0].Status != engines.Inconclusive && r.reps[1].Status != engines.Inconclusive && r.reps[0].Status != r.reps[1].Status:
		return "no"
	case r.verdict() == engines.Inconclusive:
		return "inconclusive"
	case r.entry.Expect != "" && r.verdict().String() != r.entry.Expect:
		return "no"
	}
	return "yes"
}

func (r *fig11Run) cells() []string {
	row := make([]string, len(fig11Columns))
	for i := range row {
		row[i] = "-"
	}
	row[0] = r.entry.Name
	row[12] = r.entry.Expect
	row[13] = r.agreement()
	if r.err != nil {
		row[11] = "error"
		return row
	}
	st := r.reps[1].IA
	row[1] = strconv.Itoa(len(r.prog.Procs))
	row[2], row[3] = strconv.Itoa(st.Reads), strconv.Itoa(st.Writes)
	row[4] = strconv.FormatFloat(st.AvgLinkSet, 'f', 1, 64)
	for i, col := range []int{5, 7} {
		rep := r.reps[i]
		row[col] = fmt.Sprintf("%.1f ms", float64(r.cpu[i])/float64(time.Millisecond))
		if rep.Status == engines.Inconclusive {
			row[col] = "> budget"
		}
		row[col+1] = fmt.Sprintf("%d/%d/%d", rep.IA.LinkSets, rep.IA.Lambda, rep.IA.Sigma)
	}
	row[9] = fmt.Sprintf("%.1f×", r.cpu[0].Seconds()/r.cpu[1].Seconds())
	row[10] = strconv.Itoa(r.reps[1].IA.Iterations)
	row[11] = r.verdict().String()
	return row
}

// benchFig11 is bench -engine=bmc.
func benchFig11(entries []benchEntry, filter *regexp.Regexp, budget time.Duration, maxWork int64, runs int, markdown bool, stdout, stderr io.Writer) int {
	var (
		code  exitCode
		cells [][]string
		rows  []*fig11Run
		notes []string
	)
	for _, e := range entries {
		if filter != nil && !filter.MatchString(e.File) && !filter.MatchString(e.Name) {
			continue
		}
		r := runFig11(e, budget, maxWork, runs)
		cells = append(cells, r.cells())
		switch r.agreement() {
		case "error":
			fmt.Fprintf(stderr, "%s: %v\n", e.File, r.err)
			code.add(exitUsage)
			continue
		case "no":
			code.add(exitUnsafe)
			notes = append(notes, fmt.Sprintf("%s: full instantiation says %v, REF %v, the manifest %s", e.Name, r.reps[0].Status, r.reps[1].Status, e.Expect))
		case "inconclusive":
			code.add(exitInconclusive)
			notes = append(notes, fmt.Sprintf("%s: %s", e.Name, r.reps[1].Reason))
		}
		rows = append(rows, r)
	}
	if len(cells) == 0 {
		fmt.Fprintf(stderr, "fencemodel bench: no program matches -run\n")
		return exitUsage
	}
	if err := writeRows(stdout, fig11Columns, cells, markdown); err != nil {
		fmt.Fprintf(stderr, "fencemodel bench: %v\n", err)
		return exitUsage
	}
	fmt.Fprintf(stdout, "\nengine bmc under SC; CPU time of the fastest of %d runs per strategy (budget %v per run); A/B/C = Σ|W(r)| / |Λ| / |Σ| when the check ended\n", runs, budget)
	if len(rows) > 1 {
		// The hardest half by the time of full instantiation.
		slices.SortStableFunc(rows, func(a, b *fig11Run) int { return int(b.cpu[0] - a.cpu[0]) })
		var full, ref, fullWall, refWall time.Duration
		half := rows[:len(rows)/2]
		for _, r := range half {
			full += r.cpu[0]
			ref += r.cpu[1]
			fullWall += r.wall[0]
			refWall += r.wall[1]
		}
		fmt.Fprintf(stdout, "hardest half (%d programs by full-instantiation time): full %v, REF %v CPU: %.1f× (wall %v against %v: %.1f×)\n",
			len(half), full.Round(time.Millisecond), ref.Round(time.Millisecond), full.Seconds()/ref.Seconds(),
			fullWall.Round(time.Millisecond), refWall.Round(time.Millisecond), fullWall.Seconds()/refWall.Seconds())
	}
	for _, n := range notes {
		fmt.Fprintf(stdout, "- %s\n", n)
	}
	return int(code)
}
