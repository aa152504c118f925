package extract

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/fencecheck/fencecheck/model"
)

// Guesses.
//
// Some answers the model does not compute: a comparison with the result
// of strconv.Atoi, of fmt.Sprint, the bool or the error a call of
// strings or strconv returns. Go's answer is one of the two, so the model
// takes either (which only adds runs, and keeps a "correct" verdict
// sound), and marks each of the two transitions with the Guess it
// makes. A finding whose run takes a guess is not yet one: the analyzer
// checks that the bad state is reached whatever the answers are before
// it reports it, and otherwise answers inconclusive, naming the guess.

// GuessKind says what a guess answers.
type GuessKind int

const (
	// GuessCompare is the answer of a comparison (==, <, ...) of a value
	// the model does not compute.
	GuessCompare GuessKind = iota
	// GuessBool is the bool a call returns.
	GuessBool
	// GuessError is whether the error a call returns is nil.
	GuessError
	// GuessLen is the length of a string the model does not compute: one
	// of the lengths that the comparisons made of it tell apart.
	GuessLen
)

// A Guess is the answer that one transition takes to a question the model
// does not compute.
type Guess struct {
	// Site numbers the question within the system: each comparison or
	// call a process lowers is one site, whose two transitions share it.
	Site int
	// Proc is the process that asks it.
	Proc int
	Kind GuessKind
	// Answer is the answer the transition takes: 1 when the comparison
	// holds, the bool is true, the error is not nil, 0 otherwise; the
	// length for GuessLen.
	Answer int64
	// Pos is the comparison's operator or the call's opening parenthesis.
	Pos token.Pos
	// Of says what fencecheck does not compute ("the result of
	// strconv.Atoi").
	Of string
	// Inputs are the expressions over the process's registers that Go's
	// answer is a function of, when Known: the arguments of the calls
	// that made the values compared. Go gives one answer for one input;
	// unknown inputs (a string loaded from memory, a stack, a Builder's)
	// leave the answer free.
	Inputs []model.Expr
	Known  bool
}

// guessAt emits from cur to join the transitions of a guess, one per
// answer: register r := v, marked with its answer. in says what the answer
// is a function of (inputsOf).
func (p *proc) guessAt(cur, join, r int, kind GuessKind, pos token.Pos, of string, in guessInputs, answers ...int64) {
	if len(answers) == 0 {
		answers = []int64{0, 1}
	}
	if len(answers) == 1 {
		// One answer Go's must be: no guess.
		p.emitTo(cur, model.AssignOp(r, model.C(answers[0])), join, pos, Origin{})
		return
	}
	site := p.s.guessSites
	p.s.guessSites++
	for _, v := range answers {
		g := &Guess{Site: site, Proc: p.idx, Kind: kind, Answer: v, Pos: pos, Of: of, Inputs: in.deps, Known: in.known}
		// The transition reads the inputs (0*e), so that they stay live
		// up to it: the analyzer reads them in the states of a run.
		var e model.Expr = model.C(v)
		for _, d := range in.deps {
			e = model.Bin(model.OpAdd, e, model.Bin(model.OpMul, model.C(0), d))
		}
		p.emitTo(cur, model.AssignOp(r, e), join, pos, Origin{Guess: g})
	}
}

// guessInputs are the inputs of a guess: deps when known.
type guessInputs struct {
	deps  []model.Expr
	known bool
}

// unknownInputs are the inputs of a guess about values whose inputs are
// not followed.
var unknownInputs = guessInputs{}

// inputsOf returns the inputs of a guess about the SSA values vs.
func (s *system) inputsOf(fr *frame, vs ...ssa.Value) guessInputs {
	in := guessInputs{known: true}
	for _, sv := range vs {
		var deps []model.Expr
		var ok bool
		if sl, isSlice := sv.(*ssa.Slice); isSlice {
			deps, ok = s.varargDeps(fr, sl)
		} else {
			deps, ok = s.depsOf(s.get(fr, sv), sv.Type())
		}
		if !ok {
			return unknownInputs
		}
		in.deps = append(in.deps, deps...)
	}
	return in
}

// depsOf returns what v, of type t, is a function of: nothing for a
// constant, itself for an integer register, the inputs of a string or a
// result the model does not compute; ok is false for anything else (a
// register that may hold a string the model does not compute, a pointer).
func (s *system) depsOf(v value, t types.Type) ([]model.Expr, bool) {
	switch v.kind {
	case vNil:
		return nil, true
	case vInt:
		if c, ok := v.constant(); ok {
			if isString(t) && c == strAny {
				return v.deps, v.depsKnown
			}
			return nil, true
		}
		if isString(t) && s.heap.hint.anyStrings {
			return nil, false
		}
		return []model.Expr{v.e}, true
	case vOpaque:
		if v.uncomputed && v.depsKnown {
			return v.deps, true
		}
	}
	return nil, false
}

// varargDeps returns the inputs of a call's ... argument: the slice of a
// varargs array, each element of which is stored once and which nothing
// else reaches (varargsOnly).
func (s *system) varargDeps(fr *frame, sl *ssa.Slice) ([]model.Expr, bool) {
	elems, ok := varargsOnly(sl)
	if !ok {
		return nil, false
	}
	var deps []model.Expr
	for _, mi := range elems {
		d, ok := s.depsOf(s.get(fr, mi.X), mi.X.Type())
		if !ok {
			return nil, false
		}
		deps = append(deps, d...)
	}
	return deps, true
}

// varargsOnly returns the interface values stored into the array of a
// call's ... argument sl, in order (appendArgs), each made by a
// MakeInterface.
func varargsOnly(sl *ssa.Slice) ([]*ssa.MakeInterface, bool) {
	vals, ok := appendArgs(sl)
	if !ok {
		return nil, false
	}
	elems := make([]*ssa.MakeInterface, len(vals))
	for i, v := range vals {
		if elems[i], ok = v.(*ssa.MakeInterface); !ok {
			return nil, false
		}
	}
	return elems, true
}

// guessCompare lowers in, a comparison of a value the model does not
// compute (of says which), as a guess.
func (p *proc) guessCompare(fr *frame, in *ssa.BinOp, cur int, of string) int {
	if !used(in) {
		return cur
	}
	r, next := p.choiceReg(fr, in)
	p.guessAt(cur, next, r, GuessCompare, in.Pos(), of, p.s.inputsOf(fr, in.X, in.Y))
	return next
}
