package chanruns

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
)

// How fencecheck's findings on a system account for a run-time event.
const (
	// matchExact: a finding of the event's kind; for a panic, an SC:
	// finding at the panic's line.
	matchExact = "exact"
	// matchKind: a deadlock: finding for a leak or a leak: finding for a
	// deadlock (the watchdog cannot always tell them apart, and fencecheck
	// reports the first blocking state it finds), or an SC: finding of a
	// panic at another line.
	matchKind = "other kind"
	// matchShadowed: the system's one non-race finding is another bad
	// state (fencecheck reports the first bad state it finds, one per
	// system).
	matchShadowed = "shadowed"
	// matchMiss: no finding accounts for the event, a failure.
	matchMiss = "MISS"
)

// matchOrder lists the ways of matching in the order of the summary.
var matchOrder = []string{matchExact, matchKind, matchShadowed, matchMiss}

// passNoRaces names the second fencecheck pass, with -races=false.
const passNoRaces = "-races=false"

// A verdict is how the findings account for one run-time event.
type verdict struct {
	ev   *event
	how  string
	by   *finding // nil for a miss
	pass string   // passNoRaces when the finding comes from that pass
}

// String renders v for the table.
func (v verdict) String() string {
	s := v.ev.kind + ": " + v.how
	if v.by != nil && v.how != matchExact {
		s += " (" + v.by.kind + ")"
	}
	if v.pass != "" {
		s += " [" + v.pass + "]"
	}
	return s
}

// A row is the comparison for one program.
type row struct {
	prog       program
	findings   []finding // of the default pass
	noRaces    []finding // of the -races=false pass
	run        *runResult
	verdicts   []verdict
	unobserved []finding // findings of bad states the runs did not see
	failures   []string  // what fails the test, besides misses
}

// compare accounts for every event of run with the findings of the two
// passes. A race on memory needs a race: finding. Any other event needs a
// non-race finding: fencecheck reports one bad state per system, so that
// finding may be of another kind (shadowed); when the default pass has
// none, which may happen because its race: findings come first, the
// findings of the -races=false pass count, and a miss is an event that
// neither pass has a non-race finding for. A race of a send with a close
// is exactly matched by the SC: finding of the panic "send on closed
// channel" at the send: fencecheck's race: findings are about memory.
func compare(p program, def, noRaces []finding, run *runResult) *row {
	r := &row{prog: p, findings: def, noRaces: noRaces, run: run}
	for _, fs := range [][]finding{def, noRaces} {
		for _, f := range fs {
			if f.failure() {
				r.failures = append(r.failures, fmt.Sprintf("fencecheck did not decide the system: %s", f))
			}
		}
	}
	for _, kind := range eventKinds {
		ev := run.events[kind]
		if ev == nil {
			continue
		}
		r.verdicts = append(r.verdicts, match(ev, def, noRaces))
	}
	for i, f := range def {
		seen := false
		switch f.kind {
		case "race":
			seen = run.has(evRace)
		case "deadlock", "leak":
			seen = run.has(evDeadlock) || run.has(evLeak)
		case "SC", "x86-TSO":
			seen = run.has(evPanic) || run.has(evChanRace) && strings.Contains(f.message, "on closed channel")
		default:
			continue
		}
		if !seen {
			r.unobserved = append(r.unobserved, def[i])
		}
	}
	for _, msg := range run.problems {
		r.failures = append(r.failures, "the harness: "+msg)
	}
	return r
}

// match accounts for event ev with the findings of the default pass, or
// those of the -races=false pass for an event other than a race when the
// default pass has no non-race finding.
func match(ev *event, def, noRaces []finding) verdict {
	if ev.kind == evRace {
		for i, f := range def {
			if f.kind == "race" {
				return verdict{ev: ev, how: matchExact, by: &def[i]}
			}
		}
		return verdict{ev: ev, how: matchMiss}
	}
	fs, pass := nonRaceFindings(def), ""
	if len(fs) == 0 {
		fs, pass = nonRaceFindings(noRaces), passNoRaces
	}
	if len(fs) == 0 {
		return verdict{ev: ev, how: matchMiss}
	}
	v := verdict{ev: ev, how: matchShadowed, by: &fs[0], pass: pass}
	for i, f := range fs {
		switch how := matchOne(ev, f); {
		case how == matchExact:
			return verdict{ev: ev, how: how, by: &fs[i], pass: pass}
		case how == matchKind && v.how == matchShadowed:
			v.how, v.by = how, &fs[i]
		}
	}
	return v
}

// matchOne says how finding f, a non-race one, matches event ev.
func matchOne(ev *event, f finding) string {
	switch ev.kind {
	case evDeadlock, evLeak:
		switch {
		case f.kind == ev.kind:
			return matchExact
		case f.kind == evDeadlock || f.kind == evLeak:
			return matchKind
		}
	case evPanic:
		if f.kind != "SC" && f.kind != "x86-TSO" || !strings.Contains(f.message, "panic") {
			break
		}
		if slices.Contains(ev.lines, f.line) {
			return matchExact
		}
		return matchKind
	case evChanRace:
		// fencecheck's race: findings are about memory; what it reports
		// of a send racing with a close is the panic it leads to.
		if f.kind != "SC" && f.kind != "x86-TSO" || !strings.Contains(f.message, "on closed channel") {
			break
		}
		if slices.Contains(ev.lines, f.line) {
			return matchExact
		}
		return matchKind
	}
	return matchShadowed
}

