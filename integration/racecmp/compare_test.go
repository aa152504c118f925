package racecmp

import (
	"fmt"
	"io"
	"path"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
)

// A placedAccess is one side of a race detector report, placed in the
// corpus.
type placedAccess struct {
	// label names the access in the table: "23" for an access the race
	// detector puts on line 23, "~43" for a sync/atomic access in a
	// function called on line 43 (or one the run time makes for line 43:
	// a map assignment, copy), "~go41" for one in the goroutine started
	// on line 41, "~system" for one in the system function, "?" for an
	// access without a stack.
	label string
	// lines are the positions the access may be at ("pkg/file.go:23"),
	// one for an exact access; nil when nothing places it.
	lines []string
}

// place places access a of a report about system s, whose stress test ran
// in stressRoot.
func (s *system) place(a raceAccess, created map[string][]frame, stressRoot string) placedAccess {
	rel := func(f frame) string { return relFile(f.file, stressRoot) }
	inPkg := func(f frame) bool { return strings.HasPrefix(rel(f), s.pkg+"/") }
	harness := func(f frame) bool { return rel(f) == s.pkg+"/"+harnessFile }
	label := func(f frame) string {
		if path.Base(rel(f)) == s.pkg+".go" {
			return strconv.Itoa(f.line)
		}
		return fmt.Sprintf("%s:%d", path.Base(rel(f)), f.line)
	}
	pos := func(f frame) string { return fmt.Sprintf("%s:%d", rel(f), f.line) }
	if len(a.frames) == 0 {
		return placedAccess{label: "?"}
	}
	if f := a.frames[0]; inPkg(f) && !harness(f) {
		return placedAccess{label: label(f), lines: []string{pos(f)}}
	}
	// A sync/atomic access: the frame of the function that calls the
	// sync/atomic function is missing from the stack, so the access is in a
	// callee of the first of the package's frames. Or an access the run
	// time makes for the line itself (a map's assignment, copy): the line
	// is the first of the package's frames.
	for _, f := range a.frames {
		if !inPkg(f) {
			continue
		}
		if harness(f) {
			break
		}
		lines := s.index.calleesAt(rel(f), f.line)
		if !strings.HasPrefix(a.frames[0].fn, "sync/atomic.") {
			lines = append(lines, pos(f))
		}
		return placedAccess{label: "~" + label(f), lines: lines}
	}
	for _, f := range created[a.goroutine] {
		if !inPkg(f) {
			continue
		}
		if harness(f) {
			return placedAccess{label: "~system", lines: s.index.bodyOf(s.index.system)}
		}
		if fn := s.index.goFunc(pos(f)); fn != nil {
			return placedAccess{label: "~go" + label(f), lines: s.index.bodyOf(fn)}
		}
		break
	}
	return placedAccess{label: "?"}
}

// covers reports whether race diagnostic d names a position access a may
// be at.
func covers(d diagnostic, a placedAccess) bool {
	if a.lines == nil {
		return true
	}
	set := d.lines()
	return slices.ContainsFunc(a.lines, func(l string) bool { return set[l] })
}

// A racePair is a race the race detector reported, placed in the corpus.
type racePair struct {
	a, b placedAccess
}

// label names the pair in the table: "17-23".
func (p racePair) label() string {
	x, y := p.a.label, p.b.label
	if lessLabel(y, x) {
		x, y = y, x
	}
	return x + "-" + y
}

// lessLabel orders labels by their first line number.
func lessLabel(x, y string) bool {
	num := func(s string) int {
		s = strings.TrimLeft(s, "~go")
		n, err := strconv.Atoi(s)
		if err != nil {
			return 1 << 30
		}
		return n
	}
	if nx, ny := num(x), num(y); nx != ny {
		return nx < ny
	}
	return x < y
}

// A row is the comparison for one system.
type row struct {
	sys            *system
	races          []diagnostic // fencecheck's race: diagnostics
	confirmed      []bool       // races[i] covers a pair the race detector reported
	pairs          []racePair   // the race detector's races, one per label
	missed         []racePair   // pairs that no race diagnostic covers
	noInterleaving []diagnostic // race diagnostics without an interleaving
	failures       []diagnostic // unsupported, internal errors, race searches cut short
	others         []string     // kinds of the other diagnostics
	run            *stressRun
}

