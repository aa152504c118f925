package fence

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/facts"
)

// Status is the verdict of an inference.
type Status uint8

const (
	// Correct: no bad state is reachable under TSO (PSO) without any
	// barrier.
	Correct Status = iota
	// Fixable: barriers can make the program correct; Result.Sets lists the
	// minimal sets.
	Fixable
	// WrongUnderSC: a bad state is reachable even under sequential
	// consistency, so no barrier can repair the program; Result.SCTrace
	// shows how.
	WrongUnderSC
	// NotFixable: the program is correct under SC, but every barrier that
	// would fix it lies outside the placement constraint; Result.Witness is a
	// TSO trace that no allowed barrier removes.
	NotFixable
	// Inconclusive: an engine, or the search, ran out of budget;
	// Result.Reason says which.
	Inconclusive
)

// String returns a short description of s.
func (s Status) String() string {
	switch s {
	case Correct:
		return "correct"
	case Fixable:
		return "fixable"
	case WrongUnderSC:
		return "wrong under SC"
	case NotFixable:
		return "not fixable"
	case Inconclusive:
		return "inconclusive"
	}
	return fmt.Sprintf("Status(%d)", uint8(s))
}

// Options configure [Infer]. The zero value asks for one cheapest set under
// x86-TSO, barriers right after writes, sequentially.
type Options struct {
	// Model is the memory model the barriers repair: TSO (for which SC,
	// the zero value, stands) or PSO, where each place may take a
	// store-store fence as well as a full one, and a store-store fence
	// costs less (see [CostUnder]).
	Model model.Model
	// All asks for every minimal set. Otherwise the search stops at a
	// cheapest one: fewest barriers, and among those lowest [Cost].
	All bool
	// Placement says where barriers may go.
	Placement Placement
	// Exclude names places where no barrier may go (the user's
	// //fencecheck:nofence statements), whatever the placement; a location
	// place excludes the places of the writes into it too (see
	// [Candidates]).
	Exclude []Place
	// MaxChecks, when positive, ends the search as inconclusive after that
	// many engine calls.
	MaxChecks int
	// Workers, when above 1, lets that many fence sets of the same size be
	// checked concurrently. The engine must then be safe for concurrent use
	// (engines/explicit is). The result does not depend on Workers, except
	// for the statistics: with Options.All unset, sets checked alongside the
	// one that ends the search are counted too.
	Workers int
	// SafeUnderSC says that the caller has decided, exactly and with no
	// bound, that p reaches no bad state under SC (the race check's
	// search of the program does). Under TSO a barrier set after which
	// every read finds its buffer empty (facts.LoadsDrained) then needs no
	// engine: the program behaves as under SC, where barriers change
	// nothing, and is safe.
	SafeUnderSC bool
	// UnderModelOnly has every set checked by the engine under Model.
	// Otherwise, under TSO, the sets after which every read finds its
	// buffer empty are decided by one search of p under SC, shared by
	// all of them (see search.check): the same answers, from fewer
	// states. Benchmarks of an engine's TSO searches set it.
	UnderModelOnly bool
}

// Result is the answer of [Infer].
type Result struct {
	Status Status
	// Model is the memory model of the inference: TSO or PSO.
	Model model.Model
	// Sets are the minimal barrier sets when Status is Fixable, each sorted
	// (see [Place]), cheapest first (fewest barriers, then lowest Cost,
	// then by place). With Options.All unset there is exactly one.
	Sets [][]Place
	// Costs[i] is Cost(p, Sets[i]).
	Costs []int
	// Trace is the first counterexample under the model (TSO or PSO), of p
	// without barriers (nil when Status is Correct), and Overtakings are its
	// overtakings: which load, or under PSO which store, overtook which
	// store.
	Trace       *model.Trace
	Overtakings []Overtaking
	// SCTrace is a counterexample under SC when Status is WrongUnderSC.
	SCTrace *model.Trace
	// When Status is NotFixable, Witness is a TSO counterexample found with
	// barriers at WitnessFences, as a trace of p (the barrier steps dropped,
	// see [Unfence]). Its overtakings, WitnessOvertakings, have no allowed
	// barrier place: no further allowed barrier stands between their writes
	// and reads.
	Witness            *model.Trace
	WitnessFences      []Place
	WitnessOvertakings []Overtaking
	// Bound, when not empty, qualifies the verdict: some Safe answer it rests
	// on holds only within this bound of the engine (for instance the explicit
	// engine's store-buffer bound on a program with loops), so the verdict is
	// not a proof beyond it.
	Bound string
	// Reason says what ran out when Status is Inconclusive.
	Reason string
	Stats  Stats
}