// nonRaceFindings returns the findings of bad states other than races.
func nonRaceFindings(fs []finding) []finding {
	var out []finding
	for _, f := range fs {
		if f.nonRace() {
			out = append(out, f)
		}
	}
	return out
}

// kinds returns the kinds of fs, each once, in order.
func kinds(fs []finding) string {
	var ks []string
	for _, f := range fs {
		if !slices.Contains(ks, f.kind) {
			ks = append(ks, f.kind)
		}
	}
	if len(ks) == 0 {
		return "-"
	}
	return strings.Join(ks, " ")
}

// misses returns the verdicts of r that are misses.
func (r *row) misses() []verdict {
	var out []verdict
	for _, v := range r.verdicts {
		if v.how == matchMiss {
			out = append(out, v)
		}
	}
	return out
}

// columns are the cells of r in the text table.
func (r *row) columns() []string {
	fc := kinds(r.findings)
	if len(nonRaceFindings(r.findings)) == 0 && len(nonRaceFindings(r.noRaces)) > 0 {
		fc += "; " + passNoRaces + ": " + kinds(nonRaceFindings(r.noRaces))
	}
	var evs, vs []string
	for _, k := range eventKinds {
		if r.run.has(k) {
			evs = append(evs, fmt.Sprintf("%s×%d", k, r.run.counts[k]))
		}
	}
	for _, v := range r.verdicts {
		vs = append(vs, v.String())
	}
	orNone := func(ss []string) string {
		if len(ss) == 0 {
			return "-"
		}
		return strings.Join(ss, ", ")
	}
	return []string{r.prog.pkg, fc, orNone(evs), orNone(vs),
		fmt.Sprintf("%d/%d", r.run.completed, r.run.processes), fmt.Sprint(r.run.iterations)}
}

// writeTable writes the rows as an aligned table.
func writeTable(w io.Writer, rows []*row) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "program\tfencecheck\trun-time events (processes)\tverdicts\tcompleted/processes\titerations seen")
	for _, r := range rows {
		fmt.Fprintln(tw, strings.Join(r.columns(), "\t"))
	}
	tw.Flush()
}

// A summary counts the rows.
type summary struct {
	programs   int
	events     map[string]int            // systems with a run-time event of the kind
	verdicts   map[string]map[string]int // kind → how → count
	viaNoRaces int                       // verdicts from the -races=false pass
	findings   map[string]int            // systems with a finding of the kind (default pass)
	unobserved int
	eventless  int // systems whose runs saw nothing
	clean      int // systems without findings
}

// summarize counts the rows.
func summarize(rows []*row) summary {
	s := summary{programs: len(rows), events: map[string]int{}, verdicts: map[string]map[string]int{}, findings: map[string]int{}}
	for _, r := range rows {
		for _, v := range r.verdicts {
			s.events[v.ev.kind]++
			if s.verdicts[v.ev.kind] == nil {
				s.verdicts[v.ev.kind] = map[string]int{}
			}
			s.verdicts[v.ev.kind][v.how]++
			if v.pass != "" {
				s.viaNoRaces++
			}
		}
		seen := map[string]bool{}
		for _, f := range r.findings {
			if !seen[f.kind] {
				seen[f.kind] = true
				s.findings[f.kind]++
			}
		}
		s.unobserved += len(r.unobserved)
		if len(r.verdicts) == 0 {
			s.eventless++
		}
		if len(r.findings) == 0 {
			s.clean++
		}
	}
	return s
}

// String renders the summary.
func (s summary) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d programs; %d without findings, %d without run-time events.\n", s.programs, s.clean, s.eventless)
	var fk []string
	for k, n := range s.findings {
		fk = append(fk, fmt.Sprintf("%s %d", k, n))
	}
	slices.Sort(fk)
	fmt.Fprintf(&b, "Systems with findings, by kind: %s.\n", strings.Join(fk, ", "))
	for _, k := range eventKinds {
		var hs []string
		for _, h := range matchOrder {
			if n := s.verdicts[k][h]; n > 0 {
				hs = append(hs, fmt.Sprintf("%s %d", h, n))
			}
		}
		fmt.Fprintf(&b, "Run-time %s in %d systems", k, s.events[k])
		if len(hs) > 0 {
			fmt.Fprintf(&b, ": %s", strings.Join(hs, ", "))
		}
		b.WriteString(".\n")
	}
	fmt.Fprintf(&b, "%d verdicts rest on the %s pass (the default pass had only race: findings); %d findings of bad states the runs did not see.",
		s.viaNoRaces, passNoRaces, s.unobserved)
	return b.String()
}
