package sb

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/lib/explore"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/facts"
)

// DefaultMaxConstraints is the constraint budget when Engine.MaxConstraints is 0.
const DefaultMaxConstraints = 5_000_000

// Engine is the exact TSO engine. The zero value is ready to use.
type Engine struct {
	// MaxConstraints ends the search as inconclusive; 0 means
	// DefaultMaxConstraints.
	MaxConstraints int64
	// Backward makes the backward SB search give every answer: the forward
	// abstraction (within DefaultPruneStates states) only prunes and guides
	// the SB search, and the bounded search does not run (for tests and
	// measurements of the SB search; fencemodel's engine sb-backward).
	Backward bool
	// NoPrune turns the pruning of the SB search off.
	NoPrune bool
	// BreadthFirst makes the SB search analyse its constraints in the
	// order they were generated instead of best first (worklist.go).
	BreadthFirst bool
	// NoSymmetry turns off the symmetry reduction of the SB search
	// (symmetry.go), NoPOR its partial-order reduction (por.go).
	NoSymmetry bool
	NoPOR      bool
}

// Name returns "sb".
func (*Engine) Name() string { return "sb" }

// Check decides whether a bad state of p is reachable under m: exactly under
// TSO, and under SC by the explicit-state search of package explore
// (complete for finite programs).
//
// Under TSO, unless Backward is set, three searches take turns with
// growing budgets: the explicit-state search with store buffers bounded by k (a
// counterexample it finds is real), the forward abstraction with exact buffer
// suffixes of length k (a run that reaches no bad state proves the program
// safe; a complete run bounds the reachable local states), and the backward
// SB search, which resumes where it stopped and discards constraints outside
// those local states. Each answer is exact; the SB search ends every run.
func (e *Engine) Check(ctx context.Context, p *model.Program, m model.Model) (*engines.Result, error) {
	p, err := engines.ForTSO("the single-buffer engine", p, m)
	if err != nil {
		return nil, err
	}
	if m == model.SC {
		return explore.Check(ctx, p, m, explore.Options{MaxStates: e.MaxConstraints})
	}
	start := time.Now()
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("invalid program: %w", err)
	}
	if !p.Finite() {
		return nil, errors.New("the sb engine needs finite domains for every variable and register")
	}
	if len(p.Vars) > maxEach || len(p.Procs) > maxEach {
		return nil, &engines.Unsupported{Engine: "the sb engine", What: fmt.Sprintf("%d shared variables and %d goroutines (at most 64 of each)", len(p.Vars), len(p.Procs))}
	}
	for _, q := range p.Procs {
		if len(q.Regs) > maxEach {
			return nil, &engines.Unsupported{Engine: "the sb engine", What: fmt.Sprintf("%d local values in goroutine %s (at most 64)", len(q.Regs), q.Name)}
		}
	}
	budget := e.MaxConstraints
	if budget <= 0 {
		budget = DefaultMaxConstraints
	}
	res, err := e.decide(ctx, p, budget)
	if err != nil {
		return nil, err
	}
	res.Model = model.TSO
	res.Stats.Duration = time.Since(start)
	if err := engines.Verify(p, res); err != nil {
		return nil, err
	}
	return res, nil
}

// The forward abstraction that prunes the SB search in Backward mode: its
// suffix length for programs with loops (loop-free ones get their longest
// run of writes, which makes the abstraction exact) and its largest state
// budget.
const (
	DefaultPruneSuffix = 2
	DefaultPruneStates = 1 << 22

	// The first turn of Backward mode: the abstraction's states and the
	// SB search's constraints.
	firstPruneStates      = 1 << 14
	firstPruneConstraints = 1 << 12
)

// MaxRoundStates caps the state budget of the bounded and abstract
// searches of a round (about half a gigabyte of states); once both have
// used it, the SB search alone goes on.
const MaxRoundStates = 1 << 20

// MaxRoundStatesDrained is MaxRoundStates for programs whose store buffers
// fences and locked operations bound, whose rounds end in the exact
// explicit search.
const MaxRoundStatesDrained = 1 << 15

// Budgets of the first round; every round multiplies them by four and
// doubles the buffer bound k of the abstract search (and that of the
// bounded search once it has exhausted it).
const (
	firstStates      = 1 << 11 // explicit and abstract states
	firstConstraints = 1 << 6  // SB constraints
)

