package explicit

import (
	"context"
	"fmt"
	"slices"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/model"
)

// node is a visited state: how the search reached it (its parent and the
// step taken, whose values are recomputed when a trace is built) and
// whether it was expanded by all its steps.
type node struct {
	parent int32 // -(root+1) for an initial state
	proc   int32
	trans  int32 // -1 for a flush
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
	red       *por
	sym       *symmetry
	bad       *badIndex

	visited *stateSet
	full    error // the visited set could not take another state
	nodes   []node
	roots   []model.State // initial states, by -(parent+1)
	queue   []byte        // packed states of the nodes from head on
	key     []byte
	badNode int32
	// blocked is set when the bound disabled a write in an expanded state
	// (so that the search may have missed states of the unbounded program).
	blocked bool
	ample   []succ
	chains  []int32  // the chains of the nodes (node.chain)
	chain   []int32  // scratch: the chain of the successor being added
	hasW    [][]bool // by process and location: a write leaves it
	stKey   []byte   // the key of the state being expanded
	key2    []byte   // scratch of useless
	// The successors of the state being expanded, by process, computed
	// once (procSuccs) for stuck, the ample sets and the full expansion.
	succs    [][]succ
	haveSucc []bool
	succKeys []byte // the keys of succs
	// For the tests that show what the provisos are for: a reduction
	// without the visibility proviso (C2) or the cycle proviso (C3).
	noC2, noC3 bool
}

// succ is a successor of the state being expanded, after its local steps
// (accelerate) and with its dead registers reset (canon).
type succ struct {
	step    model.Step
	state   model.State
	key     []byte  // in s.succKeys
	chain   []int32 // the local steps taken after step (accelerate)
	useless bool    // see useless
}

