package smt

// This file holds the part of the API that does not depend on Z3, shared by
// the cgo binding and by the build without Z3.

import (
	"errors"
	"fmt"
	"time"
)

// ErrClosed is returned by every operation on a closed Context.
var ErrClosed = errors.New("smt: context is closed")

// ErrUnavailable is wrapped by the error of [NewContext], and of every
// operation, in a build without Z3: one with cgo disabled or with the build
// tag fencecheck_noz3. [Available] tells the two builds apart. In the cgo
// binding, NewContext wraps it too when the Z3 shared library cannot be
// loaded.
var ErrUnavailable = errors.New("Z3 is unavailable (fencecheck built with cgo disabled or tag fencecheck_noz3, or libz3 not installed); the predicate engine needs libz3")

// ErrNotInt64 is the error of [Model.Int] for a value beyond int64.
var ErrNotInt64 = errors.New("the value does not fit in int64")

// Config configures a new Context.
type Config struct {
	// Timeout bounds every solver check (the check answers Unknown) and every
	// tactic application (it fails with an error). Zero means no bound.
	Timeout time.Duration
	// Params sets further Z3 context parameters by name, for example
	// "rlimit" or "model_validate". Names must be Z3 context parameters.
	Params map[string]string
}

// Result is the answer of a satisfiability check.
type Result uint8

const (
	// Unknown: Z3 gave up (timeout, resource limit, incompleteness).
	Unknown Result = iota
	// Sat: the assertions have a model.
	Sat
	// Unsat: the assertions have no model.
	Unsat
)

// String returns "sat", "unsat" or "unknown".
func (r Result) String() string {
	switch r {
	case Sat:
		return "sat"
	case Unsat:
		return "unsat"
	}
	return "unknown"
}

// ErrUnknown is wrapped by the errors of the decision helpers
// ([Solver.Valid], [Solver.Implies], [Solver.Satisfiable]) when Z3 answers
// Unknown.
var ErrUnknown = errors.New("smt: solver answered unknown")

// Sort is the sort of a term.
type Sort uint8

const (
	// SortOther is any sort but Int and Bool.
	SortOther Sort = iota
	// SortInt is the sort of mathematical integers.
	SortInt
	// SortBool is the sort of truth values.
	SortBool
)

// String returns "Int", "Bool" or "other".
func (s Sort) String() string {
	switch s {
	case SortInt:
		return "Int"
	case SortBool:
		return "Bool"
	}
	return "other"
}

// Op is the top-level operator of a term, for walking formulas.
type Op uint8

// The operators. OpConst is a free constant (a variable), OpVar a variable
// bound by a quantifier, OpOther anything this package does not build.
const (
	OpOther Op = iota
	OpConst
	OpNumeral
	OpTrue
	OpFalse
	OpAnd
	OpOr
	OpNot
	OpImplies
	OpIte
	OpEq
	OpDistinct
	OpLt
	OpLe
	OpGt
	OpGe
	OpAdd
	OpSub
	OpMul
	OpNeg
	OpDiv
	OpMod
	OpRem
	OpExists
	OpForAll
	OpVar
)

var opNames = [...]string{
	OpOther: "other", OpConst: "const", OpNumeral: "numeral", OpTrue: "true",
	OpFalse: "false", OpAnd: "and", OpOr: "or", OpNot: "not", OpImplies: "=>",
	OpIte: "ite", OpEq: "=", OpDistinct: "distinct", OpLt: "<", OpLe: "<=",
	OpGt: ">", OpGe: ">=", OpAdd: "+", OpSub: "-", OpMul: "*", OpNeg: "neg",
	OpDiv: "div", OpMod: "mod", OpRem: "rem", OpExists: "exists",
	OpForAll: "forall", OpVar: "var",
}

// String returns the operator's SMT-LIB name ("<=", "and", ...).
func (o Op) String() string {
	if int(o) < len(opNames) {
		return opNames[o]
	}
	return fmt.Sprintf("Op(%d)", o)
}
