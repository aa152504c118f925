package explore

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"sync"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/facts"
)

// node is a visited state: how the search reached it (its parent and the
// step taken, whose values are recomputed when a trace is built) and
// whether it was expanded by all its steps.
type node struct {
	parent int32 // -(root+1) for an initial state
	proc   int32
	trans  int32 // for a flush of variable x, flushTrans(x)
	// chain, when not 0, is 1 + the offset in search.chains of the local
	// steps of proc taken right after trans (see accelerate): their count,
	// then their transitions.
	chain int32
	full  bool
}

// search is one breadth-first search of a program under a model with a
// buffer bound. It keeps every visited state's canonical key (in visited,
// whose ids are the nodes' indices) and node; under symmetry reduction,
// whose keys are canonical, also the states still to expand, in the order
// of their ids, as packed encodings in a queue of bytes (otherwise a key is
// that encoding).
type search struct {
	p         *model.Program
	m         model.Model
	bound     int
	keepDead  bool
	maxStates int64
	meter     *engines.Meter
	dead      [][][]int
	red       *por   // the reduction's static information (nil: none)
	cache     []bool // by process: accelerate's chains may be cached (cacheable)
	sym       *symmetry
	bad       *badIndex
	// faulty are, under symmetry, the nodes whose states fault: the
	// queue packs them without the key's fault mark, which the decoder
	// would not see the end of (unpack).
	faulty map[int32]bool

	visited *stateSet
	full    error // the visited set could not take another state
	nodes   []node
	roots   []model.State // initial states, by -(parent+1)
	queue   []byte        // packed states of the nodes from head on
	badNode int32
	// blocked is set when the bound disabled a write in an expanded state
	// (so that the search may have missed states of the unbounded program).
	blocked bool
	chains  []int32  // the chains of the nodes (node.chain)
	hasW    [][]bool // by process and location: a write leaves it
	// planners plan the expansions of a batch at once; seq expands the
	// states whose plan depends on the batch, and keys the initial states.
	planners []*worker
	seq      *worker
	plans    []expansion
	// started: the initial states are in; head is the next node to
	// expand, off the offset of its packed state in queue (under
	// symmetry), where a run stopped by a budget goes on.
	started   bool
	head, off int
	// batch is how many states a batch plans at once, minParallel the
	// least number for which the planners work at once (batchSize and
	// minParallel, but for tests); redos counts the plans redone.
	batch, minParallel int
	redos              int
	// For the tests that show what the provisos are for: a reduction
	// without the visibility proviso (C2) or the cycle proviso (C3).
	noC2, noC3 bool
}

// worker is the scratch of one goroutine that plans expansions: its own
// copies of the reductions' scratch, the successors of the state being
// expanded, and the keys, chains and encodings of the batch's plans.
type worker struct {
	s   *search
	red *por
	sym *symmetry
	// The successors of the state being expanded, by process, computed
	// once (procSuccs) for stuck, the ample sets and the full expansion.
	succs    [][]succ
	haveSucc []bool
	stKey    []byte // the key of the state being expanded
	succKeys []byte // the keys of succs, for the whole batch
	encs     []byte // the successors' own encodings under symmetry
	chain    []int32
	key2     []byte // scratch of useless
	// accel caches accelerate's chains by the local state they start
	// from (see cacheable), accKey is the scratch of its keys.
	accel   map[string]accelEntry
	accKey  []byte
	accHits int // chains the cache answered, for the tests
	ample   []succ
	// arena holds the successors' arrays, handed out again at each
	// expansion: only the plans, which keep keys, outlive it.
	arena model.Arena
}

func (s *search) newWorker() *worker {
	return &worker{s: s, red: s.red.clone(), sym: s.sym.clone(),
		succs: make([][]succ, len(s.p.Procs)), haveSucc: make([]bool, len(s.p.Procs))}
}

