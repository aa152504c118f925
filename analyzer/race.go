package analyzer

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"
	"time"

	"golang.org/x/tools/go/analysis"

	"github.com/fencecheck/fencecheck/analyzer/atomicfix"
	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/question/fence"
	"github.com/fencecheck/fencecheck/engines/question/race"
	"github.com/fencecheck/fencecheck/engines/registry"
	"github.com/fencecheck/fencecheck/engines/wrap/coi"
	"github.com/fencecheck/fencecheck/extract"
	"github.com/fencecheck/fencecheck/extract/gcpattern"
	"github.com/fencecheck/fencecheck/model"
)

// raceEngine returns the engine that decides the system's race question and,
// for a race-free system, its SC reachability: the plan of registry.Choose
// for the Races question (explicit, whose SC search is complete for finite
// systems, or the engine asked for; the predicate engine for unbounded
// data). An exact engine that learns is the one the fence inference uses:
// the predicates it learns and the solver's answers carry over.
func (s *system) raceEngine() engines.Engine {
	plan, err := registry.Choose(s.cfg.Engine, s.p, registry.Races)
	if err != nil {
		panic(fmt.Sprintf("no plan for the race question of an engine that has one for reachability: %v", err))
	}
	if plan.Exact.Learns && plan.Exact == s.plan.Exact {
		return plan.Wrap(s.exact)
	}
	return plan.New(registry.Options{})
}

// checkRaces decides the system's data races. Races between the same two
// source accesses (one statement inlined into several goroutines) are found
// once.
func (s *system) checkRaces(eng engines.Engine) (*race.Result, error) {
	// Listing every unordered pair of a racy system searches a larger
	// program (happens-before bits); it gets a smaller budget than the
	// question whether the system races at all, unless the engine answers
	// the questions on the program itself, on one solver. Each of its
	// searches is sliced to the cone of influence of the questions still
	// open: the bits of the pairs already found, and the accesses that
	// only feed them, drop out of the states (peterson100's last search
	// goes from more than 500,000 states, where the budget ended it, to
	// 482,216 that decide it; barrier6's from 134,585 to 3,878).
	var enumerate engines.Engine
	if e, ok := eng.(race.Enumerator); ok {
		enumerate = e
	} else {
		plan, err := registry.Choose(s.cfg.Engine, s.p, registry.Pairs)
		if err != nil {
			return nil, err
		}
		enumerate = s.guard(&coi.Engine{Inner: plan.New(registry.Options{})})
	}
	return race.Check(s.ctx, s.guard(eng), s.p, race.Options{
		Key: func(a race.Access) string {
			return fmt.Sprint(s.transPos(a.Proc, a.Trans))
		},
		Enumerate: enumerate,
		Reach:     true,
	})
}

// A racingCell is one variable or field as the user declared it, with the
// races found on it.
type racingCell struct {
	name  string       // as the user spells it (l.flag, not l.flag[0])
	obj   types.Object // the declared variable or field, or nil
	races []race.Race
}

// cellOf returns the declared variable or field that the access of
// transition t of process q names, and its name without the outermost
// index (l.flag for l.flag[me]).
func (s *system) cellOf(q, t int) (types.Object, string) {
	x := s.accessVar(q, t)
	fallback := stripIndexes(s.varName(x))
	if q >= len(s.sys.Origins) || t >= len(s.sys.Origins[q]) || s.sys.Origins[q][t].Target == nil {
		return nil, fallback
	}
	e := ast.Unparen(s.sys.Origins[q][t].Target)
	for {
		ix, ok := e.(*ast.IndexExpr)
		if !ok {
			break
		}
		e = ast.Unparen(ix.X)
	}
	info := s.r.pass.TypesInfo
	var obj types.Object
	switch e := e.(type) {
	case *ast.Ident:
		obj = info.Uses[e]
	case *ast.SelectorExpr:
		obj = info.Uses[e.Sel]
	}
	if _, ok := obj.(*types.Var); !ok {
		return nil, fallback
	}
	return obj, s.exprText(e)
}

// accessVar is the model variable transition t of process q accesses:
// its operation's, or the first a locked step reads or writes.
func (s *system) accessVar(q, t int) int {
	op := s.p.Procs[q].Trans[t].Op
	if op.Kind == model.Locked {
		for _, b := range op.Body {
			if b.Kind == model.Read || b.Kind == model.Write {
				return b.Var
			}
		}
	}
	return op.Var
}

// stripIndexes removes the trailing constant indexes of a model variable's
// name: l.flag[0] is l.flag.
func stripIndexes(name string) string {
	for strings.HasSuffix(name, "]") {
		i := strings.LastIndex(name, "[")
		if i < 0 {
			break
		}
		name = name[:i]
	}
	return name
}

