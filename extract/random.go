package extract

import (
	"fmt"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/fencecheck/fencecheck/model"
)

// Random numbers.
//
// rand.Intn(n) and its relatives of math/rand and math/rand/v2 (Int31n,
// Int63n, IntN, Int32N, Int64N, UintN, Uint32N, Uint64N), with n a constant
// of at most maxRandChoices, return any value of [0, n): a choice between n
// steps, one for each value, so that every value is explored. Other results
// of those packages are values only pure calls may use.

// maxRandChoices bounds the n of a modelled rand.Intn(n).
const maxRandChoices = 16

// randBounded reports whether fn is a bounded random integer function of
// math/rand or math/rand/v2 (a function or a method of *Rand).
func randBounded(fn *ssa.Function) bool {
	obj, _ := fn.Object().(*types.Func)
	if obj == nil || obj.Pkg() == nil {
		return false
	}
	if path := obj.Pkg().Path(); path != "math/rand" && path != "math/rand/v2" {
		return false
	}
	switch fn.Name() {
	case "Intn", "Int31n", "Int63n", "IntN", "Int32N", "Int64N", "UintN", "Uint32N", "Uint64N":
		return true
	}
	return false
}

// randCall lowers r := rand.Intn(n) of a process: n steps, each setting r
// to one value of [0, n).
func (p *proc) randCall(fr *frame, in *ssa.Call, args []value, cur int) int {
	s := p.s
	n, ok := args[len(args)-1].constant()
	if !ok || n <= 0 || n > maxRandChoices {
		s.unsupported(in.Pos(), "%s with a bound other than a constant from 1 to %d", in.Call.StaticCallee().Name(), maxRandChoices)
	}
	if !used(in) {
		return cur
	}
	r, next := p.choiceReg(fr, in)
	for k := range n {
		p.emitTo(cur, model.AssignOp(r, model.C(k)), next, in.Pos(), Origin{})
	}
	return next
}

// Generators.
//
// rand.New(src) in the set-up, src from rand.NewSource (math/rand) or
// rand.NewPCG and rand.NewChaCha8 (math/rand/v2), as a retrier or a
// backoff keeps one for its jitter, is an object of type rand.Rand whose
// methods give what the package's functions of the same name give. Each
// call changes the state of the generator's source, which Go does not
// guard: a call writes a variable of the source (one per NewSource, which
// two generators may share), so that two goroutines calling their methods
// without ordering race, as Go's race detector reports them.

// randPackage reports whether path is math/rand or math/rand/v2.
func randPackage(path string) bool {
	return path == "math/rand" || path == "math/rand/v2"
}

// isRandSource reports whether fn makes a source of random numbers for
// rand.New.
func isRandSource(fn *ssa.Function) bool {
	if fn.Pkg == nil || fn.Signature.Recv() != nil || !randPackage(fn.Pkg.Pkg.Path()) {
		return false
	}
	switch fn.Name() {
	case "NewSource", "NewPCG", "NewChaCha8":
		return true
	}
	return false
}

// isRandNew reports whether fn is rand.New.
func isRandNew(fn *ssa.Function) bool {
	return fn.Pkg != nil && fn.Signature.Recv() == nil && randPackage(fn.Pkg.Pkg.Path()) && fn.Name() == "New"
}

// isRandMethod reports whether fn is a method of *rand.Rand.
func isRandMethod(fn *ssa.Function) bool {
	recv := fn.Signature.Recv()
	if recv == nil {
		return false
	}
	named, ok := types.Unalias(deref(recv.Type())).(*types.Named)
	return ok && named.Obj().Name() == "Rand" && named.Obj().Pkg() != nil && randPackage(named.Obj().Pkg().Path())
}

// RandStateName names the variable of a random source's state in
// findings: every draw of a generator made from the source writes it.
const RandStateName = "the state of a random source"

// randSourceWhy is what a source of random numbers is, as an opaque value.
const randSourceWhy = "a source of random numbers (only rand.New of it is modelled)"

// setupRandCall executes, in the set-up or the package's initialisation,
// rand.NewSource (or its v2 relatives) and rand.New of such a source; ok
// is false for other calls.
func (s *system) setupRandCall(fn *ssa.Function, args []value, pos token.Pos) (value, bool) {
	switch {
	case isRandSource(fn):
		// The source's state: a variable every draw writes.
		v := opaque(randSourceWhy)
		v.env = []value{{kind: vPtr, ptr: pointer{obj: s.newObject(RandStateName, types.Typ[types.Int], nil, -1)}}}
		return v, true
	case isRandNew(fn):
		src := value{}
		if len(args) == 1 {
			src = args[0]
		}
		if src.kind == vIface && len(src.env) == 1 {
			src = src.env[0] // v2's *PCG, boxed as a Source
		}
		if src.kind != vOpaque || src.why != randSourceWhy || len(src.env) != 1 {
			s.unsupported(pos, "rand.New of %s (a source from rand.NewSource, rand.NewPCG or rand.NewChaCha8 is modelled)", describe(args[0]))
		}
		o := s.newObject("", deref(fn.Signature.Results().At(0).Type()), nil, -1)
		if s.randSources == nil {
			s.randSources = map[*object]*object{}
		}
		s.randSources[o] = src.env[0].ptr.obj
		return value{kind: vPtr, ptr: pointer{obj: o}}, true
	}
	return value{}, false
}

