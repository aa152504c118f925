package facts

import (
	"context"
	"fmt"
	"math"

	"github.com/fencecheck/fencecheck/model"
)

// A Cell is a variable (Proc -1, Index its number) or a register (of
// process Proc, Index its number) of a program.
type Cell struct{ Proc, Index int }

// Name names c as the model does: the variable's name, or the process's
// and the register's.
func (c Cell) Name(p *model.Program) string {
	if c.Proc < 0 {
		return p.Vars[c.Index].Name
	}
	q := p.Procs[c.Proc]
	return q.Name + ".$" + q.Regs[c.Index].Name
}

// Dom returns c's domain in p.
func (c Cell) Dom(p *model.Program) model.Domain {
	if c.Proc < 0 {
		return p.Vars[c.Index].Dom
	}
	return p.Procs[c.Proc].Regs[c.Index].Dom
}

// Growth is a cell whose values grow without bound, as far as a search can
// tell: it took Values distinct values, more than the search's bound, or
// still took new ones in the last half of a search that ran out of states;
// the last of them made by the step of process Proc along transition
// Trans.
type Growth struct {
	Cell        Cell
	Values      int
	Proc, Trans int
}

// Pos is the source position of the step that made the growing cell's
// last value.
func (g *Growth) Pos(p *model.Program) model.Pos {
	return p.Procs[g.Proc].Trans[g.Trans].Pos
}

// ValueSearch is what [SearchValues] found.
type ValueSearch struct {
	// Doms holds, when the search visited every state reachable under SC,
	// the least interval of the values each unbounded cell took (with its
	// initial value).
	Doms map[Cell]model.Domain
	// Grows is set when a cell took more than the bound of values.
	Grows *Growth
	// States is the number of states visited; Reason, when neither Doms
	// nor Grows is set, says why the search stopped.
	States int
	Reason string
}

// SearchValues discovers the values of p's unbounded cells (variables and
// registers whose domain is model.Unbounded) as the program computes them:
// a breadth-first search of the states reachable under SC, its values the
// model's own (model.Program.Successors), dead registers reset as the
// explicit search resets them (CanonicalRegs), which ends when every state is
// visited, when a cell has taken more than maxValues distinct values (a
// value that grows: a ticket, a sequence number, an endless loop's
// counter), or after maxStates states (a cell that still took new values
// in their second half grows). Under x86-TSO a run may reach
// values no SC run reaches (a lost update): the domains are then those of
// SC, and a value beyond one is met as a fault by the exact engines.
// A cell whose initial value is any value of an unbounded domain stops
// the search at once.
func SearchValues(ctx context.Context, p *model.Program, maxStates, maxValues int) ValueSearch {
	var cells []Cell
	index := make(map[Cell]int)
	add := func(c Cell) {
		index[c] = len(cells)
		cells = append(cells, c)
	}
	for x, v := range p.Vars {
		if v.Dom.Unbounded {
			if v.Init.Any {
				return ValueSearch{Reason: fmt.Sprintf("%s starts with any integer", v.Name)}
			}
			add(Cell{-1, x})
		}
	}
	regCells := make([][]int, len(p.Procs)) // by process, the cell of each unbounded register
	for qi, q := range p.Procs {
		for r, reg := range q.Regs {
			if reg.Dom.Unbounded {
				if reg.Init.Any {
					return ValueSearch{Reason: fmt.Sprintf("%s.$%s starts with any integer", q.Name, reg.Name)}
				}
				regCells[qi] = append(regCells[qi], r)
				add(Cell{qi, r})
			}
		}
	}
	if len(cells) == 0 {
		return ValueSearch{Doms: map[Cell]model.Domain{}}
	}
	seen := make([]map[int64]struct{}, len(cells))
	lo, hi := make([]int64, len(cells)), make([]int64, len(cells))
	for k := range cells {
		seen[k] = map[int64]struct{}{}
		lo[k], hi[k] = math.MaxInt64, math.MinInt64
	}
	var grows *Growth
	visited := make(map[string]struct{})
	dead := Dead(p)
	// lastNew is, for each cell, when it took its last new value (in
	// states visited) and by which step.
	lastNew := make([]int, len(cells))
	lastStep := make([]model.Step, len(cells))
	note := func(k int, v int64, st model.Step) {
		if _, ok := seen[k][v]; ok {
			return
		}
		seen[k][v] = struct{}{}
		lo[k], hi[k] = min(lo[k], v), max(hi[k], v)
		lastNew[k], lastStep[k] = len(visited), st
		if len(seen[k]) > maxValues && grows == nil {
			grows = &Growth{Cell: cells[k], Values: len(seen[k]), Proc: st.Proc, Trans: st.Trans}
		}
	}
	var queue []model.State
	var key []byte
	visit := func(s model.State) bool {
		key = s.AppendKey(key[:0])
		if _, ok := visited[string(key)]; ok {
			return false
		}
		visited[string(key)] = struct{}{}
		queue = append(queue, s)
		return true
	}
	err := p.Initial(func(s model.State) {
		for k, c := range cells {
			if c.Proc < 0 {
				note(k, s.Mem[c.Index], model.Step{})
			} else {
				note(k, s.Regs[c.Proc][c.Index], model.Step{})
			}
		}
		visit(s)
	})
	if err != nil {
		return ValueSearch{Reason: err.Error()}
	}
	for len(queue) > 0 {
		if len(visited) > maxStates {
			// A cell that still took new values in the second half of
			// the search grows; the one that took one last, with the
			// most values, is named.
			best := -1
			for k := range cells {
				if lastNew[k] > maxStates/2 && len(seen[k]) > 1 && (best < 0 || lastNew[k] > lastNew[best] || lastNew[k] == lastNew[best] && len(seen[k]) > len(seen[best])) {
					best = k
				}
			}
			if best >= 0 {
				st := lastStep[best]
				return ValueSearch{States: len(visited), Grows: &Growth{Cell: cells[best], Values: len(seen[best]), Proc: st.Proc, Trans: st.Trans}}
			}
			return ValueSearch{States: len(visited), Reason: fmt.Sprintf("the search for their values stopped after %d states", maxStates)}
		}
		if len(visited)%1024 == 0 && ctx.Err() != nil {
			return ValueSearch{States: len(visited), Reason: "the search for their values ran out of time"}
		}
		s := queue[0]
		queue = queue[1:]
		p.Successors(s, model.SC, 0, func(st model.Step, ns model.State) {
			if grows != nil || ns.Fault != nil || !visit(CanonicalRegs(ns, dead)) {
				return
			}
			for _, r := range regCells[st.Proc] {
				note(index[Cell{st.Proc, r}], ns.Regs[st.Proc][r], st)
			}
			if st.Var >= 0 && p.Vars[st.Var].Dom.Unbounded {
				note(index[Cell{-1, st.Var}], ns.Mem[st.Var], st)
			}
			// A locked operation may write several variables.
			if t := p.Procs[st.Proc].Trans[st.Trans]; t.Op.Kind == model.Locked {
				for k, c := range cells {
					if c.Proc < 0 {
						note(k, ns.Mem[c.Index], st)
					}
				}
			}
		})
		if grows != nil {
			return ValueSearch{Grows: grows, States: len(visited)}
		}
	}
	doms := make(map[Cell]model.Domain, len(cells))
	for k, c := range cells {
		doms[c] = model.Range(lo[k], hi[k])
	}
	return ValueSearch{Doms: doms, States: len(visited)}
}
