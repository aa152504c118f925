package extract

import (
	"math/rand/v2"
	"testing"

	"github.com/fencecheck/fencecheck/model"
)

// TestBitsExprs checks the expressions of Len, LeadingZeros, TrailingZeros
// and OnesCount, evaluated by the model's semantics on a register, against
// Go's math/bits (foldBits) on edge values and random ones of each width.
func TestBitsExprs(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, family := range []string{"Len", "LeadingZeros", "TrailingZeros", "OnesCount"} {
		for _, suffix := range []string{"", "8", "16", "32", "64"} {
			name := family + suffix
			w, _ := bitsWidth(name, family)
			e, ok := bitsExpr(name, model.R(0))
			if !ok {
				t.Fatalf("%s: no expression", name)
			}
			vals := []uint64{0, 1, 2, 3, 1<<(w-1) - 1, 1 << (w - 1), 1<<(w-1) | 1}
			if w == 64 {
				vals = append(vals, ^uint64(0))
			} else {
				vals = append(vals, 1<<w-1)
			}
			for range 200 {
				x := rng.Uint64()
				if w < 64 {
					x &= 1<<w - 1
				}
				vals = append(vals, x, x>>rng.IntN(w))
			}
			for _, x := range vals {
				want, ok := foldBits(name, []int64{int64(x)})
				if !ok {
					t.Fatalf("%s: not folded", name)
				}
				got, err := model.Eval(e, &model.Env{Regs: []int64{int64(x)}})
				if err != nil || got != want {
					t.Errorf("%s(%#x) = %d, %v; want %d", name, x, got, err, want)
				}
			}
		}
	}
}
