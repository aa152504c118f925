package progen

import (
	"fmt"
	"math/rand/v2"

	"github.com/fencecheck/fencecheck/model"
)

// Symmetric builds a random program from rng with interchangeable processes:
// two or three copies of one random process of [Simple] (the same code on
// the same variables), and sometimes one other process. The bad states are
// closed under exchanging the copies: for every ordered pair of copies, the
// first at one location and the second at another with a condition on
// their first registers; and, with the other process, every copy at a
// location together with it. Some programs also get a bad state on memory
// (read only when every store buffer is empty).
func Symmetric(rng *rand.Rand) *model.Program {
	base := Simple(rng)
	p := &model.Program{Name: "sym", Vars: base.Vars}
	copies := 2 + rng.IntN(2)
	for k := range copies {
		q := base.Procs[0]
		c := &model.Process{Name: fmt.Sprintf("C%d", k), Regs: append([]model.Reg(nil), q.Regs...),
			Locs: append([]model.Loc(nil), q.Locs...), Init: q.Init, Trans: append([]model.Transition(nil), q.Trans...)}
		p.Procs = append(p.Procs, c)
	}
	other := rng.IntN(2) == 0 && len(base.Procs) > 1
	if other {
		p.Procs = append(p.Procs, base.Procs[1])
	}
	hi := base.Vars[0].Dom.Hi
	val := func() model.Expr { return model.C(rng.Int64N(hi + 1)) }
	nlocs := len(base.Procs[0].Locs)
	la, lb := nlocs-1-rng.IntN(min(2, nlocs)), nlocs-1-rng.IntN(min(2, nlocs))
	ca, cb := val(), val()
	for i := range copies {
		for j := range copies {
			if i == j {
				continue
			}
			p.Bad = append(p.Bad, model.BadState{
				Name: fmt.Sprintf("C%d and C%d", i, j),
				Locs: []model.ProcLoc{{Proc: i, Loc: la}, {Proc: j, Loc: lb}},
				Cond: model.Bin(model.OpAnd,
					model.Bin(model.OpEq, model.RegRef{Proc: i, Reg: 0}, ca),
					model.Bin(model.OpEq, model.RegRef{Proc: j, Reg: 0}, cb)),
			})
		}
	}
	if other {
		o := copies
		lo := len(p.Procs[o].Locs) - 1
		for i := range copies {
			p.Bad = append(p.Bad, model.BadState{
				Name: fmt.Sprintf("C%d with the other", i),
				Locs: []model.ProcLoc{{Proc: i, Loc: la}, {Proc: o, Loc: lo}},
			})
		}
	}
	if rng.IntN(3) == 0 {
		all := make([]model.ProcLoc, len(p.Procs))
		for i, q := range p.Procs {
			all[i] = model.ProcLoc{Proc: i, Loc: len(q.Locs) - 1}
		}
		p.Bad = append(p.Bad, model.BadState{
			Name: "memory at the end",
			Locs: all,
			Cond: model.Bin(model.OpEq, model.V(rng.IntN(len(p.Vars))), val()),
		})
	}
	return p
}
