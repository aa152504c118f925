package explore

import (
	"context"
	"fmt"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/facts"
)

// A Hunt searches the states of a program depth first for a bad state,
// and only for one: it answers Unsafe with a replayed trace, or nothing,
// never Safe, so that it needs neither reduction nor proviso and may stop
// anywhere. Breadth first, a bad state that only the end of a long run
// reaches (a lost update that a check after both loops of 100 rounds
// sees: some two thousand steps) is found after nearly every state; depth
// first, after the states of the runs that differ from the first one in
// their last steps only, which is where such a bug first shows (the last
// round of one process against the first of the other). It keeps its
// visited set and its stack between runs, so that a larger budget goes on
// where the last run stopped. Registers dead at a process's location are
// reset (facts.Dead), as in the breadth-first search.
type Hunt struct {
	c       *config
	dead    [][][]int
	bad     *badIndex
	visited *KeySet
	key     []byte
	roots   []model.State
	stack   []huntFrame
	root    int // the next initial state to start from
	started bool
	done    bool // the hunt is over
}

// maxHuntDepth bounds the hunt's stack, whose frames hold their states'
// successors: about 100 MB for the deepest stack of a program of a few
// goroutines.
const maxHuntDepth = 1 << 16

// huntFrame is a state on the hunt's stack, with its successors still to
// try (the step that reached each and the state it leads to).
type huntFrame struct {
	step  model.Step // the step that led here (none for an initial state)
	succs []huntSucc
	next  int
}

type huntSucc struct {
	step  model.Step
	state model.State
}

// NewHunt prepares a depth-first hunt for a bad state of p under m with
// the buffer bound of o (as NewSearch, whose buffer bound it takes).
func NewHunt(p *model.Program, m model.Model, o Options) (*Hunt, error) {
	c, err := newConfig(p, m, &o)
	if err != nil {
		return nil, err
	}
	return &Hunt{c: c, dead: facts.Dead(p), bad: newBadIndex(p, o.Target), visited: NewKeySet()}, nil
}

// Run goes on with the hunt until it finds a bad state, has visited
// maxStates states in all, or has visited every state. It returns an
// Unsafe result with a trace replayed on the program, or nil when it found
// nothing (then Exhausted says whether it will never find anything);
// states counts the states this run visited, each of which it charges to
// the context's meter as it visits it.
func (h *Hunt) Run(ctx context.Context, maxStates int64) (res *engines.Result, states int64, err error) {
	p := h.c.p
	meter := engines.MeterOf(ctx)
	before := h.visited.Len()
	defer func() { states = int64(h.visited.Len() - before) }()
	if !h.started {
		h.started = true
		if err := p.Initial(func(st model.State) { h.roots = append(h.roots, st) }); err != nil {
			return nil, 0, fmt.Errorf("explicit engine: %w", err)
		}
	}
	// visit adds st to the visited set: false when it was there.
	visit := func(st model.State) (bool, error) {
		h.key = facts.CanonicalRegs(st, h.dead).AppendKey(h.key[:0])
		_, added, err := h.visited.Add(h.key)
		if added {
			meter.States(1)
		}
		return added, err
	}
	for !h.done {
		if int64(h.visited.Len()) >= maxStates || meter.Out() {
			return nil, 0, nil
		}
		if h.visited.Len()%1024 == 0 && ctx.Err() != nil {
			return nil, 0, nil
		}
		if len(h.stack) == 0 {
			if h.root == len(h.roots) {
				h.done = true
				break
			}
			st := h.roots[h.root]
			h.root++
			added, err := visit(st)
			if err != nil {
				return nil, 0, nil // the visited set is full
			}
			if !added {
				continue
			}
			if h.bad.isBad(st) {
				return h.found(nil)
			}
			h.push(st, model.Step{})
			continue
		}
		top := &h.stack[len(h.stack)-1]
		if top.next == len(top.succs) {
			h.stack = h.stack[:len(h.stack)-1]
			continue
		}
		a := top.succs[top.next]
		top.next++
		if len(h.stack) >= maxHuntDepth {
			continue // not visited: a shorter path may reach it
		}
		added, err := visit(a.state)
		if err != nil {
			// The visited set is full: the hunt ends with nothing.
			return nil, 0, nil
		}
		if !added {
			continue
		}
		if h.bad.isBad(a.state) {
			return h.found(&a.step)
		}
		h.push(a.state, a.step)
	}
	return nil, 0, nil
}

// push puts st, reached by step, on the stack with its successors.
func (h *Hunt) push(st model.State, step model.Step) {
	f := huntFrame{step: step}
	for i := range h.c.p.Procs {
		h.c.p.ProcSuccessors(st, i, h.c.under, h.c.bound, func(s model.Step, ns model.State) {
			f.succs = append(f.succs, huntSucc{step: s, state: ns})
		})
	}
	h.stack = append(h.stack, f)
}

// Exhausted reports whether the hunt is over: it has visited every
// reachable state, or every one that a path of at most maxHuntDepth steps
// from its stack reaches.
func (h *Hunt) Exhausted() bool { return h.done }

// found builds the trace of the path on the stack, then step (nil when the
// bad state is initial), replays it and returns the Unsafe result.
func (h *Hunt) found(step *model.Step) (*engines.Result, int64, error) {
	p := h.c.p
	root := h.roots[h.root-1]
	t := &model.Trace{Model: h.c.under, InitMem: root.Mem, InitRegs: root.Regs}
	for k, f := range h.stack {
		if k > 0 { // the root was reached by no step
			t.Steps = append(t.Steps, f.step)
		}
	}
	if step != nil {
		t.Steps = append(t.Steps, *step)
	}
	if h.c.under != h.c.m {
		var err error
		if t, err = p.AsTSO(t); err != nil {
			return nil, 0, fmt.Errorf("internal error: an SC trace of a program whose reads find their buffers empty is no TSO trace: %w", err)
		}
	}
	res := &engines.Result{Status: engines.Unsafe, Model: h.c.m, Trace: t}
	if err := engines.Verify(p, res); err != nil {
		return nil, 0, err
	}
	return res, 0, nil
}