func (e *Engine) decide(ctx context.Context, p *model.Program, max int64) (*engines.Result, error) {
	res := &engines.Result{}
	if n := facts.InitialStates(p); n > max {
		res.Status = engines.Inconclusive
		res.Reason = engines.TooManyInitial(n, max)
		return res, nil
	}
	fp, err := withFaults(p)
	if err != nil {
		res.Status, res.Reason = engines.Inconclusive, err.Error()
		return res, nil
	}
	s := newSearch(fp, p)
	if !e.NoSymmetry {
		s.sym = newSymmetry(fp.prog)
	}
	if !e.NoPOR {
		s.localIn = localEntries(fp.prog)
	}
	s.maxWork = satMul(max, WorkPerConstraint)
	var other int64 // states of the forward searches
	finish := func(found *cons, err error) (*engines.Result, error) {
		res.Stats.States = s.count + other
		var wide *wideError
		switch {
		case errors.Is(err, errBudget):
			res.Status = engines.Inconclusive
			res.Reason = fmt.Sprintf("constraint budget of %d exhausted", max)
		case errors.Is(err, engines.ErrWork):
			res.Status = engines.Inconclusive
			res.Reason = engines.MeterOf(ctx).Reason()
		case errors.Is(err, errWork):
			res.Status = engines.Inconclusive
			res.Reason = fmt.Sprintf("work budget of %d steps exhausted after %d constraints", s.maxWork, s.count)
		case errors.As(err, &wide):
			res.Status = engines.Inconclusive
			res.Reason = wide.Error()
		case err != nil:
			res.Status = engines.Inconclusive
			res.Reason = fmt.Sprintf("%s after %d constraints and %d states", engines.StopReason(ctx), s.count, other)
		case found == nil:
			res.Status = engines.Safe
		default:
			tr, err := concretize(ctx, p, fp, found)
			if err != nil && ctx.Err() != nil {
				// The budget ended while the counterexample was turned
				// into a TSO trace: no verdict without the trace.
				res.Status = engines.Inconclusive
				res.Reason = fmt.Sprintf("%s while concretizing a counterexample, after %d constraints", engines.StopReason(ctx), s.count)
				return res, nil
			}
			if err != nil {
				return nil, fmt.Errorf("sb engine: %w", err)
			}
			res.Status = engines.Unsafe
			res.Trace = tr
		}
		return res, nil
	}
	if !e.BreadthFirst {
		s.queue.bestFirst(s.prog)
	}
	if e.Backward {
		if e.NoPrune {
			found, err := s.run(ctx, max)
			searched(s.count, s.pruned)
			return finish(found, err)
		}
		// The forward abstraction and the SB search take turns with
		// budgets growing four times a turn, until the abstraction
		// completes (then it prunes) or reaches DefaultPruneStates: a
		// search that the abstraction's first states guide well ends
		// before the abstraction grows large.
		k := DefaultPruneSuffix
		if n, acyclic := facts.MaxWritesOnPath(p); acyclic {
			k = n
		}
		states, cons := int64(firstPruneStates), int64(firstPruneConstraints)
		for {
			fw, err := runForward(ctx, p, k, states)
			if fw != nil {
				other += fw.states
			}
			switch {
			case err == nil:
				s.prune, s.hint = fw, nil
			case errors.Is(err, errAbsBudget):
				// Incomplete: no pruning, but the depths of the local
				// states it reached still guide the best-first order.
				s.hint = fw
			default:
				return finish(nil, err)
			}
			limit := max
			if s.prune == nil && states < DefaultPruneStates {
				limit = min(max, s.count+cons)
			}
			found, err := s.run(ctx, limit)
			if limit == max || !errors.Is(err, errBudget) {
				searched(s.count, s.pruned)
				return finish(found, err)
			}
			states, cons = min(4*states, DefaultPruneStates), 4*cons
		}
	}
	// The forward searches' state budgets grow up to the engine's budget;
	// once both have run out of it, the later rounds give all their time to
	// the SB search, or, when fences and locked operations bound the
	// store buffers, to the explicit search with that exact bound, which
	// decides such programs (a barrier of 6 goroutines: 2.8 million
	// states) where the SB search does not.
	_, drained := facts.DrainBound(p)
	fenceBounded := drained
	roundCap := int64(MaxRoundStates)
	if drained {
		// The exact search that ends the rounds decides such programs
		// (it goes on from the rounds' explicit search): cap the rounds'
		// abstractions and SB searches lower.
		roundCap = MaxRoundStatesDrained
	}
	states, cons := min(int64(firstStates), max, roundCap), int64(firstConstraints)
	capped := false
	// kx is the buffer bound of the rounds' explicit searches. It doubles
	// only after a round's search exhausted it: while the state budget is
	// what stops that search, a larger bound would spend the budget on
	// more buffered interleavings of the same depth, and most bugs need
	// few buffered stores (a filter lock's fence inference: 23 checks and
	// 1.5 million states instead of 45 checks and 8.2 million).
	kx := 1
	// abstract runs the forward abstraction with suffix k and the given
	// state budget: true when it proves the program safe; a complete one
	// prunes the SB search, an incomplete one guides it until one does.
	abstract := func(k int, states int64) (bool, error) {
		fw, err := runForward(ctx, p, k, states)
		if fw != nil {
			other += fw.states
		}
		switch {
		case err == nil && !fw.bad:
			return true, nil
		case err == nil && !e.NoPrune:
			s.prune, s.hint = fw, nil
		case errors.Is(err, errAbsBudget):
			if s.prune == nil && !e.NoPrune {
				s.hint = fw
			}
		case err != nil:
			return false, err
		}
		return false, nil
	}
	// exact is the rounds' explicit search, with the buffer bound
	// exactBound (0: the drain bound, where fences and locked operations
	// bound the buffers): a round with the same bound as the last resumes
	// it with its larger budget, and so does the exact search that ends
	// the rounds, rather than visiting the states of the rounds again.
	var exact *explore.Search
	exactBound := 0
	explicit := func(o explore.Options) (*engines.Result, error) {
		if exact == nil || exactBound != o.Bound {
			var err error
			exact, exactBound = nil, o.Bound
			if exact, err = explore.NewSearch(p, model.TSO, explore.Options{Bound: o.Bound}); err != nil {
				return nil, err
			}
		}
		return exact.Run(ctx, o.MaxStates)
	}
	// hunt goes on with the depth-first hunt for a bug (explore.Hunt)
	// with the bound and the state budget (in all) of the round's explicit
	// search, from where the last round's hunt stopped while the bound
	// stays the same.
	var hunter *explore.Hunt
	huntBound := 0
	hunt := func(o explore.Options) (*engines.Result, int64, error) {
		if hunter == nil || huntBound != o.Bound {
			var err error
			huntBound = o.Bound
			if hunter, err = explore.NewHunt(p, model.TSO, explore.Options{Bound: o.Bound}); err != nil {
				return nil, 0, err
			}
		}
		return hunter.Run(ctx, o.MaxStates)
	}
	for k := 1; ; k *= 2 {
		if capped && drained {
			ex, err := explicit(explore.Options{MaxStates: e.MaxConstraints})
			if err != nil {
				return nil, fmt.Errorf("sb engine, exact bounded search: %w", err)
			}
			other += ex.Stats.States
			if ex.Status == engines.Unsafe || ex.Status == engines.Safe && ex.Bound == "" {
				res.Status, res.Trace, res.Stats.States = ex.Status, ex.Trace, s.count+other
				decidedBy("bounded")
				return res, nil
			}
			// Out of its budget: the rest goes to the SB search, and the
			// explicit search's states are dropped.
			drained, exact = false, nil
		}
		if capped {
			found, err := s.run(ctx, max)
			if err == nil {
				decidedBy("backward")
			}
			return finish(found, err)
		}
		capped = states >= min(max, roundCap)
		bounded := explore.Options{Bound: kx, MaxStates: states}
		if drained {
			// Fences and locked operations bound the buffers: the
			// explicit search with that bound is exact, and within the
			// round's budget decides small programs (Memorax's Dekker
			// lock with its barriers: 416 states) before any abstraction.
			bounded.Bound = 0
		}
		ex, err := explicit(bounded)
		if err != nil {
			return nil, fmt.Errorf("sb engine, bounded search: %w", err)
		}
		other += ex.Stats.States
		if ex.Status == engines.Safe {
			kx *= 2
		}
		switch {
		case ex.Status == engines.Unsafe:
			res.Status, res.Trace, res.Stats.States = engines.Unsafe, ex.Trace, s.count+other
			decidedBy("bounded")
			return res, nil
		case ex.Status == engines.Safe && ex.Bound == "":
			// The bound covers every path of a loop-free program: exact.
			res.Status, res.Stats.States = engines.Safe, s.count+other
			decidedBy("bounded")
			return res, nil
		}
		if ex.Status == engines.Inconclusive && !drained {
			// The breadth-first search ran out of the round's budget
			// before its bound's states: the depth-first hunt gets twice
			// as many, for a bug at the end of a long run, which it
			// finds in a fraction of the states the breadth-first search
			// would visit first (a Peterson lock of 100 rounds with one
			// of its two barriers: 11,259 states of the hunt's fourth
			// round, after 131,072 of the breadth-first search; twice
			// the budget finds it a round earlier). (Where fences bound
			// the buffers, the exact search that ends the rounds is
			// complete, and the hunt would only repeat its work.)
			hb := bounded
			hb.MaxStates = satMul(bounded.MaxStates, 2)
			tr, n, err := hunt(hb)
			if err != nil {
				return nil, fmt.Errorf("sb engine, depth-first hunt: %w", err)
			}
			other += n
			if tr != nil {
				res.Status, res.Trace, res.Stats.States = engines.Unsafe, tr.Trace, s.count+other
				decidedBy("hunt")
				return res, nil
			}
		}
		if err := ctx.Err(); err != nil {
			return finish(nil, err)
		}
		if engines.MeterOf(ctx).Out() {
			return finish(nil, engines.ErrWork)
		}
		safe, err := abstract(k, states)
		if err == nil && !safe && s.prune == nil && !e.NoPrune && k > DefaultPruneSuffix && !fenceBounded {
			// The coarser abstraction of Backward mode completes sooner:
			// a complete one prunes the SB search by the memories it
			// reaches, or proves the program safe. (Where fences bound
			// the buffers, the exact explicit search ends the rounds.)
			safe, err = abstract(DefaultPruneSuffix, states)
		}
		switch {
		case err != nil:
			return finish(nil, err)
		case safe:
			res.Status, res.Stats.States = engines.Safe, s.count+other
			decidedBy("forward")
			return res, nil
		}
		found, err := s.run(ctx, min(max, s.count+cons))
		if err == nil || !errors.Is(err, errBudget) || s.count >= max {
			if err == nil {
				decidedBy("backward")
			}
			return finish(found, err)
		}
		states = min(satMul(states, 4), max, roundCap)
		cons *= 4
	}
}

