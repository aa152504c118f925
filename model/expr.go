package model

import (
	"errors"
	"fmt"
	"math"
	"strings"
)

// Expr is an integer expression over constants, registers and (inside locked
// bodies and bad-state conditions) shared memory. Booleans are 0 and 1;
// floats are their bit patterns, computed by [Float].
// Expressions are immutable and may be shared.
type Expr interface{ expr() }

// Const is an integer literal.
type Const struct{ Value int64 }

// RegRef is a register. Proc is -1 for the register of the executing process,
// or a process index in a [BadState] condition.
type RegRef struct{ Proc, Reg int }

// VarRef is the value of a shared variable in main memory.
type VarRef struct{ Var int }

// Unary is -X, !X or ^X.
type Unary struct {
	Op BinOp // OpNeg, OpNot or OpCompl
	X  Expr
}

// Binary is X Op Y.
type Binary struct {
	Op   BinOp
	X, Y Expr
}

// Wrap is X reduced to the values of an integer type of Bits bits, as Go's
// arithmetic and conversions reduce a result: modulo 2^Bits into
// [0, 2^Bits) when not Signed, into [-2^(Bits-1), 2^(Bits-1)) when Signed.
// Bits is between 1 and [MaxWrapBits]. No Wrap is needed at 64 bits: the
// model's integers are int64, whose arithmetic wraps there by itself.
type Wrap struct {
	X      Expr
	Bits   uint8
	Signed bool
}

// MaxWrapBits is the widest [Wrap]: 2^MaxWrapBits is an int64.
const MaxWrapBits = 62

func (Const) expr()  {}
func (RegRef) expr() {}
func (VarRef) expr() {}
func (Unary) expr()  {}
func (Binary) expr() {}
func (Wrap) expr()   {}

// BinOp is an operator of [Unary] or [Binary].
type BinOp uint8

// Operators, in no particular order.
const (
	OpAdd BinOp = iota
	OpSub
	OpMul
	OpDiv
	OpMod
	OpEq
	OpNe
	OpLt
	OpLe
	OpGt
	OpGe
	OpAnd
	OpOr
	OpNeg
	OpNot
	// The bitwise operators of Go on int64 values (two's complement).
	OpBitAnd // x & y
	OpBitOr  // x | y
	OpXor    // x ^ y
	OpAndNot // x &^ y
	// The shifts. A negative count faults ([ErrNegShift]); a count of 64 or
	// more shifts every bit out.
	OpShl  // x << y
	OpShr  // x >> y, arithmetic: the right shift of a signed value
	OpShrU // x >>> y, logical: the right shift of a uint64 bit pattern
	// OpCompl is the unary bitwise complement ^x.
	OpCompl
)

var binOpText = [...]string{"+", "-", "*", "/", "%", "==", "!=", "<", "<=", ">", ">=", "&&", "||", "-", "!",
	"&", "|", "^", "&^", "<<", ">>", ">>>", "^"}

// IsBinary reports whether o is an operator of [Binary].
func (o BinOp) IsBinary() bool { return o < OpNeg || o >= OpBitAnd && o <= OpShrU }

// Negated returns the comparison that holds when comparison o fails (x < y
// fails when x >= y); other operators come back as they are.
func (o BinOp) Negated() BinOp {
	switch o {
	case OpEq:
		return OpNe
	case OpNe:
		return OpEq
	case OpLt:
		return OpGe
	case OpLe:
		return OpGt
	case OpGt:
		return OpLe
	case OpGe:
		return OpLt
	}
	return o
}

// Mirrored returns the comparison that holds of y and x when comparison o
// holds of x and y (x < y is y > x); other operators come back as they are.
func (o BinOp) Mirrored() BinOp {
	switch o {
	case OpLt:
		return OpGt
	case OpLe:
		return OpGe
	case OpGt:
		return OpLt
	case OpGe:
		return OpLe
	}
	return o
}

// IsUnary reports whether o is an operator of [Unary].
func (o BinOp) IsUnary() bool { return o == OpNeg || o == OpNot || o == OpCompl }

// String returns the operator's symbol.
func (o BinOp) String() string {
	if int(o) < len(binOpText) {
		return binOpText[o]
	}
	return fmt.Sprintf("BinOp(%d)", o)
}

// precedence for printing; higher binds tighter.
func (o BinOp) precedence() int {
	switch o {
	case OpOr:
		return 1
	case OpAnd:
		return 2
	case OpEq, OpNe, OpLt, OpLe, OpGt, OpGe:
		return 3
	case OpAdd, OpSub, OpBitOr, OpXor:
		return 4
	default:
		return 5
	}
}

// C returns the constant v.
func C(v int64) Expr { return Const{v} }

// R returns the register r of the executing process.
func R(r int) Expr { return RegRef{Proc: -1, Reg: r} }

// V returns the memory value of shared variable x.
func V(x int) Expr { return VarRef{x} }

// Bin returns x op y.
func Bin(op BinOp, x, y Expr) Expr { return Binary{op, x, y} }

