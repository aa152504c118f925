package model

import (
	"fmt"
	"math"
	"slices"
)

// Pos is a source position: of a Go statement, or of a construct in a model file.
// The zero Pos is "no position".
type Pos struct {
	File      string
	Line, Col int
}

// IsValid reports whether p names a line.
func (p Pos) IsValid() bool { return p.Line > 0 }

// String formats p as file:line:col, omitting the parts that are unknown.
func (p Pos) String() string {
	switch {
	case !p.IsValid():
		if p.File != "" {
			return p.File
		}
		return "-"
	case p.Col > 0:
		return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
	default:
		return fmt.Sprintf("%s:%d", p.File, p.Line)
	}
}

// Domain is the set of values a variable or register may hold: the closed
// interval [Lo, Hi], or all integers when Unbounded is set.
type Domain struct {
	Lo, Hi    int64
	Unbounded bool
}

// Unbounded is the domain of all integers.
var Unbounded = Domain{Lo: math.MinInt64, Hi: math.MaxInt64, Unbounded: true}

// Range returns the finite domain [lo, hi].
func Range(lo, hi int64) Domain { return Domain{Lo: lo, Hi: hi} }

// Contains reports whether v is in d.
func (d Domain) Contains(v int64) bool { return d.Unbounded || (d.Lo <= v && v <= d.Hi) }

// Size is the number of values in a finite domain, saturating at math.MaxInt64,
// and math.MaxInt64 for an unbounded one.
func (d Domain) Size() int64 {
	if d.Unbounded || d.Hi < d.Lo {
		if d.Unbounded {
			return math.MaxInt64
		}
		return 0
	}
	n := uint64(d.Hi - d.Lo)
	if n >= math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(n) + 1
}

// String formats d as [lo:hi] or int.
func (d Domain) String() string {
	if d.Unbounded {
		return "int"
	}
	return fmt.Sprintf("[%d:%d]", d.Lo, d.Hi)
}

// Init is an initial value: a constant, or any value of the domain (Any).
type Init struct {
	Value int64
	Any   bool
}

// String formats i as its value or *.
func (i Init) String() string {
	if i.Any {
		return "*"
	}
	return fmt.Sprint(i.Value)
}

// Var is a shared variable (a memory location).
type Var struct {
	Name string
	Dom  Domain
	Init Init
	Pos  Pos
	// Values, when not nil, are the only values the variable takes in any
	// run, sorted: a few points of a wide domain (a float64's bit
	// patterns), which an engine that enumerates a cell's values may take
	// instead of Dom. A front end that sets them has proved them (see
	// [Var.Dom] for the values that fault).
	Values []int64
}

// Reg is a process-local register.
type Reg struct {
	Name string
	Dom  Domain
	Init Init
	Pos  Pos
	// Values is as for [Var.Values].
	Values []int64
}

// Integers is what a program's arithmetic means by an integer: each front
// end says which its language has.
type Integers uint8

const (
	// Wrap64 integers are Go's (the zero value): int64 arithmetic, which
	// wraps at 64 bits, and a [Wrap] where a narrower type wraps sooner.
	Wrap64 Integers = iota
	// Mathematical integers are unbounded, as in Memorax's models: no
	// value wraps. The model's values are int64s, so a step whose
	// arithmetic leaves int64 is beyond what the model can represent:
	// [Eval] answers [ErrOverflow], and the step is not taken (no engine
	// reaches such a value in a run short enough to search or print).
	Mathematical
)

// String names the integers as the model files' readers and the
// engines' messages do.
func (i Integers) String() string {
	if i == Mathematical {
		return "mathematical"
	}
	return "wrap64"
}

// Program is a concurrent program: shared variables, processes, and the bad
// states that must not be reachable. Ints says what its integers are:
// Go's (the zero value) or mathematical.
type Program struct {
	Name  string
	Vars  []Var
	Procs []*Process
	Bad   []BadState
	Ints  Integers
}

// Process is one finite automaton. Locations are numbered 0..len(Locs)-1.
type Process struct {
	Name  string
	Regs  []Reg
	Locs  []Loc
	Init  int
	Trans []Transition

	out [][]int // transition indices by source location; built by Index
}

// Loc is a control location of a process.
type Loc struct {
	Name string
	Pos  Pos
}

// Transition is an edge (From, Op, To) of a process automaton.
type Transition struct {
	From, To int
	Op       Op
	Pos      Pos
}

// ProcLoc names one process at one location.
type ProcLoc struct {
	Proc, Loc int
}

// BadState is a set of configurations that must not be reached: every process
// of Locs is at its location and Cond, if not nil, holds. Cond may name any
// process's registers (qualified [RegRef]) and shared variables ([VarRef]).
// A condition that names shared variables is a statement about main memory
// once every store has landed: it holds only in states whose store buffers
// are all empty (litmus tests' final conditions; under SC always).
type BadState struct {
	Name string
	Locs []ProcLoc
	Cond Expr
	Pos  Pos
}

// VarIndex returns the index of the shared variable called name, or -1.
func (p *Program) VarIndex(name string) int {
	return slices.IndexFunc(p.Vars, func(v Var) bool { return v.Name == name })
}

// ProcIndex returns the index of the process called name, or -1.
func (p *Program) ProcIndex(name string) int {
	return slices.IndexFunc(p.Procs, func(q *Process) bool { return q.Name == name })
}

// RegIndex returns the index of the register called name, or -1.
func (q *Process) RegIndex(name string) int {
	return slices.IndexFunc(q.Regs, func(r Reg) bool { return r.Name == name })
}

