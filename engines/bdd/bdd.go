// Package bdd is fencecheck's symbolic engine: reachability over sets of
// states held as binary decision diagrams (McMillan's symbolic model
// checking), for finite programs under sequential consistency, and under
// x86-TSO for programs whose reads never find a store of their own process
// pending (a fence or locked operation between every write and the next
// read: [facts.LoadsDrained]), where TSO has SC's behaviours.
//
// Where the explicit engine stores every state, this engine stores the
// set of states reached as one diagram, whose size depends on the
// structure of the set rather than on its number of states: the fenced
// 4-process bakery of testdata/scale has 50 million states under SC and a
// final diagram of 524,000 nodes. The search chains the processes, each
// running to a fixpoint of its own steps in turn.
//
// The encoding gives each process's location, each register and each
// shared variable its bits, the variables that only one process writes
// next to that process. A transition's relation is built by enumerating
// the values it reads and executing it with [model.Program.Exec], so the
// engine computes exactly what the model's semantics does (64-bit
// arithmetic, faults when a value leaves its domain) without encoding
// arithmetic in bits; registers dead at a location are reset, as in the
// explicit search. When a bad state is reached, the search runs again
// recording the sets it adds (its layers) and rebuilds a counterexample
// from them: backwards from a bad state, a predecessor in the latest
// earlier layer that holds one, down to an initial state; the steps are found with
// the model's semantics and the trace is replayed before it is returned.
//
// The engine is a research tool, reachable only by `fencemodel
// -engine=bdd`: the plan of engines/registry never chooses it, and the
// analyzer does not offer it. On the systems of `fencemodel bench
// -engines` (docs/performance.md, "Which engine is fastest where") it is
// never among the fastest to a verdict: the explicit search, with its
// partial-order and symmetry reductions, decides every system it decides
// sooner, and the thread-modular engine proves the fenced bakeries it
// cannot. It stays as an independent symbolic check of the explicit
// engine (its differential test) and as the place to try symbolic
// encodings.
package bdd

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/lib/dd"
	"github.com/fencecheck/fencecheck/model"
)

// DefaultMaxNodes bounds the nodes of the diagrams held at once (50–100
// bytes each with the unique table and the cache, so about 1–1.5 GB),
// unless Engine.MaxNodes says otherwise; a memory limit of the context
// ends the search first when it is lower.
const DefaultMaxNodes = 1 << 24

// stepsPerUnit is the number of diagram operation steps charged to the
// work meter as one unit (one explicit state): about as much time.
const stepsPerUnit = 16

// Engine is the symbolic engine.
type Engine struct {
	// MaxNodes bounds the diagram nodes held at once (0: DefaultMaxNodes).
	MaxNodes int
}

// Name returns "bdd".
func (*Engine) Name() string { return "bdd" }

