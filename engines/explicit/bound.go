package explicit

import (
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/facts"
)

// tsoBound returns the buffer bound to search with and whether it is exact:
// Engine.Bound when set (exact when it is at least the drain bound), else the
// drain bound (facts.DrainBound) when it is finite, else DefaultBound.
func (e *Engine) tsoBound(p *model.Program) (int, bool) {
	need, finite := facts.DrainBound(p)
	switch {
	case e.Bound > 0:
		return e.Bound, finite && e.Bound >= need
	case finite:
		return max(need, 1), true
	default:
		return DefaultBound, false
	}
}