// reportRaces reports one race: diagnostic per racing cell, on its first
// racing access in source order.
func (s *system) reportRaces(res *race.Result) {
	res.Races = s.dropBoxRaces(res.Races)
	// A cell is keyed by its declared object; an access whose source names
	// none (the load of x++) joins the object another access of the same
	// model variable names.
	// The join is by model variable: the name an access without one
	// falls back to is the variable's (sup.running), which need not be
	// how a resolved access spells it (s.running); then by that name (the
	// header of a slice field s.b and its elements s.b[0]).
	byVar := map[int]types.Object{}
	byName := map[string]types.Object{}
	for _, rc := range res.Races {
		for _, a := range []race.Access{rc.A, rc.B} {
			if obj, name := s.cellOf(a.Proc, a.Trans); obj != nil {
				byVar[s.accessVar(a.Proc, a.Trans)] = obj
				byName[name] = obj
			}
		}
	}
	var cells []*racingCell
	byKey := map[any]*racingCell{}
	for _, rc := range res.Races {
		obj, name := s.cellOf(rc.A.Proc, rc.A.Trans)
		if obj == nil {
			obj = byVar[s.accessVar(rc.A.Proc, rc.A.Trans)]
		}
		if obj == nil {
			obj = byName[name]
		}
		var key any = name
		if obj != nil {
			key = obj
		}
		c := byKey[key]
		if c == nil {
			c = &racingCell{name: name, obj: obj}
			byKey[key] = c
			cells = append(cells, c)
		}
		c.races = append(c.races, rc)
	}
	var together []*types.Var
	for _, c := range cells {
		if v, ok := c.obj.(*types.Var); ok && !isMapType(v.Type()) {
			together = append(together, v)
		}
	}
	for _, c := range cells {
		s.reportCell(c, together, res.Incomplete)
	}
}

// accessVerb says what transition t of process q does to variable x:
// "stores l.flag[0]", "loads s.seq", "atomically loads x".
func (s *system) accessVerb(q, t int, x int) string {
	op := s.p.Procs[q].Trans[t].Op
	name := s.varName(x)
	switch {
	case op.Kind == model.Write:
		return "stores " + name
	case op.Kind == model.Read && !op.Atomic:
		return "loads " + name
	case op.WritesShared():
		return "atomically updates " + name
	default:
		return "atomically loads " + name
	}
}