// Not returns !x.
func Not(x Expr) Expr { return Unary{OpNot, x} }

// W returns x wrapped to bits bits, signed or not (see [Wrap]).
func W(x Expr, bits uint8, signed bool) Expr { return Wrap{X: x, Bits: bits, Signed: signed} }

// WrapValue returns v reduced to bits bits, signed or not, as [Wrap]
// evaluates it: the bits low bits of v's two's complement, read as a
// signed or an unsigned number. It is exact for every int64 v (the value of
// an expression whose int64 arithmetic wrapped is congruent to the
// mathematical one modulo 2^64, so modulo 2^bits).
func WrapValue(v int64, bits uint8, signed bool) int64 {
	if bits == 0 || bits >= 64 {
		return v
	}
	u := uint64(v) & (1<<bits - 1)
	if signed && u>>(bits-1) != 0 {
		return int64(u) - 1<<bits
	}
	return int64(u)
}

// Env is what an expression is evaluated against.
type Env struct {
	Regs    []int64   // registers of the executing process
	AllRegs [][]int64 // registers of every process, for qualified references
	Mem     []int64   // main memory, for VarRef; nil where memory may not be named
	// Ints is the program's integers: with Mathematical, a sum,
	// difference, product or negation beyond int64 is [ErrOverflow]
	// instead of wrapping.
	Ints Integers
}

// ErrDivZero is returned when an expression divides by zero.
var ErrDivZero = errors.New("division by zero")

// ErrOverflow is returned when an expression of a program with
// [Mathematical] integers computes a value beyond int64, which the
// model's values cannot represent.
var ErrOverflow = errors.New("value beyond int64 (the program's integers are mathematical)")

// ErrNegShift is returned when an expression shifts by a negative count (a
// run-time panic in Go).
var ErrNegShift = errors.New("negative shift amount")

// Eval evaluates e in env.
func Eval(e Expr, env *Env) (int64, error) {
	switch e := e.(type) {
	case Const:
		return e.Value, nil
	case RegRef:
		if e.Proc < 0 {
			if e.Reg < 0 || e.Reg >= len(env.Regs) {
				return 0, fmt.Errorf("register %d out of range", e.Reg)
			}
			return env.Regs[e.Reg], nil
		}
		if e.Proc >= len(env.AllRegs) || e.Reg < 0 || e.Reg >= len(env.AllRegs[e.Proc]) {
			return 0, fmt.Errorf("register %d of process %d out of range", e.Reg, e.Proc)
		}
		return env.AllRegs[e.Proc][e.Reg], nil
	case VarRef:
		if env.Mem == nil || e.Var < 0 || e.Var >= len(env.Mem) {
			return 0, fmt.Errorf("shared variable %d cannot be named here", e.Var)
		}
		return env.Mem[e.Var], nil
	case Unary:
		x, err := Eval(e.X, env)
		if err != nil {
			return 0, err
		}
		switch e.Op {
		case OpNot:
			return b2i(x == 0), nil
		case OpCompl:
			return ^x, nil
		case OpNeg:
			if env.Ints == Mathematical && x == math.MinInt64 {
				return 0, ErrOverflow
			}
			return -x, nil
		}
		return 0, fmt.Errorf("unknown unary operator %v", e.Op)
	case Binary:
		x, err := Eval(e.X, env)
		if err != nil {
			return 0, err
		}
		// Short-circuit the logical operators.
		switch e.Op {
		case OpAnd:
			if x == 0 {
				return 0, nil
			}
		case OpOr:
			if x != 0 {
				return 1, nil
			}
		}
		y, err := Eval(e.Y, env)
		if err != nil {
			return 0, err
		}
		if env.Ints == Mathematical {
			return applyExact(e.Op, x, y)
		}
		return apply(e.Op, x, y)
	case Wrap:
		x, err := Eval(e.X, env)
		if err != nil {
			return 0, err
		}
		return WrapValue(x, e.Bits, e.Signed), nil
	case Float:
		x, err := Eval(e.X, env)
		if err != nil {
			return 0, err
		}
		var y int64
		if !e.Op.Unary() {
			if y, err = Eval(e.Y, env); err != nil {
				return 0, err
			}
		}
		return EvalFloat(e.Op, e.Bits, x, y)
	case nil:
		return 0, errors.New("missing expression")
	}
	return 0, fmt.Errorf("unknown expression %T", e)
}

// applyExact is apply for mathematical integers: a sum, difference,
// product or quotient that leaves int64 is ErrOverflow.
func applyExact(op BinOp, x, y int64) (int64, error) {
	switch op {
	case OpAdd:
		if s := x + y; (s > x) == (y > 0) {
			return s, nil
		}
	case OpSub:
		if d := x - y; (d < x) == (y > 0) {
			return d, nil
		}
	case OpMul:
		if x == 0 || y == 0 {
			return 0, nil
		}
		if p := x * y; p/y == x && !(x == -1 && y == math.MinInt64) && !(y == -1 && x == math.MinInt64) {
			return p, nil
		}
	case OpDiv:
		if x == math.MinInt64 && y == -1 {
			break
		}
		return apply(op, x, y)
	default:
		return apply(op, x, y)
	}
	return 0, ErrOverflow
}