func newSearch(p *model.Program, m model.Model, bound int, e *Engine, maxStates int64, meter *engines.Meter) *search {
	s := &search{
		p: p, m: m, bound: bound, keepDead: e.KeepDead, maxStates: maxStates, meter: meter,
		dead: Dead(p), visited: newStateSet(), badNode: -1, bad: newBadIndex(p),
	}
	if !e.NoPOR && len(p.Procs) > 1 && len(p.Procs) <= 32 {
		s.red = newPOR(p, m)
	}
	if !e.NoSymmetry {
		s.sym = newSymmetry(p)
	}
	if m == model.TSO && bound > 0 {
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

func (s *search) appendKey(b []byte, st model.State) []byte {
	if s.sym != nil {
		return s.sym.appendKey(b, st)
	}
	return st.AppendKey(b)
}

// canon resets the dead registers of a state reached by a step.
func (s *search) canon(st model.State) model.State {
	if s.keepDead {
		return st
	}
	return CanonicalRegs(st, s.dead)
}

// insert records the new state st, whose key is k, and reports whether it
// is bad.
func (s *search) insert(st model.State, k []byte, parent int32, step model.Step, chain []int32) bool {
	id := int32(len(s.nodes))
	if _, err := s.visited.insert(k); err != nil {
		s.full = err
		return false
	}
	n := node{parent: parent, proc: int32(step.Proc), trans: int32(step.Trans)}
	if step.Flush {
		n.trans = -1
	}
	if len(chain) > 0 {
		n.chain = int32(len(s.chains)) + 1
		s.chains = append(s.chains, int32(len(chain)))
		s.chains = append(s.chains, chain...)
	}
	s.nodes = append(s.nodes, n)
	s.meter.States(1)
	if s.sym != nil {
		// Without symmetry the visited key is this encoding already.
		s.queue = st.AppendKey(s.queue)
	}
	if s.bad.isBad(st) {
		s.badNode = id
		return true
	}
	return false
}

// add records st, reached from parent by step, unless it was visited.
func (s *search) add(st model.State, parent int32, step model.Step) bool {
	if parent >= 0 {
		st = s.canon(st) // initial states are kept as they are, for the trace
	}
	s.key = s.appendKey(s.key[:0], st)
	if s.visited.find(s.key) >= 0 {
		return false
	}
	return s.insert(st, s.key, parent, step, nil)
}

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
func (s *search) accelerate(st model.State, i int, chain []int32) (model.State, []int32) {
	start := st.Locs[i]
	q := s.p.Procs[i]
	for len(chain) < maxChain {
		l := st.Locs[i]
		if st.Fault != nil || !s.red.procs[i].localOnly[l] || s.bad.isBad(st) {
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
	return st, chain
}

// run searches from the initial states; it returns nil when the search
// ended (badNode says how) and the reason when a budget stopped it.
func (s *search) run(ctx context.Context) (string, error) {
	err := s.p.Initial(func(st model.State) {
		if s.badNode >= 0 {
			return
		}
		s.roots = append(s.roots, st)
		s.add(st, -int32(len(s.roots)), model.Step{})
	})
	if err != nil {
		return "", fmt.Errorf("explicit engine: %w", err)
	}
	head, off := 0, 0 // the next node to expand and its packed state
	for ; head < len(s.nodes) && s.badNode < 0; head++ {
		if head&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return fmt.Sprintf("%s after %d states", StopReason(ctx), len(s.nodes)), nil
			}
			if off > len(s.queue)/2 && off > 1<<16 {
				n := copy(s.queue, s.queue[off:])
				s.queue, off = s.queue[:n], 0
			}
		}
		if s.meter.Out() {
			return s.meter.Reason(), nil
		}
		if s.full != nil {
			return fmt.Sprintf("%v after %d states", s.full, len(s.nodes)), nil
		}
		if int64(len(s.nodes)) >= s.maxStates {
			return fmt.Sprintf("state budget of %d states exhausted", s.maxStates), nil
		}
		var st model.State
		st, off = s.unpack(head, off)
		id := int32(head)
		if s.red != nil {
			s.startExpansion(st)
			if s.reduced(id, st) {
				continue
			}
		}
		s.nodes[id].full = true
		s.checkBlocked(st, ^uint64(0))
		if s.red == nil {
			s.p.Successors(st, s.m, s.bound, func(step model.Step, ns model.State) {
				if s.badNode < 0 {
					s.add(ns, id, step)
				}
			})
			continue
		}
		for i := range s.p.Procs {
			for _, a := range s.procSuccs(st, i) {
				if s.badNode >= 0 {
					break
				}
				if !a.useless && s.visited.find(a.key) < 0 {
					s.insert(a.state, a.key, id, a.step, a.chain)
				}
			}
		}
	}
	return "", nil
}

// startExpansion makes st the state being expanded: its key, and no
// successors computed yet.
func (s *search) startExpansion(st model.State) {
	s.stKey = s.appendKey(s.stKey[:0], st)
	if s.succs == nil {
		s.succs = make([][]succ, len(s.p.Procs))
		s.haveSucc = make([]bool, len(s.p.Procs))
	}
	clear(s.haveSucc)
	s.succKeys = s.succKeys[:0]
}

// procSuccs returns the successors of st, the state being expanded, by
// the steps of process i, computing them once per expansion.
func (s *search) procSuccs(st model.State, i int) []succ {
	if s.haveSucc[i] {
		return s.succs[i]
	}
	s.haveSucc[i] = true
	out := s.succs[i][:0]
	s.p.ProcSuccessors(st, i, s.m, s.bound, func(step model.Step, ns model.State) {
		ns, s.chain = s.accelerate(ns, step.Proc, s.chain[:0])
		ns = s.canon(ns)
		start := len(s.succKeys)
		s.succKeys = s.appendKey(s.succKeys, ns)
		// A new array for the keys keeps the earlier ones where they are.
		key := s.succKeys[start:len(s.succKeys):len(s.succKeys)]
		a := succ{step: step, state: ns, key: key, useless: s.useless(step, ns, key)}
		if len(s.chain) > 0 {
			a.chain = slices.Clone(s.chain)
		}
		out = append(out, a)
	})
	s.succs[i] = out
	return out
}

// checkBlocked notes whether the bound disables a write of a process of set
// in st.
func (s *search) checkBlocked(st model.State, set uint64) {
	if s.hasW == nil || s.blocked {
		return
	}
	for i, l := range st.Locs {
		if (i >= 64 || set&(1<<i) != 0) && len(st.Bufs[i]) >= s.bound && s.hasW[i][l] {
			s.blocked = true
			return
		}
	}
}

// reduced expands st, node id, through the steps of a set of processes that
// forms an ample set (see por), and reports whether it did. Of the
// conditions, prepare ensures C1; C2 and C3 are checked on the steps.
func (s *search) reduced(id int32, st model.State) bool {
	if st.Fault != nil {
		return false
	}
	var stuck uint64
	for i := range s.p.Procs {
		if s.stuck(st, i) {
			stuck |= 1 << i
		}
	}
	for _, set := range s.red.prepare(s.p, st, stuck) {
		if s.red.flushVisible(st, set) && !s.noC2 {
			continue
		}
		s.ample = s.ample[:0]
		ok := true
		take := func(i int, a succ) {
			if !ok || a.useless {
				return
			}
			if !a.step.Flush && s.red.procs[i].visible[a.step.Trans] && !s.noC2 {
				ok = false // C2
				return
			}
			// C3: a successor expanded before, unless by all its steps,
			// may close a cycle of reduced expansions.
			if old := s.visited.find(a.key); old >= 0 && old <= int(id) && !s.nodes[old].full && !s.noC3 {
				ok = false
				return
			}
			s.ample = append(s.ample, a)
		}
		for i := range s.p.Procs {
			switch {
			case !ok:
			case set&(1<<i) != 0:
				for _, a := range s.procSuccs(st, i) {
					take(i, a)
				}
			case set&(1<<(32+i)) != 0 && len(st.Bufs[i]) > 0:
				// The flush of i's oldest store alone (the first of i's
				// steps): i's own steps commute with it.
				if as := s.procSuccs(st, i); len(as) > 0 && as[0].step.Flush {
					take(i, as[0])
				}
			}
		}
		if !ok || len(s.ample) == 0 {
			continue
		}
		s.checkBlocked(st, set&(1<<32-1))
		for _, a := range s.ample {
			if s.visited.find(a.key) >= 0 {
				continue
			}
			if s.insert(a.state, a.key, id, a.step, a.chain) {
				break
			}
		}
		return true
	}
	return false
}

// unpack decodes the state of node id, packed by State.AppendKey (a
// queued state has no fault, which would have ended the search): its
// visited key, or, under symmetry reduction, whose keys are canonical,
// the one at s.queue[off:]. It returns the state and the offset of the
// next one in the queue.
func (s *search) unpack(id, off int) (model.State, int) {
	if s.sym == nil {
		st, _ := s.p.DecodeKey(s.visited.key(id))
		return st, off
	}
	st, n := s.p.DecodeKey(s.queue[off:])
	return st, off + n
}

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
		step, ns, err := s.p.Exec(st, proc, trans, flush, s.m)
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
func (s *search) useless(step model.Step, ns model.State, key []byte) bool {
	if ns.Fault != nil {
		return false
	}
	if string(key) == string(s.stKey) {
		return true
	}
	i := step.Proc
	if step.Flush || s.red.procs[i].visible[step.Trans] || !s.red.procs[i].localOnly[ns.Locs[i]] {
		return false
	}
	back, other := 0, false
	s.p.ProcSuccessors(ns, i, s.m, s.bound, func(_ model.Step, n2 model.State) {
		if other {
			return
		}
		n2 = s.canon(n2)
		s.key2 = s.appendKey(s.key2[:0], n2)
		if n2.Fault != nil || string(s.key2) != string(s.stKey) {
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
func (s *search) stuck(st model.State, i int) bool {
	if len(st.Bufs[i]) > 0 || !s.red.procs[i].readsOnly[st.Locs[i]] {
		return false
	}
	for _, a := range s.procSuccs(st, i) {
		if !a.useless {
			return false
		}
	}
	return true
}