// succ is a successor of the state being expanded, after its local steps
// (accelerate) and with its dead registers reset (canon).
type succ struct {
	step    model.Step
	state   model.State
	key     []byte  // in the worker's succKeys
	chain   []int32 // the local steps taken after step (accelerate)
	useless bool    // see useless
	// looked says whether the visited set was searched for key (see
	// lookup): hash is then its hash and old its id, or -1.
	looked bool
	hash   uint64
	old    int32
}

// lookup searches the visited set for a's key, once.
func (w *worker) lookup(a *succ) {
	if !a.looked {
		a.hash = w.s.visited.hash(a.key)
		a.old = int32(w.s.visited.findHash(a.key, a.hash))
		a.looked = true
	}
}

func newSearch(p *model.Program, m model.Model, bound int, o *Options, maxStates int64, meter *engines.Meter) *search {
	s := &search{
		p: p, m: m, bound: bound, keepDead: o.KeepDead, maxStates: maxStates, meter: meter,
		dead: facts.Dead(p), visited: newStateSet(), badNode: -1, bad: newBadIndex(p, o.Target),
	}
	if !o.NoPOR && len(p.Procs) > 1 && len(p.Procs) <= 32 && m != model.PSO {
		s.red = newPOR(p, m)
		s.cache = cacheable(p, s.red)
	}
	if !o.NoSymmetry {
		s.sym = newSymmetry(p)
	}
	workers := o.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	for range min(workers, maxWorkers) {
		s.planners = append(s.planners, s.newWorker())
	}
	s.seq = s.newWorker()
	s.batch, s.minParallel = batchSize, minParallel
	if m.Buffered() && bound > 0 {
		s.hasW = make([][]bool, len(p.Procs))
		for i, q := range p.Procs {
			s.hasW[i] = make([]bool, len(q.Locs))
			for _, t := range q.Trans {
				if t.Op.Kind == model.Write {
					s.hasW[i][t.From] = true
				}
			}
		}
	}
	return s
}

func (w *worker) appendKey(b []byte, st model.State) []byte {
	if w.sym != nil {
		return w.sym.appendKey(b, st)
	}
	return st.AppendKey(b)
}

// canon resets the dead registers of a state reached by a step, copying
// what it changes into the worker's arena.
func (w *worker) canon(st model.State) model.State {
	if w.s.keepDead {
		return st
	}
	return facts.CanonicalRegsIn(st, w.s.dead, &w.arena)
}

// planned is a successor that an expansion's plan inserts unless it was
// visited: its step, key and the key's hash, its id in the visited set
// when the plan was made (-1: none), whether it is bad, its chain of local
// steps (accelerate) and, under symmetry, its own encoding for the queue.
type planned struct {
	step  model.Step
	key   []byte
	hash  uint64
	old   int32
	bad   bool
	chain []int32
	enc   []byte
	// faulty: the state faults (enc lacks the key's mark of it).
	faulty bool
}

// expansion is the plan of one state's expansion. The states of a batch
// are planned at once, each by one of the planners, while the search only
// reads the visited set; then the plans are carried out in the order of
// the states (commit), as the sequential search would expand them.
type expansion struct {
	st  model.State
	off int // under symmetry, the offset of st's packed state in the queue
	// redo: the plan depends on an expansion before it in the batch (the
	// cycle proviso asked whether a state of the batch was expanded by
	// all its steps), so commit expands the state itself.
	redo   bool
	full   bool // the state is expanded by all its steps
	blocks bool // the bound disables a write of an expanded process
	succs  []planned
	// dec holds st's arrays, reused by the next batch's state in this
	// place: nothing keeps a state past its expansion (the plans keep
	// keys, and the chains cached by accelerate their own registers).
	dec model.Decoded
}

