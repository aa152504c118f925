package facts

import "github.com/fencecheck/fencecheck/model"

// Watched returns, for every process and location, whether a bad state may
// tell a state with the process there from one with the process elsewhere
// (its registers as they are): a bad state names the location, or names a
// register of the process. Engines that take a process's local steps in a
// row may pass only locations that are not watched.
func Watched(p *model.Program) [][]bool {
	out := make([][]bool, len(p.Procs))
	for i, q := range p.Procs {
		out[i] = make([]bool, len(q.Locs))
	}
	for _, b := range p.Bad {
		for _, pl := range b.Locs {
			if pl.Proc >= 0 && pl.Proc < len(out) && pl.Loc >= 0 && pl.Loc < len(out[pl.Proc]) {
				out[pl.Proc][pl.Loc] = true
			}
		}
		model.WalkExpr(b.Cond, func(e model.Expr) {
			if r, ok := e.(model.RegRef); ok && r.Proc >= 0 && r.Proc < len(out) {
				for l := range out[r.Proc] {
					out[r.Proc][l] = true
				}
			}
		})
	}
	return out
}
