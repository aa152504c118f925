package zone

import (
	"slices"

	"github.com/fencecheck/fencecheck/model"
)

// bound is one difference constraint x_i − x_j ≤ c of the zone.
type bound struct {
	i, j int
	c    int64
}

// apply adds the bounds of a case to a closed zone; false: it is empty.
func apply(z dbm, c []bound) bool {
	for _, b := range c {
		if !z.constrain(b.i, b.j, b.c) {
			return false
		}
	}
	return true
}

// env is where the expressions of process proc (−1: none) read in
// state s: control values, and the zone variables of numeric ones.
type env struct {
	a    *analysis
	s    *absState
	proc int
}

// regRef locates a register of the expression's process or a named one.
func (e env) regRef(r model.RegRef) slotRef {
	proc := r.Proc
	if proc < 0 {
		proc = e.proc
	}
	return e.a.regs[proc][r.Reg]
}

// numericIn reports whether x reads a numeric register or variable.
func (e env) numericIn(x model.Expr) bool {
	found := false
	model.WalkExpr(x, func(x model.Expr) {
		switch x := x.(type) {
		case model.RegRef:
			found = found || e.regRef(x).numeric
		case model.VarRef:
			found = found || e.a.vars[x.Var].numeric
		}
	})
	return found
}

// eval evaluates x, which reads only control values.
func (e env) eval(x model.Expr) (int64, error) {
	regs, mem := e.a.values(e.s.ctl)
	var own []int64
	if e.proc >= 0 {
		own = regs[e.proc]
	}
	return model.Eval(x, &model.Env{Regs: own, AllRegs: regs, Mem: mem})
}

// values returns the registers and memory of the control values ctl
// (numeric ones 0), built once per control vector: a vector is never
// changed in place once built (a step that changes a value clones it), so
// the last one is recognised by its identity.
func (a *analysis) values(ctl []int64) ([][]int64, []int64) {
	if len(ctl) > 0 && len(a.valCtl) == len(ctl) && &a.valCtl[0] == &ctl[0] && a.valRegs != nil {
		return a.valRegs, a.valMem
	}
	p := a.p
	regs := make([][]int64, len(p.Procs))
	for i, q := range p.Procs {
		regs[i] = make([]int64, len(q.Regs))
		for r := range q.Regs {
			if ref := a.regs[i][r]; !ref.numeric {
				regs[i][r] = ctl[ref.idx]
			}
		}
	}
	mem := make([]int64, len(p.Vars))
	for v := range p.Vars {
		if ref := a.vars[v]; !ref.numeric {
			mem[v] = ctl[ref.idx]
		}
	}
	a.valCtl, a.valRegs, a.valMem = ctl, regs, mem
	return regs, mem
}