// insert records the new state planned by a, reached from parent, and
// reports whether it is bad.
func (s *search) insert(a *planned, parent int32) bool {
	id := int32(len(s.nodes))
	if _, err := s.visited.insertHash(a.key, a.hash); err != nil {
		s.full = err
		return false
	}
	n := node{parent: parent, proc: int32(a.step.Proc), trans: int32(a.step.Trans)}
	if a.step.Flush {
		n.trans = flushTrans(a.step.Var)
	}
	if len(a.chain) > 0 {
		n.chain = int32(len(s.chains)) + 1
		s.chains = append(s.chains, int32(len(a.chain)))
		s.chains = append(s.chains, a.chain...)
	}
	s.nodes = append(s.nodes, n)
	s.meter.States(1)
	if s.sym != nil {
		// Without symmetry the visited key is this encoding already.
		s.queue = append(s.queue, a.enc...)
		if a.faulty {
			if s.faulty == nil {
				s.faulty = map[int32]bool{}
			}
			s.faulty[id] = true
		}
	}
	if a.bad {
		s.badNode = id
		return true
	}
	return false
}

// addRoot records the initial state st unless it was visited; initial
// states are kept as they are (no dead register reset), for the trace.
func (s *search) addRoot(st model.State, root int32) {
	w := s.seq
	w.succKeys = w.appendKey(w.succKeys[:0], st)
	a := planned{step: model.Step{}, key: w.succKeys, hash: s.visited.hash(w.succKeys), bad: s.bad.isBad(st)}
	if s.visited.findHash(a.key, a.hash) >= 0 {
		return
	}
	if s.sym != nil {
		a.enc, a.faulty = withoutFault(st).AppendKey(nil), st.Fault != nil
	}
	s.insert(&a, root)
}

// flushTrans is a node's trans for the flush of a store to x (the
// variable matters under PSO), and flushVar its inverse.
func flushTrans(x int) int32 { return -int32(x) - 1 }

func flushVar(trans int32) int { return int(-trans - 1) }

// maxChain bounds the local steps accelerate takes in a row.
const maxChain = 64

// accelerate takes, from st, reached by a step of process i, the steps of
// i while i is at a location all of whose steps are local (no access to
// memory) and invisible (por.visible), exactly one of them is enabled, and
// st is not bad; it stops when i is back where it started or after
// maxChain steps. It returns the state reached and appends the
// transitions taken to chain.
//
// Such a step commutes with every step of the other processes, which can
// neither enable another step of i nor disable it (its guard reads only
// i's registers), and no bad state tells its source from its target: every
// path through st has a path at most as long through the state after it
// that reaches the same bad states. So the search may go on from there
// without storing st. Go's lowering makes many such steps (a loop index's
// increment and test, the case split of an index into an array), which
// otherwise each store a state in every context of the other processes.
// Each worker caches the chains by the local state of i they start from
// (see cacheable), which is all they depend on: a loop of a process
// starts the same chain in every context of the others.
func (w *worker) accelerate(st model.State, i int, chain []int32) (model.State, []int32) {
	s := w.s
	start := st.Locs[i]
	if st.Fault != nil || !w.red.procs[i].localOnly[start] || s.bad.isBad(st) {
		return st, chain
	}
	var key []byte
	if s.cache != nil && s.cache[i] {
		w.accKey = appendLocal(w.accKey[:0], st, i)
		if e, ok := w.accel[string(w.accKey)]; ok {
			w.accHits++
			return e.apply(st, i, chain, &w.arena)
		}
		key = w.accKey
	}
	first := len(chain)
	q := s.p.Procs[i]
	for len(chain) < maxChain {
		l := st.Locs[i]
		if len(chain) > first && (st.Fault != nil || !w.red.procs[i].localOnly[l] || s.bad.isBad(st)) {
			break
		}
		var next model.State
		taken, enabled := -1, 0
		for _, ti := range q.Out(l) {
			if _, ns, err := s.p.Exec(st, i, ti, false, s.m); err == nil {
				enabled++
				taken, next = ti, ns
			}
		}
		if enabled != 1 {
			break
		}
		st = next
		chain = append(chain, int32(taken))
		if st.Locs[i] == start {
			break
		}
	}
	if key != nil {
		w.remember(key, st, i, chain[first:])
	}
	return st, chain
}

