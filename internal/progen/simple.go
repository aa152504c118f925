package progen

import (
	"fmt"
	"math/rand/v2"

	"github.com/fencecheck/fencecheck/model"
)

// Simple builds a random program from rng: two or three processes of up
// to eight operations each (plain and locked reads and writes, fences,
// register assignments, guarded backward jumps that make loops), over two or
// three shared variables with domains [0:1] or [0:2]. The bad state names
// one location of each of two processes and a register condition; values
// that leave a domain are faults, which are bad states too.
func Simple(rng *rand.Rand) *model.Program {
	hi := int64(1 + rng.IntN(2))
	nvars := 2 + rng.IntN(2)
	p := &model.Program{Name: "gen"}
	for x := range nvars {
		p.Vars = append(p.Vars, model.Var{Name: fmt.Sprintf("v%d", x), Dom: model.Range(0, hi)})
	}
	nprocs := 2 + rng.IntN(2)
	val := func() model.Expr { return model.C(rng.Int64N(hi + 1)) }
	for i := range nprocs {
		q := &model.Process{Name: fmt.Sprintf("P%d", i), Regs: []model.Reg{
			{Name: "r", Dom: model.Range(0, hi)}, {Name: "s", Dom: model.Range(0, hi)}}}
		n := 1 + rng.IntN(8)
		for k := 0; k <= n; k++ {
			q.AddLoc(fmt.Sprintf("L%d", k), model.Pos{})
		}
		for k := range n {
			x, r := rng.IntN(nvars), rng.IntN(2)
			var op model.Op
			switch rng.IntN(12) {
			case 0, 1, 2:
				op = model.WriteOp(x, val())
			case 3:
				op = model.WriteOp(x, model.R(r))
			case 4, 5, 6:
				op = model.ReadOp(x, r)
			case 7:
				op = model.FenceOp()
			case 8:
				op = model.Exchange(x, r, val())
			case 9:
				if rng.IntN(2) == 0 {
					op = model.CASSuccess(x, -1, val(), val())
				} else {
					op = model.CASFailure(x, r, val())
				}
			case 10:
				op = model.FetchAdd(x, r, model.C(1))
			default:
				op = model.AssignOp(r, model.Bin(model.OpSub, model.C(hi), model.R(r)))
			}
			q.AddTrans(k, op, k+1, model.Pos{})
			if k > 0 && rng.IntN(5) == 0 {
				// A loop: go back while the register holds a value.
				back, c := rng.IntN(k+1), val()
				q.AddTrans(k+1, model.GuardOp(model.Bin(model.OpEq, model.R(r), c)), back, model.Pos{})
			}
		}
		p.Procs = append(p.Procs, q)
	}
	a, b := rng.IntN(nprocs), rng.IntN(nprocs-1)
	if b >= a {
		b++
	}
	la := len(p.Procs[a].Locs) - 1 - rng.IntN(2)
	lb := len(p.Procs[b].Locs) - 1 - rng.IntN(2)
	bad := model.BadState{Name: "bad", Locs: []model.ProcLoc{{Proc: a, Loc: max(la, 0)}, {Proc: b, Loc: max(lb, 0)}}}
	bad.Cond = model.Bin(model.OpAnd,
		model.Bin(model.OpEq, model.RegRef{Proc: a, Reg: 0}, val()),
		model.Bin(model.OpEq, model.RegRef{Proc: b, Reg: 0}, val()))
	p.Bad = []model.BadState{bad}
	return p
}
