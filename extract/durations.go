package extract

import (
	"math"
	"time"

	"golang.org/x/tools/go/ssa"

	"github.com/fencecheck/fencecheck/model"
)

// The methods of time.Duration that compute a number are computed as Go's
// time package computes them (time/time.go): on a constant duration by
// Go's own methods, and on a duration known only at run time
// Nanoseconds is the duration, Microseconds and Milliseconds its integer
// quotients, and Seconds, Minutes and Hours the same float operations Go
// performs (float64(d / unit) + float64(d % unit) / float64(unit)).
// Durations the clock measures in ticks (clock.go) are not such values:
// only their comparisons with constants are modelled.

// durationCall computes a call of a method of time.Duration on an integer
// duration; ok is false for other calls and other receivers.
func (s *system) durationCall(fn *ssa.Function, args []value) (value, bool) {
	recv := fn.Signature.Recv()
	if recv == nil || !isNamed(recv.Type(), "time", "Duration") || len(args) != 1 || args[0].kind != vInt || args[0].clock != nil {
		return value{}, false
	}
	if c, ok := args[0].constant(); ok {
		d := time.Duration(c)
		switch fn.Name() {
		case "Nanoseconds":
			return constVal(d.Nanoseconds()), true
		case "Microseconds":
			return constVal(d.Microseconds()), true
		case "Milliseconds":
			return constVal(d.Milliseconds()), true
		case "Seconds":
			return constVal(int64(math.Float64bits(d.Seconds()))), true
		case "Minutes":
			return constVal(int64(math.Float64bits(d.Minutes()))), true
		case "Hours":
			return constVal(int64(math.Float64bits(d.Hours()))), true
		case "Abs":
			return constVal(int64(d.Abs())), true
		}
		return value{}, false
	}
	d := args[0].e
	quo := func(unit int64) model.Expr { return model.Bin(model.OpDiv, d, model.C(unit)) }
	inUnits := func(unit int64) model.Expr {
		whole := model.F(model.FFromInt, 64, quo(unit), nil)
		frac := model.F(model.FDiv, 64, model.F(model.FFromInt, 64, model.Bin(model.OpMod, d, model.C(unit)), nil),
			model.C(int64(math.Float64bits(float64(unit)))))
		return model.F(model.FAdd, 64, whole, frac)
	}
	switch fn.Name() {
	case "Nanoseconds":
		return intVal(d), true
	case "Microseconds":
		return intVal(quo(int64(time.Microsecond))), true
	case "Milliseconds":
		return intVal(quo(int64(time.Millisecond))), true
	case "Seconds":
		return intVal(inUnits(int64(time.Second))), true
	case "Minutes":
		return intVal(inUnits(int64(time.Minute))), true
	case "Hours":
		return intVal(inUnits(int64(time.Hour))), true
	}
	return value{}, false
}
