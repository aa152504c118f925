package analyzer

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/fencecheck/fencecheck/analyzer/atomicfix"
	"github.com/fencecheck/fencecheck/engines/question/fence"
	"github.com/fencecheck/fencecheck/extract"
	"github.com/fencecheck/fencecheck/model"
)

// A reporter collects the diagnostics of one pass, drops duplicates (the same
// message at the same position: one store inlined into several goroutines or
// systems) and reports them in position order.
type reporter struct {
	pass  *analysis.Pass
	files map[string]*token.File // by name, as in the FileSet
	ast   map[*token.File]*ast.File
	diags []analysis.Diagnostic
	seen  map[string]bool
	// unfixedOnly drops the diagnostics that carry a suggested fix.
	unfixedOnly bool
	// variant is " with " and the variant of the system being checked
	// (extract.System.Variant), or "": a finding that an earlier variant of
	// the same system reported already, which differs only by it, is not
	// reported again. variants counts the variants of each system, by the
	// name of its function; base is that of the system being checked, and
	// shown counts, for each queued diagnostic (by its key), the variants
	// that reported it: a finding every variant reports does not depend
	// on the values, and flush drops the variant from its message.
	variant  string
	base     string
	variants map[string]int
	shown    map[string]int
	keys     []string // the key of each queued diagnostic
	labels   []string // the variant of each queued diagnostic's system
	bases    []string // the function of each queued diagnostic's system
	// anchor is the position of the name of the system being checked, and
	// foreign its extract.System.Foreign: a finding in another package's
	// code is reported at the anchor (see relocate).
	anchor  token.Pos
	foreign map[string]string
	// others are the files of the file set by name, made on first use:
	// the positions of other packages' code that systems run.
	others map[string]*token.File

	// atomics is the package as the race fixes rewrite it, made on first
	// use; raceFixes are the fixes of the racing cells reported so far.
	atomics   *atomicfix.Package
	raceFixes map[types.Object]*analysis.SuggestedFix
}

func newReporter(pass *analysis.Pass) *reporter {
	r := &reporter{
		pass:  pass,
		files: make(map[string]*token.File),
		ast:   make(map[*token.File]*ast.File),
		seen:  make(map[string]bool),

		raceFixes: make(map[types.Object]*analysis.SuggestedFix),
	}
	for _, f := range pass.Files {
		if tf := pass.Fset.File(f.FileStart); tf != nil {
			r.files[tf.Name()] = tf
			r.ast[tf] = f
		}
	}
	return r
}

// add queues d unless a diagnostic with the same position and message is
// already queued.
func (r *reporter) add(d analysis.Diagnostic) {
	r.relocate(&d)
	msg := d.Message
	if r.variant != "" {
		// A goroutine a loop started is go@LINE(i=0) when the loop
		// starts several, go@LINE when it starts one.
		msg = loopSuffix.ReplaceAllString(strings.ReplaceAll(msg, r.variant, ""), "$1")
	}
	key := fmt.Sprintf("%d\x00%s", d.Pos, msg)
	if r.shown == nil {
		r.shown = map[string]int{}
	}
	if r.variant != "" {
		r.shown[key]++
	}
	if r.seen[key] {
		return
	}
	r.seen[key] = true
	r.diags = append(r.diags, d)
	r.keys, r.labels, r.bases = append(r.keys, key), append(r.labels, r.variant), append(r.bases, r.base)
}

// loopSuffix matches the loop variables in the name of a goroutine that a
// go statement in a loop started.
var loopSuffix = regexp.MustCompile(`(go@\d+)\([^)]*\)`)

