package extract

import (
	"go/constant"
	"go/token"
	"go/types"
	"math"

	"golang.org/x/tools/go/ssa"

	"github.com/fencecheck/fencecheck/model"
)

// Go's floats in the model. A float64 value is held as its IEEE 754 bit
// pattern read as an int64, a float32 as the uint32 of its bits, so that
// math.Float64bits, Float64frombits, Float32bits and Float32frombits copy
// a value unchanged and a float field is a cell like a uint64 or uint32 one
// (loaded, stored, swapped and compared bit for bit). Arithmetic,
// comparisons and conversions are [model.Float] operations, which compute
// exactly what gc's code computes on amd64 (NaNs, signed zeros, rounding,
// conversions out of range). The exact engines evaluate them; the domain
// inference enumerates the values a float may take as it does for integers
// (a sum computed a bounded number of times has a finite set of values).

// floatBits returns the width of a float type (32 or 64), or 0 for any
// other type.
func floatBits(t types.Type) uint8 {
	b, ok := t.Underlying().(*types.Basic)
	if !ok {
		return 0
	}
	switch b.Kind() {
	case types.Float64, types.UntypedFloat:
		return 64
	case types.Float32:
		return 32
	}
	return 0
}

// floatConst returns the bit pattern of the constant c of a float type.
func floatConst(c constant.Value, t types.Type) (int64, bool) {
	w := floatBits(t)
	if w == 0 {
		return 0, false
	}
	f, _ := constant.Float64Val(constant.ToFloat(c))
	if w == 32 {
		g, _ := constant.Float32Val(constant.ToFloat(c))
		return int64(math.Float32bits(g)), true
	}
	return int64(math.Float64bits(f)), true
}

// floatOps are the model's operations for Go's binary operators on floats.
var floatOps = map[token.Token]model.FloatOp{
	token.ADD: model.FAdd, token.SUB: model.FSub, token.MUL: model.FMul, token.QUO: model.FDiv,
	token.EQL: model.FEq, token.NEQ: model.FNe, token.LSS: model.FLt, token.LEQ: model.FLe,
	token.GTR: model.FGt, token.GEQ: model.FGe,
}

// floatBinop lowers a binary operator on floats; ok is false when the
// operands are not floats.
func (s *system) floatBinop(in *ssa.BinOp, x, y value) (value, bool) {
	w := floatBits(in.X.Type())
	if w == 0 {
		return value{}, false
	}
	op, known := floatOps[in.Op]
	if !known {
		s.unsupported(in.Pos(), "the operator %s on %s", in.Op, in.X.Type())
	}
	return foldFloat(model.F(op, w, s.asInt(x, in.Pos()), s.asInt(y, in.Pos()))), true
}

// floatNeg lowers -x of a float.
func (s *system) floatNeg(in *ssa.UnOp, x value) (value, bool) {
	w := floatBits(in.X.Type())
	if w == 0 || in.Op != token.SUB {
		return value{}, false
	}
	return foldFloat(model.F(model.FNeg, w, s.asInt(x, in.Pos()), nil)), true
}

// foldFloat returns the value of e, computed when its operands are
// constants.
func foldFloat(e model.Expr) value {
	f := e.(model.Float)
	cx, okx := f.X.(model.Const)
	cy, oky := f.Y.(model.Const)
	if okx && (oky || f.Op.Unary()) {
		if v, err := model.EvalFloat(f.Op, f.Bits, cx.Value, cy.Value); err == nil {
			return constVal(v)
		}
	}
	return intVal(e)
}