// Check decides whether a bad state of p is reachable under m.
func (e *Engine) Check(ctx context.Context, p *model.Program, m model.Model) (*engines.Result, error) {
	start := time.Now()
	p, ferr := engines.ForTSO("the bdd engine", p, m)
	if ferr != nil {
		return nil, ferr
	}
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("invalid program: %w", err)
	}
	p.Index()
	if err := engines.RequireDrained("the bdd engine", p, m); err != nil {
		return nil, err
	}
	mgr := dd.New()
	mgr.MaxNodes = e.MaxNodes
	if mgr.MaxNodes <= 0 {
		mgr.MaxNodes = DefaultMaxNodes
	}
	meter := engines.MeterOf(ctx)
	charged := int64(0)
	errWork := errors.New("work")
	var enc *encoding
	// charge charges the work meter with the work not charged yet: the
	// diagram steps, stepsPerUnit to a unit, and one unit per image.
	charge := func() error {
		if meter == nil {
			return nil
		}
		units := (mgr.Steps() + stepsPerUnit - 1) / stepsPerUnit
		if enc != nil {
			units += enc.images
		}
		units -= charged
		charged += units
		if !meter.States(units) {
			return errWork
		}
		return nil
	}
	mgr.Stop = func() error {
		if err := ctx.Err(); err != nil {
			return err
		}
		return charge()
	}
	res := &engines.Result{Model: m}
	stopped := func(err error) (*engines.Result, error) {
		res.Status = engines.Inconclusive
		switch {
		case errors.Is(err, dd.ErrNodes):
			res.Reason = fmt.Sprintf("node budget of %d decision-diagram nodes exhausted", mgr.MaxNodes)
		case err == errWork:
			res.Reason = meter.Reason()
		default:
			res.Reason = engines.StopReason(ctx)
		}
		res.Stats.Duration = time.Since(start)
		return res, nil
	}
	var err error
	enc, err = newEncoding(p, mgr)
	if err != nil {
		if mgr.Err() != nil {
			return stopped(mgr.Err())
		}
		return nil, err
	}
	s := &search{enc: enc, m: mgr}
	found, err := s.run()
	if s.reach != dd.False {
		// Count reads the diagram only: it works after a stop too.
		res.Stats.States = mgr.Count(s.reach, enc.nowLevels())
	}
	if err == nil {
		err = charge()
	}
	if err != nil {
		return stopped(err)
	}
	if found {
		// The same search again, recording its layers this time (the
		// search is deterministic: it stops at the same set).
		s = &search{enc: enc, m: mgr, record: true}
		if found, err = s.run(); err != nil {
			return stopped(err)
		}
		if !found {
			return nil, errors.New("internal error: a search that found a bad state does not find it again")
		}
		t, err := s.trace()
		if err != nil {
			if mgr.Err() != nil {
				return stopped(mgr.Err())
			}
			return nil, err
		}
		if m == model.TSO {
			if t, err = p.AsTSO(t); err != nil {
				return nil, fmt.Errorf("internal error: an SC trace of a program whose reads find their buffers empty is no TSO trace: %w", err)
			}
		}
		res.Status, res.Trace = engines.Unsafe, t
	} else {
		res.Status = engines.Safe
	}
	if err := charge(); err != nil {
		return stopped(err)
	}
	res.Stats.Duration = time.Since(start)
	if err := engines.Verify(p, res); err != nil {
		return nil, err
	}
	return res, nil
}

// search is one symbolic search.
type search struct {
	enc *encoding
	m   *dd.Manager
	// record keeps the layers: layers[k] is the k-th set of states the
	// search added, each state with a predecessor in an earlier layer.
	// Only a search that rebuilds a counterexample records them.
	record bool
	layers []Node
	last   Node // the last set added
	reach  Node
}

// run searches until a new set of states meets a bad state (true) or no
// new state is reached (false); an error is the manager's stop. It chains
// the processes' images, each process running to a fixpoint of its own
// steps from the states the search has added since its last turn, which
// reaches the deep states of asynchronous systems in far fewer rounds than
// breadth-first search.
func (s *search) run() (bool, error) {
	m, enc := s.m, s.enc
	s.reach, s.last = enc.init, enc.init
	if s.record {
		s.layers = []Node{enc.init}
	}
	if m.And(enc.init, enc.bad) != dd.False {
		return true, m.Err()
	}
	frontier := enc.init
	for frontier != dd.False {
		round := dd.False // the states this round adds
		for i := range enc.procs {
			from := m.Or(frontier, round)
			for from != dd.False {
				// One step of the fixpoint, computed into fresh diagrams
				// first: when it runs into the node limit, the nodes the
				// search holds are compacted and the step tried again.
				var next, reach, added Node
				bad := false
				for retried := false; ; retried = true {
					next = m.Diff(enc.image(from, i), s.reach)
					reach, added = m.Or(s.reach, next), m.Or(round, next)
					bad = m.And(next, enc.bad) != dd.False
					if retried || !m.ClearNodeLimit() {
						break
					}
					s.enc.collect(s.roots(&frontier, &round, &from)...)
				}
				if err := m.Err(); err != nil {
					return false, err
				}
				if next == dd.False {
					break
				}
				s.reach, round, s.last = reach, added, next
				if s.record {
					s.layers = append(s.layers, next)
				}
				if bad {
					return true, nil
				}
				from = next
				s.maybeCollect(&frontier, &round, &from)
			}
		}
		frontier = round
		if err := m.Err(); err != nil {
			return false, err
		}
	}
	return false, nil
}