// reportCell reports the races of one cell: one diagnostic, on its first
// racing access in source order, with the other racing accesses as related
// information.
func (s *system) reportCell(c *racingCell, together []*types.Var, incomplete string) {
	type site struct {
		a   race.Access
		pos token.Pos
	}
	var sites []site
	seen := map[token.Pos]bool{}
	for _, rc := range c.races {
		for _, a := range []race.Access{rc.A, rc.B} {
			pos := s.accessPos(a.Proc, a.Trans)
			if !seen[pos] {
				seen[pos] = true
				sites = append(sites, site{a, pos})
			}
		}
	}
	// An access without a source position (code the compiler adds: a
	// loop's copy of its variable into the next iteration's) goes last.
	noPos := func(x site) int {
		if x.pos.IsValid() {
			return 0
		}
		return 1
	}
	slices.SortStableFunc(sites, func(x, y site) int {
		return cmp.Or(cmp.Compare(noPos(x), noPos(y)), cmp.Compare(x.pos, y.pos))
	})
	first := sites[0]
	// The race described in the message: one that involves the first access.
	rc := c.races[0]
	for _, r := range c.races {
		if s.accessPos(r.A.Proc, r.A.Trans) == first.pos || s.accessPos(r.B.Proc, r.B.Trans) == first.pos {
			rc = r
			break
		}
	}
	here, there := rc.A, rc.B
	if s.accessPos(there.Proc, there.Trans) == first.pos {
		here, there = there, here
	}
	therePos := s.accessPos(there.Proc, there.Trans)
	var msg strings.Builder
	if therePos == first.pos {
		fmt.Fprintf(&msg, "race: %s and %s can both reach this access (it %s) at once, and nothing orders the two",
			s.p.Procs[here.Proc].Name, s.p.Procs[there.Proc].Name, s.accessVerb(here.Proc, here.Trans, rc.Var))
	} else if !therePos.IsValid() {
		fmt.Fprintf(&msg, "race: %s %s here while %s %s in code the compiler adds (such as a loop's copy of its variable into the next iteration's), and nothing orders the two",
			s.p.Procs[here.Proc].Name, s.accessVerb(here.Proc, here.Trans, rc.Var),
			s.p.Procs[there.Proc].Name, s.accessVerb(there.Proc, there.Trans, rc.Var))
	} else {
		fmt.Fprintf(&msg, "race: %s %s here while %s %s at %s, and nothing orders the two",
			s.p.Procs[here.Proc].Name, s.accessVerb(here.Proc, here.Trans, rc.Var),
			s.p.Procs[there.Proc].Name, s.accessVerb(there.Proc, there.Trans, rc.Var), s.r.short(therePos))
	}
	fmt.Fprintf(&msg, " (system %s)", s.sys.Name)
	// The details, each at its own position: the other racing accesses,
	// what gc does to them, the interleaving, the fix.
	var related []analysis.RelatedInformation
	if gc := s.gcRewrite(here); gc != "" {
		related = append(related, analysis.RelatedInformation{Pos: first.pos, Message: gc})
	}
	for _, st := range sites[1:] {
		rel := fmt.Sprintf("goroutine %s %s here, racing too", s.p.Procs[st.a.Proc].Name, s.accessVerb(st.a.Proc, st.a.Trans, s.varOf(st.a)))
		related = append(related, analysis.RelatedInformation{Pos: st.pos, Message: rel})
		if gc := s.gcRewrite(st.a); gc != "" {
			related = append(related, analysis.RelatedInformation{Pos: st.pos, Message: gc})
		}
	}
	related = append(related, s.capSteps(s.stepsRelated(rc.Trace))...)
	if len(rc.Trace.Steps) == 0 {
		related = append(related, analysis.RelatedInformation{Pos: first.pos, Message: "from the start, both accesses are the goroutines' next steps"})
	} else {
		related = append(related, analysis.RelatedInformation{Pos: first.pos, Message: "then the two accesses are next"})
	}
	var fix *analysis.SuggestedFix
	if c.name == extract.RandStateName {
		related = append(related, analysis.RelatedInformation{Pos: first.pos, Message: "fix: guard every draw from the generators of the source with one sync.Mutex, or give each goroutine a generator of its own: a *rand.Rand is not safe for concurrent use (the package-level functions of math/rand are)"})
	} else if advice, ok := s.mapRaceFix(c); ok {
		related = append(related, analysis.RelatedInformation{Pos: first.pos, Message: advice})
	} else {
		advice, fix = s.raceFix(c, together)
		related = append(related, analysis.RelatedInformation{Pos: first.pos,
			Message: fmt.Sprintf("fix: make every access to %s atomic: %s", c.name, advice)})
	}
	if incomplete != "" {
		related = append(related, analysis.RelatedInformation{Pos: first.pos,
			Message: "other accesses may race too: the search for every unordered pair stopped: " + incomplete})
	}
	if s.cfg.Witness {
		msg.WriteString("\n" + s.table(rc.Trace))
	}
	d := analysis.Diagnostic{Pos: first.pos, Category: KindRace, Message: msg.String(), Related: related}
	if fix != nil {
		d.SuggestedFixes = []analysis.SuggestedFix{*fix}
	}
	s.emitWitness(d, rc.Trace)
	s.r.add(d)
}

// accessPos returns where a race report shows transition t of process q:
// its position, or for an access of the model's own source (go
// atomic.AddInt32(&x, 1)) the user's call that runs it. The race question
// keys accesses by transPos, one key per access.
func (s *system) accessPos(q, t int) token.Pos {
	pos := s.transPos(q, t)
	if q < len(s.sys.Origins) && t < len(s.sys.Origins[q]) {
		if at := s.sys.Origins[q][t].At; at.IsValid() && pos.IsValid() && !s.inPackageFile(pos) && s.inPackageFile(at) {
			return at
		}
	}
	return pos
}

// varOf returns the shared variable that access a touches.
func (s *system) varOf(a race.Access) int {
	op := s.p.Procs[a.Proc].Trans[a.Trans].Op
	if op.Kind == model.Locked {
		for _, b := range op.Body {
			if b.Kind == model.Read || b.Kind == model.Write {
				return b.Var
			}
		}
	}
	return op.Var
}

// gcRewrite says what gc does to the plain access a when it races, or "".
func (s *system) gcRewrite(a race.Access) string {
	if a.Proc >= len(s.sys.Origins) || a.Trans >= len(s.sys.Origins[a.Proc]) {
		return ""
	}
	in := s.sys.Origins[a.Proc][a.Trans].Instr
	if in == nil {
		return ""
	}
	f, ok := gcpattern.Describe(in, s.r.short)
	if !ok {
		return ""
	}
	return f.Text
}