// maxWorkers bounds the planners; batchSize is how many states a batch
// plans at once, and minParallel the least number for which planning is
// worth the goroutines.
const (
	maxWorkers  = 16
	batchSize   = 2048
	minParallel = 64
)

// run searches from the initial states; it returns nil when the search
// ended (badNode says how) and the reason when a budget stopped it.
//
// The search is breadth-first, in batches of the states to expand: the
// planners compute the successors of the batch's states at once, each
// choosing its state's ample set, while nothing is inserted; then the
// plans are carried out in the order of the states. The states visited,
// their ids and the trace found are those of the sequential search.
//
// A run that a budget stopped goes on where it stopped when called again
// (with a larger maxStates): the plans of the batch it did not carry out
// are made again, as the sequential search would make them.
func (s *search) run(ctx context.Context) (string, error) {
	if !s.started {
		s.started = true
		err := s.p.Initial(func(st model.State) {
			if s.badNode >= 0 {
				return
			}
			s.roots = append(s.roots, st)
			s.addRoot(st, -int32(len(s.roots)))
		})
		if err != nil {
			return "", fmt.Errorf("explicit engine: %w", err)
		}
	}
	for s.head < len(s.nodes) && s.badNode < 0 {
		if err := ctx.Err(); err != nil {
			return fmt.Sprintf("%s after %d states", engines.StopReason(ctx), len(s.nodes)), nil
		}
		if s.off > len(s.queue)/2 && s.off > 1<<16 {
			n := copy(s.queue, s.queue[s.off:])
			s.queue, s.off = s.queue[:n], 0
		}
		head, off := s.head, s.off
		end := min(len(s.nodes), head+s.batch)
		if cap(s.plans) < end-head {
			// Grown to the batch size as the frontier grows: most
			// searches of a fence inference have a few states.
			s.plans = make([]expansion, min(s.batch, max(end-head, 2*cap(s.plans))))
		}
		plans := s.plans[:end-head]
		if s.sym != nil {
			// The queue holds the states back to back: decoding finds
			// where the next one starts.
			for k := range plans {
				plans[k].off = off
				plans[k].st, off = s.unpack(head+k, off, &plans[k].dec)
			}
		}
		s.plan(head, plans)
		for k := range plans {
			// Where a run stopped here, the next one starts.
			s.head, s.off = head+k, plans[k].off
			if s.meter.Out() {
				return s.meter.Reason(), nil
			}
			if s.full != nil {
				return fmt.Sprintf("%v after %d states", s.full, len(s.nodes)), nil
			}
			if int64(len(s.nodes)) >= s.maxStates {
				return fmt.Sprintf("state budget of %d states exhausted", s.maxStates), nil
			}
			id := int32(head + k)
			e := &plans[k]
			if e.redo {
				s.redos++
				w := s.seq
				w.succKeys, w.encs = w.succKeys[:0], w.encs[:0]
				w.plan(id, int(id)+1, e.st, e)
			}
			s.commit(id, e)
			plans[k] = expansion{succs: e.succs[:0], dec: e.dec}
			if s.badNode >= 0 {
				break
			}
		}
		s.head, s.off = end, off
	}
	if s.full != nil {
		// A state the set could not take was dropped: not a verdict.
		return fmt.Sprintf("%v after %d states", s.full, len(s.nodes)), nil
	}
	return "", nil
}

// plan plans the expansions of the states from head on, by the planners
// at once when the batch is large enough.
func (s *search) plan(head int, plans []expansion) {
	n := len(s.planners)
	if len(plans) < s.minParallel {
		n = 1
	}
	var wg sync.WaitGroup
	// A planner's panic goes on in the search's goroutine, where the
	// caller may recover it, rather than ending the process.
	panics := make([]any, n)
	per := (len(plans) + n - 1) / n
	for k := 0; k < n; k++ {
		lo, hi := k*per, min(len(plans), (k+1)*per)
		if lo >= hi {
			break
		}
		w := s.planners[k]
		work := func() {
			defer func() { panics[k] = recover() }()
			w.succKeys, w.encs = w.succKeys[:0], w.encs[:0]
			for j := lo; j < hi; j++ {
				e := &plans[j]
				if s.sym == nil {
					e.st, _ = s.unpack(head+j, 0, &e.dec)
				}
				w.plan(int32(head+j), head, e.st, e)
			}
		}
		if k == n-1 {
			work()
		} else {
			wg.Go(work)
		}
	}
	wg.Wait()
	for _, x := range panics {
		if x != nil {
			panic(x)
		}
	}
}