var errBudget = errors.New("constraint budget exhausted")

// WorkPerConstraint is the work budget of the SB search per constraint of
// its constraint budget: every valuation enumerated by a Pre step and every
// constraint generated or compared counts one step. It stops a search that
// grinds through enumerations without finding constraints.
const WorkPerConstraint = 1 << 12

// satMul returns a*b for non-negative a, b, saturating at math.MaxInt64.
func satMul(a, b int64) int64 {
	if a != 0 && b > math.MaxInt64/a {
		return math.MaxInt64
	}
	return a * b
}

// searched is called, in Backward mode, with the numbers of constraints the
// SB search analysed and pruned; tests replace it to report them.
var searched = func(count, pruned int64) {}

// decidedBy is called with the search that gave the answer of a round
// ("bounded", "forward" or "backward"); tests replace it to count them.
var decidedBy = func(string) {}

type search struct {
	meter *engines.Meter // charged a unit per constraint
	prog  *model.Program
	info  [][]opInfo
	nvars int
	in    [][][]int // in[p][l]: the transitions of process p entering l

	visited map[string]*bucket // analysed constraints, by locations (wild included) and pointer groups (index.go)
	masks   []uint64           // the wildcard masks of the analysed constraints
	embed   embedding          // scratch space of subsumes
	pend    *pending           // the stores each process may have pending
	writers uint64             // the processes that store to some variable
	queue   worklist           // the constraints to analyse
	targets *targetIter        // the bad states' constraints not yet queued
	seen    map[string]bool    // exact duplicates generated (a cache)
	count   int64
	pruned  int64
	keyBuf  []byte
	lkBuf   []byte

	// work counts the elementary steps of the search (valuations
	// enumerated, constraints generated); every workCheck of them the
	// context is polled, and beyond maxWork the search stops. stop is the
	// error that ended the search from inside an enumeration.
	work, nextCheck, maxWork int64
	ctx                      context.Context
	stop                     error

	// free[p][l] says that no read of process p is reachable from its
	// location l but through a fence or a locked operation: there, up to
	// that operation, and after p's last step, p's pointer is pinned (see
	// the package doc).
	free [][]bool
	all  uint64 // every process

	// prune, when set, is a complete forward abstraction: a constraint whose
	// local state it does not reach denotes no reachable configuration and
	// is discarded. Locations from origLocs on are fault locations.
	prune *forward
	// hint, when set, is a forward abstraction cut by its state budget:
	// it prunes nothing, but bounds the length of the runs to the local
	// states it reached, and of those to the others (see reachDepth).
	hint     *forward
	origLocs []int
	// origTrans[p][t] is the transition of the program checked that
	// transition t of process p stands for (a fault transition's twin).
	origTrans [][]int
	// lockedHeads[p] lists the headers of p's locked operations that write
	// several variables (see preFlush).
	lockedHeads [][]lockedHead

	// sym, when set, makes every constraint pushed canonical under the
	// permutations of interchangeable processes (symmetry.go).
	sym *symmetry
	// localIn, when set, says per process and location that the location
	// is not the initial one and is entered only by local steps (por.go).
	localIn [][]bool
}

