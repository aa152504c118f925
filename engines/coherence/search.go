package coherence

import (
	"context"
	"fmt"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/lib/explore"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/facts"
)

// node is a visited abstract state: how the search first reached it.
type node struct {
	parent int32 // -(root+1) for an initial state
	ev     event
}

// search is one breadth-first search of the abstract states of a program
// under one abstraction. Under PD the key of a state leaves its sets out
// (only whether each is empty); the sets of the states with one key are
// joined in sets[id], and a state whose sets grew is expanded again.
type search struct {
	p      *model.Program
	abs    Abstraction
	perVar bool // PSO: a buffer per process and variable
	nch    int  // the number of buffers (0 under SC)
	joined bool // PD
	dead   [][][]int
	meter  *engines.Meter

	pairs   map[pairKey]int32
	pairVar []int
	pairVal []int64

	noBufs, someBufs [][]model.BufEntry

	visited   *explore.KeySet
	nodes     []node
	roots     []model.State
	sets      [][]int32 // PD: the joined sets of each state
	queued    []bool    // PD: the state waits in the queue
	queue     []int32
	maxStates int64

	// exhaust searches every abstract state, past bad states and faults
	// (for the tests that compare the states with concrete ones).
	exhaust bool

	bad      int32 // the bad state found, or -1
	badFault bool  // the bad state is a fault (not in visited)
	badEv    event // the step into a fault
	badFrom  int32 // the state it was taken from
	expanded int64 // expansions, counting those of states whose sets grew
}

func newSearch(p *model.Program, m model.Model, abs Abstraction, maxStates int64, meter *engines.Meter) *search {
	s := &search{
		p: p, abs: abs, dead: facts.Dead(p), meter: meter, maxStates: maxStates,
		pairs: make(map[pairKey]int32), visited: explore.NewKeySet(), bad: -1, badFrom: -1,
	}
	np := len(p.Procs)
	switch {
	case m == model.SC:
	case isPSO(m):
		s.perVar, s.nch = true, 2*np*len(p.Vars)
	default:
		s.nch = np
	}
	s.joined = abs.Kind == PD && s.nch > 0
	s.noBufs = make([][]model.BufEntry, np)
	s.someBufs = make([][]model.BufEntry, np)
	for i := range s.someBufs {
		s.someBufs[i] = []model.BufEntry{{}}
	}
	return s
}

// canon resets the registers that are dead at their process's location.
func (s *search) canon(st *astate) {
	cs := facts.CanonicalRegs(model.State{Locs: st.locs, Regs: st.regs}, s.dead)
	st.regs = cs.Regs
}

// add records a state reached by ev from parent; it returns whether the
// search must stop (a bad state, a budget).
func (s *search) add(key []byte, st *astate, parent int32, ev event) (bool, error) {
	id, added, err := s.visited.Add(key)
	if err != nil {
		return true, err
	}
	if !added {
		if s.joined {
			js, grew := joinSets(s.sets[id], encodeSets(st))
			if grew {
				s.sets[id] = js
				if !s.queued[id] {
					s.queued[id] = true
					s.queue = append(s.queue, int32(id))
				}
			}
		}
		return false, nil
	}
	s.nodes = append(s.nodes, node{parent: parent, ev: ev})
	if s.joined {
		s.sets = append(s.sets, encodeSets(st))
		s.queued = append(s.queued, true)
	}
	s.meter.States(1)
	if !s.exhaust && s.isBad(st) {
		s.bad = int32(id)
		return true, nil
	}
	s.queue = append(s.queue, int32(id))
	return false, nil
}

// run searches until a bad state, the end of the state space or a budget:
// it returns the budget's reason, or "".
func (s *search) run(ctx context.Context) (string, error) {
	var key []byte
	var rootErr error
	stop := false
	err := s.p.Initial(func(init model.State) {
		if stop || rootErr != nil {
			return
		}
		if init.Fault == nil {
			st := astate{locs: init.Locs, regs: init.Regs, mem: init.Mem, ch: make([]*channel, s.nch)}
			if s.perVar {
				st.sealed = make([]bool, len(s.p.Procs))
			}
			s.roots = append(s.roots, init)
			s.canon(&st)
			key = s.encode(key[:0], &st)
			stop, rootErr = s.add(key, &st, -int32(len(s.roots)), event{-1, -1, -1})
		}
	})
	if err != nil {
		return "", err
	}
	if rootErr != nil {
		return "", rootErr
	}
	for head := 0; !stop && head < len(s.queue); head++ {
		id := s.queue[head]
		if head&1023 == 0 {
			if ctx.Err() != nil {
				return engines.StopReason(ctx), nil
			}
			if s.meter.Out() {
				return s.meter.Reason(), nil
			}
		}
		if int64(len(s.nodes)) > s.maxStates {
			return fmt.Sprintf("state budget of %d abstract states exhausted", s.maxStates), nil
		}
		var sets []int32
		if s.joined {
			s.queued[id] = false
			sets = s.sets[id]
		}
		st := s.decode(s.visited.Key(int(id)), sets)
		s.expanded++
		var addErr error
		s.successors(&st, func(ev event, ns *astate, fault *model.Fault) {
			if stop || addErr != nil {
				return
			}
			if fault != nil {
				if s.exhaust {
					return
				}
				s.badFault, s.badEv, s.badFrom, stop = true, ev, id, true
				return
			}
			s.canon(ns)
			key = s.encode(key[:0], ns)
			stop, addErr = s.add(key, ns, id, ev)
		})
		if addErr != nil {
			return "", fmt.Errorf("coherence: %w", addErr)
		}
	}
	return "", nil
}

// found reports whether a bad state was reached.
func (s *search) found() bool { return s.bad >= 0 || s.badFault }

// path returns the initial state and the events of the path to the bad
// state found.
func (s *search) path() (model.State, []event) {
	var evs []event
	id := s.bad
	if s.badFault {
		evs = append(evs, s.badEv)
		id = s.badFrom
	}
	for {
		n := s.nodes[id]
		if n.parent < 0 {
			for l, r := 0, len(evs)-1; l < r; l, r = l+1, r-1 {
				evs[l], evs[r] = evs[r], evs[l]
			}
			return s.roots[-n.parent-1], evs
		}
		evs = append(evs, n.ev)
		id = n.parent
	}
}
