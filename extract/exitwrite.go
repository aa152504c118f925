package extract

import "github.com/fencecheck/fencecheck/model"

// exitsLoop reports whether transition t of q, which lies in a loop (comp
// gives the strongly connected components of q's locations), leaves the
// loop right after it for good, so that it runs at most once: t leaves a
// constant in a register r (the success of a compare-and-swap sets ok to
// 1), and every transition from t's target is a guard on r alone that this
// constant makes false or that leaves the loop. The compare-and-swap loops
// of lock-free updates (for { old := x.Load(); if x.CompareAndSwap(old,
// f(old)) { return } }) write only in such a transition, so their writes
// count once in writeEvents.
func exitsLoop(q *model.Process, comp []int, t model.Transition) bool {
	if t.From == t.To {
		return false
	}
	consts := map[int]int64{}
	note := func(o model.Op) {
		switch o.Kind {
		case model.Assign:
			if c, ok := o.Expr.(model.Const); ok {
				consts[o.Reg] = c.Value
			} else {
				delete(consts, o.Reg)
			}
		case model.Read:
			if o.Reg >= 0 {
				delete(consts, o.Reg)
			}
		}
	}
	note(t.Op)
	for _, b := range t.Op.Body {
		note(b)
	}
	if len(consts) == 0 {
		return false
	}
	out := false
	for _, u := range q.Trans {
		if u.From != t.To {
			continue
		}
		if u.Op.Kind != model.Guard {
			return false
		}
		if comp[u.To] != comp[t.To] {
			out = true
			continue
		}
		regs := make([]int64, len(q.Regs))
		known := true
		model.WalkExpr(u.Op.Expr, func(e model.Expr) {
			switch e := e.(type) {
			case model.RegRef:
				c, ok := consts[e.Reg]
				if e.Proc >= 0 || !ok || e.Reg >= len(regs) {
					known = false
					return
				}
				regs[e.Reg] = c
			case model.VarRef:
				known = false
			}
		})
		if !known {
			return false
		}
		if v, err := model.Eval(u.Op.Expr, &model.Env{Regs: regs}); err != nil || v != 0 {
			return false
		}
	}
	return out
}