// newSearch prepares the search of fp's program, the fault-augmented copy
// of orig.
func newSearch(fp *faultProgram, orig *model.Program) *search {
	p := fp.prog
	p.Index()
	s := &search{prog: p, nvars: len(p.Vars), visited: map[string]*bucket{}, seen: map[string]bool{}, ctx: context.Background(), origTrans: fp.orig}
	for _, q := range orig.Procs {
		s.origLocs = append(s.origLocs, len(q.Locs))
	}
	s.info = make([][]opInfo, len(p.Procs))
	s.in = make([][][]int, len(p.Procs))
	for i, q := range p.Procs {
		s.info[i] = make([]opInfo, len(q.Trans))
		s.in[i] = make([][]int, len(q.Locs))
		for j, t := range q.Trans {
			s.info[i][j] = analyse(t.Op)
			s.in[i][t.To] = append(s.in[i][t.To], j)
		}
	}
	s.all = 1<<uint(len(p.Procs)) - 1
	s.pend = newPending(p)
	for i, w := range s.pend.writes {
		if w != 0 {
			s.writers |= 1 << uint(i)
		}
	}
	s.lockedHeads = lockedHeads(s.info)
	s.free = make([][]bool, len(p.Procs))
	for i, q := range p.Procs {
		s.free[i] = freeLocations(q)
	}
	s.targets = s.newTargets()
	return s
}

// freeLocations returns, per location of q, whether no read of q is
// reachable from it but through a fence or a locked operation.
func freeLocations(q *model.Process) []bool {
	free := make([]bool, len(q.Locs))
	for l := range free {
		free[l] = true
	}
	var stack []int
	for _, t := range q.Trans {
		if t.Op.Kind == model.Read && free[t.From] {
			free[t.From] = false
			stack = append(stack, t.From)
		}
	}
	for len(stack) > 0 {
		l := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, t := range q.Trans {
			if t.To == l && free[t.From] && !usesPointer(t) {
				free[t.From] = false
				stack = append(stack, t.From)
			}
		}
	}
	return free
}

// pinnedMask returns the processes whose pointers c pins.
func pinnedMask(c *cons) uint64 {
	var m uint64
	for p, z := range c.ptr {
		if z == pinned {
			m |= 1 << uint(p)
		}
	}
	return m
}