// Stats count the work of an inference.
type Stats struct {
	// Checks is the number of engine calls under the model, TSO or PSO
	// (one per fence set examined); SCChecks under SC (at most one).
	Checks, SCChecks int
	// States sums the states (or constraints) the engine reported.
	States int64
	// Duration is the wall time of the inference.
	Duration time.Duration
}

// Summary describes r in one line, naming places through p.
func (r *Result) Summary(p *model.Program) string {
	var b strings.Builder
	b.WriteString(r.Status.String())
	switch r.Status {
	case Fixable:
		fmt.Fprintf(&b, ": %d minimal set(s):", len(r.Sets))
		for _, set := range r.Sets {
			b.WriteString(" {")
			for i, pl := range set {
				if i > 0 {
					b.WriteString(" ")
				}
				b.WriteString(pl.Format(p))
			}
			b.WriteString("}")
		}
	case Inconclusive:
		b.WriteString(": " + r.Reason)
	case WrongUnderSC:
		b.WriteString(": no barrier can repair it")
	}
	if r.Bound != "" {
		b.WriteString(" (up to " + r.Bound + ")")
	}
	m := r.Model
	if m == model.SC {
		m = model.TSO // a Result made elsewhere than by Infer
	}
	fmt.Fprintf(&b, " [%d %s checks, %d SC checks, %v]", r.Stats.Checks, strings.ToUpper(m.String()), r.Stats.SCChecks, r.Stats.Duration.Round(time.Microsecond))
	return b.String()
}

// Infer decides whether p is correct under TSO (or PSO, Options.Model) and,
// if it is not, which minimal sets of barriers (within the placement
// constraint) make it correct,
// by Algorithm 2 of §6 of the paper with eng as the reachability oracle:
//
//	W ← {∅}; C ← ∅
//	while W ≠ ∅: take F from W
//	  if a bad state of P ⊕ F is reachable under TSO, with trace δ:
//	    B ← the barrier places of δ's overtakings, allowed by the placement
//	    if B = ∅: no set in G can work; check P under SC to say why
//	    else for f in B: add F ∪ {f} to W unless a set of C ∪ W is a subset
//	  else add F to C
//
// W is processed breadth first (by size), so that with Options.All unset the
// first safe set found has the fewest barriers (Remark 1); the sets of one
// size are examined in order of [Cost], then place by place, so the first
// safe one is also a cheapest one. Every set returned is minimal (Theorem 3 of
// the paper): every safe set keeps a subset in C ∪ W until the search ends,
// and a set enters W only when no set of C ∪ W is a subset of it, so a set
// with a safe proper subset never does. [CheckMinimal] re-verifies a set.
//
// Under PSO a counterexample also shows stores that reached memory before
// an older store of their process (see [Overtakings]); a store-store fence
// ([Place.AsStoreStore]) or a full one between the two forbids that, while
// only a full fence keeps a read from overtaking a store. Each place of the
// placement constraint thus offers both barriers, a store-store fence
// costing less ([CostUnder]), and a set is minimal when no barrier can go
// and no full fence can be a store-store one. The SC check works as under
// TSO: a counterexample with no barrier place left is checked under SC,
// and a program wrong under SC cannot be repaired by any barrier.
//
// An Inconclusive engine answer makes the result Inconclusive: no set is
// claimed sufficient, nor minimal, on such an answer. A Safe answer qualified
// by a bound qualifies the result (Result.Bound). Errors are for programs the
// engine cannot take, invalid options, and counterexamples that do not
// replay. Infer does not modify p; the engine only sees copies of it.
func Infer(ctx context.Context, eng engines.Engine, p *model.Program, opts Options) (*Result, error) {
	start := time.Now()
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("fence inference: invalid program %s: %w", p.Name, err)
	}
	for _, pl := range opts.Exclude {
		if err := pl.check(p); err != nil {
			return nil, fmt.Errorf("fence inference: excluded %w", err)
		}
	}
	// The engine works on copies: Infer leaves p untouched, and several
	// inferences may share it.
	m := opts.Model
	switch m {
	case model.SC:
		m = model.TSO
	case model.TSO, model.PSO:
	default:
		return nil, fmt.Errorf("fence inference: no barriers for the memory model %v", m)
	}
	s := &search{
		eng:    eng,
		m:      m,
		p:      p.Clone(),
		opts:   opts,
		allow:  make(map[Place]bool),
		coster: newCoster(p, m),
		res:    &Result{Model: m},
	}
	for _, pl := range Candidates(p, opts.Placement, opts.Exclude) {
		s.allow[pl] = true
		if m == model.PSO {
			s.allow[pl.AsStoreStore()] = true
		}
	}
	err := s.run(ctx)
	s.res.Stats.Duration = time.Since(start)
	if err != nil {
		return nil, err
	}
	s.res.Bound = strings.Join(s.bounds, "; ")
	return s.res, nil
}

