package coi

import (
	"fmt"

	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/facts"
)

// Stats say what a reduction removed.
type Stats struct {
	// FrozenProcs is the number of processes that lost their transitions.
	FrozenProcs int
	// UnobservedVars and IrrelevantRegs count the variables that are not
	// observed and the registers that are not relevant (of relevant
	// processes).
	UnobservedVars, IrrelevantRegs int
	// Writes, Assigns and Reads count the operations that became nops or
	// left a locked body (reads that only lost their register included);
	// Transitions counts the transitions of frozen processes.
	Writes, Assigns, Reads, Transitions int
	// FixedInits counts the initial values '*' fixed to one value.
	FixedInits int
}

// Removed reports whether the reduction removed anything.
func (s Stats) Removed() bool {
	return s.FrozenProcs+s.Writes+s.Assigns+s.Reads+s.Transitions+s.FixedInits > 0
}

// String summarises s in one line.
func (s Stats) String() string {
	return fmt.Sprintf("%d processes frozen (%d transitions), %d variables unobserved, %d registers irrelevant; %d writes, %d assignments, %d reads removed; %d initial values fixed",
		s.FrozenProcs, s.Transitions, s.UnobservedVars, s.IrrelevantRegs, s.Writes, s.Assigns, s.Reads, s.FixedInits)
}

// Reduction is a program reduced to the cone of influence of its bad
// states, with what is needed to map its traces back.
type Reduction struct {
	// Orig is the program reduced, Prog the reduced program.
	Orig, Prog *model.Program
	Stats      Stats

	// Relevant processes and registers, observed variables.
	relProc []bool
	relReg  [][]bool
	obsVar  []bool
	// faults caches facts.CanFault of each operation, by process,
	// transition and place in a locked body (-1 for the transition's).
	faults map[opKey]bool
}

// opKey names an operation of the program: the k-th of the locked body
// of transition ti of process i, or the transition's own when k is -1.
type opKey struct{ i, ti, k int }

// canFault is facts.CanFault of the operation key names, o, computed
// once.
func (r *Reduction) canFault(key opKey, q *model.Process, o model.Op) bool {
	if f, ok := r.faults[key]; ok {
		return f
	}
	if r.faults == nil {
		r.faults = map[opKey]bool{}
	}
	f := facts.CanFault(r.Orig, q, o)
	r.faults[key] = f
	return f
}

// Reduce returns the reduction of p (see the package documentation). p
// must be valid; it is not modified. A program with nothing to remove comes
// back as a copy with zero Stats.
func Reduce(p *model.Program) (*Reduction, error) {
	return reduce(p, false)
}

// ReduceKeepingProcs returns the reduction of p that keeps every process
// and every guard, read requirement and faulting operation of each, with
// what they read: in it each process takes a step from a state exactly
// when it takes the same transition, to the same location, from any state
// of p equal to it on what the reduction keeps. The moves of the
// processes, which a search for goroutines that wait for ever asks about,
// are those of p, whatever the cells it forgets hold.
func ReduceKeepingProcs(p *model.Program) (*Reduction, error) {
	return reduce(p, true)
}

// reduce reduces p; allProcs makes every process relevant.
func reduce(p *model.Program, allProcs bool) (*Reduction, error) {
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("invalid program: %w", err)
	}
	r := &Reduction{Orig: p}
	r.analyse(allProcs)
	r.Prog = r.rewrite()
	if err := r.Prog.Validate(); err != nil {
		return nil, fmt.Errorf("internal error: the reduced program is invalid: %w", err)
	}
	return r, nil
}

// Keeps reports whether the reduction keeps cell c: an observed variable,
// or a relevant register of a relevant process.
func (r *Reduction) Keeps(c facts.Cell) bool {
	if c.Proc < 0 {
		return r.obsVar[c.Index]
	}
	return r.relProc[c.Proc] && r.relReg[c.Proc][c.Index]
}