// wild is the location of a process that a constraint leaves free: the
// constraint denotes configurations with that process at any location.
// The bad states' constraints leave every process they do not name free
// (rather than materialising the product of their locations); a process
// stays free until a Pre step by one of its own transitions fixes it.
const wild = -1

// wildMask returns the set of processes that locs leaves free.
func wildMask(locs []int) uint64 {
	var m uint64
	for p, l := range locs {
		if l == wild {
			m |= 1 << uint(p)
		}
	}
	return m
}

// Work accounting: the context is polled every workCheck steps.
const workCheck = 1 << 12

// errWork ends a search whose count of elementary steps exceeded maxWork.
var errWork = errors.New("work budget exhausted")

// tick counts n elementary steps; it reports false (and sets s.stop) when
// the search must stop: the context ended or the work budget ran out.
func (s *search) tick(n int64) bool {
	if s.stop != nil {
		return false
	}
	s.work += n
	if s.work >= s.nextCheck {
		s.nextCheck = s.work + workCheck
		if err := s.ctx.Err(); err != nil {
			s.stop = err
			return false
		}
	}
	if s.meter.Out() {
		s.stop = engines.ErrWork
		return false
	}
	if s.maxWork > 0 && s.work > s.maxWork {
		s.stop = errWork
		return false
	}
	return true
}

// run performs Algorithm 1; it returns a constraint that contains an initial
// configuration (with its provenance chain to a bad state), or nil.
//
// The search is resumable: after errBudget, run continues where it stopped.
// The bad states' constraints are generated lazily, whenever the work list
// runs dry. Any other error (the context, the work budget, a domain too wide
// to enumerate) ends the search for good.
func (s *search) run(ctx context.Context, max int64) (*cons, error) {
	s.ctx = ctx
	s.meter = engines.MeterOf(ctx)
	for {
		if s.stop != nil {
			return nil, s.stop
		}
		c := s.queue.peek()
		if c == nil {
			if !s.targets.pull(s, targetBatch) {
				if s.stop != nil {
					return nil, s.stop
				}
				return nil, nil
			}
			continue
		}
		if c.dead {
			s.queue.pop()
			continue
		}
		if s.isInitial(c) {
			return c, nil
		}
		if !s.tick(1) {
			return nil, s.stop
		}
		if s.count >= max {
			return nil, errBudget
		}
		s.queue.pop()
		// emit pushes the predecessors of c by proc's transition trans (a
		// flush when -1, the link to a copy in transit when catchUp);
		// caught says that trans is followed by proc's catch-up, whose
		// flushes precede it.
		emit := func(proc, trans int, caught bool) func(*cons) {
			return func(d *cons) {
				// The predecessor by a fence or a locked operation from
				// a free location (the only steps that leave one): the
				// pointer, at the newest message, is pinned there. Out
				// of transit, a process at a free location is pinned.
				repin := trans >= 0 && c.transit < 0 && d.locs[proc] >= 0 && s.free[proc][d.locs[proc]] && d.ptr[proc] != pinned
				if repin {
					d.ptr[proc] = pinned
				}
				s.normalize(d, func(d *cons) {
					d.next, d.proc, d.trans, d.bad = c, proc, trans, c.bad
					d.transit = -1
					switch {
					case trans == catchUp:
						d.mayFlush, d.transit = 1<<uint(proc), proc
					case trans < 0:
						d.mayFlush, d.transit = c.mayFlush, c.transit
					case caught || s.needsPointer(proc, trans):
						d.mayFlush = 1 << uint(proc)
					default:
						d.mayFlush = 0
					}
					if repin {
						d.mayFlush &^= 1 << uint(proc)
					}
					s.push(d)
				})
			}
		}
		if p := c.transit; p >= 0 {
			// In transit after a read: p's catch-up flushes, or the read.
			for _, ti := range s.in[p][c.locs[p]] {
				if t := &s.prog.Procs[p].Trans[ti]; !s.free[p][t.From] && t.Op.Kind == model.Read {
					s.pre(c, p, ti, emit(p, ti, false))
				}
			}
			s.preFlush(c, p, emit(p, -1, false))
			if s.stop != nil {
				return nil, s.stop
			}
			continue
		}
		only := s.reduced(c)
		for p, q := range s.prog.Procs {
			if only >= 0 && p != only {
				// Partial-order reduction: of the others, only the
				// flushes c allows (por.go).
				if c.mayFlush&(1<<uint(p)) != 0 {
					s.preFlush(c, p, emit(p, -1, false))
				}
				if s.stop != nil {
					return nil, s.stop
				}
				continue
			}
			switch l := c.locs[p]; {
			case c.ptr[p] == pinned:
				// From a free location, p stays pinned (a fence or a
				// locked operation from one needs p's pointer at the
				// newest message); from another, the
				// transition is followed by p's catch-up. After a fence or
				// a locked operation p's pointer is at the newest message
				// already. The catch-up after a local step can take place
				// before the step, and so can all but the last flush of
				// the catch-up after a write (the one to p's own new
				// message): the step is then preceded by p's flushes.
				// After a read, p's pointer may lag: c is copied in
				// transit.
				var into []int
				for ti, t := range q.Trans {
					if l != wild && t.To != l {
						continue
					}
					switch {
					case s.free[p][t.From] && usesPointer(t):
						// A fence or a locked operation: p's pointer is at
						// the newest message.
						d := c.clone()
						d.locs[p], d.ptr[p] = t.To, d.last()
						s.pre(d, p, ti, emit(p, ti, false))
					case s.free[p][t.From]:
						at := *c
						at.locs = slices.Clone(c.locs)
						at.locs[p] = t.To
						s.pre(&at, p, ti, emit(p, ti, false))
					case t.Op.Kind == model.Read:
						if !slices.Contains(into, t.To) {
							into = append(into, t.To)
						}
					default:
						d := c.clone()
						d.locs[p], d.ptr[p] = t.To, d.last()
						if t.Op.Kind != model.Write {
							s.pre(d, p, ti, emit(p, ti, true))
							break
						}
						s.preFlush(d, p, func(e *cons) {
							s.normalize(e, func(e *cons) { s.pre(e, p, ti, emit(p, ti, true)) })
						})
					}
				}
				for _, to := range into {
					d := c.clone()
					d.locs[p], d.ptr[p] = to, d.last()
					emit(p, catchUp, false)(d)
				}
			case l != wild:
				for _, ti := range s.in[p][l] {
					s.pre(c, p, ti, emit(p, ti, false))
				}
			default:
				// Pre of the configurations with p anywhere by transition
				// ti is Pre of those with p at ti's target: p becomes fixed.
				at := *c
				at.locs = slices.Clone(c.locs)
				for ti, t := range q.Trans {
					at.locs[p] = t.To
					s.pre(&at, p, ti, emit(p, ti, false))
				}
			}
			if c.mayFlush&(1<<uint(p)) != 0 {
				s.preFlush(c, p, emit(p, -1, false))
			}
			if s.stop != nil {
				return nil, s.stop
			}
		}
	}
}

