package facts

import (
	"math"

	"github.com/fencecheck/fencecheck/model"
)

// InitialStates returns the number of initial states of p: the product of
// the sizes of the domains of the values marked Any (initial '*'),
// saturating at math.MaxInt64 (also for an unbounded domain). Engines that
// enumerate initial states compare it with their budget first, so that a
// wide domain ends in an inconclusive answer instead of an endless loop.
func InitialStates(p *model.Program) int64 {
	n := int64(1)
	mul := func(d model.Domain) {
		k := d.Size()
		switch {
		case k == 0 || n == 0:
			n = 0
		case n > math.MaxInt64/k:
			n = math.MaxInt64
		default:
			n *= k
		}
	}
	for _, v := range p.Vars {
		if v.Init.Any {
			mul(v.Dom)
		}
	}
	for _, q := range p.Procs {
		for _, r := range q.Regs {
			if r.Init.Any {
				mul(r.Dom)
			}
		}
	}
	return n
}