// commit carries out the plan e of node id's expansion.
func (s *search) commit(id int32, e *expansion) {
	if e.full {
		s.nodes[id].full = true
	}
	if e.blocks {
		s.blocked = true
	}
	for k := range e.succs {
		a := &e.succs[k]
		if a.old >= 0 || s.visited.findHash(a.key, a.hash) >= 0 {
			continue
		}
		if s.insert(a, id) || s.full != nil {
			return
		}
	}
}

// plan plans the expansion of st, node id, into e, while the states
// before batchStart are expanded and the others are not (the cycle
// proviso asks whether a state was expanded by all its steps: one from
// batchStart to id makes the plan a redo). It only reads the search.
func (w *worker) plan(id int32, batchStart int, st model.State, e *expansion) {
	s := w.s
	e.st, e.redo, e.full, e.blocks, e.succs = st, false, false, false, e.succs[:0]
	w.arena.Reset()
	if s.red == nil {
		e.full, e.blocks = true, s.blocks(st, ^uint64(0))
		for i := range s.p.Procs {
			s.p.ProcSuccessorsIn(st, i, s.m, s.bound, &w.arena, func(step model.Step, ns model.State) {
				ns = w.canon(ns)
				e.succs = append(e.succs, w.planned(succ{step: step, state: ns, key: w.keyOf(ns)}))
			})
		}
		return
	}
	w.startExpansion(st)
	switch w.reduced(id, batchStart, st, e) {
	case done:
		return
	case redo:
		e.redo, e.succs = true, e.succs[:0]
		return
	}
	e.full, e.blocks = true, s.blocks(st, ^uint64(0))
	for i := range s.p.Procs {
		for _, a := range w.procSuccs(st, i) {
			if !a.useless {
				e.succs = append(e.succs, w.planned(a))
			}
		}
	}
}

// keyOf appends the key of st to the batch's keys and returns it.
func (w *worker) keyOf(st model.State) []byte {
	start := len(w.succKeys)
	w.succKeys = w.appendKey(w.succKeys, st)
	// A new array for the keys keeps the earlier ones where they are.
	return w.succKeys[start:len(w.succKeys):len(w.succKeys)]
}

// planned returns the plan of the successor a.
func (w *worker) planned(a succ) planned {
	s := w.s
	w.lookup(&a)
	pl := planned{step: a.step, key: a.key, hash: a.hash, old: a.old, chain: a.chain}
	if pl.old < 0 {
		pl.bad = s.bad.isBad(a.state)
		if s.sym != nil {
			pl.enc, pl.faulty = w.packed(a.state)
		}
	}
	return pl
}

// packed returns st's encoding for the queue, its key without the fault
// mark, and whether it faults.
func (w *worker) packed(st model.State) ([]byte, bool) {
	start := len(w.encs)
	w.encs = withoutFault(st).AppendKey(w.encs)
	return w.encs[start:len(w.encs):len(w.encs)], st.Fault != nil
}

// withoutFault returns st without its fault, for its encoding.
func withoutFault(st model.State) model.State {
	st.Fault = nil
	return st
}

// startExpansion makes st the state being expanded: its key, and no
// successors computed yet.
func (w *worker) startExpansion(st model.State) {
	w.stKey = w.appendKey(w.stKey[:0], st)
	clear(w.haveSucc)
}

