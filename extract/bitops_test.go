package extract_test

import (
	"fmt"
	"testing"

	"github.com/fencecheck/fencecheck/internal/longtest"
)

// bitExpr returns x combined by a bitwise operator with an expression of
// type t, or x shifted by a count held in a field (of uint8, of uint64,
// whose counts may be 2^63 or more, or of int8 made non-negative).
func (g *exprGen) bitExpr(t, x string, depth int) string {
	switch g.r.IntN(5) {
	case 0, 1:
		return fmt.Sprintf("(%s %s %s)", x, g.pick([]string{"&", "|", "^", "&^"}), g.expr(t, depth-1))
	case 2:
		return fmt.Sprintf("(%s %s %s)", x, g.pick([]string{"<<", ">>"}), g.pick(g.all["uint8"]))
	case 3:
		return fmt.Sprintf("(%s %s %s)", x, g.pick([]string{"<<", ">>"}), g.pick(g.all["uint64"]))
	}
	return fmt.Sprintf("(%s %s (%s & 127))", x, g.pick([]string{"<<", ">>"}), g.pick(g.all["int8"]))
}

// TestGoBitwiseSemantics is TestGoIntegerSemantics with the bitwise
// operators of two run-time values and shifts by run-time counts: Go's
// values and the model's must agree on int8, uint8, int16, uint32, int64
// and uint64.
func TestGoBitwiseSemantics(t *testing.T) {
	if longtest.Quick() {
		t.Skip("runs the go command")
	}
	for _, seed := range []uint64{7, 2027} {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			g := newExprGen(seed)
			g.bitwise = true
			checkGoSemantics(t, g)
		})
	}
}
