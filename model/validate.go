package model

import (
	"errors"
	"fmt"
	"slices"
)

// Problem is one defect found by [Program.Validate].
type Problem struct {
	Pos Pos
	Msg string
}

func (p Problem) Error() string { return p.Pos.String() + ": " + p.Msg }

// Validate checks that p is well formed: indices in range, names unique,
// initial values in their domains, memory named only where it may be
// (locked bodies and bad-state conditions), locked bodies made of reads,
// writes, assignments and guards. It returns every problem found, joined
// (errors.Join of Problem values), or nil.
func (p *Program) Validate() error {
	var probs []error
	add := func(pos Pos, format string, args ...any) {
		probs = append(probs, Problem{pos, fmt.Sprintf(format, args...)})
	}
	seen := map[string]bool{}
	for _, v := range p.Vars {
		if seen[v.Name] {
			add(v.Pos, "shared variable %s declared twice", v.Name)
		}
		seen[v.Name] = true
		checkDecl(add, v.Pos, v.Name, v.Dom, v.Init, v.Values)
	}
	if len(p.Procs) == 0 {
		add(Pos{}, "program %q has no process", p.Name)
	}
	procNames := map[string]bool{}
	for _, q := range p.Procs {
		if procNames[q.Name] {
			add(Pos{}, "process %s declared twice", q.Name)
		}
		procNames[q.Name] = true
		regNames := map[string]bool{}
		for _, r := range q.Regs {
			if regNames[r.Name] {
				add(r.Pos, "register $%s declared twice in process %s", r.Name, q.Name)
			}
			regNames[r.Name] = true
			checkDecl(add, r.Pos, q.Name+".$"+r.Name, r.Dom, r.Init, r.Values)
		}
		if len(q.Locs) == 0 {
			add(Pos{}, "process %s has no location", q.Name)
			continue
		}
		if q.Init < 0 || q.Init >= len(q.Locs) {
			add(Pos{}, "process %s: initial location %d out of range", q.Name, q.Init)
		}
		for _, t := range q.Trans {
			if t.From < 0 || t.From >= len(q.Locs) || t.To < 0 || t.To >= len(q.Locs) {
				add(t.Pos, "process %s: transition %d -> %d leaves the %d locations", q.Name, t.From, t.To, len(q.Locs))
			}
			p.checkOp(add, q, t.Op, t.Pos, false)
		}
	}
	for _, b := range p.Bad {
		for _, pl := range b.Locs {
			if pl.Proc < 0 || pl.Proc >= len(p.Procs) {
				add(b.Pos, "bad state names process %d of %d", pl.Proc, len(p.Procs))
				continue
			}
			if pl.Loc < 0 || pl.Loc >= len(p.Procs[pl.Proc].Locs) {
				add(b.Pos, "bad state names location %d of process %s", pl.Loc, p.Procs[pl.Proc].Name)
			}
		}
		if b.Cond != nil {
			p.checkExpr(add, nil, b.Cond, b.Pos, true, true)
		}
	}
	return errors.Join(probs...)
}

func checkDecl(add func(Pos, string, ...any), pos Pos, name string, d Domain, in Init, vals []int64) {
	if !d.Unbounded && d.Lo > d.Hi {
		add(pos, "%s has an empty domain %v", name, d)
	}
	if !in.Any && !d.Contains(in.Value) {
		add(pos, "initial value %d of %s is outside %v", in.Value, name, d)
	}
	if vals == nil {
		return
	}
	if !slices.IsSorted(vals) || len(slices.Compact(slices.Clone(vals))) != len(vals) {
		add(pos, "the values of %s are not sorted and distinct", name)
	}
	for _, v := range vals {
		if !d.Contains(v) {
			add(pos, "value %d of %s is outside %v", v, name, d)
			break
		}
	}
	if in.Any || !slices.Contains(vals, in.Value) {
		add(pos, "the initial value of %s is not among its values", name)
	}
}

