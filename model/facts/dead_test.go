package facts

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/fencecheck/fencecheck/internal/bitgen"
	"github.com/fencecheck/fencecheck/internal/progen"
	"github.com/fencecheck/fencecheck/model"
)

// deadOracle is the definition of the dead registers computed directly:
// round-robin passes over every transition and register until nothing
// changes.
func deadOracle(p *model.Program) [][][]int {
	out := make([][][]int, len(p.Procs))
	for i, q := range p.Procs {
		n := len(q.Regs)
		live := make([][]bool, len(q.Locs))
		for l := range live {
			live[l] = make([]bool, n)
			for _, b := range p.Bad {
				model.WalkExpr(b.Cond, func(e model.Expr) {
					if r, ok := e.(model.RegRef); ok && r.Proc == i && r.Reg >= 0 && r.Reg < n {
						live[l][r.Reg] = true
					}
				})
			}
		}
		for changed := true; changed; {
			changed = false
			for _, t := range q.Trans {
				use, def := make([]bool, n), make([]bool, n)
				useDef(t.Op, use, def)
				for r := range n {
					if !live[t.From][r] && (use[r] || live[t.To][r] && !def[r]) {
						live[t.From][r], changed = true, true
					}
				}
			}
		}
		out[i] = make([][]int, len(q.Locs))
		for l := range live {
			for r := range n {
				if !live[l][r] {
					out[i][l] = append(out[i][l], r)
				}
			}
		}
	}
	return out
}

// TestDeadAgainstOracle checks Dead, a worklist over bit sets, against the
// round-robin fixpoint on generated programs: loops, bad states, locked
// operations and run-time values.
func TestDeadAgainstOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	var progs []*model.Program
	for range 60 {
		progs = append(progs, progen.Simple(rng), progen.Symmetric(rng),
			progen.Race(rng, progen.RaceOptions{Loops: true, Bad: true, Join: true}))
		p, _ := bitgen.Program(rng, true)
		progs = append(progs, p)
	}
	for k, p := range progs {
		got, want := Dead(p), deadOracle(p)
		for i := range want {
			for l := range want[i] {
				if !slices.Equal(got[i][l], want[i][l]) {
					t.Fatalf("program %d, process %d, location %d: dead %v, want %v", k, i, l, got[i][l], want[i][l])
				}
			}
		}
	}
}