// search is the state of one inference.
type search struct {
	eng    engines.Engine
	m      model.Model // TSO or PSO
	p      *model.Program
	opts   Options
	allow  map[Place]bool // the placement constraint G, on p's writes and locations
	coster *coster
	res    *Result
	bounds []string // distinct bounds of the Safe answers relied on
	sc     scAnswer // p under SC, for the sets that drain every read
}

// scAnswer is the answer of one search of p under SC, made at most once
// for the checks of any batch.
type scAnswer struct {
	once sync.Once
	res  *engines.Result
	err  error
}

// outcome is the engine's answer for one fence set.
type outcome struct {
	prog *model.Program // p ⊕ set
	res  *engines.Result
	sc   bool // res is the search of p under SC that decided the set
	err  error
}

func (s *search) run(ctx context.Context) error {
	var (
		found [][]Place        // C
		level = [][]Place{nil} // the sets of W of the current size, in order
	)
	for len(level) > 0 {
		var next [][]Place // the sets of W of the next size
		for i := 0; i < len(level); {
			if err := ctx.Err(); err != nil {
				s.inconclusive(fmt.Sprintf("fence search stopped after %d engine checks: %v", s.res.Stats.Checks, err))
				return nil
			}
			n := max(s.opts.Workers, 1)
			if m := s.opts.MaxChecks; m > 0 {
				if s.res.Stats.Checks >= m {
					s.inconclusive(fmt.Sprintf("fence search budget of %d engine checks exhausted", m))
					return nil
				}
				n = min(n, m-s.res.Stats.Checks)
			}
			batch := level[i:min(i+n, len(level))]
			outs := s.checkAll(ctx, batch)
			for b, o := range outs {
				F := batch[b]
				if o.err != nil {
					return o.err
				}
				s.res.Stats.States += o.res.Stats.States
				if o.sc {
					s.res.Stats.SCChecks++
				}
				switch o.res.Status {
				case engines.Inconclusive:
					s.inconclusive(fmt.Sprintf("%s engine on %s: %s", s.eng.Name(), s.describe(F), o.res.Reason))
					return nil
				case engines.Safe:
					if len(F) == 0 {
						s.res.Status = Correct
						s.addBound(o.res.Bound)
						return nil
					}
					found = append(found, F)
					s.addBound(o.res.Bound)
					if !s.opts.All {
						s.fixable(found)
						return nil
					}
					continue
				case engines.Unsafe:
				default:
					return fmt.Errorf("fence inference: %s engine answered status %v", s.eng.Name(), o.res.Status)
				}
				barrier, weaker, err := s.barrier(F, o)
				if err != nil {
					return err
				}
				if len(barrier) == 0 && weaker {
					// Under PSO: only a full fence where F has a
					// store-store one would do. F with that full fence
					// instead is reached from F without its store-store
					// fence; F itself leads nowhere.
					continue
				}
				if len(barrier) == 0 {
					return s.cannotFix(ctx, F, o)
				}
				// W is the rest of this level and the next one.
				pending := level[i+b+1:]
				for _, f := range barrier {
					ext := insertSorted(F, f)
					if anySubset(found, ext) || anySubset(pending, ext) || anySubset(next, ext) {
						continue
					}
					next = append(next, ext)
				}
			}
			i += len(batch)
		}
		slices.SortStableFunc(next, s.compareSets)
		level = next
	}
	if len(found) == 0 {
		// Unreachable: every extension of an unsafe set with a non-empty
		// barrier is added to W or has a subset in C ∪ W, so W cannot empty
		// while C is empty, unless an empty barrier ended the search.
		return errors.New("fence inference: internal error: search ended without a verdict")
	}
	s.fixable(found)
	return nil
}