// floatConvert lowers a conversion from or to a float type; ok is false
// when neither type is a float.
func (s *system) floatConvert(in *ssa.Convert, x value) (value, bool) {
	from, to := in.X.Type(), in.Type()
	fw, tw := floatBits(from), floatBits(to)
	if fw == 0 && tw == 0 {
		return value{}, false
	}
	e := s.asInt(x, in.Pos())
	switch {
	case fw != 0 && tw != 0:
		if fw == tw {
			return x, true
		}
		return foldFloat(model.F(model.FFromFloat, tw, e, nil)), true
	case tw != 0:
		if _, _, ok := intBits(from); !ok {
			s.unsupported(in.Pos(), "a conversion from %s to %s", from, to)
		}
		op := model.FFromInt
		if isUnsigned64(from) {
			op = model.FFromUint
		}
		return foldFloat(model.F(op, tw, e, nil)), true
	}
	w, signed, ok := intBits(to)
	if !ok {
		s.unsupported(in.Pos(), "a conversion from %s to %s", from, to)
	}
	// gc on amd64: int64 and int through CVTTSD2SQ, int32 and the
	// narrower types through CVTTSD2SL but uint32 through the 64-bit
	// conversion, uint64 through its own sequence; a narrower result
	// keeps the low bits.
	var v value
	switch {
	case w == 64 && !signed:
		v = foldFloat(model.F(model.FToUint64, fw, e, nil))
	case w == 64 || w == 32 && !signed:
		v = foldFloat(model.F(model.FToInt64, fw, e, nil))
	default:
		v = foldFloat(model.F(model.FToInt32, fw, e, nil))
	}
	if w == 64 || w == 32 && signed {
		return v, true
	}
	if c, ok := v.constant(); ok {
		return constVal(model.WrapValue(c, w, signed)), true
	}
	return intVal(wrapBits(v.e, w, signed)), true
}

// mathCall computes a call of a function of package math on floats that
// the model holds as bits: the bit copies (Float64bits, Float64frombits,
// Float32bits, Float32frombits) and the functions whose result follows
// from the bits (NaN, Inf, IsNaN, IsInf, Signbit, Abs, Copysign), and the
// functions of math/bits that bitsCall computes and the methods of
// time.Duration that durationCall computes. ok is false for other calls; their results stay values fencecheck does not
// compute.
func (s *system) mathCall(fn *ssa.Function, args []value, pos token.Pos) (value, bool) {
	if v, ok := s.bitsCall(fn, args); ok {
		return v, true
	}
	if v, ok := s.durationCall(fn, args); ok {
		return v, true
	}
	obj, _ := fn.Object().(*types.Func)
	if obj == nil || obj.Pkg() == nil || obj.Pkg().Path() != "math" || fn.Signature.Recv() != nil {
		return value{}, false
	}
	arg := func(i int) model.Expr { return s.asInt(args[i], pos) }
	switch fn.Name() {
	case "Float64bits", "Float64frombits", "Float32bits", "Float32frombits":
		return args[0], true
	case "NaN":
		return constVal(int64(math.Float64bits(math.NaN()))), true
	case "Inf":
		if c, ok := args[0].constant(); ok {
			return constVal(int64(math.Float64bits(math.Inf(int(c))))), true
		}
		return value{}, false
	case "IsNaN":
		return foldFloat(model.F(model.FNe, 64, arg(0), arg(0))), true
	case "IsInf":
		c, ok := args[1].constant()
		if !ok {
			return value{}, false
		}
		x := arg(0)
		pos, neg := model.F(model.FEq, 64, x, model.C(int64(math.Float64bits(math.Inf(1))))), model.F(model.FEq, 64, x, model.C(int64(math.Float64bits(math.Inf(-1)))))
		switch {
		case c > 0:
			return foldBool(pos), true
		case c < 0:
			return foldBool(neg), true
		}
		return foldBool(model.Bin(model.OpOr, pos, neg)), true
	case "Signbit":
		return foldBool(model.Bin(model.OpLt, arg(0), model.C(0))), true
	case "Abs":
		return foldBool(model.Bin(model.OpBitAnd, arg(0), model.C(math.MaxInt64))), true
	case "Copysign":
		return foldBool(model.Bin(model.OpBitOr, model.Bin(model.OpBitAnd, arg(0), model.C(math.MaxInt64)),
			model.Bin(model.OpBitAnd, arg(1), model.C(math.MinInt64)))), true
	}
	return value{}, false
}