// randState lowers the change a call of a method of the generator g
// makes to its state: a write of its source's variable.
func (p *proc) randState(fn *ssa.Function, g value, pos token.Pos, cur int) int {
	var src *object
	if g.kind == vPtr && !g.ptr.dynamic() && len(g.ptr.path) == 0 {
		src = p.s.randSources[g.ptr.obj]
	}
	if src == nil {
		p.s.unsupported(pos, "(*rand.Rand).%s on %s (a generator rand.New made in the set-up is modelled)", fn.Name(), describe(g))
	}
	return p.emit(cur, model.WriteOp(p.s.varFor(pointer{obj: src}), model.C(0)), pos, Origin{})
}

// randFloats are the functions and methods of math/rand and math/rand/v2
// whose results are random floats, which fencecheck does not compute:
// their results are values only pure calls may use (a jitter that only
// sets a timer's duration).
var randFloats = map[string]bool{"Float64": true, "Float32": true, "NormFloat64": true, "ExpFloat64": true}

// randFloatCall lowers a call of a function or method of randFloats, and
// (*rand.Rand).Seed; ok is false for other calls.
func (p *proc) randFloatCall(fr *frame, in *ssa.Call, fn *ssa.Function) bool {
	obj, _ := fn.Object().(*types.Func)
	if obj == nil || obj.Pkg() == nil || !randPackage(obj.Pkg().Path()) {
		return false
	}
	switch {
	case randFloats[fn.Name()]:
		v := opaque(fmt.Sprintf("the result of rand.%s(), a random number fencecheck does not compute", fn.Name()))
		v.uncomputed, v.noise = true, true
		fr.vals[in] = v
		return true
	case fn.Name() == "Seed" && fn.Signature.Recv() != nil:
		return true // the state's change is randState's
	}
	return false
}

// noiseArith returns the result of x op y, of numeric type t, when one
// operand is noise and the other a number, computed or not (a duration
// since a reading of the clock): noise again. Operators that may panic
// on some value (an integer division by anything but a constant other
// than 0, a shift) stay refused.
func noiseArith(op token.Token, x, y value, t types.Type) (value, bool) {
	n := x
	if !n.noise {
		n = y
	}
	b, ok := t.Underlying().(*types.Basic)
	if !n.noise || !ok || b.Info()&types.IsNumeric == 0 || x.kind != vInt && x.kind != vOpaque || y.kind != vInt && y.kind != vOpaque {
		return value{}, false
	}
	switch op {
	case token.ADD, token.SUB, token.MUL:
	case token.QUO, token.REM:
		if c, ok := y.constant(); b.Info()&types.IsInteger != 0 && (!ok || c == 0) {
			return value{}, false
		}
	default:
		return value{}, false
	}
	return n, true
}

// noiseSink reports whether a call of fn may take a random number the
// model does not compute as an argument: a duration of time.Sleep or of
// a timer, which may be any.
func noiseSink(fn *ssa.Function) bool {
	if fn.Pkg == nil || fn.Pkg.Pkg.Path() != "time" {
		return false
	}
	if fn.Signature.Recv() != nil {
		return fn.Name() == "Reset" && isNamed(deref(fn.Signature.Recv().Type()), "time", "Timer")
	}
	switch fn.Name() {
	case "Sleep", "NewTimer", "After", "AfterFunc":
		return true
	}
	return false
}

// noiseArg returns the first argument of args that is a random number the
// model does not compute, and whether there is one.
func noiseArg(args []value) (value, bool) {
	for _, a := range args {
		if a.noise {
			return a, true
		}
	}
	return value{}, false
}

// noiseJoin reports whether vals, the values a join brings together (a
// phi, a function's returns), are numbers one of which at least is
// noise: the join is noise too (a value known on the path without
// jitter, the jittered one on the others).
func noiseJoin(vals []value) bool {
	noise := false
	for _, v := range vals {
		switch {
		case v.noise:
			noise = true
		case v.kind != vInt:
			return false
		}
	}
	return noise
}

// noiseOf returns the first noise of vals, as a random number alone.
func noiseOf(vals []value) value {
	for _, v := range vals {
		if v.noise {
			return plainNoise(v)
		}
	}
	return value{}
}

// isInt reports whether v is an integer the model computes.
func isInt(v value) bool { return v.kind == vInt }

// Random numbers joined with integers.
//
// A join of integers on some paths and random numbers on others (backoff's
// NextBackOff: Stop once the tries are spent, a jittered interval
// otherwise) keeps both: a register holds the integer and a taint register
// is 1 where the path gave the random number. Calls pass the joined value
// on as it is; an operator or a conversion splits the runs (noiseSplit),
// computing the integer's result on the untainted ones and the random
// number's (another random number, or a comparison's either answer) on the
// others, and joins the results again, so that `next == Stop` is exact
// where next is Stop. Any other use takes it as a random number alone, as
// before the join.

