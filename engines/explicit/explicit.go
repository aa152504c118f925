// Package explicit decides reachability of bad states by forward explicit-state
// search (breadth first, so counterexamples are shortest) over the concrete
// semantics of package model.
//
// Under SC the search is complete for programs with finite domains. Under TSO
// the store buffers are unbounded, so the search bounds them: a Safe answer
// then holds only "up to buffer bound N". For programs without loops, whose
// processes write at most N times on any path, bound N loses nothing and the
// answer is exact. The engine is the project's bug finder and test oracle; the
// exact TSO engine is package sb.
//
// States are hashed through a compact variable-length encoding of locations,
// registers, memory and buffers.
package explicit

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/model"
)

// DefaultBound is the store-buffer bound used under TSO when neither the
// options nor the program's shape give one.
const DefaultBound = 4

// DefaultMaxStates is the state budget when Options.MaxStates is 0.
const DefaultMaxStates = 20_000_000

// Engine is the explicit-state engine. The zero value is ready to use.
type Engine struct {
	// Bound limits every store buffer under TSO; 0 picks the exact bound of a
	// loop-free program, or DefaultBound.
	Bound int
	// MaxStates ends the search as inconclusive; 0 means DefaultMaxStates.
	MaxStates int64
}

// Name returns "explicit".
func (*Engine) Name() string { return "explicit" }

type node struct {
	parent int32
	step   model.Step
}

// Check searches the reachable states of p under m.
func (e *Engine) Check(ctx context.Context, p *model.Program, m model.Model) (*engines.Result, error) {
	start := time.Now()
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("invalid program: %w", err)
	}
	p.Index()
	bound, exact := 0, true
	if m == model.TSO {
		bound, exact = e.tsoBound(p)
	}
	maxStates := e.MaxStates
	if maxStates <= 0 {
		maxStates = DefaultMaxStates
	}
	res := &engines.Result{Model: m}
	finish := func() (*engines.Result, error) {
		res.Stats.Duration = time.Since(start)
		if res.Status == engines.Safe && !exact {
			res.Bound = fmt.Sprintf("buffer bound %d", bound)
		}
		if err := engines.Verify(p, res); err != nil {
			return nil, err
		}
		return res, nil
	}

	var (
		visited = make(map[string]int32)
		nodes   []node
		roots   []model.State // initial states, by -(parent+1)
		queue   []int32
		states  []model.State // state of each node still needed
		key     []byte
		badNode = int32(-1)
	)
	add := func(s model.State, parent int32, st model.Step) bool {
		key = s.AppendKey(key[:0])
		if _, ok := visited[string(key)]; ok {
			return false
		}
		id := int32(len(nodes))
		visited[string(key)] = id
		nodes = append(nodes, node{parent: parent, step: st})
		states = append(states, s)
		queue = append(queue, id)
		if p.IsBad(s) {
			badNode = id
			return true
		}
		return false
	}
	var initErr error
	initErr = p.Initial(func(s model.State) {
		if badNode >= 0 {
			return
		}
		roots = append(roots, s)
		add(s, -int32(len(roots)), model.Step{})
	})
	if initErr != nil {
		return nil, fmt.Errorf("explicit engine: %w", initErr)
	}
	for head := 0; head < len(queue) && badNode < 0; head++ {
		if head&1023 == 0 {
			if err := ctx.Err(); err != nil {
				res.Status = engines.Inconclusive
				res.Reason = fmt.Sprintf("time budget exhausted after %d states", len(nodes))
				res.Stats.States = int64(len(nodes))
				return finish()
			}
		}
		if int64(len(nodes)) >= maxStates {
			res.Status = engines.Inconclusive
			res.Reason = fmt.Sprintf("state budget of %d states exhausted", maxStates)
			res.Stats.States = int64(len(nodes))
			return finish()
		}
		id := queue[head]
		s := states[id]
		states[id] = model.State{} // release
		p.Successors(s, m, bound, func(st model.Step, ns model.State) {
			if badNode < 0 {
				add(ns, id, st)
			}
		})
	}
	res.Stats.States = int64(len(nodes))
	if badNode < 0 {
		res.Status = engines.Safe
		return finish()
	}
	res.Status = engines.Unsafe
	res.Trace = buildTrace(nodes, roots, badNode, m)
	return finish()
}

func buildTrace(nodes []node, roots []model.State, id int32, m model.Model) *model.Trace {
	var steps []model.Step
	for nodes[id].parent >= 0 {
		steps = append(steps, nodes[id].step)
		id = nodes[id].parent
	}
	root := roots[-nodes[id].parent-1]
	for i, j := 0, len(steps)-1; i < j; i, j = i+1, j-1 {
		steps[i], steps[j] = steps[j], steps[i]
	}
	t := &model.Trace{Model: m, InitMem: root.Mem, InitRegs: root.Regs, Steps: steps}
	return t
}

// tsoBound returns the buffer bound to search with and whether it is exact.
func (e *Engine) tsoBound(p *model.Program) (int, bool) {
	longest, acyclic := MaxWritesOnPath(p)
	switch {
	case e.Bound > 0:
		return e.Bound, acyclic && e.Bound >= longest
	case acyclic:
		return max(longest, 1), true
	default:
		return DefaultBound, false
	}
}

// MaxWritesOnPath returns the largest number of plain writes on any path of
// any process, and whether every process is loop-free (otherwise the number
// is meaningless).
func MaxWritesOnPath(p *model.Program) (int, bool) {
	best := 0
	for _, q := range p.Procs {
		n, ok := maxWrites(q)
		if !ok {
			return 0, false
		}
		best = max(best, n)
	}
	return best, true
}

var errCycle = errors.New("cycle")

func maxWrites(q *model.Process) (int, bool) {
	const (
		unseen = iota
		active
		done
	)
	mark := make([]uint8, len(q.Locs))
	memo := make([]int, len(q.Locs))
	var visit func(l int) (int, error)
	visit = func(l int) (int, error) {
		switch mark[l] {
		case active:
			return 0, errCycle
		case done:
			return memo[l], nil
		}
		mark[l] = active
		best := 0
		for _, ti := range q.Out(l) {
			t := q.Trans[ti]
			n, err := visit(t.To)
			if err != nil {
				return 0, err
			}
			if t.Op.Kind == model.Write {
				n++
			}
			best = max(best, n)
		}
		mark[l], memo[l] = done, best
		return best, nil
	}
	n, err := visit(q.Init)
	return n, err == nil
}
