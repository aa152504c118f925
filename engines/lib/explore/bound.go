package explore

import (
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/facts"
)

// tsoBound returns the buffer bound to search with and whether it is exact:
// o.Bound when set (exact when it is at least the drain bound), else the
// drain bound (facts.DrainBound) when it is finite, else DefaultBound.
func (o *Options) tsoBound(p *model.Program) (int, bool) {
	need, finite := facts.DrainBound(p)
	switch {
	case o.Bound > 0:
		return o.Bound, finite && o.Bound >= need
	case finite:
		return max(need, 1), true
	default:
		return DefaultBound, false
	}
}