// needsPointer reports whether transition ti of process p depends on p's
// pointer: a read, a fence or a locked operation.
func (s *search) needsPointer(p, ti int) bool {
	return usesPointer(s.prog.Procs[p].Trans[ti])
}

func usesPointer(t model.Transition) bool {
	switch t.Op.Kind {
	case model.Read, model.Fence, model.Locked:
		return true
	}
	return false
}

// push makes c canonical under the symmetry (in place: callers copy a
// constraint before pushing it if they go on using it), then adds it to
// the work list unless an analysed or queued constraint subsumes it or it
// needs a store that cannot be pending (pending.go); it retires the ones
// c subsumes that fix the same locations. A subsumer
// leaves free at least the processes c leaves free, and agrees with c's
// other locations where it fixes them: it is looked up under c's locations
// with each such wildcard mask applied, and c's pointer groups (index.go).
func (s *search) push(c *cons) {
	if !s.tick(1) {
		return
	}
	if s.sym != nil {
		c.perm = s.sym.canon(c)
	}
	if !s.pend.consistent(c) {
		s.pruned++
		return
	}
	s.keyBuf = c.key(s.keyBuf[:0])
	if s.seen[string(s.keyBuf)] {
		return
	}
	if len(s.seen) >= maxSeen {
		clear(s.seen) // a cache of duplicates: dropping it costs only time
	}
	s.seen[string(s.keyBuf)] = true
	switch {
	case s.prune != nil:
		if c.depth = s.reachDepth(c, s.prune); c.depth < 0 {
			s.pruned++
			return
		}
	case s.hint != nil && s.queue.dist != nil:
		if c.depth = s.reachDepth(c, s.hint); c.depth < 0 {
			c.depth = s.hint.next
		}
	}
	mask := wildMask(c.locs)
	f := features(c, s.all)
	for _, m := range s.masks {
		if m&mask != mask || m == mask {
			continue
		}
		s.lkBuf = append(appendPtrKey(appendLocKey(s.lkBuf[:0], c.locs, m), c), byte(c.transit+1))
		if s.subsumedBy(s.visited[string(s.lkBuf)], c, f) {
			return
		}
		if s.stop != nil {
			return
		}
	}
	// A constraint in transit explores only some of its predecessors: it
	// neither subsumes nor is subsumed by one that is not.
	s.lkBuf = append(appendPtrKey(appendLocKey(s.lkBuf[:0], c.locs, 0), c), byte(c.transit+1))
	bk := s.visited[string(s.lkBuf)]
	if s.subsumedBy(bk, c, f) || s.stop != nil {
		return
	}
	if bk == nil {
		bk = &bucket{}
		s.visited[string(s.lkBuf)] = bk
	} else {
		if !s.tick(int64(bk.n/8 + 1)) {
			return
		}
		s.retire(bk, c, f)
	}
	if !slices.Contains(s.masks, mask) {
		s.masks = append(s.masks, mask)
	}
	bk.add(c, f)
	s.queue.push(c)
	s.count++
	s.meter.States(1)
}

// maxSeen bounds the cache of constraints generated before.
const maxSeen = 1 << 20