// relocate moves a diagnostic whose position lies in the code of another
// package that the system runs to the system's name, where go vet and the
// package's readers see it, and names the place in the message and as the
// first related position. Suggested fixes that would edit another
// package's files are dropped.
func (r *reporter) relocate(d *analysis.Diagnostic) {
	if len(r.foreign) == 0 {
		return
	}
	if p := r.pass.Fset.Position(d.Pos); r.anchor.IsValid() && r.foreign[p.Filename] != "" {
		path := r.foreign[p.Filename]
		note := fmt.Sprintf("at %s:%d:%d in package %s", filepath.Base(p.Filename), p.Line, p.Column, path)
		if i := strings.LastIndex(d.Message, " (system "); i >= 0 && strings.HasSuffix(d.Message, ")") {
			d.Message = d.Message[:len(d.Message)-1] + "; " + note + ")"
		} else {
			d.Message += " (" + note + ")"
		}
		d.Related = append([]analysis.RelatedInformation{{Pos: d.Pos, Message: "the finding is here, in package " + path}}, d.Related...)
		d.Pos, d.End = r.anchor, token.NoPos
	}
	fixes := d.SuggestedFixes[:0]
	for _, f := range d.SuggestedFixes {
		local := true
		for _, e := range f.TextEdits {
			if r.files[r.pass.Fset.Position(e.Pos).Filename] == nil {
				local = false
			}
		}
		if local {
			fixes = append(fixes, f)
		}
	}
	d.SuggestedFixes = fixes
}

// flush reports the queued diagnostics, ordered by position.
func (r *reporter) flush() {
	for i := range r.diags {
		if r.labels[i] != "" && r.shown[r.keys[i]] == r.variants[r.bases[i]] {
			r.diags[i].Message = strings.ReplaceAll(r.diags[i].Message, r.labels[i], "")
			for j := range r.diags[i].Related {
				r.diags[i].Related[j].Message = strings.ReplaceAll(r.diags[i].Related[j].Message, r.labels[i], "")
			}
		}
	}
	r.keys, r.labels, r.bases = nil, nil, nil
	slices.SortStableFunc(r.diags, func(a, b analysis.Diagnostic) int { return cmp.Compare(a.Pos, b.Pos) })
	for _, d := range r.diags {
		if r.unfixedOnly && len(d.SuggestedFixes) > 0 {
			continue
		}
		r.pass.Report(d)
	}
	r.diags = nil
}

// pos converts a model position (a Go source position) to a token.Pos of the
// pass, or token.NoPos.
func (r *reporter) pos(mp model.Pos) token.Pos {
	tf := r.files[mp.File]
	if tf == nil {
		tf = r.otherFile(mp.File)
	}
	if tf == nil || mp.Line < 1 || mp.Line > tf.LineCount() {
		return token.NoPos
	}
	p := tf.LineStart(mp.Line)
	if mp.Col > 1 {
		off := tf.Offset(p) + mp.Col - 1
		if off > tf.Size() {
			off = tf.Size()
		}
		p = tf.Pos(off)
	}
	return p
}

// otherFile returns the file of the file set named name that is not one
// of the package's: a file of another package whose code a system runs.
func (r *reporter) otherFile(name string) *token.File {
	if r.others == nil {
		r.others = map[string]*token.File{}
		r.pass.Fset.Iterate(func(tf *token.File) bool {
			r.others[tf.Name()] = tf
			return true
		})
	}
	return r.others[name]
}

// short formats pos as file.go:line:col, with the file's base name.
func (r *reporter) short(pos token.Pos) string {
	if !pos.IsValid() {
		return "?"
	}
	p := r.pass.Fset.Position(pos)
	return fmt.Sprintf("%s:%d:%d", filepath.Base(p.Filename), p.Line, p.Column)
}

// transPos returns the source position of transition t of process q: the
// start of the Go node it was lowered from, else its model position.
func (s *system) transPos(q, t int) token.Pos {
	if q < len(s.sys.Origins) && t < len(s.sys.Origins[q]) {
		o := s.sys.Origins[q][t]
		if o.Target != nil {
			return o.Target.Pos()
		}
		if o.Node != nil {
			return o.Node.Pos()
		}
	}
	return s.r.pos(s.p.Procs[q].Trans[t].Pos)
}

