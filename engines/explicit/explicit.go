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
// registers, memory and buffers. Registers that are dead at a process's
// location (see [Dead]) are reset to 0 first, which merges states with the
// same future. A program whose initial values '*' give more initial states
// than the state budget (a wide domain) is answered inconclusive at once.
package explicit

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
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
	// KeepDead turns off the reset of dead registers, so that the states
	// counted are the program's own (for measuring reductions made before
	// the search).
	KeepDead bool
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
	if n := InitialStates(p); n > maxStates {
		res.Status = engines.Inconclusive
		res.Reason = TooManyInitial(n, maxStates)
		res.Stats.Duration = time.Since(start)
		return res, nil
	}
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
	dead := Dead(p)
	meter := engines.MeterOf(ctx)
	add := func(s model.State, parent int32, st model.Step) bool {
		if parent >= 0 && !e.KeepDead {
			s = CanonicalRegs(s, dead) // initial states are kept as they are, for the trace
		}
		key = s.AppendKey(key[:0])
		if _, ok := visited[string(key)]; ok {
			return false
		}
		id := int32(len(nodes))
		visited[string(key)] = id
		nodes = append(nodes, node{parent: parent, step: st})
		meter.States(1)
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
				res.Reason = fmt.Sprintf("%s after %d states", StopReason(ctx), len(nodes))
				res.Stats.States = int64(len(nodes))
				return finish()
			}
		}
		if meter.Out() {
			res.Status = engines.Inconclusive
			res.Reason = meter.Reason()
			res.Stats.States = int64(len(nodes))
			return finish()
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

// InitialStates returns the number of initial states of p: the product of
// the sizes of the domains of the values marked Any (initial '*'),
// saturating at math.MaxInt64 (also for an unbounded domain). Engines that
// enumerate initial states compare it with their budget first, so that a
// wide domain ends in an inconclusive answer instead of an endless loop.
func InitialStates(p *model.Program) int64 {
	n := int64(1)
	mul := func(d model.Domain) {
		k := d.Size()
		switch {
		case k == 0 || n == 0:
			n = 0
		case n > math.MaxInt64/k:
			n = math.MaxInt64
		default:
			n *= k
		}
	}
	for _, v := range p.Vars {
		if v.Init.Any {
			mul(v.Dom)
		}
	}
	for _, q := range p.Procs {
		for _, r := range q.Regs {
			if r.Init.Any {
				mul(r.Dom)
			}
		}
	}
	return n
}

// TooManyInitial is the reason of an inconclusive answer for a program with
// n initial states, more than the budget.
func TooManyInitial(n, budget int64) string {
	count := fmt.Sprint(n)
	if n == math.MaxInt64 {
		count = "at least 2^63"
	}
	return fmt.Sprintf("%s initial states (values '*' of wide domains) exceed the state budget of %d", count, budget)
}

// StopReason names the limit that ended ctx: "time budget exhausted" for a
// deadline, else the context's cause (a memory limit, a cancellation).
func StopReason(ctx context.Context) string {
	cause := context.Cause(ctx)
	switch {
	case cause == nil, errors.Is(cause, context.DeadlineExceeded):
		return "time budget exhausted"
	case errors.Is(cause, context.Canceled):
		return "search canceled"
	}
	return fmt.Sprintf("stopped by the %v", cause)
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

// Dead returns, for every process of p and every location, the registers
// that are dead there: on no path from the location is the register read
// before it is assigned. Registers named by a bad-state condition are live
// everywhere. Two states that differ only in the values of dead registers
// have the same futures, so a search may reset dead registers (see
// [CanonicalRegs]) and merge such states without losing a bad state; the
// steps it records are the same, so its traces replay on p.
func Dead(p *model.Program) [][][]int {
	out := make([][][]int, len(p.Procs))
	for i, q := range p.Procs {
		n := len(q.Regs)
		pinned := make([]bool, n)
		for _, b := range p.Bad {
			model.WalkExpr(b.Cond, func(e model.Expr) {
				if r, ok := e.(model.RegRef); ok && r.Proc == i && r.Reg >= 0 && r.Reg < n {
					pinned[r.Reg] = true
				}
			})
		}
		use := make([][]bool, len(q.Trans))
		def := make([][]bool, len(q.Trans))
		for ti, t := range q.Trans {
			use[ti], def[ti] = make([]bool, n), make([]bool, n)
			useDef(t.Op, use[ti], def[ti])
		}
		live := make([][]bool, len(q.Locs))
		for l := range live {
			live[l] = slices.Clone(pinned)
		}
		for changed := true; changed; {
			changed = false
			for ti, t := range q.Trans {
				for r := range n {
					if live[t.From][r] {
						continue
					}
					if use[ti][r] || (live[t.To][r] && !def[ti][r]) {
						live[t.From][r], changed = true, true
					}
				}
			}
		}
		out[i] = make([][]int, len(q.Locs))
		for l := range live {
			for r := range n {
				if !live[l][r] {
					out[i][l] = append(out[i][l], r)
				}
			}
		}
	}
	return out
}

// useDef marks the registers o reads before it assigns them (use) and the
// ones it assigns whenever it is taken (def).
func useDef(o model.Op, use, def []bool) {
	uses := func(e model.Expr) {
		model.WalkExpr(e, func(e model.Expr) {
			if r, ok := e.(model.RegRef); ok && r.Proc < 0 && r.Reg >= 0 && r.Reg < len(use) && !def[r.Reg] {
				use[r.Reg] = true
			}
		})
	}
	switch o.Kind {
	case model.Assign:
		uses(o.Expr)
		def[o.Reg] = true
	case model.Guard:
		uses(o.Expr)
	case model.Read:
		uses(o.Expr)
		if o.Reg >= 0 {
			def[o.Reg] = true
		}
	case model.Write:
		uses(o.Expr)
	case model.Locked:
		for _, b := range o.Body {
			useDef(b, use, def)
		}
	}
}

// CanonicalRegs returns s with the dead registers of every process (dead,
// from [Dead]) set to 0, sharing what it does not change.
func CanonicalRegs(s model.State, dead [][][]int) model.State {
	cloned := false
	for i, l := range s.Locs {
		if l < 0 || l >= len(dead[i]) {
			continue
		}
		own := false
		for _, r := range dead[i][l] {
			if s.Regs[i][r] == 0 {
				continue
			}
			if !cloned {
				s.Regs = slices.Clone(s.Regs)
				cloned = true
			}
			if !own {
				s.Regs[i] = slices.Clone(s.Regs[i])
				own = true
			}
			s.Regs[i][r] = 0
		}
	}
	return s
}
