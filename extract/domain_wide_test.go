package extract

import (
	"math"
	"testing"
)

// TestWideIntervals checks the abstract values of intervals wider than
// 2^63, whose width hi-lo overflows an int64: they must not be enumerated
// (an endless loop that allocates until the process is killed) nor turned
// into small intervals.
func TestWideIntervals(t *testing.T) {
	tests := []struct {
		name   string
		lo, hi int64
		small  bool // values() enumerates it
	}{
		{"all of int64", math.MinInt64, math.MaxInt64, false},
		{"wider than 2^63", -5e18, 5e18, false},
		{"exactly 2^63", math.MinInt64, -1, false},
		{"small", -2, 3, true},
		{"at the enumeration limit", 0, setCap*4 - 1, true},
		{"just past it", 0, setCap * 4, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := abs{ival: true, lo: tt.lo, hi: tt.hi}
			vs, ok := a.values()
			if ok != tt.small {
				t.Fatalf("values() enumerates = %v, want %v", ok, tt.small)
			}
			if ok && int64(len(vs)) != tt.hi-tt.lo+1 {
				t.Errorf("values() = %d values, want %d", len(vs), tt.hi-tt.lo+1)
			}
			// Clipping top to the interval's inner part gives an interval
			// only when it is narrower than setCap.
			inner := abs{ival: true, lo: tt.lo + 1, hi: tt.hi - 1}
			if got := clip(topAbs, inner.lo, inner.hi); got.top != wide(inner) {
				t.Errorf("clip(top, %d, %d) = %+v; wide = %v", inner.lo, inner.hi, got, wide(inner))
			}
			if !tt.small && !wide(a) {
				t.Errorf("wide(%d..%d) = false", tt.lo, tt.hi)
			}
		})
	}
}
