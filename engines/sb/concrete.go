package sb

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"math/big"

	"github.com/fencecheck/fencecheck/model"
)

// faultProgram is a program with explicit fault transitions, and the map back
// to the original program's transitions.
type faultProgram struct {
	prog *model.Program
	// orig[p][t] is the original transition of transition t of process p.
	orig [][]int
}

// withFaults returns a copy of p in which every transition that can leave a
// finite domain or divide by zero has a twin, guarded by that condition, that
// leads to a new location FAULT of its process; every FAULT is a bad state.
// The twin of a locked operation runs the body up to the faulting operation
// and then the guard. It fails when a read can fault on more values than
// maxReadFaults (one twin per value).
func withFaults(p *model.Program) (*faultProgram, error) {
	c := p.Clone()
	fp := &faultProgram{prog: c, orig: make([][]int, len(c.Procs))}
	for pi, q := range c.Procs {
		n := len(q.Trans)
		fp.orig[pi] = make([]int, n)
		for i := range n {
			fp.orig[pi][i] = i
		}
		fault := -1
		for ti := range n {
			t := q.Trans[ti]
			ops, err := faultOps(p, q, t.Op)
			if err != nil {
				return nil, fmt.Errorf("%s: %s: %w", q.Name, t.Op.Format(p, q), err)
			}
			for _, op := range ops {
				if fault < 0 {
					fault = q.AddLoc("FAULT", model.Pos{})
					c.Bad = append(c.Bad, model.BadState{Name: q.Name + " faults", Locs: []model.ProcLoc{{Proc: pi, Loc: fault}}})
				}
				q.AddTrans(t.From, op, fault, t.Pos)
				fp.orig[pi] = append(fp.orig[pi], ti)
			}
		}
	}
	return fp, nil
}

// maxReadFaults bounds the values outside a register's domain that a read
// into it may fault on (the sb engine adds one twin transition per value).
const maxReadFaults = 1 << 12