// procSuccs returns the successors of st, the state being expanded, by
// the steps of process i, computing them once per expansion.
func (w *worker) procSuccs(st model.State, i int) []succ {
	if w.haveSucc[i] {
		return w.succs[i]
	}
	s := w.s
	w.haveSucc[i] = true
	out := w.succs[i][:0]
	s.p.ProcSuccessorsIn(st, i, s.m, s.bound, &w.arena, func(step model.Step, ns model.State) {
		ns, w.chain = w.accelerate(ns, step.Proc, w.chain[:0])
		ns = w.canon(ns)
		key := w.keyOf(ns)
		a := succ{step: step, state: ns, key: key, useless: w.useless(step, ns, key)}
		if len(w.chain) > 0 {
			a.chain = slices.Clone(w.chain)
		}
		out = append(out, a)
	})
	w.succs[i] = out
	return out
}

// blocks reports whether the bound disables a write of a process of set
// in st.
func (s *search) blocks(st model.State, set uint64) bool {
	if s.hasW == nil || s.blocked {
		return false
	}
	for i, l := range st.Locs {
		if (i >= 64 || set&(1<<i) != 0) && model.BufferLoad(st.Bufs[i], s.m) >= s.bound && s.hasW[i][l] {
			return true
		}
	}
	return false
}

// The outcomes of reduced.
const (
	none = iota // no ample set: expand by all steps
	done        // planned through an ample set
	redo        // the cycle proviso asked about a state of the batch
)

// reduced plans the expansion of st, node id, through the steps of a set
// of processes that forms an ample set (see por), if one does. Of the
// conditions, prepare ensures C1; C2 and C3 are checked on the steps.
func (w *worker) reduced(id int32, batchStart int, st model.State, e *expansion) int {
	s := w.s
	if st.Fault != nil {
		return none
	}
	var stuck uint64
	for i := range s.p.Procs {
		if w.stuck(st, i) {
			stuck |= 1 << i
		}
	}
	for _, set := range w.red.prepare(s.p, st, stuck) {
		if w.red.flushVisible(st, set) && !s.noC2 {
			continue
		}
		w.ample = w.ample[:0]
		ok, depends := true, false
		take := func(i int, a *succ) {
			if !ok || a.useless {
				return
			}
			if !a.step.Flush && w.red.procs[i].visible[a.step.Trans] && !s.noC2 {
				ok = false // C2
				return
			}
			// C3: a successor expanded before, unless by all its steps,
			// may close a cycle of reduced expansions.
			// Whether a state of the batch before id was, is known
			// only once its plan is carried out.
			w.lookup(a)
			if old := int(a.old); old >= 0 && old <= int(id) && !s.noC3 {
				if old >= batchStart && old < int(id) {
					depends, ok = true, false
					return
				}
				if !s.nodes[old].full {
					ok = false
					return
				}
			}
			w.ample = append(w.ample, *a)
		}
		for i := range s.p.Procs {
			switch {
			case !ok:
			case set&(1<<i) != 0:
				as := w.procSuccs(st, i)
				for j := range as {
					take(i, &as[j])
				}
			case set&(1<<(32+i)) != 0 && len(st.Bufs[i]) > 0:
				// The flush of i's oldest store alone (the first of i's
				// steps): i's own steps commute with it.
				if as := w.procSuccs(st, i); len(as) > 0 && as[0].step.Flush {
					take(i, &as[0])
				}
			}
		}
		if depends {
			return redo
		}
		if !ok || len(w.ample) == 0 {
			continue
		}
		e.blocks = s.blocks(st, set&(1<<32-1))
		for _, a := range w.ample {
			e.succs = append(e.succs, w.planned(a))
		}
		return done
	}
	return none
}

// unpack decodes the state of node id, packed by State.AppendKey (a
// queued state has no fault, which would have ended the search): its
// visited key, or, under symmetry reduction, whose keys are canonical,
// the one at s.queue[off:]. It returns the state, in d's arrays, and the
// offset of the next one in the queue.
func (s *search) unpack(id, off int, d *model.Decoded) (model.State, int) {
	if s.sym == nil {
		key := s.visited.key(id)
		st, n := s.p.DecodeKeyInto(key, d)
		if n < len(key) {
			// The key's fault mark: a faulting state has no successors.
			st.Fault = decodedFault
		}
		return st, off
	}
	st, n := s.p.DecodeKeyInto(s.queue[off:], d)
	if s.faulty[int32(id)] {
		st.Fault = decodedFault
	}
	return st, off + n
}

