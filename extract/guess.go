package extract

import (
	"go/token"

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
}

// guessAt emits from cur to join the transitions of a guess, one per
// answer: register r := v, marked with its answer.
func (p *proc) guessAt(cur, join, r int, kind GuessKind, pos token.Pos, of string, answers ...int64) {
	if len(answers) == 0 {
		answers = []int64{0, 1}
	}
	site := p.s.guessSites
	p.s.guessSites++
	for _, v := range answers {
		g := &Guess{Site: site, Proc: p.idx, Kind: kind, Answer: v, Pos: pos, Of: of}
		p.emitTo(cur, model.AssignOp(r, model.C(v)), join, pos, Origin{Guess: g})
	}
}

// guessCompare lowers in, a comparison of a value the model does not
// compute (of says which), as a guess.
func (p *proc) guessCompare(fr *frame, in *ssa.BinOp, cur int, of string) int {
	if !used(in) {
		return cur
	}
	r := p.newReg(p.regName(fr, in), in.Type())
	p.holds(r, fr, in)
	fr.vals[in] = intVal(model.R(r))
	next := p.newLoc(in.Pos())
	p.guessAt(cur, next, r, GuessCompare, in.Pos(), of)
	return next
}