// compare compares fencecheck's diagnostics on s with the race detector's
// reports.
func compare(s *system, diags []diagnostic, run *stressRun, stressRoot string) *row {
	r := &row{sys: s, run: run}
	for _, d := range diags {
		switch k := d.kind(); {
		case k == "race":
			r.races = append(r.races, d)
			if !d.hasInterleaving() {
				r.noInterleaving = append(r.noInterleaving, d)
			}
		case strings.Contains(d.message, "unsupported in a fencecheck system"),
			strings.HasPrefix(d.message, "internal error"),
			k == "inconclusive" && strings.Contains(d.message, "looking for data races"),
			k == "inconclusive" && strings.Contains(d.message, "which fencecheck does not model"):
			r.failures = append(r.failures, d)
		default:
			if !slices.Contains(r.others, k) {
				r.others = append(r.others, k)
			}
		}
	}
	r.confirmed = make([]bool, len(r.races))
	seen := map[string]bool{}
	for _, rep := range run.reports {
		if len(rep.accesses) < 2 {
			continue
		}
		p := racePair{s.place(rep.accesses[0], rep.created, stressRoot), s.place(rep.accesses[1], rep.created, stressRoot)}
		if seen[p.label()] {
			continue
		}
		seen[p.label()] = true
		r.pairs = append(r.pairs, p)
		hit := false
		for i, d := range r.races {
			if covers(d, p.a) && covers(d, p.b) {
				r.confirmed[i] = true
				hit = true
			}
		}
		if !hit {
			r.missed = append(r.missed, p)
		}
	}
	slices.SortFunc(r.pairs, func(x, y racePair) int { return strings.Compare(x.label(), y.label()) })
	return r
}

// cells returns the cells of the race diagnostics, those the race detector
// did not see marked with a star.
func (r *row) cells() string {
	var cs []string
	for i, d := range r.races {
		c := d.cell()
		if !r.confirmed[i] {
			c += "*"
		}
		if !slices.Contains(cs, c) {
			cs = append(cs, c)
		}
	}
	return strings.Join(cs, " ")
}

// raceLines returns the race detector's pairs.
func (r *row) raceLines() string {
	var ls []string
	for _, p := range r.pairs {
		ls = append(ls, p.label())
	}
	return strings.Join(ls, " ")
}

// unconfirmed returns the cells of the race diagnostics that the race
// detector did not see.
func (r *row) unconfirmed() []string {
	var cs []string
	for i, d := range r.races {
		if !r.confirmed[i] && !slices.Contains(cs, d.cell()) {
			cs = append(cs, d.cell())
		}
	}
	return cs
}

// agree says whether the two tools agree on the system.
func (r *row) agree() string {
	switch {
	case len(r.missed) > 0:
		var ls []string
		for _, p := range r.missed {
			ls = append(ls, p.label())
		}
		return "MISS " + strings.Join(ls, " ")
	case len(r.failures) > 0:
		return "FAIL " + r.failures[0].kind()
	case r.sys.expected == "racy" && len(r.races) == 0:
		return "MISS (declared racy)"
	case len(r.unconfirmed()) == 0:
		return "yes"
	case r.sys.expected == "race-free":
		return "false positive"
	default:
		return "yes, -race saw fewer"
	}
}

// notes returns the other findings and what happened to the processes.
func (r *row) notes() string {
	ns := slices.Clone(r.others)
	for _, x := range []struct {
		n    int
		what string
	}{{r.run.panics, "panics"}, {r.run.crashes, "crashes"}, {r.run.hangs, "hangs"}} {
		if x.n > 0 {
			ns = append(ns, fmt.Sprintf("%d %s", x.n, x.what))
		}
	}
	return strings.Join(ns, ", ")
}

// tableHeader names the columns of the table.
var tableHeader = []string{"system", "expected", "fencecheck race cells", "-race lines", "agree", "notes"}

// columns returns the cells of r in the order of tableHeader.
func (r *row) columns() []string {
	return []string{r.sys.pkg, r.sys.expected, r.cells(), r.raceLines(), r.agree(), r.notes()}
}

// tableLegend explains the marks in the table.
const tableLegend = `A star marks a cell that fencecheck reports as racing and the race detector did not see in its runs. ` +
	`-race lines are the pairs of lines the race detector reported; ~N is a sync/atomic access in a function called on line N ` +
	`(the race detector drops the frame that calls sync/atomic), ~goN one in the goroutine started on line N, ~system one in the system function. ` +
	`Notes list fencecheck's other findings and the stress processes that crashed or hung.`

// writeText writes rows as an aligned text table.
func writeText(w io.Writer, rows []*row) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(tableHeader, "\t"))
	for _, r := range rows {
		fmt.Fprintln(tw, strings.Join(r.columns(), "\t"))
	}
	tw.Flush()
}

// writeMarkdown writes rows as a markdown table.
func writeMarkdown(w io.Writer, rows []*row, summary string) {
	fmt.Fprintf(w, "# fencecheck race: findings against go test -race\n\n%s\n\n", summary)
	fmt.Fprintf(w, "| %s |\n|%s\n", strings.Join(tableHeader, " | "), strings.Repeat(" --- |", len(tableHeader)))
	for _, r := range rows {
		cols := r.columns()
		for i, c := range cols {
			cols[i] = strings.ReplaceAll(c, "|", `\|`)
			if strings.Contains(c, "*") {
				cols[i] = strings.ReplaceAll(cols[i], "*", `\*`)
			}
		}
		fmt.Fprintf(w, "| %s |\n", strings.Join(cols, " | "))
	}
	fmt.Fprintf(w, "\n%s\n", strings.ReplaceAll(tableLegend, "*", `\*`))
}