// faultOps returns operations that are enabled exactly when op is enabled
// and faults (approximately for nested divisions and shifts: each divisor
// and each shift count is checked).
// It fails when a read can fault on more than maxReadFaults values.
func faultOps(p *model.Program, q *model.Process, op model.Op) ([]model.Op, error) {
	outside := func(e model.Expr, d model.Domain) model.Expr {
		return model.Bin(model.OpOr, model.Bin(model.OpLt, e, model.C(d.Lo)), model.Bin(model.OpGt, e, model.C(d.Hi)))
	}
	divs := func(e model.Expr) []model.Expr {
		var out []model.Expr
		model.WalkExpr(e, func(e model.Expr) {
			b, ok := e.(model.Binary)
			switch {
			case !ok:
			case b.Op == model.OpDiv || b.Op == model.OpMod:
				out = append(out, model.Bin(model.OpEq, b.Y, model.C(0)))
			case b.Op == model.OpShl || b.Op == model.OpShr || b.Op == model.OpShrU:
				out = append(out, model.Bin(model.OpLt, b.Y, model.C(0)))
			}
		})
		return out
	}
	var out []model.Op
	switch op.Kind {
	case model.Assign:
		for _, g := range divs(op.Expr) {
			out = append(out, model.GuardOp(g))
		}
		out = append(out, model.GuardOp(outside(op.Expr, q.Regs[op.Reg].Dom)))
	case model.Guard:
		for _, g := range divs(op.Expr) {
			out = append(out, model.GuardOp(g))
		}
	case model.Write:
		for _, g := range divs(op.Expr) {
			out = append(out, model.GuardOp(g))
		}
		out = append(out, model.GuardOp(outside(op.Expr, p.Vars[op.Var].Dom)))
	case model.Read:
		if op.Expr != nil {
			// The expected value is computed before the value is compared.
			for _, g := range divs(op.Expr) {
				out = append(out, model.GuardOp(g))
			}
		}
		if op.Reg >= 0 && op.Expr != nil {
			// The register receives the value only when it equals the
			// expected one, w: the twin reads w when w is outside the
			// register's domain and, when it is inside, a value above the
			// variable's domain, which no read returns.
			xd, rd := p.Vars[op.Var].Dom, q.Regs[op.Reg].Dom
			if xd.Lo < rd.Lo || xd.Hi > rd.Hi {
				// w + (xd.Hi-rd.Lo+1) must not wrap for w in rd.
				k := new(big.Int).Sub(big.NewInt(xd.Hi), big.NewInt(rd.Lo))
				k.Add(k, big.NewInt(1))
				top := new(big.Int).Add(k, big.NewInt(rd.Hi))
				if !k.IsInt64() || !top.IsInt64() {
					return nil, fmt.Errorf("reading %s %v into $%s %v: the domains are too wide for the sb engine's fault encoding",
						p.Vars[op.Var].Name, xd, q.Regs[op.Reg].Name, rd)
				}
				w := op.Expr
				in := model.Bin(model.OpAnd, model.Bin(model.OpGe, w, model.C(rd.Lo)), model.Bin(model.OpLe, w, model.C(rd.Hi)))
				e := model.Bin(model.OpAdd, w, model.Bin(model.OpMul, in, model.C(xd.Hi-rd.Lo+1)))
				out = append(out, model.ReadEqOp(op.Var, e))
			}
		} else if op.Reg >= 0 {
			xd, rd := p.Vars[op.Var].Dom, q.Regs[op.Reg].Dom
			if n := readFaults(xd, rd); n > maxReadFaults {
				return nil, fmt.Errorf("reading %s %v into $%s %v can fault on %d values, too many for the sb engine (at most %d)",
					p.Vars[op.Var].Name, xd, q.Regs[op.Reg].Name, rd, n, maxReadFaults)
			}
			add := func(lo, hi int64) {
				for v := lo; v <= hi; v++ {
					out = append(out, model.ReadEqOp(op.Var, model.C(v)))
					if v == hi {
						break
					}
				}
			}
			if xd.Lo < rd.Lo {
				add(xd.Lo, min(xd.Hi, rd.Lo-1))
			}
			if xd.Hi > rd.Hi {
				add(max(xd.Lo, rd.Hi+1), xd.Hi)
			}
		}
	case model.Locked:
		for i, b := range op.Body {
			prefix := op.Body[:i:i]
			fs, err := faultOps(p, q, b)
			if err != nil {
				return nil, err
			}
			for _, f := range fs {
				body := append(prefix, lockedFault(f, b)...)
				out = append(out, model.LockedOp(body...))
			}
		}
	}
	return out, nil
}

// readFaults is the number of values of a variable of domain xd that a
// read into a register of domain rd can fault on.
func readFaults(xd, rd model.Domain) int64 {
	var n int64
	if xd.Lo < rd.Lo {
		n = satAdd(n, model.Range(xd.Lo, min(xd.Hi, rd.Lo-1)).Size())
	}
	if xd.Hi > rd.Hi {
		n = satAdd(n, model.Range(max(xd.Lo, rd.Hi+1), xd.Hi).Size())
	}
	return n
}

// readsFit reports whether every plain read of p into a register can
// fault on at most maxReadFaults values, as the engine's encoding of
// faults needs.
func readsFit(p *model.Program) bool {
	var fits func(q *model.Process, op model.Op) bool
	fits = func(q *model.Process, op model.Op) bool {
		switch {
		case op.Kind == model.Read && op.Reg >= 0 && op.Expr == nil:
			return readFaults(p.Vars[op.Var].Dom, q.Regs[op.Reg].Dom) <= maxReadFaults
		case op.Kind == model.Locked:
			for _, b := range op.Body {
				if !fits(q, b) {
					return false
				}
			}
		}
		return true
	}
	for _, q := range p.Procs {
		for _, t := range q.Trans {
			if !fits(q, t.Op) {
				return false
			}
		}
	}
	return true
}