func (p *Program) checkOp(add func(Pos, string, ...any), q *Process, o Op, pos Pos, inLocked bool) {
	checkVar := func(x int) {
		if x < 0 || x >= len(p.Vars) {
			add(pos, "%s names shared variable %d of %d", o.Kind, x, len(p.Vars))
		}
	}
	checkReg := func(r int, optional bool) {
		if optional && r == -1 {
			return
		}
		if r < 0 || r >= len(q.Regs) {
			add(pos, "%s names register %d of process %s, which has %d", o.Kind, r, q.Name, len(q.Regs))
		}
	}
	needExpr := func() {
		if o.Expr == nil {
			add(pos, "%s without an expression", o.Kind)
		}
	}
	switch o.Kind {
	case Nop, Fence, SSFence:
		if inLocked && o.Kind != Nop {
			add(pos, "a %s inside a locked block", map[OpKind]string{Fence: "fence", SSFence: "store-store fence"}[o.Kind])
		}
	case Assign:
		checkReg(o.Reg, false)
		needExpr()
	case Guard:
		needExpr()
	case Read:
		checkVar(o.Var)
		checkReg(o.Reg, true)
	case Write:
		checkVar(o.Var)
		needExpr()
	case Locked:
		if inLocked {
			add(pos, "a locked block inside a locked block")
			return
		}
		for _, b := range o.Body {
			p.checkOp(add, q, b, pos, true)
		}
		return
	default:
		add(pos, "unknown operation %d", o.Kind)
	}
	if o.Expr != nil {
		p.checkExpr(add, q, o.Expr, pos, inLocked, false)
	}
}

func (p *Program) checkExpr(add func(Pos, string, ...any), q *Process, e Expr, pos Pos, memOK, qualified bool) {
	WalkExpr(e, func(e Expr) {
		switch e := e.(type) {
		case VarRef:
			if !memOK {
				add(pos, "shared variable %d named outside a locked block (use read)", e.Var)
			} else if e.Var < 0 || e.Var >= len(p.Vars) {
				add(pos, "expression names shared variable %d of %d", e.Var, len(p.Vars))
			}
		case RegRef:
			rq := q
			if e.Proc >= 0 {
				if !qualified {
					add(pos, "a register of another process named in a transition")
					return
				}
				if e.Proc >= len(p.Procs) {
					add(pos, "expression names process %d of %d", e.Proc, len(p.Procs))
					return
				}
				rq = p.Procs[e.Proc]
			} else if rq == nil {
				add(pos, "an unqualified register in a bad-state condition")
				return
			}
			if e.Reg < 0 || e.Reg >= len(rq.Regs) {
				add(pos, "expression names register %d of process %s, which has %d", e.Reg, rq.Name, len(rq.Regs))
			}
		case Unary:
			if !e.Op.IsUnary() {
				add(pos, "unary operator %v", e.Op)
			}
		case Binary:
			if !e.Op.IsBinary() {
				add(pos, "binary operator %v", e.Op)
			}
		case Wrap:
			if e.Bits < 1 || e.Bits > MaxWrapBits {
				add(pos, "wrap to %d bits (want 1 to %d)", e.Bits, MaxWrapBits)
			}
		case Float:
			switch {
			case e.Bits != 32 && e.Bits != 64:
				add(pos, "float operation of %d bits (want 32 or 64)", e.Bits)
			case e.Op >= numFloatOps:
				add(pos, "float operation %v", e.Op)
			case e.X == nil || !e.Op.Unary() && e.Y == nil:
				add(pos, "missing operand of %s", e.Op.Name(e.Bits))
			case e.Op.Unary() && e.Y != nil:
				add(pos, "second operand of the unary %s", e.Op.Name(e.Bits))
			}
		case Const:
		case nil:
			add(pos, "missing expression")
		default:
			add(pos, "unknown expression %T", e)
		}
	})
}
