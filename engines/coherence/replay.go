package coherence

import (
	"context"
	"slices"

	"github.com/fencecheck/fencecheck/model"
)

// follow searches for a concrete execution of p under m that takes the
// program steps of an abstract counterexample in its order, with flushes
// wherever the concrete semantics allows them, and ends in a bad state.
// The flushes the abstract path takes before each program step are tried
// first. It returns the execution, or nil and whether the search ended
// for its budget of concrete states (when it did not, no concrete
// execution follows the path: the counterexample is spurious).
func follow(ctx context.Context, p *model.Program, m model.Model, init model.State, evs []event, budget int64) (*model.Trace, bool) {
	f := &follower{p: p, m: m, budget: budget, seen: make(map[string]bool), ctx: ctx}
	var pending []int32 // the processes that flush before the next program step
	for _, ev := range evs {
		if ev.trans < 0 {
			pending = append(pending, ev.proc)
			continue
		}
		f.steps = append(f.steps, ev)
		f.hints = append(f.hints, pending)
		pending = nil
	}
	if f.dfs(init, 0) {
		slices.Reverse(f.out)
		return &model.Trace{Model: m, InitMem: slices.Clone(init.Mem), InitRegs: cloneRegs(init.Regs), Steps: f.out}, false
	}
	return nil, f.exhausted
}

func cloneRegs(r [][]int64) [][]int64 {
	out := make([][]int64, len(r))
	for i := range r {
		out[i] = slices.Clone(r[i])
	}
	return out
}

type follower struct {
	p         *model.Program
	m         model.Model
	ctx       context.Context
	steps     []event   // the program steps of the path
	hints     [][]int32 // the processes that flush before each program step
	seen      map[string]bool
	budget    int64
	exhausted bool
	out       []model.Step // the steps taken, last first
	key       []byte
}

// dfs reports whether a bad state can be reached from s, after the first
// i program steps of the path, by the remaining ones and flushes.
func (f *follower) dfs(s model.State, i int) bool {
	if f.p.IsBad(s) {
		return true
	}
	if f.exhausted {
		return false
	}
	f.key = s.AppendKey(append(f.key[:0], byte(i), byte(i>>8), byte(i>>16), byte(i>>24)))
	if f.seen[string(f.key)] {
		return false
	}
	if int64(len(f.seen)) >= f.budget || (len(f.seen)&1023 == 0 && f.ctx.Err() != nil) {
		f.exhausted = true
		return false
	}
	f.seen[string(f.key)] = true
	try := func(st model.Step, ns model.State, next int) bool {
		if f.dfs(ns, next) {
			f.out = append(f.out, st)
			return true
		}
		return false
	}
	flush := func(j int32) bool {
		for _, fl := range flushesOf(f.p, s, int(j), f.m) {
			if try(fl.step, fl.state, i) {
				return true
			}
		}
		return false
	}
	var hinted []int32
	if i < len(f.steps) {
		hinted = f.hints[i]
	}
	for _, j := range hinted {
		if flush(j) {
			return true
		}
	}
	if i < len(f.steps) {
		ev := f.steps[i]
		if st, ns, err := f.p.Exec(s, int(ev.proc), int(ev.trans), false, f.m); err == nil && try(st, ns, i+1) {
			return true
		}
	}
	for j := range f.p.Procs {
		if !slices.Contains(hinted, int32(j)) && flush(int32(j)) {
			return true
		}
	}
	return false
}

// succState is a concrete step and the state it leads to.
type succState struct {
	step  model.Step
	state model.State
}

// flushesOf returns the flushes process j can take in s under m.
func flushesOf(p *model.Program, s model.State, j int, m model.Model) []succState {
	if m == model.SC || len(s.Bufs[j]) == 0 {
		return nil
	}
	var out []succState
	p.ProcSuccessors(s, j, m, 0, func(st model.Step, ns model.State) {
		if st.Flush {
			out = append(out, succState{st, ns})
		}
	})
	return out
}
