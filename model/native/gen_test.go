package native

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/fencecheck/fencecheck/model"
)

// gen builds random valid programs. Names are drawn from identifiers,
// keywords, numbers and arbitrary strings, so that quoting is exercised.
type gen struct {
	r *rand.Rand
	p *model.Program
}

func randomProgram(r *rand.Rand) *model.Program {
	g := &gen{r: r, p: &model.Program{}}
	if r.IntN(4) > 0 {
		g.p.Name = g.name(nil)
	}
	used := map[string]bool{}
	for range r.IntN(5) {
		dom, init := g.decl()
		g.p.Vars = append(g.p.Vars, model.Var{Name: g.name(used), Dom: dom, Init: init})
	}
	usedProcs := map[string]bool{}
	for range 1 + r.IntN(3) {
		q := &model.Process{Name: g.name(usedProcs)}
		usedRegs := map[string]bool{}
		for range r.IntN(4) {
			dom, init := g.decl()
			q.Regs = append(q.Regs, model.Reg{Name: g.name(usedRegs), Dom: dom, Init: init})
		}
		usedLocs := map[string]bool{}
		for range 1 + r.IntN(6) {
			q.AddLoc(g.name(usedLocs), model.Pos{})
		}
		q.Init = r.IntN(len(q.Locs))
		for range r.IntN(9) {
			q.AddTrans(r.IntN(len(q.Locs)), g.op(q, false), r.IntN(len(q.Locs)), g.pos())
		}
		g.p.Procs = append(g.p.Procs, q)
	}
	for range r.IntN(4) {
		var b model.BadState
		if r.IntN(2) == 0 {
			b.Name = g.name(nil)
		}
		for range r.IntN(3) {
			pi := r.IntN(len(g.p.Procs))
			b.Locs = append(b.Locs, model.ProcLoc{Proc: pi, Loc: r.IntN(len(g.p.Procs[pi].Locs))})
		}
		if r.IntN(2) == 0 {
			b.Cond = g.expr(nil, true, 3)
		}
		g.p.Bad = append(g.p.Bad, b)
	}
	return g.p
}

var sampleNames = []string{
	"x", "y", "flag_0", "L0", "L1", "P0", "r", "t12", "_", "A",
	"init", "reg", "locs", "bad", "var", "read", "locked", "int", "program",
	"0", "1", "007", "42",
	"l.flag[0]", "with space", `quote"d`, "tab\there", "π", "ünï", "", "$r", "a-b", "//c", "#h",
	"\xff\xfe", "new\nline",
}

// name returns a random name not in used, and adds it there.
func (g *gen) name(used map[string]bool) string {
	for i := 0; ; i++ {
		s := sampleNames[g.r.IntN(len(sampleNames))]
		if i > 5 || g.r.IntN(3) == 0 {
			s = fmt.Sprintf("%s%d", s, g.r.IntN(1000))
		}
		if !used[s] {
			if used != nil {
				used[s] = true
			}
			return s
		}
	}
}

var interesting = []int64{0, 1, -1, 2, -2, 7, 100, -100, math.MaxInt64, math.MinInt64, math.MaxInt64 - 1, math.MinInt64 + 1}

func (g *gen) int64() int64 {
	switch g.r.IntN(3) {
	case 0:
		return interesting[g.r.IntN(len(interesting))]
	case 1:
		return int64(g.r.Uint64())
	}
	return g.r.Int64N(21) - 10
}

func (g *gen) decl() (model.Domain, model.Init) {
	var d model.Domain
	if g.r.IntN(4) == 0 {
		d = model.Unbounded
	} else {
		a, b := g.int64(), g.int64()
		d = model.Range(min(a, b), max(a, b))
	}
	var in model.Init
	switch g.r.IntN(4) {
	case 0:
		in.Any = true
	case 1:
		in.Value = d.Lo
	case 2:
		in.Value = d.Hi
	default:
		if d.Unbounded {
			in.Value = g.int64()
		} else if n := d.Hi - d.Lo; n >= 0 && n < math.MaxInt64 {
			in.Value = d.Lo + g.r.Int64N(d.Hi-d.Lo+1)
		} else {
			in.Value = d.Lo
		}
	}
	return d, in
}

