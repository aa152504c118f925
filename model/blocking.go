package model

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Blocking: when a process can take no step at all.
//
// A process waits in the model by a transition that is not enabled: a
// locked compare-and-swap of a mutex that another process holds, an atomic
// read that must see a wait-group counter at 0, a guard on a register that
// a locked block loaded. Once every store buffer is empty, whether a
// transition is enabled depends only on the process's registers and main
// memory, so "every transition leaving location l is disabled" is an
// expression over them: [Program.Blocked] computes it. A deadlock is a state
// in which no process can step, with empty buffers; a bad state whose
// condition conjoins the Blocked expressions of the waiting processes (and
// places the others where they have ended) describes one exactly, in the
// language every engine already decides.

// Enabled returns the condition under which op may be taken with every
// store buffer empty, over the registers of its process (RegRef with Proc
// -1) and main memory (VarRef); nil means always. A locked body is
// followed step by step: its reads and assignments bind registers, its
// writes change the memory its later steps see.
func Enabled(op Op) Expr {
	switch op.Kind {
	case Guard:
		return op.Expr
	case Read:
		if op.Expr == nil {
			return nil
		}
		return Bin(OpEq, V(op.Var), op.Expr)
	case Locked:
		regs, mem := map[int]Expr{}, map[int]Expr{}
		sub := func(e Expr) Expr { return substitute(e, regs, mem) }
		var cond Expr
		and := func(c Expr) {
			if cond == nil {
				cond = c
			} else {
				cond = Bin(OpAnd, cond, c)
			}
		}
		for _, b := range op.Body {
			switch b.Kind {
			case Guard:
				and(sub(b.Expr))
			case Read:
				val := sub(V(b.Var))
				if b.Expr != nil {
					and(Bin(OpEq, val, sub(b.Expr)))
				}
				if b.Reg >= 0 {
					regs[b.Reg] = val
				}
			case Assign:
				regs[b.Reg] = sub(b.Expr)
			case Write:
				mem[b.Var] = sub(b.Expr)
			}
		}
		return cond
	}
	return nil
}

// substitute replaces in e the registers of regs and the memory values of
// mem by their expressions.
func substitute(e Expr, regs, mem map[int]Expr) Expr {
	switch e := e.(type) {
	case RegRef:
		if r, ok := regs[e.Reg]; ok && e.Proc < 0 {
			return r
		}
	case VarRef:
		if m, ok := mem[e.Var]; ok {
			return m
		}
	case Unary:
		return Unary{e.Op, substitute(e.X, regs, mem)}
	case Binary:
		return Binary{e.Op, substitute(e.X, regs, mem), substitute(e.Y, regs, mem)}
	case Wrap:
		return Wrap{X: substitute(e.X, regs, mem), Bits: e.Bits, Signed: e.Signed}
	case Float:
		e.X = substitute(e.X, regs, mem)
		if e.Y != nil {
			e.Y = substitute(e.Y, regs, mem)
		}
		return e
	}
	return e
}

// Qualify returns e with the registers of the executing process (RegRef
// with Proc -1) made registers of process q, as a [BadState] condition
// names them.
func Qualify(e Expr, q int) Expr {
	switch e := e.(type) {
	case RegRef:
		if e.Proc < 0 {
			return RegRef{Proc: q, Reg: e.Reg}
		}
	case Unary:
		return Unary{e.Op, Qualify(e.X, q)}
	case Binary:
		return Binary{e.Op, Qualify(e.X, q), Qualify(e.Y, q)}
	case Wrap:
		return Wrap{X: Qualify(e.X, q), Bits: e.Bits, Signed: e.Signed}
	case Float:
		e.X = Qualify(e.X, q)
		if e.Y != nil {
			e.Y = Qualify(e.Y, q)
		}
		return e
	}
	return e
}

// Blocked returns the condition, over the registers of process q and main
// memory, under which q standing at location l can take no step once every
// store buffer is empty, and true; or false when q never waits at l: l has
// no transitions (q has ended), one of them is always enabled, their
// conditions name no memory (a split on registers, which chooses a path
// rather than waits), or two of them are complementary (x == e and
// x != e, e and !e: the outcomes of a compare-and-swap).
//
// A process also never gets anywhere in a spin loop that nothing changes:
// when it waits at l by no disabled transition, Blocked follows the loop
// (see [Program.Spins]).
func (p *Program) Blocked(q, l int) (Expr, bool) {
	if c, ok := p.Waits(q, l); ok {
		return c, true
	}
	c, _, ok := p.Spins(q, l)
	return c, ok
}

// Waits is Blocked for a wait by a transition that is not enabled, leaving
// spin loops out.
func (p *Program) Waits(q, l int) (Expr, bool) {
	pr := p.Procs[q]
	out := pr.Out(l)
	if len(out) == 0 {
		return nil, false
	}
	conds := make([]Expr, 0, len(out))
	memory := false
	for _, ti := range out {
		c := Enabled(pr.Trans[ti].Op)
		if c == nil {
			return nil, false
		}
		if c, ok := c.(Const); ok {
			if c.Value != 0 {
				return nil, false
			}
			continue
		}
		memory = memory || NamesMemory(c)
		conds = append(conds, c)
	}
	if !memory {
		return nil, false
	}
	for i, a := range conds {
		for _, b := range conds[i+1:] {
			if complementary(a, b) {
				return nil, false
			}
		}
	}
	var blocked Expr
	for _, c := range conds {
		n := Not(c)
		if blocked == nil {
			blocked = n
		} else {
			blocked = Bin(OpAnd, blocked, n)
		}
	}
	if blocked == nil {
		blocked = C(1)
	}
	return blocked, true
}