// stmtPos returns the position of the statement that transition t of
// process q was lowered from.
func (s *system) stmtPos(q, t int) token.Pos {
	if q < len(s.sys.Origins) && t < len(s.sys.Origins[q]) && s.sys.Origins[q][t].At.IsValid() {
		return s.sys.Origins[q][t].At
	}
	pos := s.r.pos(s.p.Procs[q].Trans[t].Pos)
	if q < len(s.sys.Origins) && t < len(s.sys.Origins[q]) && s.sys.Origins[q][t].Node != nil {
		pos = s.sys.Origins[q][t].Node.Pos()
	}
	// A step of the model's own source (a file of no .go name) with no
	// call to show it at is shown at its goroutine's go statement.
	if pos.IsValid() && !strings.HasSuffix(s.r.pass.Fset.Position(pos).Filename, ".go") && q < len(s.sys.Spawns) && s.sys.Spawns[q].IsValid() {
		return s.sys.Spawns[q]
	}
	return pos
}

// goroutine names process q for a Go programmer.
func (s *system) goroutine(q int) string {
	name := s.p.Procs[q].Name
	if q < len(s.sys.Spawns) && s.sys.Spawns[q].IsValid() && s.sys.Spawns[q] != s.sys.Decl.Pos() {
		return fmt.Sprintf("goroutine %s (go statement at %s)", name, s.r.short(s.sys.Spawns[q]))
	}
	return "goroutine " + name
}

// outcome says which bad state the TSO or SC trace t of the system reaches:
// a sentence fragment, the same for the related information at the bad
// state's position, and that position.
func (s *system) outcome(t *model.Trace) (text, here string, pos token.Pos) {
	states, err := s.p.Replay(t)
	if err != nil || len(states) == 0 {
		return "a bad state is reached", "", token.NoPos
	}
	last := states[len(states)-1]
	if f := last.Fault; f != nil {
		pos := s.stmtPos(f.Proc, f.Trans)
		text, here := s.faultText(f, s.r.short(pos))
		return text, here, pos
	}
	bi := s.p.MatchBad(last)
	if bi < 0 {
		return "a bad state is reached", "", token.NoPos
	}
	return s.badText(bi)
}

// badText describes bad state bi, in the text and at its position, and
// returns its position.
func (s *system) badText(bi int) (text, here string, pos token.Pos) {
	b := s.p.Bad[bi]
	pos = s.r.pos(b.Pos)
	if !pos.IsValid() && len(b.Locs) > 0 {
		q := s.p.Procs[b.Locs[0].Proc]
		pos = s.r.pos(q.Locs[b.Locs[0].Loc].Pos)
	}
	where := s.r.short(pos)
	name := strings.ToLower(b.Name)
	switch {
	case strings.Contains(name, "critical") || (len(b.Locs) > 1 && b.Cond == nil):
		var gs []string
		for _, pl := range b.Locs {
			gs = append(gs, s.p.Procs[pl.Proc].Name)
		}
		both := "both"
		if len(gs) > 2 {
			both = "all"
		}
		return fmt.Sprintf("goroutines %s are %s in the critical section at %s", joinAnd(gs), both, where),
			fmt.Sprintf("goroutines %s are %s in the critical section here", joinAnd(gs), both), pos
	case b.Name == extract.DeadlockName:
		return fmt.Sprintf("every goroutine waits forever (a deadlock; one waits at %s)", where),
			"then every goroutine waits forever, one of them here", pos
	case b.Name == extract.LeakName:
		return fmt.Sprintf("a goroutine is left waiting forever at %s after the system returns", where),
			"then a goroutine waits here forever after the system returns", pos
	case strings.HasPrefix(b.Name, "panic: "):
		return fmt.Sprintf("the run-time panic %q at %s is reached", b.Name, where), fmt.Sprintf("the run-time panic %q is reached here", b.Name), pos
	case strings.Contains(name, "panic"):
		return fmt.Sprintf("the panic at %s is reached", where), "the panic is reached here", pos
	default:
		return fmt.Sprintf("the bad state %s at %s is reached", b.Name, where),
			fmt.Sprintf("the bad state %s is reached here", b.Name), pos
	}
}

