package analyzer

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"go/token"
	"runtime"
	"slices"
	"strings"
	"time"

	"golang.org/x/tools/go/analysis"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/question/fence"
	"github.com/fencecheck/fencecheck/engines/registry"
	"github.com/fencecheck/fencecheck/engines/wrap/coi"
	"github.com/fencecheck/fencecheck/extract"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/facts"
)

//go:embed doc.go
var docSource string

// URL is the analyzer's documentation.
const URL = "https://pkg.go.dev/github.com/fencecheck/fencecheck/analyzer"

// Analyzer is the fencecheck analyzer with the default configuration; its
// flags set it.
var Analyzer = New(DefaultConfig())

// New returns a fencecheck analyzer configured by c. Its Flags are bound to
// its own copy of c, so setting them changes neither c nor other analyzers.
// An invalid configuration (see Config.Validate) makes every run that meets a
// //fencecheck: directive fail with the validation error.
func New(c Config) *analysis.Analyzer {
	doc, err := extractDoc(docSource, "fencecheck")
	if err != nil {
		panic(fmt.Sprintf("analyzer: %v", err))
	}
	cfg := new(Config)
	*cfg = c
	a := &analysis.Analyzer{
		Name: "fencecheck",
		Doc:  doc,
		URL:  URL,
		Run: func(pass *analysis.Pass) (any, error) {
			return nil, run(pass, *cfg)
		},
	}
	cfg.RegisterFlags(&a.Flags)
	return a
}

// run is the analyzer's Run function.
func run(pass *analysis.Pass, cfg Config) error {
	if !extract.HasDirectives(pass.Files) {
		return nil
	}
	if err := cfg.Validate(); err != nil {
		return err
	}
	systems, diags := extract.PackageWith(pass.Fset, pass.Pkg, pass.Files, pass.TypesInfo, extract.Options{MaxProcs: int(cfg.MaxProcs)})
	for _, d := range reportable(pass, cfg, diags) {
		pass.Report(analysis.Diagnostic{Pos: d.Pos, Category: category(d.Message), Message: d.Message})
	}
	r := newReporter(pass)
	r.unfixedOnly = cfg.Unfixed
	r.variants = map[string]int{}
	for _, sys := range systems {
		r.variants[strings.TrimSuffix(sys.Name, " with "+sys.Variant)]++
	}
	for _, sys := range systems {
		r.variant, r.base = "", strings.TrimSuffix(sys.Name, " with "+sys.Variant)
		r.anchor, r.foreign = sys.Decl.Name.Pos(), sys.Foreign
		if sys.Variant != "" {
			r.variant = " with " + sys.Variant
		}
		checkSystem(r, cfg, sys)
	}
	r.flush()
	return nil
}

// checkSystem analyses one system and reports on it; a panic inside is
// reported as an internal error naming the system.
func checkSystem(r *reporter, cfg Config, sys *extract.System) {
	defer func() {
		if x := recover(); x != nil {
			r.add(analysis.Diagnostic{
				Pos:      sys.Decl.Name.Pos(),
				Category: KindInternal,
				Message:  fmt.Sprintf("internal error: fencecheck panicked while analysing system %s: %v", sys.Name, x),
			})
		}
	}()
	if engines.HeapBytes() > cfg.memoryLimit()/2 {
		// What the systems analysed before left, not swept yet, would
		// count against this one's limit.
		runtime.GC()
	}
	ctx, cancel := context.WithTimeoutCause(context.Background(), cfg.budget(), errBudget)
	defer cancel()
	ctx, stopWatch := engines.WatchMemory(ctx, cfg.memoryLimit(), errMemory)
	defer stopWatch()
	meter := engines.NewMeter(cfg.work())
	ctx = engines.WithMeter(ctx, meter)
	s := &system{r: r, cfg: cfg, sys: sys, p: sys.Program, ctx: ctx, meter: meter}
	if !cfg.Blocking {
		sys.Program.Bad = slices.DeleteFunc(sys.Program.Bad, func(b model.BadState) bool {
			return b.Name == extract.DeadlockName || b.Name == extract.LeakName
		})
	}
	s.discover()
	if cfg.Blocking && sys.Blocking != nil {
		s.searchBlocking()
	}
	if cfg.Blocking {
		s.searchForever()
	}
	s.check()
	if s.foreverGap != "" && !s.saidInconclusive {
		s.report(s.sys.Decl.Name.Pos(), s.foreverGap)
	}
}