// decodedFault marks a state decoded from a key that says it faults: the
// search does not expand it (what went wrong was reported when it was
// reached).
var decodedFault = &model.Fault{Proc: -1, Trans: -1, Var: -1, Reg: -1, Msg: "a fault"}

// trace rebuilds the path to node id: the steps recorded, replayed from the
// initial state for their values.
func (s *search) trace(id int32) (*model.Trace, error) {
	var path []node
	for s.nodes[id].parent >= 0 {
		path = append(path, s.nodes[id])
		id = s.nodes[id].parent
	}
	root := s.roots[-s.nodes[id].parent-1]
	t := &model.Trace{Model: s.m, InitMem: root.Mem, InitRegs: root.Regs}
	exec := func(st model.State, proc, trans int, flush bool) (model.State, error) {
		want := model.Step{Proc: proc, Trans: trans, Var: -1}
		if flush {
			want = model.Step{Proc: proc, Trans: -1, Flush: true, Var: flushVar(int32(trans))}
		}
		step, ns, err := s.p.ExecStep(st, want, s.m)
		if err != nil {
			return ns, fmt.Errorf("explicit engine: rebuilding step %d of a counterexample: %w", len(t.Steps)+1, err)
		}
		t.Steps = append(t.Steps, step)
		return ns, nil
	}
	st := root
	for k := len(path) - 1; k >= 0; k-- {
		n := path[k]
		var err error
		if st, err = exec(st, int(n.proc), int(n.trans), n.trans < 0); err != nil {
			return nil, err
		}
		if n.chain == 0 {
			continue
		}
		off := n.chain - 1
		for _, ti := range s.chains[off+1 : off+1+s.chains[off]] {
			if st, err = exec(st, int(n.proc), int(ti), false); err != nil {
				return nil, err
			}
		}
	}
	return t, nil
}

// useless reports whether the successor ns of the state being expanded
// (whose key is s.stKey), reached by step and whose key is key, adds
// nothing to the search: it is that state again (a step that changes
// nothing, such as a failed compare-and-swap in a spin loop), or the
// step's process can then only take local, invisible steps, each of which
// leads back to that state (a spin loop's read of a value that sends it
// round again, the register read being dead there). Every path through
// such a successor has a path at most as long from the state itself that
// ends in a state no bad state tells apart, so the search, which expands
// that state, may drop it.
func (w *worker) useless(step model.Step, ns model.State, key []byte) bool {
	if ns.Fault != nil {
		return false
	}
	if string(key) == string(w.stKey) {
		return true
	}
	s := w.s
	i := step.Proc
	if step.Flush || w.red.procs[i].visible[step.Trans] || !w.red.procs[i].localOnly[ns.Locs[i]] {
		return false
	}
	back, other := 0, false
	s.p.ProcSuccessorsIn(ns, i, s.m, s.bound, &w.arena, func(_ model.Step, n2 model.State) {
		if other {
			return
		}
		n2 = w.canon(n2)
		w.key2 = w.appendKey(w.key2[:0], n2)
		if n2.Fault != nil || string(w.key2) != string(w.stKey) {
			other = true
			return
		}
		back++
	})
	return !other && back > 0
}

// stuck reports whether process i can only spin in st (see por.prepare): its
// buffer is empty, the transitions leaving its location are plain reads
// and local steps, and every step it can take is useless.
func (w *worker) stuck(st model.State, i int) bool {
	if len(st.Bufs[i]) > 0 || !w.red.procs[i].readsOnly[st.Locs[i]] {
		return false
	}
	for _, a := range w.procSuccs(st, i) {
		if !a.useless {
			return false
		}
	}
	return true
}