// raceFix returns the advice for making every access to c atomic and, where
// an automatic rewrite applies, the fix. Together are the racing cells
// reported with c.
func (s *system) raceFix(c *racingCell, together []*types.Var) (string, *analysis.SuggestedFix) {
	manual := "use sync/atomic for every load and store of " + c.name
	v, ok := c.obj.(*types.Var)
	if !ok {
		return manual, nil
	}
	if f := s.r.raceFixes[v]; f != nil {
		// Another system reported this cell already.
		return "the suggested fix rewrites every access", f
	}
	if s.r.atomics == nil {
		pass := s.r.pass
		s.r.atomics = atomicfix.NewPackage(pass.Fset, pass.Files, pass.TypesInfo, pass.Pkg)
	}
	fix, err := s.r.atomics.Rewrite(v, together...)
	if err != nil {
		return fmt.Sprintf("%s (no automatic fix: %v)", manual, err), nil
	}
	var advice string
	if fix.Form == "typed" {
		advice = fmt.Sprintf("make it an %s (the suggested fix rewrites its declaration and %s)", fix.Type, accesses(fix.Accesses))
	} else if fix.Type == "Pointer" {
		// unsafe.Pointer: there is no AddPointer.
		advice = fmt.Sprintf("use atomic.LoadPointer and atomic.StorePointer for every access (the suggested fix rewrites %s)", accesses(fix.Accesses))
	} else {
		advice = fmt.Sprintf("use atomic.Load%[1]s, atomic.Store%[1]s and atomic.Add%[1]s for every access (the suggested fix rewrites %[2]s)", fix.Type, accesses(fix.Accesses))
	}
	sf := &analysis.SuggestedFix{Message: fix.Message(c.name), TextEdits: fix.Edits}
	s.r.raceFixes[v] = sf
	return advice, sf
}

// checkGoMemoryModel decides the system's data races and reports them. For a
// race-free system it then decides SC reachability, reports the outcome and
// returns true: without races the system behaves as under SC on every
// GOARCH, so its store buffers need no search. It returns false when the
// x86-TSO analysis must follow (the system races, or its races could not be
// decided).
func (s *system) checkGoMemoryModel() bool {
	eng := s.raceEngine()
	start := time.Now()
	res, err := s.checkRaces(eng)
	if s.gapped(err) {
		return true
	}
	if err != nil {
		s.engineError(err)
		return true
	}
	s.safeUnderSC = res.Reach != nil && res.Reach.Status == engines.Safe && res.Reach.Bound == ""
	switch res.Status {
	case engines.Unsafe:
		s.reportRaces(res)
		s.keepRaces()
		return false
	case engines.Inconclusive:
		if res.Faults {
			// The SC search of the fence inference reports the fault; the
			// races found on the way stand if it is a refusal.
			if len(res.Races) > 0 {
				s.reportRaces(res)
				s.keepRaces()
			}
			return false
		}
		if len(res.Races) > 0 {
			s.reportRaces(res)
		}
		s.inconclusive(eng, "system "+s.sys.Name+", while looking for data races:", start, res.Reason)
		return s.ctx.Err() != nil || s.meter.Out()
	}
	// The race searches looked for the system's bad states too when the
	// engine searched the program itself; else the SC question is asked.
	r, bound := res.Reach, res.Bound
	if r == nil {
		r, err = s.guard(eng).Check(s.ctx, s.p, model.SC)
		if s.gapped(err) {
			return true
		}
		if err != nil {
			s.engineError(err)
			return true
		}
		bound += r.Bound
	}
	switch r.Status {
	case engines.Unsafe:
		s.reportSC(&fence.Result{SCTrace: r.Trace})
	case engines.Inconclusive:
		s.inconclusive(eng, "system "+s.sys.Name+" is free of data races, but", start, r.Reason)
	default:
		if bound != "" {
			s.report(s.sys.Decl.Name.Pos(), fmt.Sprintf("inconclusive: system %s: no data race and no bad state is reachable with %s, but the %s engine is exact only within that bound",
				s.sys.Name, bound, eng.Name()))
		}
	}
	return true
}

// keepRaces marks the race findings reported so far as standing when the
// analysis later meets a run-time refusal: each race's trace was replayed
// and ends before any fault, so it is a run of the program that the model
// follows exactly.
func (s *system) keepRaces() {
	m := s.r.mark()
	s.racesKept = &m
}

// accesses says "1 access" or "n accesses".
func accesses(n int) string {
	return fmt.Sprintf("%d %s", n, plural(n, "access", "accesses"))
}

// dropBoxRaces leaves out the races on the cells of value boxes (the
// copies of structs, arrays, functions and channels held in interface
// values) when another race remains: such a race comes with one on an
// interface value that holds the box, which the finding names instead, as
// Go's race detector does.
func (s *system) dropBoxRaces(races []race.Race) []race.Race {
	onBox := func(a race.Access) bool {
		op := s.p.Procs[a.Proc].Trans[a.Trans].Op
		plain := op.Kind == model.Read || op.Kind == model.Write
		return plain && op.Var < len(s.sys.Vars) && s.sys.Vars[op.Var].Box
	}
	var out []race.Race
	for _, rc := range races {
		if !onBox(rc.A) || !onBox(rc.B) {
			out = append(out, rc)
		}
	}
	if len(out) == 0 {
		return races
	}
	return out
}