// LocIndex returns the index of the location called name, or -1.
func (q *Process) LocIndex(name string) int {
	return slices.IndexFunc(q.Locs, func(l Loc) bool { return l.Name == name })
}

// AddLoc appends a location and returns its index.
func (q *Process) AddLoc(name string, pos Pos) int {
	q.Locs = append(q.Locs, Loc{Name: name, Pos: pos})
	q.out = nil
	return len(q.Locs) - 1
}

// AddTrans appends a transition and returns its index.
func (q *Process) AddTrans(from int, op Op, to int, pos Pos) int {
	q.Trans = append(q.Trans, Transition{From: from, To: to, Op: op, Pos: pos})
	q.out = nil
	return len(q.Trans) - 1
}

// Retain keeps the transitions of q for which keep reports true, in their
// order, and returns the index each had before.
func (q *Process) Retain(keep func(i int) bool) []int {
	var trans []Transition
	var old []int
	for i, t := range q.Trans {
		if keep(i) {
			trans = append(trans, t)
			old = append(old, i)
		}
	}
	q.Trans, q.out = trans, nil
	return old
}

// Like reports whether q and b have the same initial location, number of
// locations, registers (domains and initial values) and transitions
// (endpoints, in order), with sameOp true of each pair of operations: they
// are the same automaton up to names, positions and what sameOp ignores.
func (q *Process) Like(b *Process, sameOp func(x, y *Op) bool) bool {
	if q.Init != b.Init || len(q.Locs) != len(b.Locs) || len(q.Regs) != len(b.Regs) || len(q.Trans) != len(b.Trans) {
		return false
	}
	for k, r := range q.Regs {
		if r.Dom != b.Regs[k].Dom || r.Init != b.Regs[k].Init {
			return false
		}
	}
	for k, t := range q.Trans {
		u := &b.Trans[k]
		if t.From != u.From || t.To != u.To || !sameOp(&q.Trans[k].Op, &u.Op) {
			return false
		}
	}
	return true
}

// GroupProcs partitions the processes of p by same, an equivalence, and
// returns the groups of two processes or more, each in increasing order, in
// the order of their first members.
func (p *Program) GroupProcs(same func(a, b *Process) bool) [][]int {
	var groups [][]int
	seen := make([]bool, len(p.Procs))
	for i := range p.Procs {
		if seen[i] {
			continue
		}
		group := []int{i}
		for j := i + 1; j < len(p.Procs); j++ {
			if !seen[j] && same(p.Procs[i], p.Procs[j]) {
				seen[j] = true
				group = append(group, j)
			}
		}
		if len(group) > 1 {
			groups = append(groups, group)
		}
	}
	return groups
}

// Out returns the indices of the transitions leaving location l, in order.
func (q *Process) Out(l int) []int {
	if q.out == nil || len(q.out) != len(q.Locs) {
		q.index()
	}
	return q.out[l]
}

func (q *Process) index() {
	out := make([][]int, len(q.Locs))
	for i, t := range q.Trans {
		if t.From >= 0 && t.From < len(out) {
			out[t.From] = append(out[t.From], i)
		}
	}
	q.out = out
}

// Index precomputes the per-location transition lists of every process, once:
// after it, concurrent searches of p only read them. Editing a process
// (AddLoc, AddTrans) drops its lists; they are rebuilt on the next use.
func (p *Program) Index() {
	for _, q := range p.Procs {
		if q.out == nil || len(q.out) != len(q.Locs) {
			q.index()
		}
	}
}

// Clone returns a deep copy of p whose processes can be edited independently
// (expressions, which are immutable, are shared).
func (p *Program) Clone() *Program {
	c := &Program{Name: p.Name, Vars: append([]Var(nil), p.Vars...), Ints: p.Ints}
	for _, q := range p.Procs {
		nq := &Process{
			Name:  q.Name,
			Regs:  append([]Reg(nil), q.Regs...),
			Locs:  append([]Loc(nil), q.Locs...),
			Init:  q.Init,
			Trans: make([]Transition, len(q.Trans)),
		}
		for i, t := range q.Trans {
			t.Op = t.Op.clone()
			nq.Trans[i] = t
		}
		c.Procs = append(c.Procs, nq)
	}
	for _, b := range p.Bad {
		b.Locs = append([]ProcLoc(nil), b.Locs...)
		c.Bad = append(c.Bad, b)
	}
	return c
}

// Finite reports whether every variable and register has a finite domain.
func (p *Program) Finite() bool {
	for _, v := range p.Vars {
		if v.Dom.Unbounded {
			return false
		}
	}
	for _, q := range p.Procs {
		for _, r := range q.Regs {
			if r.Dom.Unbounded {
				return false
			}
		}
	}
	return true
}

// HasSSFence reports whether a transition of p is a store-store fence.
func (p *Program) HasSSFence() bool {
	for _, q := range p.Procs {
		for _, t := range q.Trans {
			if t.Op.Kind == SSFence {
				return true
			}
		}
	}
	return false
}

// SSFencesAsNops returns p with every store-store fence made a nop, which it
// is under SC and TSO, for code that knows only those models; it returns p
// itself when p has none. The transitions keep their numbers, so a trace of
// the result under SC or TSO is a trace of p.
func (p *Program) SSFencesAsNops() *Program {
	if !p.HasSSFence() {
		return p
	}
	c := p.Clone()
	for _, q := range c.Procs {
		for k := range q.Trans {
			if q.Trans[k].Op.Kind == SSFence {
				q.Trans[k].Op = NopOp()
			}
		}
	}
	c.Index()
	return c
}