func apply(op BinOp, x, y int64) (int64, error) {
	switch op {
	case OpAdd:
		return x + y, nil
	case OpSub:
		return x - y, nil
	case OpMul:
		return x * y, nil
	case OpDiv:
		if y == 0 {
			return 0, ErrDivZero
		}
		return x / y, nil
	case OpMod:
		if y == 0 {
			return 0, ErrDivZero
		}
		return x % y, nil
	case OpEq:
		return b2i(x == y), nil
	case OpNe:
		return b2i(x != y), nil
	case OpLt:
		return b2i(x < y), nil
	case OpLe:
		return b2i(x <= y), nil
	case OpGt:
		return b2i(x > y), nil
	case OpGe:
		return b2i(x >= y), nil
	case OpAnd:
		return b2i(x != 0 && y != 0), nil
	case OpOr:
		return b2i(x != 0 || y != 0), nil
	case OpBitAnd:
		return x & y, nil
	case OpBitOr:
		return x | y, nil
	case OpXor:
		return x ^ y, nil
	case OpAndNot:
		return x &^ y, nil
	case OpShl, OpShr, OpShrU:
		return Shift(op, x, y)
	}
	return 0, fmt.Errorf("unknown operator %v", op)
}

// Shift returns x << y, x >> y or x >>> y (op) as Go shifts an int64 (a
// uint64 bit pattern for OpShrU): [ErrNegShift] for a negative count, and
// for a count of 64 or more 0, or -1 when an arithmetic shift moves the
// sign of a negative x into every bit.
func Shift(op BinOp, x, y int64) (int64, error) {
	if y < 0 {
		return 0, ErrNegShift
	}
	if y > 63 {
		y = 64
	}
	switch op {
	case OpShl:
		return x << uint64(y), nil
	case OpShr:
		return x >> uint64(y), nil
	case OpShrU:
		return int64(uint64(x) >> uint64(y)), nil
	}
	return 0, fmt.Errorf("%v is not a shift", op)
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// FormatExpr writes e in the native model syntax. Registers of the executing
// process are written $name; qualified ones proc.$name.
func FormatExpr(e Expr, p *Program, q *Process) string {
	var b strings.Builder
	formatExpr(&b, e, p, q, 0)
	return b.String()
}

func formatExpr(b *strings.Builder, e Expr, p *Program, q *Process, outer int) {
	n := names{p, q}
	switch e := e.(type) {
	case Const:
		if e.Value < 0 && outer > 0 {
			fmt.Fprintf(b, "(%d)", e.Value)
		} else {
			fmt.Fprint(b, e.Value)
		}
	case RegRef:
		if e.Proc < 0 {
			b.WriteString(n.reg(e.Reg))
			return
		}
		if p != nil && e.Proc < len(p.Procs) {
			qq := p.Procs[e.Proc]
			b.WriteString(qq.Name + "." + names{p, qq}.reg(e.Reg))
			return
		}
		fmt.Fprintf(b, "p%d.$r%d", e.Proc, e.Reg)
	case VarRef:
		b.WriteString(n.vr(e.Var))
	case Unary:
		b.WriteString(e.Op.String())
		formatExpr(b, e.X, p, q, 6)
	case Binary:
		prec := e.Op.precedence()
		if prec <= outer {
			b.WriteString("(")
		}
		formatExpr(b, e.X, p, q, prec-1)
		fmt.Fprintf(b, " %s ", e.Op)
		formatExpr(b, e.Y, p, q, prec)
		if prec <= outer {
			b.WriteString(")")
		}
	case Wrap:
		b.WriteString(e.TypeName() + "(")
		formatExpr(b, e.X, p, q, 0)
		b.WriteString(")")
	case Float:
		b.WriteString(e.Op.Name(e.Bits) + "(")
		formatExpr(b, e.X, p, q, 0)
		if !e.Op.Unary() {
			b.WriteString(", ")
			formatExpr(b, e.Y, p, q, 0)
		}
		b.WriteString(")")
	case nil:
		b.WriteString("<nil>")
	default:
		fmt.Fprintf(b, "<%T>", e)
	}
}

// WalkExpr calls f on e and every subexpression, in prefix order.
func WalkExpr(e Expr, f func(Expr)) {
	if e == nil {
		return
	}
	f(e)
	switch e := e.(type) {
	case Unary:
		WalkExpr(e.X, f)
	case Binary:
		WalkExpr(e.X, f)
		WalkExpr(e.Y, f)
	case Wrap:
		WalkExpr(e.X, f)
	case Float:
		WalkExpr(e.X, f)
		WalkExpr(e.Y, f)
	}
}

// TypeName names the integer type w wraps to as Go would: int8, uint32
// (and int5, uint12 for widths Go does not have).
func (w Wrap) TypeName() string {
	if w.Signed {
		return fmt.Sprintf("int%d", w.Bits)
	}
	return fmt.Sprintf("uint%d", w.Bits)
}