// joinAnd joins words as "a", "a and b", "a, b and c".
func joinAnd(words []string) string {
	switch len(words) {
	case 0:
		return ""
	case 1:
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// A barrier is one place of the chosen minimal set, explained.
type barrier struct {
	place fence.Place
	write int       // the plain write the barrier follows (a write place), or -1
	pos   token.Pos // where the diagnostic goes
	// before says that the barrier goes before the statement at pos (a
	// location that several statements reach), not after it.
	before bool
	ov     *fence.Overtaking
	trace  *model.Trace // the trace ov comes from, a trace of s.p
}

// reportFixable reports one diagnostic per barrier of the cheapest set.
func (s *system) reportFixable(res *fence.Result) {
	set := res.Sets[0]
	var bars []*barrier
	for _, pl := range set {
		b := &barrier{place: pl, write: -1}
		b.pos, b.before = s.placePos(pl)
		if pl.OnWrite() {
			b.write = pl.Trans
		}
		b.ov, b.trace = s.explain(res, pl)
		bars = append(bars, b)
	}
	others := s.otherSets(res)
	// Group barriers by source position: one store inlined into several
	// goroutines is one line to change.
	slices.SortStableFunc(bars, func(a, b *barrier) int { return cmp.Compare(a.pos, b.pos) })
	for i := 0; i < len(bars); {
		j := i + 1
		for j < len(bars) && bars[j].pos == bars[i].pos && bars[j].before == bars[i].before {
			j++
		}
		s.reportBarrier(bars[i:j], others, res.Bound)
		i = j
	}
}

// placePos returns the source position of the barrier at pl and whether the
// barrier goes before the statement there rather than after it. A barrier
// after a write is after that store's statement: it belongs to the store,
// whatever other stores reach the same point. A barrier at a location
// (-placement=anywhere) is after the one statement that leads there; at a
// location that several statements reach (a loop head, the join after an
// if), or none, it is before the statement that leaves it.
func (s *system) placePos(pl fence.Place) (pos token.Pos, before bool) {
	q := s.p.Procs[pl.Proc]
	if pl.OnWrite() {
		return s.stmtPos(pl.Proc, pl.Trans), false
	}
	in := -1
	for ti, t := range q.Trans {
		if t.To == pl.Loc {
			if in >= 0 {
				in = -2
				break
			}
			in = ti
		}
	}
	if in >= 0 && pl.Loc != q.Init {
		if pos := s.stmtPos(pl.Proc, in); pos.IsValid() {
			return pos, false
		}
	}
	for _, ti := range q.Out(pl.Loc) {
		if pos := s.stmtPos(pl.Proc, ti); pos.IsValid() {
			return pos, true
		}
	}
	if pos := s.r.pos(q.Locs[pl.Loc].Pos); pos.IsValid() {
		return pos, true
	}
	return s.sys.Decl.Name.Pos(), true
}

// explain finds an overtaking that the barrier at pl forbids: in the first
// counterexample, one of the store the barrier follows, if there is one, else
// any that the barrier forbids (an older store that it separates from its
// load). Otherwise (the barrier is needed only once others are in place) it
// finds the load that can overtake the barrier's store statically: the first
// plain load reachable from the store's target without passing a barrier or
// a locked operation; the trace is then the first counterexample, for the
// bad state it reaches. Checking the program with every barrier but pl would
// name the exact load, at the cost of one more engine run per barrier, each
// as costly as the largest of the search.
func (s *system) explain(res *fence.Result, pl fence.Place) (*fence.Overtaking, *model.Trace) {
	// The overtaking of the store the barrier directly follows explains it
	// best.
	if pl.OnWrite() {
		for i := range res.Overtakings {
			if res.Overtakings[i].WriteTrans == pl.Trans && slices.Contains(res.Overtakings[i].Places, pl) {
				return &res.Overtakings[i], res.Trace
			}
		}
	}
	for i := range res.Overtakings {
		if slices.Contains(res.Overtakings[i].Places, pl) {
			return &res.Overtakings[i], res.Trace
		}
	}
	if !pl.OnWrite() {
		return nil, res.Trace
	}
	q := s.p.Procs[pl.Proc]
	w := pl.Trans
	start := q.Trans[w].To
	seen := map[int]bool{start: true}
	queue := []int{start}
	for len(queue) > 0 {
		l := queue[0]
		queue = queue[1:]
		for _, ti := range q.Out(l) {
			t := q.Trans[ti]
			switch t.Op.Kind {
			case model.Read:
				return &fence.Overtaking{Proc: pl.Proc, Write: -1, WriteTrans: w, Read: -1, ReadTrans: ti, Places: []fence.Place{pl}}, res.Trace
			case model.Fence, model.Locked:
				continue
			}
			if !seen[t.To] {
				seen[t.To] = true
				queue = append(queue, t.To)
			}
		}
	}
	return nil, res.Trace
}

// otherSets names the minimal sets other than the first by their source
// positions, or returns "".
func (s *system) otherSets(res *fence.Result) string {
	if len(res.Sets) < 2 {
		return ""
	}
	var parts []string
	for _, set := range res.Sets[1:] {
		var ps []string
		for _, pl := range set {
			pos, before := s.placePos(pl)
			where := "after "
			if before {
				where = "before "
			}
			if p := where + s.r.short(pos); !slices.Contains(ps, p) {
				ps = append(ps, p)
			}
		}
		parts = append(parts, "{"+strings.Join(ps, ", ")+"}")
	}
	return fmt.Sprintf(" The other minimal barrier sets: %s.", strings.Join(parts, "; "))
}

// reportBarrier reports the barriers of bars, which share one position.
func (s *system) reportBarrier(bars []*barrier, others, bound string) {
	b := bars[0]
	q := s.p.Procs[b.place.Proc]
	var msg strings.Builder
	msg.WriteString("x86-TSO: ")
	var related []analysis.RelatedInformation
	if b.ov != nil {
		ov := b.ov
		wv := s.varName(q.Trans[ov.WriteTrans].Op.Var)
		rv := s.varName(q.Trans[ov.ReadTrans].Op.Var)
		readPos := s.transPos(ov.Proc, ov.ReadTrans)
		writePos := s.stmtPos(ov.Proc, ov.WriteTrans)
		fmt.Fprintf(&msg, "the store to %s", wv)
		if writePos != b.pos {
			fmt.Fprintf(&msg, " at %s", s.r.short(writePos))
		}
		fmt.Fprintf(&msg, " can still sit in the store buffer when the load of %s at %s reads memory", rv, s.r.short(readPos))
		for _, o := range bars[1:] {
			if o.ov != nil {
				oq := s.p.Procs[o.ov.Proc]
				related = append(related, analysis.RelatedInformation{Pos: b.pos, Message: fmt.Sprintf("likewise in %s for the store to %s and the load of %s", oq.Name,
					s.varName(oq.Trans[o.ov.WriteTrans].Op.Var), s.varName(oq.Trans[o.ov.ReadTrans].Op.Var))})
			}
		}
		related = append(related, analysis.RelatedInformation{
			Pos:     readPos,
			Message: fmt.Sprintf("the load of %s that overtakes the store to %s", rv, wv),
		})
		what, here, badPos := s.outcome(b.trace)
		if !badPos.IsValid() {
			badPos = b.pos
			here = what
		}
		related = append(related, analysis.RelatedInformation{Pos: badPos, Message: "then " + here})
	} else {
		fmt.Fprintf(&msg, "a later load of %s can overtake a store still in its store buffer", q.Name)
	}
	fmt.Fprintf(&msg, " (system %s)", s.sys.Name)
	var fix *analysis.SuggestedFix
	var advice string
	if b.write >= 0 {
		a, f := s.storeFix(b.place.Proc, b.write)
		advice, fix = "add a barrier after this store: "+a, f
	} else if b.before {
		advice = "add a barrier before this statement: a sync/atomic read-modify-write, such as atomic.AddInt32(&dummy, 0), drains the store buffer"
	} else {
		advice = "add a barrier after this statement: a sync/atomic read-modify-write, such as atomic.AddInt32(&dummy, 0), drains the store buffer"
	}
	related = append(related, analysis.RelatedInformation{Pos: b.pos, Message: "fix: " + advice})
	if others != "" {
		related = append(related, analysis.RelatedInformation{Pos: b.pos, Message: strings.TrimSuffix(strings.TrimSpace(others), ".")})
	}
	if bound != "" {
		related = append(related, analysis.RelatedInformation{Pos: b.pos, Message: "minimal within " + bound})
	}
	if s.cfg.Witness && b.trace != nil {
		msg.WriteString("\n" + s.reachabilityTable(b.trace))
	}
	d := analysis.Diagnostic{Pos: b.pos, Category: KindTSO, Message: msg.String(), Related: related}
	if fix != nil {
		d.SuggestedFixes = []analysis.SuggestedFix{*fix}
	}
	s.emitWitness(d, b.trace)
	s.r.add(d)
}

// reportSC reports a system that is wrong already under SC.
func (s *system) reportSC(res *fence.Result) {
	if kind, last := s.blockingKind(res.SCTrace); kind != "" {
		s.reportBlocking(kind, res.SCTrace, last)
		return
	}
	s.reportSCText(res.SCTrace)
}

// reportSCText reports the SC trace t of a system wrong under SC by the bad
// state it reaches.
func (s *system) reportSCText(t *model.Trace) {
	what, here, pos := s.outcome(t)
	if !pos.IsValid() {
		pos = s.sys.Decl.Name.Pos()
	} else if here != "" {
		what = here // the finding stands where it happens
	}
	msg := fmt.Sprintf("%s: system %s is wrong even under sequential consistency: %s", s.scPrefix(t), s.sys.Name, what)
	if s.cfg.Witness {
		msg += "\n" + s.reachabilityTable(t)
	}
	related := s.capSteps(s.stepsRelated(t))
	if len(related) == 0 {
		related = append(related, analysis.RelatedInformation{Pos: pos, Message: "from the initial state: no goroutine needs to move"})
	}
	related = append(related, analysis.RelatedInformation{Pos: pos, Message: "no barrier can fix this: the interleaving above needs no store buffer"})
	d := analysis.Diagnostic{Pos: pos, Category: category(msg), Message: msg, Related: related}
	s.emitWitness(d, t)
	s.r.add(d)
}

// reportNotFixable reports a system that only barriers outside the placement
// constraint could fix.
func (s *system) reportNotFixable(res *fence.Result) {
	t := res.Witness
	what, _, pos := s.outcome(t)
	if !pos.IsValid() {
		pos = s.sys.Decl.Name.Pos()
	}
	var ovs []string
	var related []analysis.RelatedInformation
	for _, ov := range res.WitnessOvertakings {
		q := s.p.Procs[ov.Proc]
		wpos := s.stmtPos(ov.Proc, ov.WriteTrans)
		rpos := s.transPos(ov.Proc, ov.ReadTrans)
		ovs = append(ovs, fmt.Sprintf("the load of %s at %s overtakes the store to %s at %s",
			s.varName(q.Trans[ov.ReadTrans].Op.Var), s.r.short(rpos),
			s.varName(q.Trans[ov.WriteTrans].Op.Var), s.r.short(wpos)))
		related = append(related, analysis.RelatedInformation{Pos: wpos, Message: "a store that a later load overtakes"})
	}
	msg := fmt.Sprintf("x86-TSO: in system %s %s, and no barrier allowed by -placement=%s and //fencecheck:nofence prevents it", s.sys.Name, what, s.cfg.Placement)
	for i, ov := range ovs {
		related[i].Message += ": " + ov
	}
	if s.cfg.Witness {
		msg += "\n" + s.reachabilityTable(t)
	}
	d := analysis.Diagnostic{Pos: pos, Category: KindTSO, Message: msg, Related: related}
	s.emitWitness(d, t)
	s.r.add(d)
}

// stepText describes one step of a trace for a Go programmer, or returns ""
// for a step that touches no memory.
func (s *system) stepText(st model.Step) string {
	if st.Flush {
		return fmt.Sprintf("%s=%s reaches memory", s.varName(st.Var), s.varValue(st.Var, st.Val))
	}
	q := s.p.Procs[st.Proc]
	t := q.Trans[st.Trans]
	line := ""
	if pos := s.stmtPos(st.Proc, st.Trans); pos.IsValid() {
		line = fmt.Sprintf(" (line %d)", s.r.pass.Fset.Position(pos).Line)
	}
	if txt := s.mapStepText(st, t); txt != "" {
		return txt + line
	}
	if st.Proc < len(s.sys.Origins) && st.Trans < len(s.sys.Origins[st.Proc]) {
		if g := s.sys.Origins[st.Proc][st.Trans].Guess; g != nil {
			// A counterexample is reported only when every answer
			// of its guesses reaches a bad state (guesses.go).
			return s.guessStepText(g) + " (fencecheck does not compute it; the other answer leads to a bad state too)" + line
		}
	}
	switch t.Op.Kind {
	case model.Write:
		return fmt.Sprintf("store %s=%s%s", s.varName(t.Op.Var), s.varValue(t.Op.Var, st.Val), line)
	case model.Read:
		if _, ok := s.startedBy(t.Op.Var); ok {
			return "begins" + line
		}
		if call := s.atomicCallText(st.Proc, st.Trans); call != "" && t.Op.Atomic {
			return fmt.Sprintf("%s reads %s%s", call, s.varValue(t.Op.Var, st.Val), line)
		}
		if txt := s.syncStepText(st.Proc, st.Trans); txt != "" && t.Op.Atomic {
			return txt + line // wg.Wait() returns
		}
		if t.Op.Atomic {
			return fmt.Sprintf("atomic load %s: %s%s", s.varName(t.Op.Var), s.varValue(t.Op.Var, st.Val), line)
		}
		return fmt.Sprintf("load %s: %s%s", s.varName(t.Op.Var), s.varValue(t.Op.Var, st.Val), line)
	case model.Locked:
		if txt := s.syncStepText(st.Proc, st.Trans); txt != "" {
			return txt + line
		}
		if st.Var >= 0 {
			if name, ok := s.startedBy(st.Var); ok {
				if name == q.Name {
					return "begins" + line // its first step, which takes its arguments
				}
				return "starts " + name + line
			}
			if call := s.atomicCallText(st.Proc, st.Trans); call != "" {
				if strings.Contains(call, ".Store") {
					return call + line // an exchange whose old value the source drops
				}
				return fmt.Sprintf("%s reads %s%s", call, s.varValue(st.Var, st.Val), line)
			}
			if fn := s.foreignAtomicFunc(st.Proc, st.Trans); fn != "" {
				if strings.HasPrefix(fn, "atomic.Store") {
					return fmt.Sprintf("%s on %s%s", fn, s.varName(st.Var), line)
				}
				return fmt.Sprintf("%s on %s reads %s%s", fn, s.varName(st.Var), s.varValue(st.Var, st.Val), line)
			}
			return fmt.Sprintf("atomic %s: %s%s", s.varName(st.Var), s.varValue(st.Var, st.Val), line)
		}
		for _, op := range t.Op.Body {
			if op.Kind == model.Read || op.Kind == model.Write {
				return fmt.Sprintf("atomic %s%s", s.varName(op.Var), line)
			}
		}
		return "atomic" + line
	case model.Fence:
		if st.Proc < len(s.sys.Origins) && st.Trans < len(s.sys.Origins[st.Proc]) {
			if n := s.sys.Origins[st.Proc][st.Trans].Node; n != nil {
				// A panic that a deferred call may stop: Go's gopanic
				// runs an atomic add first.
				return s.nodeText(n) + " panics (a barrier)" + line
			}
		}
		return "barrier" + line
	}
	return ""
}

// mapStepText describes a step of a map operation (a lookup, an
// assignment, a delete, a range) for a Go programmer: the access to the
// map itself, which races with a concurrent write, and the one step in
// which the operation reads or writes the map's slots, which the model
// makes indivisible but Go does not make atomic. It returns "" for other
// steps. The clock's ticks are told here too.
func (s *system) mapStepText(st model.Step, t model.Transition) string {
	if s.p.Procs[st.Proc].Name == "clock" && t.Op.Kind == model.Locked && st.Var >= 0 && s.varName(st.Var) == "time.Now" {
		return fmt.Sprintf("the clock ticks: time.Now() reads %s from now on", s.varValue(st.Var, st.Val))
	}
	if st.Proc >= len(s.sys.Origins) || st.Trans >= len(s.sys.Origins[st.Proc]) {
		return ""
	}
	if o := s.sys.Origins[st.Proc][st.Trans]; o.Type == nil {
		return ""
	} else if _, isMap := o.Type.Underlying().(*types.Map); !isMap {
		return ""
	}
	switch t.Op.Kind {
	case model.Read:
		return "reads the map " + s.varName(t.Op.Var)
	case model.Write:
		return "writes the map " + s.varName(t.Op.Var)
	case model.Locked:
		if st.Var < 0 {
			return ""
		}
		for _, op := range t.Op.Body {
			switch op.Kind {
			case model.Read:
				return fmt.Sprintf("load %s: %s", s.varName(st.Var), s.varValue(st.Var, st.Val))
			case model.Write:
				return fmt.Sprintf("store %s=%s", s.varName(st.Var), s.varValue(st.Var, st.Val))
			}
		}
	}
	return ""
}

// reachabilityTable is the table of a trace found by the fence inference,
// followed by what the cone-of-influence reduction removed before the
// search, if anything.
func (s *system) reachabilityTable(t *model.Trace) string {
	tab := s.table(t)
	if s.reduction.Removed() {
		tab += "\nThe search ran on the cone of influence of the bad states: " + s.reduction.String() + "."
	}
	return tab
}

// table writes the memory steps of t as a table: a step number, one column
// per goroutine, and under TSO the store buffers after the step.
func (s *system) table(t *model.Trace) string {
	states, err := s.p.Execute(t)
	if err != nil {
		return fmt.Sprintf("(the interleaving does not replay: %v)", err)
	}
	n := len(s.p.Procs)
	header := []string{"step"}
	for _, q := range s.p.Procs {
		header = append(header, q.Name)
	}
	tso := t.Model == model.TSO
	if tso {
		header = append(header, "store buffers")
	}
	rows := [][]string{header}
	for i, st := range t.Steps {
		txt := s.stepText(st)
		if txt == "" {
			continue
		}
		row := make([]string, len(header))
		row[0] = fmt.Sprint(len(rows))
		row[1+st.Proc] = txt
		if tso {
			row[1+n] = s.p.FormatBuffers(states[i+1])
		}
		rows = append(rows, row)
	}
	width := make([]int, len(header))
	for _, row := range rows {
		for c, cell := range row {
			width[c] = max(width[c], len(cell))
		}
	}
	var b strings.Builder
	for ri, row := range rows {
		for c, cell := range row {
			if c > 0 {
				b.WriteString(" | ")
			}
			if c == len(row)-1 {
				b.WriteString(cell)
			} else {
				fmt.Fprintf(&b, "%-*s", width[c], cell)
			}
		}
		b.WriteString("\n")
		if ri == 0 {
			for c := range row {
				if c > 0 {
					b.WriteString("-+-")
				}
				b.WriteString(strings.Repeat("-", width[c]))
			}
			b.WriteString("\n")
		}
	}
	return strings.TrimRight(b.String(), "\n")
}