// checkAll runs the engine under the model on p ⊕ F for every F of batch,
// concurrently when there is more than one.
func (s *search) checkAll(ctx context.Context, batch [][]Place) []outcome {
	outs := make([]outcome, len(batch))
	s.res.Stats.Checks += len(batch)
	if len(batch) == 1 {
		outs[0] = s.check(ctx, batch[0])
		return outs
	}
	var wg sync.WaitGroup
	for b, F := range batch {
		wg.Go(func() { outs[b] = s.check(ctx, F) })
	}
	wg.Wait()
	return outs
}

func (s *search) check(ctx context.Context, F []Place) outcome {
	prog := s.p
	if len(F) > 0 {
		prog = Insert(s.p, F)
	}
	if s.m == model.TSO && facts.LoadsDrained(prog) {
		// Every read of p ⊕ F finds its buffer empty: x86-TSO has the
		// behaviours of SC, under which barriers change nothing, so p ⊕ F
		// is safe when p is safe under SC. The caller may know that
		// already; otherwise one search of p under SC, shared by every
		// such set, answers it (a search of SC states only, which are
		// fewer than those with buffers). Any other answer of that search
		// leaves the set to the engine under TSO.
		if s.opts.SafeUnderSC {
			return outcome{prog: prog, res: &engines.Result{Status: engines.Safe, Model: s.m}}
		}
		if !s.opts.UnderModelOnly {
			first := false
			s.sc.once.Do(func() {
				first = true
				s.sc.res, s.sc.err = s.eng.Check(ctx, s.p, model.SC)
			})
			if r := s.sc.res; s.sc.err == nil && r != nil && r.Status == engines.Safe && r.Bound == "" {
				res := &engines.Result{Status: engines.Safe, Model: s.m}
				if first {
					res.Stats = r.Stats
				}
				return outcome{prog: prog, res: res, sc: first}
			}
		}
	}
	r, err := s.eng.Check(ctx, prog, s.m)
	if err != nil {
		return outcome{err: fmt.Errorf("fence inference: %s engine on %s: %w", s.eng.Name(), s.describe(F), err)}
	}
	if r == nil {
		return outcome{err: fmt.Errorf("fence inference: %s engine on %s returned no result", s.eng.Name(), s.describe(F))}
	}
	return outcome{prog: prog, res: r}
}

// barrier replays the counterexample of o and returns the allowed barrier
// places of its overtakings, sorted, not in F: Barrier(G) of the paper; and
// whether it left out a place because F has the other fence there (PSO).
func (s *search) barrier(F []Place, o outcome) ([]Place, bool, error) {
	t := o.res.Trace
	if t == nil || t.Model != s.m {
		return nil, false, fmt.Errorf("fence inference: %s engine on %s: unsafe under %[3]v without a %[3]v trace", s.eng.Name(), s.describe(F), strings.ToUpper(s.m.String()))
	}
	states, err := o.prog.Replay(t)
	if err != nil {
		return nil, false, fmt.Errorf("fence inference: %s engine on %s: counterexample does not replay: %w", s.eng.Name(), s.describe(F), err)
	}
	ovs := overtakings(o.prog, t, states)
	if len(F) == 0 {
		s.res.Trace, s.res.Overtakings = t, ovs
	}
	var out []Place
	weaker := false
	for _, ov := range ovs {
		for _, pl := range ov.Places {
			// Locations that Insert added (f', and m after a write) are not
			// in allow: p has no such location. A place of F never occurs
			// (its barrier needs an empty buffer before the process goes
			// on); skipping it keeps the search finite even for an engine
			// that would claim otherwise. Under PSO a place of F with the
			// other fence is skipped too: a full fence where F has a
			// store-store one is offered, by the same overtaking of
			// stores that offered that one, to F without it.
			other := pl.AsStoreStore()
			if pl.StoreStore {
				other = pl.Full()
			}
			switch {
			case !s.allow[pl] || slices.Contains(F, pl) || slices.Contains(out, pl):
			case slices.Contains(F, other):
				weaker = true
			default:
				out = append(out, pl)
			}
		}
	}
	slices.SortFunc(out, comparePlaces)
	return out, weaker, nil
}