// analyse computes the relevant processes and registers and the observed
// variables, as a least fixpoint; allProcs makes every process relevant.
func (r *Reduction) analyse(allProcs bool) {
	p := r.Orig
	r.relProc = make([]bool, len(p.Procs))
	r.relReg = make([][]bool, len(p.Procs))
	r.obsVar = make([]bool, len(p.Vars))
	for i, q := range p.Procs {
		r.relReg[i] = make([]bool, len(q.Regs))
	}
	changed := false
	proc := func(i int) {
		if !r.relProc[i] {
			r.relProc[i], changed = true, true
		}
	}
	reg := func(i, k int) {
		if !r.relReg[i][k] {
			r.relReg[i][k], changed = true, true
		}
	}
	obs := func(x int) {
		if !r.obsVar[x] {
			r.obsVar[x], changed = true, true
		}
	}
	// uses marks what e names: registers of process i (or, qualified, of
	// any process) and variables.
	uses := func(i int, e model.Expr) {
		model.WalkExpr(e, func(e model.Expr) {
			switch e := e.(type) {
			case model.RegRef:
				if e.Proc < 0 {
					reg(i, e.Reg)
				} else {
					proc(e.Proc)
					reg(e.Proc, e.Reg)
				}
			case model.VarRef:
				obs(e.Var)
			}
		})
	}
	if allProcs {
		for i := range p.Procs {
			proc(i)
		}
	}
	for _, b := range p.Bad {
		for _, pl := range b.Locs {
			proc(pl.Proc)
		}
		uses(-1, b.Cond)
	}
	for i, q := range p.Procs {
		for ti, t := range q.Trans {
			if r.canFault(opKey{i, ti, -1}, q, t.Op) {
				proc(i)
			}
		}
	}
	// op marks what a kept operation of relevant process i needs, the
	// operation key names.
	var op func(key opKey, q *model.Process, o model.Op)
	op = func(key opKey, q *model.Process, o model.Op) {
		i := key.i
		fault := r.canFault(key, q, o)
		switch o.Kind {
		case model.Guard:
			uses(i, o.Expr)
		case model.Read:
			if o.Expr != nil {
				uses(i, o.Expr)
				obs(o.Var)
			}
			if fault || (o.Reg >= 0 && r.relReg[i][o.Reg]) {
				obs(o.Var)
			}
		case model.Assign:
			if fault || r.relReg[i][o.Reg] {
				uses(i, o.Expr)
			}
		case model.Write:
			if fault || r.obsVar[o.Var] {
				uses(i, o.Expr)
			}
		case model.Locked:
			for k, b := range o.Body {
				op(opKey{i, key.ti, k}, q, b)
			}
		}
	}
	for first := true; first || changed; first = false {
		changed = false
		for i, q := range p.Procs {
			if !r.relProc[i] {
				// A process that writes an observed variable is relevant.
				for _, t := range q.Trans {
					if writesObserved(t.Op, r.obsVar) {
						proc(i)
						break
					}
				}
			}
			if !r.relProc[i] {
				continue
			}
			for ti, t := range q.Trans {
				op(opKey{i, ti, -1}, q, t.Op)
			}
		}
	}
}

func writesObserved(o model.Op, obs []bool) bool {
	switch o.Kind {
	case model.Write:
		return obs[o.Var]
	case model.Locked:
		for _, b := range o.Body {
			if writesObserved(b, obs) {
				return true
			}
		}
	}
	return false
}

// rewrite builds the reduced program.
func (r *Reduction) rewrite() *model.Program {
	p := r.Orig
	out := p.Clone()
	st := &r.Stats
	for x := range out.Vars {
		if r.obsVar[x] {
			continue
		}
		st.UnobservedVars++
		if v := &out.Vars[x]; v.Init.Any {
			v.Init = model.Init{Value: someValue(v.Dom)}
			st.FixedInits++
		}
	}
	for i, q := range out.Procs {
		orig := p.Procs[i]
		if !r.relProc[i] {
			st.FrozenProcs++
			st.Transitions += len(q.Trans)
			q.Trans = nil
			for k := range q.Regs {
				r.relReg[i][k] = false
			}
		}
		for k := range q.Regs {
			if r.relReg[i][k] {
				continue
			}
			if r.relProc[i] {
				st.IrrelevantRegs++
			}
			if g := &q.Regs[k]; g.Init.Any {
				g.Init = model.Init{Value: someValue(g.Dom)}
				st.FixedInits++
			}
		}
		for ti := range q.Trans {
			t := &q.Trans[ti]
			t.Op = r.reduceOp(orig, opKey{i, ti, -1}, t.Op)
		}
	}
	out.Index()
	return out
}

// reduceOp returns the reduced form of o, the operation key names (q is
// its process in the original program); the members of a locked body that
// reduce to nops are dropped from it. Locked bodies do not nest (the
// model's validation refuses it), so key names each operation once.
func (r *Reduction) reduceOp(q *model.Process, key opKey, o model.Op) model.Op {
	st, i := &r.Stats, key.i
	fault := r.canFault(key, q, o)
	switch o.Kind {
	case model.Write:
		if !fault && !r.obsVar[o.Var] {
			st.Writes++
			return model.NopOp()
		}
	case model.Assign:
		if !fault && !r.relReg[i][o.Reg] {
			st.Assigns++
			return model.NopOp()
		}
	case model.Read:
		if fault || o.Reg < 0 || r.relReg[i][o.Reg] {
			break
		}
		st.Reads++
		if o.Expr == nil {
			return model.NopOp()
		}
		o.Reg = -1
	case model.Locked:
		var body []model.Op
		for k, b := range o.Body {
			if nb := r.reduceOp(q, opKey{i, key.ti, k}, b); nb.Kind != model.Nop {
				body = append(body, nb)
			}
		}
		o.Body = body
	}
	return o
}

// someValue returns a value of d: 0 when d holds it, else its lower end.
func someValue(d model.Domain) int64 {
	if d.Contains(0) {
		return 0
	}
	return d.Lo
}