// reachDepth returns the least depth at which the forward abstraction fw
// reaches a local state of c (of its processes at a fixed location), or -1
// when it reaches none (for a process at a fault location, see
// faultDepth). For an abstraction cut by its budget, a local state it did
// not reach lies no nearer than the depth it was expanding (fw.next), as
// its search is breadth first.
func (s *search) reachDepth(c *cons, fw *forward) int32 {
	for p, l := range c.locs {
		if l >= s.origLocs[p] {
			return s.faultDepth(c, p, fw)
		}
	}
	d := fw.leastDepth(c.locs, c.regs, c.rknown, &c.msgs[c.last()])
	if d < 0 || !fw.complete {
		return d
	}
	// A process p with no message after its pointer reads the message
	// there: at the end of the epoch of that message (see the package
	// doc), p is where c has it, with an empty buffer, and memory holds
	// that message.
	for p, l := range c.locs {
		z := c.ptr[p]
		if l == wild || z == pinned || z == c.last() {
			continue
		}
		pending := false
		for i := z + 1; i < len(c.msgs) && !pending; i++ {
			pending = c.msgs[i].writer == p
		}
		if !pending && !fw.viewReached(p, l, c.regs[p], c.rknown[p], &c.msgs[z]) {
			return -1
		}
	}
	return d
}

// faultDepth is reachDepth of c, whose process p is at its fault location:
// the least, over the transitions into it, of one more than the depth of
// the state before the step (the others with c's registers and p at the
// step's source with c's values of the registers the step does not assign;
// a locked body may assign some before it faults). A complete abstraction
// records every fault of the program, so only the transitions whose fault
// it reached count; one cut by its budget, breadth first, bounds the
// depth of the faults and states it did not reach by the depth it was
// expanding. A constraint with a second process at a fault location leaves
// both wild.
func (s *search) faultDepth(c *cons, p int, fw *forward) int32 {
	locs := slices.Clone(c.locs)
	for q, l := range locs {
		if q != p && l >= s.origLocs[q] {
			for q, l := range locs {
				if l >= s.origLocs[q] {
					locs[q] = wild
				}
			}
			return fw.leastDepth(locs, c.regs, c.rknown, nil)
		}
	}
	best := int32(-1)
	known := slices.Clone(c.rknown)
	for _, ti := range s.in[p][c.locs[p]] {
		faulted := fw.hasFaulted(p, s.origTrans[p][ti])
		if fw.complete && !faulted {
			continue
		}
		locs[p] = s.prog.Procs[p].Trans[ti].From
		known[p] = c.rknown[p]
		for _, r := range s.info[p][ti].defRegs {
			known[p] &^= 1 << uint(r)
		}
		d := fw.leastDepth(locs, c.regs, known, nil)
		if d < 0 {
			if fw.complete {
				continue
			}
			// Not reached by an abstraction cut by its budget, breadth
			// first: no nearer than the depth it was expanding.
			d = fw.next - 1
		}
		d++
		if !faulted {
			d = max(d, fw.next) // likewise for the fault
		}
		if best < 0 || d < best {
			best = d
		}
	}
	return best
}

// isInitial reports whether c contains an initial SB configuration: one
// message, every process at its initial location, registers and memory
// compatible with the initial values.
func (s *search) isInitial(c *cons) bool {
	if len(c.msgs) != 1 {
		return false
	}
	for p, q := range s.prog.Procs {
		if c.locs[p] != q.Init && c.locs[p] != wild {
			return false
		}
		for r, reg := range q.Regs {
			if c.regKnown(p, r) && !reg.Init.Any && c.regs[p][r] != reg.Init.Value {
				return false
			}
		}
	}
	m := &c.msgs[0]
	for x, v := range s.prog.Vars {
		if m.isKnown(x) && !v.Init.Any && m.mem[x] != v.Init.Value {
			return false
		}
	}
	return true
}

// targetIter generates the minimal constraints of the bad states lazily,
// a batch at a time: a bad state's named locations are fixed and every other
// process is left wild (no product over their locations is built), and, for
// a condition, every valuation of the registers and variables it names that
// satisfies it (with all store buffers empty when it names memory) gives
// one constraint.
type targetIter struct {
	bi   int        // the bad state being generated
	odo  *odometer  // its valuations; nil before it starts
	base *cons      // its locations
	cond model.Expr // its condition, or nil
	regs []regSlot  // the registers it names
	vars []int      // the variables it names

	allRegs [][]int64
	mem     []int64
}

func (s *search) newTargets() *targetIter {
	it := &targetIter{allRegs: make([][]int64, len(s.prog.Procs)), mem: make([]int64, len(s.prog.Vars))}
	for i, q := range s.prog.Procs {
		it.allRegs[i] = make([]int64, len(q.Regs))
	}
	return it
}

// targetBatch is how many of the bad states' constraints are queued at a
// time. Queuing more than one lets the best-first order choose among the
// bad states: a program's own bad state may need its whole backward closure
// saturated (it is unreachable) while a fault is a few steps from the
// initial configurations.
const targetBatch = 1 << 12

// pull queues up to n of the bad states' constraints; it reports whether it
// queued one (false: none is left or the search must stop).
func (it *targetIter) pull(s *search, n int) bool {
	queued := 0
	for queued < n {
		if it.odo == nil {
			if it.bi >= len(s.prog.Bad) {
				return queued > 0
			}
			if !it.start(s) {
				it.bi++
				if s.stop != nil {
					return queued > 0
				}
				continue
			}
		}
		vals, ok := it.odo.next()
		if !ok {
			it.odo = nil
			it.bi++
			continue
		}
		if !s.tick(1) {
			return queued > 0
		}
		if d := it.build(s, vals); d != nil {
			before := s.queue.pushed()
			s.push(d)
			if s.queue.pushed() > before {
				queued++
			}
		}
	}
	return true
}