// A system is the state of the analysis of one extract.System.
type system struct {
	r   *reporter
	cfg Config
	sys *extract.System
	p   *model.Program
	ctx context.Context
	// meter counts the work of every engine call for the system.
	meter *engines.Meter
	eng   engines.Engine
	// plan is the plan of eng, and exact the engine that decides in it
	// (which the race question shares when it learns).
	plan  registry.Plan
	exact engines.Engine
	gap   *inferenceGap // set when the analysis met a gap of the domain inference (faults.go)
	// discovered holds the cells whose domains a search of the runs found,
	// and grows the cell that grew without bound in it (discover.go).
	discovered map[facts.Cell]bool
	grows      *facts.Growth
	// reduction is what the cone-of-influence reduction removed from the
	// system before the fence inference searched it.
	reduction coi.Stats
	// safeUnderSC is set when the race check's search decided, exactly,
	// that the system reaches no bad state under SC (race.Result.Reach).
	safeUnderSC bool
	// racesKept, when set, marks the end of the race findings of this
	// attempt: each is a run of the model that reaches no refusal, so a
	// run-time refusal met later leaves them standing (faults.go).
	racesKept *mark
	// guessed, when set, stopped the analysis: a counterexample that rests
	// on answers the model does not compute.
	guessed *guessGap
	// forever, when set, is the blocking bug searchForever found
	// (forever.go), and foreverGap, when set, the inconclusive answer it
	// leaves, given unless the analysis ends inconclusive anyway.
	forever    *foreverBug
	foreverGap string
	// saidInconclusive is set once an inconclusive answer is reported.
	saidInconclusive bool
}

// reduced wraps eng in the cone-of-influence reduction (package coi), which
// slices away the stores nothing observes and the registers nothing
// depends on before any engine runs. It serves the reachability questions
// of the fence inference; the race question's first phase, which asks
// which accesses meet, searches the whole program, and its second phase
// is sliced in checkRaces.
func (s *system) reduced(eng engines.Engine) engines.Engine {
	return &coi.Engine{Inner: eng, OnReduce: func(st coi.Stats) {
		if !s.reduction.Removed() {
			s.reduction = st
		}
	}}
}

// analyse picks the engine, runs the fence inference and reports its
// verdict; check runs it.
func (s *system) analyse() {
	if err := s.p.Validate(); err != nil {
		s.report(s.sys.Decl.Name.Pos(), fmt.Sprintf("internal error: system %s lowered to an invalid model: %v", s.sys.Name, err))
		return
	}
	eng, why := s.engine()
	if eng == nil {
		s.report(s.sys.Decl.Name.Pos(), fmt.Sprintf("inconclusive: system %s: %s", s.sys.Name, why))
		return
	}
	s.eng = eng
	if s.cfg.Races && s.checkGoMemoryModel() {
		return
	}
	placement, err := fence.ParsePlacement(s.cfg.Placement)
	if err != nil {
		s.report(s.sys.Decl.Name.Pos(), fmt.Sprintf("internal error: %v", err))
		return
	}
	exclude := make([]fence.Place, len(s.sys.NoFence))
	for i, pl := range s.sys.NoFence {
		// The location after the statement: no barrier there, nor right
		// after a store that leads there.
		exclude[i] = fence.AfterLoc(pl.Proc, pl.Loc)
	}
	start := time.Now()
	res, err := fence.Infer(s.ctx, s.guard(s.reduced(eng)), s.p, fence.Options{
		All:       s.cfg.Fences == FencesAll,
		Placement: placement,
		Exclude:   exclude,
		// A racy system whose race search found it safe under SC: a
		// barrier set after which every read finds its buffer empty is
		// safe under x86-TSO without another search.
		SafeUnderSC: s.safeUnderSC,
	})
	if s.gapped(err) {
		return
	}
	if err != nil {
		s.engineError(err)
		return
	}
	switch res.Status {
	case fence.Correct:
		if res.Bound != "" {
			s.report(s.sys.Decl.Name.Pos(), fmt.Sprintf(
				"inconclusive: system %s: no bad state is reachable with %s, but the %s engine is exact only where fences or locked operations bound the store buffers; use -engine=sb for a proof",
				s.sys.Name, res.Bound, eng.Name()))
		}
	case fence.Fixable:
		s.reportFixable(res)
	case fence.WrongUnderSC:
		s.reportSC(res)
	case fence.NotFixable:
		s.reportNotFixable(res)
	default:
		s.inconclusive(eng, "system "+s.sys.Name+":", start, res.Reason)
	}
}

// engine returns the engine for the system under the configuration (the
// plan of registry.Choose for the Reach question), or nil and why the
// system cannot be analysed.
func (s *system) engine() (engines.Engine, string) {
	plan, err := registry.Choose(s.cfg.Engine, s.p, registry.Reach)
	if _, ok := errors.AsType[*registry.DataError](err); ok {
		subject, pronoun := s.unboundedHave()
		return nil, fmt.Sprintf("%s no finite domain, which the %s engine cannot explore (-engine=%s); bound %s with //fencecheck:range LO..HI, or use the predicate engine (-engine=%s)",
			subject, s.cfg.Engine, s.cfg.Engine, pronoun, registry.Pred)
	}
	if err != nil {
		return nil, err.Error()
	}
	s.plan = plan
	s.exact = plan.Exact.New(registry.Options{})
	return plan.Wrap(s.exact), ""
}

// report adds a plain diagnostic.
func (s *system) report(pos token.Pos, msg string) {
	cat := category(msg)
	s.saidInconclusive = s.saidInconclusive || cat == KindInconclusive
	s.r.add(analysis.Diagnostic{Pos: pos, Category: cat, Message: msg})
}