// foldBool returns the value of an integer expression, computed when it
// has no register or variable in it.
func foldBool(e model.Expr) value {
	constant := true
	model.WalkExpr(e, func(e model.Expr) {
		switch e.(type) {
		case model.RegRef, model.VarRef:
			constant = false
		}
	})
	if constant {
		if v, err := model.Eval(e, &model.Env{}); err == nil {
			return constVal(v)
		}
	}
	return intVal(e)
}

// evalFloat is the abstract value of a float operation: every result of
// the operands' values when they are few, else what its kind bounds.
func (env *absEnv) evalFloat(e model.Float) abs {
	x := env.eval(e.X)
	y := single(0)
	if !e.Op.Unary() {
		y = env.eval(e.Y)
	}
	if x.empty() || y.empty() {
		return abs{}
	}
	xs, okx := x.values()
	ys, oky := y.values()
	if okx && oky && len(xs)*len(ys) <= 4096 {
		var out []int64
		for _, a := range xs {
			for _, b := range ys {
				if r, err := model.EvalFloat(e.Op, e.Bits, a, b); err == nil {
					out = append(out, r)
				}
			}
		}
		return fromSet(out)
	}
	switch {
	case e.Op.Compare():
		return abs{set: []int64{0, 1}}
	case e.Op == model.FToInt32:
		return abs{ival: true, lo: math.MinInt32, hi: math.MaxInt32}
	case e.Op < model.FToInt64 && e.Bits == 32:
		return abs{ival: true, lo: 0, hi: math.MaxUint32}
	}
	return topAbs
}

// floatCells returns the shared variables and the registers of every
// process that hold values computed by float operations, or copied from
// such cells: a float field, and also the uint64 that holds a float's bits
// and the registers that load it.
func floatCells(prog *model.Program) (vars []bool, regs [][]bool) {
	vars = make([]bool, len(prog.Vars))
	regs = make([][]bool, len(prog.Procs))
	for i, q := range prog.Procs {
		regs[i] = make([]bool, len(q.Regs))
	}
	for changed := true; changed; {
		changed = false
		for i, q := range prog.Procs {
			mark := func(b *bool) {
				if !*b {
					*b, changed = true, true
				}
			}
			fromFloat := func(e model.Expr) bool {
				found := false
				model.WalkExpr(e, func(e model.Expr) {
					switch e := e.(type) {
					case model.Float:
						found = true
					case model.RegRef:
						found = found || e.Proc < 0 && e.Reg >= 0 && e.Reg < len(regs[i]) && regs[i][e.Reg]
					case model.VarRef:
						found = found || e.Var >= 0 && e.Var < len(vars) && vars[e.Var]
					}
				})
				return found
			}
			var visit func(o model.Op)
			visit = func(o model.Op) {
				switch o.Kind {
				case model.Assign:
					if o.Reg >= 0 && o.Reg < len(regs[i]) && fromFloat(o.Expr) {
						mark(&regs[i][o.Reg])
					}
				case model.Write:
					if o.Var >= 0 && o.Var < len(vars) && fromFloat(o.Expr) {
						mark(&vars[o.Var])
					}
				case model.Read:
					if o.Reg >= 0 && o.Reg < len(regs[i]) && o.Var >= 0 && o.Var < len(vars) && vars[o.Var] {
						mark(&regs[i][o.Reg])
					}
				case model.Locked:
					for _, b := range o.Body {
						visit(b)
					}
				}
			}
			for _, t := range q.Trans {
				visit(t.Op)
			}
		}
	}
	return vars, regs
}

// floatDomain is the domain of a cell that holds float bits when the
// domain inference finds no bound: the whole range of its type (every bit
// pattern), which is finite, so that the exact engines, which compute
// floats, take the system (a search that meets too many values ends at
// its work bound); the other engines do not encode floats.
func floatDomain(d model.Domain, float bool, lo, hi int64) model.Domain {
	if !d.Unbounded || !float {
		return d
	}
	return model.Range(lo, hi)
}