// noisyValue returns the joined value held by register r of type t and a
// new taint register, noise being the random number of the tainted paths.
func (p *proc) noisyValue(r int, name string, t types.Type, noise value) value {
	v := noise
	const joined = " (or an integer on another path)"
	what := strings.TrimSuffix(noise.why, ", a random number fencecheck does not compute")
	v.why = strings.TrimSuffix(what, joined) + joined + ", a random number fencecheck does not compute"
	v.e = model.R(r)
	v.taint = model.R(p.newReg(name+".random", types.Typ[types.Bool]))
	return v
}

// noisyParts returns the integer and the taint a join's register and taint
// register take from v, a value one of its paths gives.
func noisyParts(v value) (model.Expr, model.Expr) {
	switch {
	case v.noise && v.taint != nil:
		return v.e, v.taint
	case v.noise:
		return model.C(0), model.C(1)
	}
	return v.e, model.C(0)
}

// isNoisy reports whether v is a join of integers and random numbers.
func isNoisy(v value) bool { return v.noise && v.taint != nil }

// plainNoise returns v, a random number, without the integer a join of it
// kept.
func plainNoise(v value) value {
	if isNoisy(v) {
		v.e, v.taint = nil, nil
	}
	return v
}

// noiseSplit lowers in, an operator or a conversion with an operand that
// joins integers and random numbers (isNoisy), once for each: on the runs
// whose taint is 0 with the integer, on the others with the random number,
// and joins the two results. It reports false for other instructions, and
// for those the split cannot join (their operand is then a random number
// alone, as for any other use).
func (p *proc) noiseSplit(fr *frame, b *ssa.BasicBlock, in ssa.Instruction, cur int) (int, bool) {
	res, ok := in.(ssa.Value)
	if !ok || cur < 0 {
		return 0, false
	}
	switch in := in.(type) {
	case *ssa.BinOp, *ssa.Convert, *ssa.ChangeType:
	case *ssa.UnOp:
		if in.Op != token.SUB && in.Op != token.XOR && in.Op != token.NOT {
			return 0, false
		}
	default:
		return 0, false
	}
	var op ssa.Value
	for _, o := range in.Operands(nil) {
		if o == nil || *o == nil {
			continue
		}
		if v, ok := fr.vals[*o]; ok && isNoisy(v) {
			if op != nil && op != *o {
				return 0, false // two joins: their paths multiply
			}
			op = *o
		}
	}
	if op == nil {
		return 0, false
	}
	v := fr.vals[op]
	st := p.state()
	pos := in.Pos()
	defer func() { fr.vals[op] = v }()
	lower := func(taint model.Expr, with value) (int, value, bool) {
		fr.vals[op] = with
		delete(fr.vals, res)
		next := p.instrOrRefuse(fr, b, in, p.emit(cur, model.GuardOp(taint), pos, Origin{}))
		out, ok := fr.vals[res]
		return next, out, ok
	}
	nextI, outI, okI := lower(negate(v.taint), intVal(v.e))
	nextN, outN, okN := lower(v.taint, plainNoise(v))
	switch {
	case nextI < 0 && nextN < 0:
		return -1, true // both end there (a refusal, a panic)
	case nextI < 0:
		if okN {
			fr.vals[res] = outN
		}
		return nextN, true
	case nextN < 0:
		if okI {
			fr.vals[res] = outI
		}
		return nextI, true
	}
	join := p.newLoc(pos)
	name := p.regName(fr, res)
	switch {
	case !okI && !okN:
		// No result bound (one nothing uses): the two ways join.
		p.emitTo(nextI, model.NopOp(), join, pos, Origin{})
		p.emitTo(nextN, model.NopOp(), join, pos, Origin{})
	case !okI || !okN:
		p.restore(st)
		return 0, false
	case outN.noise && outI.noise:
		fr.vals[res] = plainNoise(outN)
		p.emitTo(nextI, model.NopOp(), join, pos, Origin{})
		p.emitTo(nextN, model.NopOp(), join, pos, Origin{})
	case outI.kind == vInt && (outN.kind == vInt || outN.noise && !isNoisy(outN)):
		r := p.newReg(name, res.Type())
		p.holds(r, fr, res)
		joined := intVal(model.R(r))
		if outN.noise {
			joined = p.noisyValue(r, name, res.Type(), outN)
		}
		for _, side := range []struct {
			at  int
			out value
		}{{nextI, outI}, {nextN, outN}} {
			at := side.at
			if joined.noise {
				e, taint := noisyParts(side.out)
				at = p.emit(at, model.AssignOp(r, e), pos, Origin{})
				p.emitTo(at, model.AssignOp(joined.taint.(model.RegRef).Reg, taint), join, pos, Origin{})
				continue
			}
			p.emitTo(at, model.AssignOp(r, side.out.e), join, pos, Origin{})
		}
		fr.vals[res] = joined
	default:
		p.restore(st)
		return 0, false
	}
	return join, true
}