// cannotFix handles a counterexample of p ⊕ F with no allowed barrier place:
// no set of barriers in G makes p correct. The SC check says whether p is
// wrong already under SC or the placement excludes the cure.
func (s *search) cannotFix(ctx context.Context, F []Place, o outcome) error {
	s.res.Stats.SCChecks++
	r, err := s.eng.Check(ctx, s.p, model.SC)
	if err != nil {
		return fmt.Errorf("fence inference: %s engine on %s under SC: %w", s.eng.Name(), s.p.Name, err)
	}
	if r == nil {
		return fmt.Errorf("fence inference: %s engine on %s under SC returned no result", s.eng.Name(), s.p.Name)
	}
	s.res.Stats.States += r.Stats.States
	switch r.Status {
	case engines.Inconclusive:
		s.inconclusive(fmt.Sprintf("%s engine on %s under SC: %s", s.eng.Name(), s.p.Name, r.Reason))
		return nil
	case engines.Unsafe:
		if r.Trace == nil || r.Trace.Model != model.SC {
			return fmt.Errorf("fence inference: %s engine on %s: unsafe under SC without an SC trace", s.eng.Name(), s.p.Name)
		}
		if _, err := s.p.Replay(r.Trace); err != nil {
			return fmt.Errorf("fence inference: %s engine on %s: SC counterexample does not replay: %w", s.eng.Name(), s.p.Name, err)
		}
		s.res.Status = WrongUnderSC
		s.res.SCTrace = r.Trace
		return nil
	case engines.Safe:
	default:
		return fmt.Errorf("fence inference: %s engine answered status %v under SC", s.eng.Name(), r.Status)
	}
	w := Unfence(s.p, o.res.Trace)
	states, err := s.p.Replay(w)
	if err != nil {
		return fmt.Errorf("fence inference: internal error: counterexample of %s does not replay without its barriers: %w", s.describe(F), err)
	}
	s.res.Status = NotFixable
	s.res.Witness = w
	s.res.WitnessFences = slices.Clone(F)
	s.res.WitnessOvertakings = overtakings(s.p, w, states)
	s.addBound(r.Bound)
	return nil
}

func (s *search) fixable(found [][]Place) {
	var sets [][]Place
	for _, d := range found {
		// Under PSO a set is minimal when no barrier can go and no full
		// fence can be a store-store one: a safe set that another one
		// weakens is left out. (Under TSO no set weakens another.)
		if !slices.ContainsFunc(found, func(w []Place) bool { return weakens(w, d) }) {
			sets = append(sets, d)
		}
	}
	slices.SortStableFunc(sets, s.compareSets)
	s.res.Status = Fixable
	s.res.Sets = sets
	s.res.Costs = make([]int, len(sets))
	for i, set := range sets {
		s.res.Costs[i] = s.coster.cost(set)
	}
}

func (s *search) inconclusive(reason string) {
	s.res.Status = Inconclusive
	s.res.Reason = reason
	s.bounds = nil
}

func (s *search) addBound(b string) {
	if b != "" && !slices.Contains(s.bounds, b) {
		s.bounds = append(s.bounds, b)
	}
}

// compareSets orders fence sets cheapest first: by size, then cost, then
// place by place.
func (s *search) compareSets(a, b []Place) int {
	if len(a) != len(b) {
		return len(a) - len(b)
	}
	if ca, cb := s.coster.cost(a), s.coster.cost(b); ca != cb {
		return ca - cb
	}
	return slices.CompareFunc(a, b, comparePlaces)
}