// linear returns x as x_idx + c (idx 0: the constant c), or ok false.
func (e env) linear(x model.Expr) (idx int, c int64, ok bool) {
	if !e.numericIn(x) {
		v, err := e.eval(x)
		if err != nil {
			return 0, 0, false
		}
		return 0, v, true
	}
	switch x := x.(type) {
	case model.RegRef:
		return e.regRef(x).idx, 0, true
	case model.VarRef:
		return e.a.vars[x.Var].idx, 0, true
	case model.Binary:
		switch x.Op {
		case model.OpAdd, model.OpSub:
			i, ci, ok1 := e.linear(x.X)
			j, cj, ok2 := e.linear(x.Y)
			if !ok1 || !ok2 {
				return 0, 0, false
			}
			if x.Op == model.OpSub {
				if j != 0 {
					return 0, 0, false
				}
				cj = -cj
			}
			if i != 0 && j != 0 {
				return 0, 0, false
			}
			if abs(ci) > maxBound/4 || abs(cj) > maxBound/4 {
				return 0, 0, false
			}
			return i + j, ci + cj, true
		}
	}
	return 0, 0, false
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// cond returns the cases (a disjunction of conjunctions of bounds) in
// which x is non-zero (pos) or zero, over-approximated where x is not a
// difference constraint; an error when x, reading only control values,
// faults.
func (a *analysis) cond(s *absState, proc int, x model.Expr, pos bool) ([][]bound, error) {
	e := env{a, s, proc}
	if !e.numericIn(x) {
		v, err := e.eval(x)
		if err != nil {
			return nil, err
		}
		if (v != 0) == pos {
			return [][]bound{nil}, nil
		}
		return nil, nil
	}
	switch x := x.(type) {
	case model.Unary:
		if x.Op == model.OpNot {
			return a.cond(s, proc, x.X, !pos)
		}
	case model.Binary:
		switch x.Op {
		case model.OpAnd, model.OpOr:
			l, err := a.cond(s, proc, x.X, pos)
			if err != nil {
				return nil, err
			}
			r, err := a.cond(s, proc, x.Y, pos)
			if err != nil {
				return nil, err
			}
			if (x.Op == model.OpAnd) == pos {
				var out [][]bound
				for _, cl := range l {
					for _, cr := range r {
						out = append(out, append(slices.Clone(cl), cr...))
					}
				}
				return out, nil
			}
			return append(l, r...), nil
		case model.OpEq, model.OpNe, model.OpLt, model.OpLe, model.OpGt, model.OpGe:
			op := x.Op
			if !pos {
				op = op.Negated()
			}
			i, ci, ok1 := e.linear(x.X)
			j, cj, ok2 := e.linear(x.Y)
			if !ok1 || !ok2 {
				return [][]bound{nil}, nil
			}
			return compare(i, ci, op, j, cj), nil
		}
	}
	i, c, ok := e.linear(x)
	if !ok {
		return [][]bound{nil}, nil
	}
	op := model.OpNe
	if !pos {
		op = model.OpEq
	}
	return compare(i, c, op, 0, 0), nil
}

// compare returns the cases of x_i + ci op x_j + cj.
func compare(i int, ci int64, op model.BinOp, j int, cj int64) [][]bound {
	d := cj - ci
	switch op {
	case model.OpLe:
		return [][]bound{{{i, j, d}}}
	case model.OpLt:
		return [][]bound{{{i, j, d - 1}}}
	case model.OpGe:
		return [][]bound{{{j, i, -d}}}
	case model.OpGt:
		return [][]bound{{{j, i, -d - 1}}}
	case model.OpEq:
		return [][]bound{{{i, j, d}, {j, i, -d}}}
	default:
		return [][]bound{{{i, j, d - 1}}, {{j, i, -d - 1}}}
	}
}

// step returns the abstract successors of cur (closed) by transition ti
// of process i; a nil successor means the step may fault.
func (a *analysis) step(cur *absState, i, ti int) ([]*absState, error) {
	q := a.p.Procs[i]
	t := &q.Trans[ti]
	s := &absState{locs: cur.locs, ctl: cur.ctl, zone: cur.zone.clone()}
	out, err := a.ops(s, i, []model.Op{t.Op})
	if err != nil {
		return nil, err
	}
	for _, n := range out {
		if n != nil {
			n.locs = slices.Clone(n.locs)
			n.locs[i] = t.To
		}
	}
	return out, nil
}

// ops applies a sequence of operations of process i to s, splitting it
// where a guard has several cases.
func (a *analysis) ops(s *absState, i int, ops []model.Op) ([]*absState, error) {
	cur := []*absState{s}
	for k := range ops {
		op := &ops[k]
		var next []*absState
		for _, st := range cur {
			out, err := a.op(st, i, op)
			if err != nil {
				return nil, err
			}
			for _, n := range out {
				if n == nil {
					return []*absState{nil}, nil
				}
			}
			next = append(next, out...)
		}
		cur = next
	}
	return cur, nil
}

// op applies one operation; a nil result means it may fault.
func (a *analysis) op(s *absState, i int, op *model.Op) ([]*absState, error) {
	q := a.p.Procs[i]
	switch op.Kind {
	case model.Nop, model.Fence:
		return []*absState{s}, nil
	case model.Locked:
		return a.ops(s, i, op.Body)
	case model.Guard:
		return a.guard(s, i, op.Expr, true)
	case model.Assign:
		return a.assign(s, i, a.regs[i][op.Reg], q.Regs[op.Reg].Dom, op.Expr)
	case model.Write:
		return a.assign(s, i, a.vars[op.Var], a.p.Vars[op.Var].Dom, op.Expr)
	case model.Read:
		src := model.Expr(model.VarRef{Var: op.Var})
		states := []*absState{s}
		if op.Expr != nil {
			var err error
			if states, err = a.guard(s, i, model.Bin(model.OpEq, src, op.Expr), true); err != nil {
				return nil, err
			}
		}
		if op.Reg < 0 {
			return states, nil
		}
		var out []*absState
		for _, st := range states {
			n, err := a.assign(st, i, a.regs[i][op.Reg], q.Regs[op.Reg].Dom, src)
			if err != nil {
				return nil, err
			}
			out = append(out, n...)
		}
		return out, nil
	}
	return nil, errUnsupported
}

// guard keeps the cases of s in which x is non-zero (pos) or zero.
func (a *analysis) guard(s *absState, i int, x model.Expr, pos bool) ([]*absState, error) {
	if e := (env{a, s, i}); e.numericIn(x) && hasFaultingOp(x) {
		return nil, errUnsupported
	}
	cases, err := a.cond(s, i, x, pos)
	if err != nil {
		return []*absState{nil}, nil
	}
	var out []*absState
	for k, c := range cases {
		z := s.zone
		if k < len(cases)-1 {
			z = z.clone()
		}
		if apply(z, c) {
			out = append(out, &absState{locs: s.locs, ctl: s.ctl, zone: z})
		}
	}
	return out, nil
}

// assign sets the register or variable dst (of domain dom) to x: a
// finite destination of an unbounded value gets one case per value, and
// the step may fault when the value may leave the domain.
func (a *analysis) assign(s *absState, i int, dst slotRef, dom model.Domain, x model.Expr) ([]*absState, error) {
	e := env{a, s, i}
	if !e.numericIn(x) {
		v, err := e.eval(x)
		if err != nil || !dom.Contains(v) {
			return []*absState{nil}, nil
		}
		if dst.numeric {
			s.zone.assign(dst.idx, 0, v)
			return []*absState{s}, nil
		}
		s.ctl = slices.Clone(s.ctl)
		s.ctl[dst.idx] = v
		return []*absState{s}, nil
	}
	if dst.numeric {
		if j, c, ok := e.linear(x); ok {
			s.zone.assign(dst.idx, j, c)
		} else if hasFaultingOp(x) {
			return nil, errUnsupported
		} else {
			s.zone.forget(dst.idx)
		}
		return []*absState{s}, nil
	}
	j, c, ok := e.linear(x)
	if !ok || dom.Size() > maxEnumerate {
		return nil, errUnsupported
	}
	var out []*absState
	for v := dom.Lo; v <= dom.Hi; v++ {
		z := s.zone.clone()
		if apply(z, compare(j, c, model.OpEq, 0, v)[0]) {
			ctl := slices.Clone(s.ctl)
			ctl[dst.idx] = v
			out = append(out, &absState{locs: s.locs, ctl: ctl, zone: z})
		}
	}
	for _, outside := range [][]bound{compare(j, c, model.OpLt, 0, dom.Lo)[0], compare(j, c, model.OpGt, 0, dom.Hi)[0]} {
		if z := s.zone.clone(); apply(z, outside) {
			return []*absState{nil}, nil
		}
	}
	return out, nil
}

// hasFaultingOp reports whether x divides or shifts (a division by zero
// and a negative shift count fault).
func hasFaultingOp(x model.Expr) bool {
	found := false
	model.WalkExpr(x, func(x model.Expr) {
		if b, ok := x.(model.Binary); ok {
			switch b.Op {
			case model.OpDiv, model.OpMod, model.OpShl, model.OpShr, model.OpShrU:
				found = true
			}
		}
	})
	return found
}