// complementary reports whether one of a and b is the negation of the
// other, syntactically.
func complementary(a, b Expr) bool {
	if u, ok := a.(Unary); ok && u.Op == OpNot && u.X == b {
		return true
	}
	if u, ok := b.(Unary); ok && u.Op == OpNot && u.X == a {
		return true
	}
	x, ok1 := a.(Binary)
	y, ok2 := b.(Binary)
	if !ok1 || !ok2 || x.X != y.X || x.Y != y.Y {
		return false
	}
	switch {
	case x.Op == OpEq && y.Op == OpNe, x.Op == OpNe && y.Op == OpEq,
		x.Op == OpLt && y.Op == OpGe, x.Op == OpGe && y.Op == OpLt,
		x.Op == OpGt && y.Op == OpLe, x.Op == OpLe && y.Op == OpGt:
		return true
	}
	return false
}

// spinSteps bounds the locations Spins visits from one location.
const spinSteps = 96

// Spins returns the condition, over the registers of process q and main
// memory, under which q at location l, the head of a loop, spins forever
// once every store buffer is empty and no other process moves: every path
// from l that the memory allows comes back to l, in the same state of the
// registers the loop reads, without a step that changes memory (a write, a
// locked block that writes) and without ending. `for !flag.Load() {}`, a
// spin lock's failing compare-and-swap, `for {}`. It returns false when l
// heads no such loop: a path leaves the loop at a location before l (l is
// not the loop's head), or the loop's registers do not come back to a
// state already seen within spinSteps locations (a counted loop). reads
// are the variables the loop reads.
func (p *Program) Spins(q, l int) (cond Expr, reads []int, ok bool) {
	pr := p.Procs[q]
	var exits []Expr
	steps, spins := 0, false
	var walk func(loc int, regs map[int]Expr, pc Expr, seen []string) bool
	walk = func(loc int, regs map[int]Expr, pc Expr, seen []string) bool {
		if steps++; steps > spinSteps {
			return false
		}
		out := pr.Out(loc)
		if len(out) == 0 {
			exits = append(exits, pc)
			return true
		}
		for _, ti := range out {
			tr := pr.Trans[ti]
			if writesMemory(tr.Op) {
				exits = append(exits, and(pc, substitute(orTrue(Enabled(tr.Op)), regs, nil)))
				continue
			}
			next, cond := pureStep(tr.Op, regs)
			for _, b := range append([]Op{tr.Op}, tr.Op.Body...) {
				if b.Kind == Read && !slices.Contains(reads, b.Var) {
					reads = append(reads, b.Var)
				}
			}
			pc2 := and(pc, cond)
			switch {
			case tr.To < l:
				return false
			case tr.To == l:
				key := regsKey(next)
				if slices.Contains(seen, key) {
					spins = true
					continue
				}
				if !walk(l, next, pc2, append(seen[:len(seen):len(seen)], key)) {
					return false
				}
			default:
				if !walk(tr.To, next, pc2, seen) {
					return false
				}
			}
		}
		return true
	}
	if !walk(l, map[int]Expr{}, nil, []string{regsKey(nil)}) || !spins {
		return nil, nil, false
	}
	var blocked Expr = C(1)
	for i, e := range exits {
		if i == 0 {
			blocked = Not(orTrue(e))
		} else {
			blocked = Bin(OpAnd, blocked, Not(orTrue(e)))
		}
	}
	return blocked, reads, true
}

// writesMemory reports whether op changes main memory or its buffer.
func writesMemory(op Op) bool {
	switch op.Kind {
	case Write:
		return true
	case Locked:
		return slices.ContainsFunc(op.Body, func(b Op) bool { return b.Kind == Write })
	}
	return false
}

// pureStep returns the registers after op, a step that writes no memory,
// given those before (as expressions over the registers and memory at the
// loop's head), and the condition under which it is enabled (nil: always).
func pureStep(op Op, regs map[int]Expr) (map[int]Expr, Expr) {
	next := maps.Clone(regs)
	var cond Expr
	body := []Op{op}
	if op.Kind == Locked {
		body = op.Body
	}
	for _, b := range body {
		switch b.Kind {
		case Guard:
			cond = and(cond, substitute(b.Expr, next, nil))
		case Read:
			if b.Expr != nil {
				cond = and(cond, Bin(OpEq, V(b.Var), substitute(b.Expr, next, nil)))
			}
			if b.Reg >= 0 {
				next[b.Reg] = V(b.Var)
			}
		case Assign:
			next[b.Reg] = substitute(b.Expr, next, nil)
		}
	}
	return next, cond
}

// regsKey identifies a state of the registers a loop has assigned.
func regsKey(regs map[int]Expr) string {
	keys := slices.Sorted(maps.Keys(regs))
	var b strings.Builder
	for _, r := range keys {
		fmt.Fprintf(&b, "%d=%#v;", r, regs[r])
	}
	return b.String()
}

// and conjoins two conditions, nil meaning true.
func and(a, b Expr) Expr {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	return Bin(OpAnd, a, b)
}

// orTrue returns e, or true when e is nil.
func orTrue(e Expr) Expr {
	if e == nil {
		return C(1)
	}
	return e
}