func (s *search) describe(F []Place) string {
	if len(F) == 0 {
		return s.p.Name
	}
	names := make([]string, len(F))
	for i, pl := range F {
		names[i] = pl.Format(s.p)
	}
	return fmt.Sprintf("%s with barriers at %s", s.p.Name, strings.Join(names, ", "))
}

// weakens reports whether w ≠ d is d with some barriers left out and some
// full fences made store-store fences: every barrier of w has one of d at
// its place, of the same kind or, for a store-store barrier of w, a full
// one.
func weakens(w, d []Place) bool {
	if slices.Equal(w, d) {
		return false
	}
	for _, a := range w {
		if !slices.Contains(d, a) && !(a.StoreStore && slices.Contains(d, a.Full())) {
			return false
		}
	}
	return true
}

// insertSorted returns a new sorted set: F ∪ {f}.
func insertSorted(F []Place, f Place) []Place {
	i, _ := slices.BinarySearchFunc(F, f, comparePlaces)
	out := make([]Place, 0, len(F)+1)
	out = append(out, F[:i]...)
	out = append(out, f)
	return append(out, F[i:]...)
}

// anySubset reports whether some set of sets is a subset of set.
func anySubset(sets [][]Place, set []Place) bool {
	for _, S := range sets {
		if subset(S, set) {
			return true
		}
	}
	return false
}

// subset reports whether a ⊆ b, both sorted.
func subset(a, b []Place) bool {
	if len(a) > len(b) {
		return false
	}
	j := 0
	for _, x := range a {
		for j < len(b) && comparePlaces(b[j], x) < 0 {
			j++
		}
		if j == len(b) || b[j] != x {
			return false
		}
		j++
	}
	return true
}

// CheckMinimal re-verifies with eng that set is a minimal barrier set for p
// under TSO: p with barriers at set is safe, and for every place f of set, p
// with barriers at set \ {f} is not. It returns nil, or an error saying which
// check failed or was inconclusive. It costs len(set)+1 engine calls; it is
// meant for tests and debugging.
func CheckMinimal(ctx context.Context, eng engines.Engine, p *model.Program, set []Place) error {
	return CheckMinimalUnder(ctx, eng, p, set, model.TSO)
}

// CheckMinimalUnder is [CheckMinimal] under the memory model m (TSO or
// PSO); [CheapestUnder] checks that no full fence of a PSO set can be a
// store-store one.
func CheckMinimalUnder(ctx context.Context, eng engines.Engine, p *model.Program, set []Place, m model.Model) error {
	set = normalize(set)
	r, err := eng.Check(ctx, Insert(p, set), m)
	if err != nil {
		return fmt.Errorf("checking %v: %w", set, err)
	}
	if r.Status != engines.Safe {
		return fmt.Errorf("barriers at %v are not enough: %v", set, r)
	}
	for i := range set {
		sub := slices.Delete(slices.Clone(set), i, i+1)
		r, err := eng.Check(ctx, Insert(p, sub), m)
		if err != nil {
			return fmt.Errorf("checking %v: %w", sub, err)
		}
		if r.Status != engines.Unsafe {
			return fmt.Errorf("barriers at %v are not minimal: without %s the program is %v", set, set[i].Format(p), r)
		}
	}
	return nil
}

// CheapestUnder re-verifies with eng, under PSO, that no full fence of set,
// a barrier set that makes p safe, can be a store-store fence instead: for
// each, p with that fence made a store-store one must be unsafe. Under TSO,
// where a store-store fence does nothing, it checks nothing. It is meant
// for tests and debugging.
func CheapestUnder(ctx context.Context, eng engines.Engine, p *model.Program, set []Place, m model.Model) error {
	if m != model.PSO {
		return nil
	}
	set = normalize(set)
	for i, pl := range set {
		if pl.StoreStore {
			continue
		}
		alt := slices.Clone(set)
		alt[i] = pl.AsStoreStore()
		r, err := eng.Check(ctx, Insert(p, alt), m)
		if err != nil {
			return fmt.Errorf("checking %v: %w", alt, err)
		}
		if r.Status != engines.Unsafe {
			return fmt.Errorf("the full fence at %s can be a store-store fence: the program is then %v", pl.Format(p), r)
		}
	}
	return nil
}