func (g *gen) pos() model.Pos {
	files := []string{"a.go", "dir/sub/b_test.go", "", "with space.go", `C:\x.go`, "a//b.go", "-x+y~.go", "ü.go"}
	switch g.r.IntN(5) {
	case 0:
		return model.Pos{}
	case 1:
		return model.Pos{File: "only-file.go"} // not valid: no line
	}
	return model.Pos{File: files[g.r.IntN(len(files))], Line: 1 + g.r.IntN(5000), Col: g.r.IntN(80)}
}

// op returns a random valid operation of q.
func (g *gen) op(q *model.Process, inLocked bool) model.Op {
	nv, nr := len(g.p.Vars), len(q.Regs)
	for {
		switch g.r.IntN(8) {
		case 0:
			return model.NopOp()
		case 1:
			if !inLocked {
				return model.FenceOp()
			}
		case 2:
			if nr > 0 {
				return model.AssignOp(g.r.IntN(nr), g.expr(q, inLocked, 3))
			}
		case 3:
			return model.GuardOp(g.expr(q, inLocked, 3))
		case 4:
			if nv > 0 {
				reg := -1
				if nr > 0 && g.r.IntN(3) > 0 {
					reg = g.r.IntN(nr)
				}
				o := model.ReadOp(g.r.IntN(nv), reg)
				if g.r.IntN(3) == 0 {
					o.Expr = g.expr(q, inLocked, 2)
				}
				o.Atomic = !inLocked && g.r.IntN(4) == 0
				return o
			}
		case 5:
			if nv > 0 {
				return model.WriteOp(g.r.IntN(nv), g.expr(q, inLocked, 3))
			}
		case 6, 7:
			if !inLocked {
				var body []model.Op
				for range g.r.IntN(4) {
					body = append(body, g.op(q, true))
				}
				return model.LockedOp(body...)
			}
		}
	}
}

var binaryOps = []model.BinOp{
	model.OpAdd, model.OpSub, model.OpMul, model.OpDiv, model.OpMod,
	model.OpEq, model.OpNe, model.OpLt, model.OpLe, model.OpGt, model.OpGe,
	model.OpAnd, model.OpOr,
	model.OpBitAnd, model.OpBitOr, model.OpXor, model.OpAndNot,
	model.OpShl, model.OpShr, model.OpShrU,
}

// expr returns a random expression of q (nil: a bad-state condition), which
// may name memory when mem is set.
func (g *gen) expr(q *model.Process, mem bool, depth int) model.Expr {
	if depth > 0 {
		switch g.r.IntN(5) {
		case 0:
			op := [...]model.BinOp{model.OpNeg, model.OpNot, model.OpCompl}[g.r.IntN(3)]
			return model.Unary{Op: op, X: g.expr(q, mem, depth-1)}
		case 1, 2:
			return model.Bin(binaryOps[g.r.IntN(len(binaryOps))], g.expr(q, mem, depth-1), g.expr(q, mem, depth-1))
		case 3:
			bits := uint8(1 + g.r.IntN(model.MaxWrapBits))
			return model.W(g.expr(q, mem, depth-1), bits, g.r.IntN(2) == 0)
		}
	}
	for {
		switch g.r.IntN(3) {
		case 0:
			return model.C(g.int64())
		case 1:
			if q != nil && len(q.Regs) > 0 {
				return model.R(g.r.IntN(len(q.Regs)))
			}
			if q == nil {
				pi := g.r.IntN(len(g.p.Procs))
				if n := len(g.p.Procs[pi].Regs); n > 0 {
					return model.RegRef{Proc: pi, Reg: g.r.IntN(n)}
				}
			}
		case 2:
			if mem && len(g.p.Vars) > 0 {
				return model.V(g.r.IntN(len(g.p.Vars)))
			}
		}
	}
}