// maybeCollect compacts the manager's nodes to those the search still
// holds (extra besides its own), when the encoding's threshold says so.
func (s *search) maybeCollect(extra ...*Node) {
	s.enc.maybeCollect(s.roots(extra...)...)
}

// roots returns the diagrams the search holds, and extra.
func (s *search) roots(extra ...*Node) []*Node {
	roots := append([]*Node{&s.reach, &s.last}, extra...)
	for k := range s.layers {
		roots = append(roots, &s.layers[k])
	}
	return roots
}

// trace rebuilds an execution to a bad state. Backwards from a bad state
// of the last layer, it picks a predecessor in the latest earlier layer
// that holds one (every state of a layer has one in an earlier layer),
// down to an initial state; then forwards, it finds each step with the model's
// semantics.
func (s *search) trace() (*model.Trace, error) {
	m, enc, p := s.m, s.enc, s.enc.p
	k := len(s.layers) - 1
	set, ok := m.SatOne(m.And(s.layers[k], enc.bad))
	if !ok {
		return nil, errors.New("internal error: the last layer holds no bad state")
	}
	chain := []model.State{enc.decode(set)}
	for k > 0 {
		pre := dd.False
		at := enc.state(chain[0])
		for i := range enc.procs {
			pre = m.Or(pre, enc.preimage(at, i))
		}
		// The latest earlier layer with a predecessor: usually the one
		// before, so that the rebuild takes time linear in the layers.
		j := k - 1
		for j >= 0 && m.And(pre, s.layers[j]) == dd.False {
			j--
		}
		if err := m.Err(); err != nil {
			return nil, err
		}
		if j < 0 {
			return nil, fmt.Errorf("internal error: a state of layer %d has no predecessor in an earlier layer", k)
		}
		set, _ := m.SatOne(m.And(pre, s.layers[j]))
		chain = append([]model.State{enc.decode(set)}, chain...)
		k = j
	}
	st := chain[0]
	// The dead registers of the initial state take their initial values.
	for i, q := range p.Procs {
		for _, r := range enc.dead[i][q.Init] {
			if in := q.Regs[r].Init; !in.Any {
				st.Regs[i][r] = in.Value
			}
		}
	}
	t := &model.Trace{Model: model.SC, InitMem: slices.Clone(st.Mem)}
	for _, regs := range st.Regs {
		t.InitRegs = append(t.InitRegs, slices.Clone(regs))
	}
	for _, want := range chain[1:] {
		var next model.State
		found := false
		p.Successors(st, model.SC, 0, func(step model.Step, ns model.State) {
			if !found && ns.Fault == nil && sameState(enc.canon(ns), want) {
				t.Steps = append(t.Steps, step)
				next, found = ns, true
			}
		})
		if !found {
			return nil, errors.New("internal error: no step of the semantics leads to the next state of a counterexample")
		}
		st = next
	}
	if p.MatchBad(st) < 0 {
		// A step from here faults.
		found := false
		p.Successors(st, model.SC, 0, func(step model.Step, ns model.State) {
			if !found && ns.Fault != nil {
				t.Steps = append(t.Steps, step)
				found = true
			}
		})
		if !found {
			return nil, errors.New("internal error: the last state of a counterexample is neither bad nor faulting")
		}
	}
	return t, nil
}

// sameState reports whether two states of SC agree on locations,
// registers and memory.
func sameState(a, b model.State) bool {
	if !slices.Equal(a.Locs, b.Locs) || !slices.Equal(a.Mem, b.Mem) {
		return false
	}
	for i := range a.Regs {
		if !slices.Equal(a.Regs[i], b.Regs[i]) {
			return false
		}
	}
	return true
}