// start prepares the enumeration of bad state it.bi; false when it has no
// configuration (contradictory locations) or is too wide to enumerate.
func (it *targetIter) start(s *search) bool {
	b := &s.prog.Bad[it.bi]
	base := s.emptyCons()
	base.bad = it.bi
	for p := range base.locs {
		base.locs[p] = wild
	}
	for _, pl := range b.Locs {
		if l := base.locs[pl.Proc]; l != wild && l != pl.Loc {
			return false
		}
		base.locs[pl.Proc] = pl.Loc
	}
	s.pinFree(base)
	it.base, it.cond, it.regs, it.vars = base, b.Cond, nil, nil
	if b.Cond == nil {
		it.odo = newOdometer(nil, nil, nil)
		return true
	}
	model.WalkExpr(b.Cond, func(e model.Expr) {
		switch e := e.(type) {
		case model.RegRef:
			if !slices.Contains(it.regs, regSlot{e.Proc, e.Reg}) {
				it.regs = append(it.regs, regSlot{e.Proc, e.Reg})
			}
		case model.VarRef:
			if !contains(it.vars, e.Var) {
				it.vars = append(it.vars, e.Var)
			}
		}
	})
	// Equalities with constants among the top-level conjuncts fix their
	// register or variable; the others range over their domains.
	fixed := map[any]int64{}
	var conj func(e model.Expr)
	conj = func(e model.Expr) {
		b, ok := e.(model.Binary)
		if !ok {
			return
		}
		switch b.Op {
		case model.OpAnd:
			conj(b.X)
			conj(b.Y)
		case model.OpEq:
			if k, ok := b.Y.(model.Const); ok {
				switch x := b.X.(type) {
				case model.RegRef:
					fixed[regSlot{x.Proc, x.Reg}] = k.Value
				case model.VarRef:
					fixed[x.Var] = k.Value
				}
			}
		}
	}
	conj(b.Cond)
	var (
		doms    []span
		fixVals []int64
		has     []bool
	)
	slot := func(key any, d span) {
		v, ok := fixed[key]
		doms = append(doms, d)
		fixVals = append(fixVals, v)
		has = append(has, ok)
	}
	for _, r := range it.regs {
		slot(r, regSpan(s.prog.Procs[r.proc].Regs[r.reg]))
	}
	for _, x := range it.vars {
		slot(x, varSpan(s.prog.Vars[x]))
	}
	it.odo = newOdometer(doms, fixVals, has)
	if !s.affordable(it.odo) {
		it.odo = nil
		return false
	}
	return true
}

// build returns the constraint of valuation vals of the current bad state,
// or nil when the condition does not hold.
func (it *targetIter) build(s *search, vals []int64) *cons {
	if it.cond != nil {
		for i, r := range it.regs {
			it.allRegs[r.proc][r.reg] = vals[i]
		}
		for i, x := range it.vars {
			it.mem[x] = vals[len(it.regs)+i]
		}
		v, err := model.Eval(it.cond, &model.Env{AllRegs: it.allRegs, Mem: it.mem})
		if err != nil || v == 0 {
			return nil
		}
	}
	d := it.base.clone()
	d.bad = it.base.bad
	for i, r := range it.regs {
		d.setReg(r.proc, r.reg, vals[i])
	}
	for i, x := range it.vars {
		d.msgs[0].set(x, vals[len(it.regs)+i])
	}
	return d
}

func (s *search) emptyCons() *cons {
	p := s.prog
	c := &cons{
		locs:    make([]int, len(p.Procs)),
		regs:    make([][]int64, len(p.Procs)),
		rknown:  make([]uint64, len(p.Procs)),
		msgs:    []msg{{mem: make([]int64, len(p.Vars)), writer: -1}},
		ptr:     make([]int, len(p.Procs)),
		trans:   -2,
		transit: -1,

		mayFlush: 1<<uint(len(p.Procs)) - 1,
	}
	for i, q := range p.Procs {
		c.regs[i] = make([]int64, len(q.Regs))
	}
	return c
}

// pinFree pins the pointers of c's processes that are at a free location,
// or are free and at a free location wherever they are (their flushes are
// not explored).
func (s *search) pinFree(c *cons) {
	for p, l := range c.locs {
		if l == wild || s.free[p][l] {
			c.ptr[p] = pinned
			c.mayFlush &^= 1 << uint(p)
		}
	}
}

type regSlot struct{ proc, reg int }

// maxEach bounds the shared variables, the goroutines and the registers of
// each goroutine of a program the engine takes.
const maxEach = 64

// Fits reports whether the engine can take p's size: at most 64 shared
// variables, goroutines, and registers in each goroutine, and reads that
// can fault on at most 4096 values each.
func Fits(p *model.Program) bool {
	if len(p.Vars) > maxEach || len(p.Procs) > maxEach {
		return false
	}
	for _, q := range p.Procs {
		if len(q.Regs) > maxEach {
			return false
		}
	}
	return readsFit(p)
}