// satAdd returns a+b for non-negative a, b, saturating at math.MaxInt64.
func satAdd(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

// lockedFault turns a fault operation of a locked body's member b into body
// operations (a read twin becomes a guard on memory).
func lockedFault(f, b model.Op) []model.Op {
	if f.Kind == model.Read {
		return []model.Op{model.GuardOp(model.Bin(model.OpEq, model.V(f.Var), f.Expr))}
	}
	return []model.Op{f}
}

// concretize turns the symbolic counterexample that starts at c into a
// concrete TSO trace of the original program p: it takes from the chain of
// Pre steps the sequence of transitions of each process (renamed back
// through the symmetry's canonical forms, see realProcs), and searches the
// interleavings of exactly those sequences, with flushes, for one that
// reaches a bad state of p.
func concretize(ctx context.Context, p *model.Program, fp *faultProgram, c *cons) (*model.Trace, error) {
	seqs := make([][]int, len(p.Procs))
	procs := realProcs(c)
	for d, k := c, 0; d.next != nil; d, k = d.next, k+1 {
		if d.trans >= 0 {
			// Interchangeable processes have the same transitions.
			seqs[procs[k]] = append(seqs[procs[k]], fp.orig[d.proc][d.trans])
		}
	}
	type node struct {
		parent int32
		step   model.Step
		state  model.State
		cur    []int
	}
	var (
		nodes   []node
		visited = map[string]bool{}
		key     []byte
	)
	encode := func(cur []int, s model.State) string {
		key = key[:0]
		for _, k := range cur {
			key = binary.AppendUvarint(key, uint64(k))
		}
		key = s.AppendKey(key)
		return string(key)
	}
	// Initial values: those the initial constraint fixes, the declared ones
	// elsewhere; any remaining '*' is enumerated by p.Initial.
	var goal = -1
	add := func(parent int32, st model.Step, s model.State, cur []int) {
		k := encode(cur, s)
		if visited[k] {
			return
		}
		visited[k] = true
		nodes = append(nodes, node{parent, st, s, cur})
		if goal < 0 && p.IsBad(s) {
			goal = len(nodes) - 1
		}
	}
	if err := p.Initial(func(s model.State) {
		add(-1, model.Step{}, s, make([]int, len(p.Procs)))
	}); err != nil {
		return nil, err
	}
	for head := 0; head < len(nodes) && goal < 0; head++ {
		if head&1023 == 0 && ctx.Err() != nil {
			return nil, fmt.Errorf("concretizing the counterexample: %w", ctx.Err())
		}
		n := nodes[head]
		for pi := range p.Procs {
			if len(n.state.Bufs[pi]) > 0 {
				if st, ns, err := p.Exec(n.state, pi, -1, true, model.TSO); err == nil {
					add(int32(head), st, ns, n.cur)
				}
			}
			if k := n.cur[pi]; k < len(seqs[pi]) {
				if st, ns, err := p.Exec(n.state, pi, seqs[pi][k], false, model.TSO); err == nil {
					cur := append([]int(nil), n.cur...)
					cur[pi]++
					add(int32(head), st, ns, cur)
				}
			}
		}
	}
	if goal < 0 {
		return nil, fmt.Errorf("internal error: no TSO interleaving of the symbolic counterexample reaches a bad state (%d states searched)", len(nodes))
	}
	var steps []model.Step
	i := int32(goal)
	for nodes[i].parent >= 0 {
		steps = append(steps, nodes[i].step)
		i = nodes[i].parent
	}
	for a, b := 0, len(steps)-1; a < b; a, b = a+1, b-1 {
		steps[a], steps[b] = steps[b], steps[a]
	}
	root := nodes[i].state
	return &model.Trace{Model: model.TSO, InitMem: root.Mem, InitRegs: root.Regs, Steps: steps}, nil
}
