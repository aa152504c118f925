package model

import (
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Model is a memory model: SC, TSO or PSO.
type Model uint8

const (
	// SC is sequential consistency: writes reach memory at once.
	SC Model = iota
	// TSO is x86-TSO: writes go through per-process FIFO store buffers.
	TSO
	// PSO is SPARC's partial store order: writes go through one FIFO
	// store buffer per process and variable, so that stores to different
	// variables may reach memory out of order (unless a store-store fence,
	// [SSFence], lies between them).
	PSO
)

// Models lists the memory models, for help texts and tests.
var Models = []Model{SC, TSO, PSO}

// String returns "sc", "tso" or "pso".
func (m Model) String() string {
	switch m {
	case SC:
		return "sc"
	case TSO:
		return "tso"
	case PSO:
		return "pso"
	}
	return fmt.Sprintf("Model(%d)", uint8(m))
}

// Buffered reports whether writes go through store buffers under m (TSO
// and PSO).
func (m Model) Buffered() bool { return m == TSO || m == PSO }

// ParseModel parses "sc", "tso" or "pso".
func ParseModel(s string) (Model, error) {
	switch strings.ToLower(s) {
	case "sc":
		return SC, nil
	case "tso", "x86-tso":
		return TSO, nil
	case "pso":
		return PSO, nil
	}
	return 0, fmt.Errorf("unknown memory model %q (want sc, tso or pso)", s)
}

// BufEntry is one pending store in a store buffer, or, under PSO, a
// store-store fence between the stores before and after it (Var is
// [Barrier]).
type BufEntry struct {
	Var int
	Val int64
}

// Barrier is the Var of a [BufEntry] that stands for a store-store fence
// under PSO.
const Barrier = -1

// State is a configuration of a program: control locations, registers, main
// memory, one store buffer per process (oldest entry first; always empty
// under SC) and, after a step that produced a value outside its domain, the
// fault.
//
// Under PSO, Bufs[i] holds all of process i's buffers, one per variable,
// in one slice in a canonical order: the stores are cut into epochs by
// store-store fences ([Barrier] entries), and within an epoch they are
// ordered by variable, each variable's stores oldest first. The buffer of
// process i and variable x is the sequence of x's entries. Only stores of
// the first epoch may be flushed. No Barrier starts a buffer or follows
// another, so two equal PSO states have equal slices. States are values: steps never modify a state, they build a new one
// that may share unmodified slices with the old.
type State struct {
	Locs  []int
	Regs  [][]int64
	Mem   []int64
	Bufs  [][]BufEntry
	Fault *Fault
}

// Fault describes a step that went wrong: its result left the finite domain
// of the variable or register it goes to, or an expression could not be
// evaluated (a division by zero).
type Fault struct {
	Proc, Trans int
	Msg         string
	// Var is the shared variable, or Reg the register of Proc, whose domain
	// Value left; the other is -1, and both are -1 for a fault that no
	// domain caused (a division by zero).
	Var, Reg int
	Value    int64
}

// Step is one step of an execution: process Proc takes transition Trans, or
// (Flush) the oldest entry of Proc's buffer reaches memory (under PSO, the
// oldest entry of its buffer for variable Var). Var and Val record
// the variable and value read (Read), written (Write) or flushed (Flush), for
// display and for checking; for other steps Var is -1.
type Step struct {
	Proc  int
	Trans int
	Flush bool
	Var   int
	Val   int64
}

// Format describes s in words, naming things through p.
func (s Step) Format(p *Program) string {
	q := p.Procs[s.Proc]
	if s.Flush {
		return fmt.Sprintf("%s: flush %s = %d", q.Name, p.Vars[s.Var].Name, s.Val)
	}
	if s.Trans < 0 || s.Trans >= len(q.Trans) {
		return fmt.Sprintf("%s: transition %d", q.Name, s.Trans)
	}
	t := q.Trans[s.Trans]
	txt := fmt.Sprintf("%s: %s -> %s: %s", q.Name, q.Locs[t.From].Name, q.Locs[t.To].Name, t.Op.Format(p, q))
	if t.Op.Kind == Read {
		txt += fmt.Sprintf("  [read %d]", s.Val)
	}
	return txt
}

// Disabled-step reasons. Successors skips them; Replay reports them.
var (
	errWrongLoc    = errors.New("the process is not at the transition's source location")
	errGuard       = errors.New("the guard does not hold")
	errReadValue   = errors.New("the value read is not the one required")
	errBufNotEmpty = errors.New("the store buffer is not empty")
	errBufEmpty    = errors.New("the store buffer is empty")
	errBufBound    = errors.New("the store buffer is at its bound")
)

// Initial calls f for every initial state of p (one per choice of the initial
// values marked Any). It fails when an Any value has an unbounded domain.
func (p *Program) Initial(f func(State)) error {
	n := len(p.Procs)
	s := State{Locs: make([]int, n), Regs: make([][]int64, n), Mem: make([]int64, len(p.Vars)), Bufs: make([][]BufEntry, n)}
	type choice struct {
		slot *int64
		dom  Domain
	}
	var choices []choice
	for i, v := range p.Vars {
		s.Mem[i] = v.Init.Value
		if v.Init.Any {
			choices = append(choices, choice{&s.Mem[i], v.Dom})
		}
	}
	for i, q := range p.Procs {
		s.Locs[i] = q.Init
		s.Regs[i] = make([]int64, len(q.Regs))
		for j, r := range q.Regs {
			s.Regs[i][j] = r.Init.Value
			if r.Init.Any {
				choices = append(choices, choice{&s.Regs[i][j], r.Dom})
			}
		}
	}
	for _, c := range choices {
		if c.dom.Unbounded {
			return errors.New("an initial value '*' needs a finite domain")
		}
	}
	var rec func(k int)
	rec = func(k int) {
		if k == len(choices) {
			f(s.Copy())
			return
		}
		for v := choices[k].dom.Lo; ; v++ {
			*choices[k].slot = v
			rec(k + 1)
			if v == choices[k].dom.Hi {
				break
			}
		}
	}
	rec(0)
	return nil
}

// Copy returns a deep copy of s.
func (s State) Copy() State {
	c := State{
		Locs:  slices.Clone(s.Locs),
		Mem:   slices.Clone(s.Mem),
		Regs:  make([][]int64, len(s.Regs)),
		Bufs:  make([][]BufEntry, len(s.Bufs)),
		Fault: s.Fault,
	}
	for i := range s.Regs {
		c.Regs[i] = slices.Clone(s.Regs[i])
	}
	for i := range s.Bufs {
		c.Bufs[i] = slices.Clone(s.Bufs[i])
	}
	return c
}

// Successors calls yield for every step enabled in s under m and the state it
// leads to. bound > 0 limits every store buffer to bound entries (writes at the
// bound are disabled; under PSO the bound is per process and variable); 0
// means unbounded. Faulting states have no successors.
func (p *Program) Successors(s State, m Model, bound int, yield func(Step, State)) {
	if s.Fault != nil {
		return
	}
	for i := range p.Procs {
		p.ProcSuccessors(s, i, m, bound, yield)
	}
}

// ProcSuccessors calls yield for every step of process i enabled in s under
// m (the flush of its oldest buffered store first — under PSO the flushes
// of each variable's oldest store that may leave, in the order of the
// variables — then its transitions in order) and the state it leads to, as
// [Program.Successors] does for every process.
func (p *Program) ProcSuccessors(s State, i int, m Model, bound int, yield func(Step, State)) {
	p.ProcSuccessorsIn(s, i, m, bound, nil, yield)
}

// ProcSuccessorsIn is [Program.ProcSuccessors] with the arrays of the
// states it computes taken from a (see [Arena]; nil: the heap).
func (p *Program) ProcSuccessorsIn(s State, i int, m Model, bound int, a *Arena, yield func(Step, State)) {
	if s.Fault != nil {
		return
	}
	switch {
	case m == TSO && len(s.Bufs[i]) > 0:
		if step, ns, err := p.flush(s, i, a); err == nil {
			yield(step, ns)
		}
	case m == PSO:
		buf := s.Bufs[i]
		for k, e := range buf {
			if e.Var == Barrier {
				break
			}
			if k > 0 && buf[k-1].Var == e.Var {
				continue
			}
			if step, ns, err := p.flushVar(s, i, e.Var, a); err == nil {
				yield(step, ns)
			}
		}
	}
	for _, ti := range p.Procs[i].Out(s.Locs[i]) {
		if step, ns, err := p.exec(s, i, ti, m, bound, a); err == nil {
			yield(step, ns)
		}
	}
}

// Exec executes one step of process proc under m: transition trans, or the
// flush of its oldest buffered store when flush is set. It returns the step
// taken (with its values) and the new state, or an error saying why the step
// is not enabled in s. A flush under PSO names its variable: see
// [Program.ExecStep].
func (p *Program) Exec(s State, proc, trans int, flush bool, m Model) (Step, State, error) {
	return p.ExecStep(s, Step{Proc: proc, Trans: trans, Flush: flush, Var: -1}, m)
}

// ExecStep executes the step st (its Proc and Trans, or its Proc's flush;
// under PSO the flush of st.Var's oldest store) under m, as [Program.Exec]
// does, and returns the step taken with its values and the new state.
func (p *Program) ExecStep(s State, st Step, m Model) (Step, State, error) {
	proc, trans := st.Proc, st.Trans
	if proc < 0 || proc >= len(p.Procs) {
		return Step{}, State{}, fmt.Errorf("no process %d", proc)
	}
	if s.Fault != nil {
		return Step{}, State{}, errors.New("the state is faulty: no step is possible")
	}
	if st.Flush {
		switch m {
		case TSO:
			return p.flush(s, proc, nil)
		case PSO:
			if st.Var < 0 || st.Var >= len(p.Vars) {
				return Step{}, State{}, fmt.Errorf("a flush under PSO names no variable (%d)", st.Var)
			}
			return p.flushVar(s, proc, st.Var, nil)
		}
		return Step{}, State{}, fmt.Errorf("a flush under %v", m)
	}
	q := p.Procs[proc]
	if trans < 0 || trans >= len(q.Trans) {
		return Step{}, State{}, fmt.Errorf("process %s has no transition %d", q.Name, trans)
	}
	st, ns, err := p.exec(s, proc, trans, m, 0, nil)
	return st, ns, err
}

func (p *Program) flush(s State, i int, a *Arena) (Step, State, error) {
	buf := s.Bufs[i]
	if len(buf) == 0 {
		return Step{}, State{}, errBufEmpty
	}
	e := buf[0]
	ns := s
	ns.Mem = a.CloneVals(s.Mem)
	ns.Mem[e.Var] = e.Val
	ns.Bufs = a.cloneBufs(s.Bufs)
	ns.Bufs[i] = buf[1:len(buf):len(buf)]
	if len(ns.Bufs[i]) == 0 {
		ns.Bufs[i] = nil
	}
	return Step{Proc: i, Trans: -1, Flush: true, Var: e.Var, Val: e.Val}, ns, nil
}

// flushVar is the flush of process i's oldest store to x under PSO, which
// must be in the first epoch of its buffer.
func (p *Program) flushVar(s State, i, x int, a *Arena) (Step, State, error) {
	buf := s.Bufs[i]
	k := slices.IndexFunc(buf, func(e BufEntry) bool { return e.Var == x || e.Var == Barrier })
	switch {
	case len(buf) == 0:
		return Step{}, State{}, errBufEmpty
	case k < 0 || buf[k].Var == Barrier:
		if k < 0 || !slices.ContainsFunc(buf[k:], func(e BufEntry) bool { return e.Var == x }) {
			return Step{}, State{}, fmt.Errorf("the store buffer of %s is empty", p.Vars[x].Name)
		}
		return Step{}, State{}, fmt.Errorf("the oldest store to %s waits behind a store-store fence", p.Vars[x].Name)
	}
	e := buf[k]
	ns := s
	ns.Mem = a.CloneVals(s.Mem)
	ns.Mem[x] = e.Val
	nb := a.makeEntries(len(buf) - 1)
	copy(nb, buf[:k])
	copy(nb[k:], buf[k+1:])
	// An epoch emptied leaves no barrier in front.
	for len(nb) > 0 && nb[0].Var == Barrier {
		nb = nb[1:]
	}
	if len(nb) == 0 {
		nb = nil
	}
	ns.Bufs = a.cloneBufs(s.Bufs)
	ns.Bufs[i] = nb
	return Step{Proc: i, Trans: -1, Flush: true, Var: x, Val: e.Val}, ns, nil
}

// psoWrite returns buf with a store of v to x added at the end of its last
// epoch, after the epoch's stores to x and to variables before x.
func psoWrite(buf []BufEntry, x int, v int64, a *Arena) []BufEntry {
	k := len(buf)
	for k > 0 && buf[k-1].Var != Barrier && buf[k-1].Var > x {
		k--
	}
	nb := a.makeEntries(len(buf) + 1)
	copy(nb, buf[:k])
	nb[k] = BufEntry{x, v}
	copy(nb[k+1:], buf[k:])
	return nb
}

// BufferLoad returns how full buf, a process's store buffer under m, is
// against a buffer bound: its length under TSO, the largest number of
// stores to one variable under PSO.
func BufferLoad(buf []BufEntry, m Model) int {
	if m != PSO {
		return len(buf)
	}
	most := 0
	for k, e := range buf {
		if e.Var == Barrier {
			continue
		}
		n := 0
		for _, f := range buf[k:] {
			if f.Var == e.Var {
				n++
			}
		}
		most = max(most, n)
	}
	return most
}

// storesTo counts the stores to x in buf.
func storesTo(buf []BufEntry, x int) int {
	n := 0
	for _, e := range buf {
		if e.Var == x {
			n++
		}
	}
	return n
}

// readVar returns what process i reads for x in s under m.
func readVar(s State, i, x int, m Model) int64 {
	if m.Buffered() {
		buf := s.Bufs[i]
		for k := len(buf) - 1; k >= 0; k-- {
			if buf[k].Var == x {
				return buf[k].Val
			}
		}
	}
	return s.Mem[x]
}

func (p *Program) exec(s State, i, ti int, m Model, bound int, a *Arena) (Step, State, error) {
	q := p.Procs[i]
	t := &q.Trans[ti]
	if s.Locs[i] != t.From {
		return Step{}, State{}, errWrongLoc
	}
	step := Step{Proc: i, Trans: ti, Var: -1}
	ns := s
	// moved gives ns its own locations, with process i's at t.To: only
	// for a step that is enabled (a failed guard, the common case in a
	// spin loop, allocates nothing).
	moved := func() {
		ns.Locs = a.CloneInts(s.Locs)
		ns.Locs[i] = t.To
	}
	env := Env{Regs: s.Regs[i], AllRegs: s.Regs, Ints: p.Ints}
	fault := func(msg string) (Step, State, error) {
		moved()
		ns.Fault = &Fault{Proc: i, Trans: ti, Msg: msg, Var: -1, Reg: -1}
		return step, ns, nil
	}
	// An evaluation that faults leads to a faulting state, but for a
	// value the model cannot represent: that step is not taken.
	evalFault := func(err error) (Step, State, error) {
		if errors.Is(err, ErrOverflow) {
			return Step{}, State{}, err
		}
		return fault(err.Error())
	}
	outside := func(x, r int, v int64, msg string) (Step, State, error) {
		moved()
		ns.Fault = &Fault{Proc: i, Trans: ti, Msg: msg, Var: x, Reg: r, Value: v}
		return step, ns, nil
	}
	op := &t.Op
	switch op.Kind {
	case Nop:
	case Assign:
		v, err := Eval(op.Expr, &env)
		if err != nil {
			return evalFault(err)
		}
		if !q.Regs[op.Reg].Dom.Contains(v) {
			return outside(-1, op.Reg, v, fmt.Sprintf("value %d of $%s is outside %v", v, q.Regs[op.Reg].Name, q.Regs[op.Reg].Dom))
		}
		ns.Regs = setReg(s.Regs, i, op.Reg, v, a)
	case Guard:
		v, err := Eval(op.Expr, &env)
		if err != nil {
			return evalFault(err)
		}
		if v == 0 {
			return Step{}, State{}, errGuard
		}
	case Read:
		v := readVar(s, i, op.Var, m)
		step.Var, step.Val = op.Var, v
		if op.Expr != nil {
			want, err := Eval(op.Expr, &env)
			if err != nil {
				return evalFault(err)
			}
			if want != v {
				return Step{}, State{}, errReadValue
			}
		}
		if op.Reg >= 0 {
			if !q.Regs[op.Reg].Dom.Contains(v) {
				return outside(-1, op.Reg, v, fmt.Sprintf("value %d read into $%s is outside %v", v, q.Regs[op.Reg].Name, q.Regs[op.Reg].Dom))
			}
			ns.Regs = setReg(s.Regs, i, op.Reg, v, a)
		}
	case Write:
		v, err := Eval(op.Expr, &env)
		if err != nil {
			return evalFault(err)
		}
		step.Var, step.Val = op.Var, v
		if !p.Vars[op.Var].Dom.Contains(v) {
			return outside(op.Var, -1, v, fmt.Sprintf("value %d written to %s is outside %v", v, p.Vars[op.Var].Name, p.Vars[op.Var].Dom))
		}
		if m == SC {
			ns.Mem = a.CloneVals(s.Mem)
			ns.Mem[op.Var] = v
			break
		}
		if m == PSO {
			if bound > 0 && storesTo(s.Bufs[i], op.Var) >= bound {
				return Step{}, State{}, errBufBound
			}
			ns.Bufs = a.cloneBufs(s.Bufs)
			ns.Bufs[i] = psoWrite(s.Bufs[i], op.Var, v, a)
			break
		}
		if bound > 0 && len(s.Bufs[i]) >= bound {
			return Step{}, State{}, errBufBound
		}
		ns.Bufs = a.cloneBufs(s.Bufs)
		old := s.Bufs[i]
		nb := a.makeEntries(len(old) + 1)
		copy(nb, old)
		nb[len(old)] = BufEntry{op.Var, v}
		ns.Bufs[i] = nb
	case Fence:
		if len(s.Bufs[i]) > 0 {
			return Step{}, State{}, errBufNotEmpty
		}
	case SSFence:
		// Under PSO the stores buffered so far close an epoch; with none,
		// or with the last epoch closed already, there is nothing to order.
		if buf := s.Bufs[i]; m == PSO && len(buf) > 0 && buf[len(buf)-1].Var != Barrier {
			ns.Bufs = a.cloneBufs(s.Bufs)
			nb := a.makeEntries(len(buf) + 1)
			copy(nb, buf)
			nb[len(buf)] = BufEntry{Var: Barrier}
			ns.Bufs[i] = nb
		}
	case Locked:
		if len(s.Bufs[i]) > 0 {
			return Step{}, State{}, errBufNotEmpty
		}
		regs := a.CloneVals(s.Regs[i])
		mem := a.CloneVals(s.Mem)
		benv := Env{Regs: regs, AllRegs: s.Regs, Mem: mem, Ints: p.Ints}
		first := true
		for _, b := range op.Body {
			switch b.Kind {
			case Nop:
			case Assign:
				v, err := Eval(b.Expr, &benv)
				if err != nil {
					return evalFault(err)
				}
				if !q.Regs[b.Reg].Dom.Contains(v) {
					return outside(-1, b.Reg, v, fmt.Sprintf("value %d of $%s is outside %v", v, q.Regs[b.Reg].Name, q.Regs[b.Reg].Dom))
				}
				regs[b.Reg] = v
			case Guard:
				v, err := Eval(b.Expr, &benv)
				if err != nil {
					return evalFault(err)
				}
				if v == 0 {
					return Step{}, State{}, errGuard
				}
			case Read:
				v := mem[b.Var]
				if first {
					step.Var, step.Val, first = b.Var, v, false
				}
				if b.Expr != nil {
					want, err := Eval(b.Expr, &benv)
					if err != nil {
						return evalFault(err)
					}
					if want != v {
						return Step{}, State{}, errReadValue
					}
				}
				if b.Reg >= 0 {
					if !q.Regs[b.Reg].Dom.Contains(v) {
						return outside(-1, b.Reg, v, fmt.Sprintf("value %d read into $%s is outside %v", v, q.Regs[b.Reg].Name, q.Regs[b.Reg].Dom))
					}
					regs[b.Reg] = v
				}
			case Write:
				v, err := Eval(b.Expr, &benv)
				if err != nil {
					return evalFault(err)
				}
				if first {
					step.Var, step.Val, first = b.Var, v, false
				}
				if !p.Vars[b.Var].Dom.Contains(v) {
					return outside(b.Var, -1, v, fmt.Sprintf("value %d written to %s is outside %v", v, p.Vars[b.Var].Name, p.Vars[b.Var].Dom))
				}
				mem[b.Var] = v
			default:
				return Step{}, State{}, fmt.Errorf("a %v inside a locked block", b.Kind)
			}
		}
		ns.Mem = mem
		ns.Regs = a.CloneRows(s.Regs)
		ns.Regs[i] = regs
	default:
		return Step{}, State{}, fmt.Errorf("unknown operation %v", op.Kind)
	}
	moved()
	return step, ns, nil
}

func setReg(regs [][]int64, i, r int, v int64, a *Arena) [][]int64 {
	n := a.CloneRows(regs)
	n[i] = a.CloneVals(regs[i])
	n[i][r] = v
	return n
}

// MatchBad returns the index of the first bad state of p that s is in, or -1.
// A faulting state is reported by its Fault, not here.
func (p *Program) MatchBad(s State) int {
	for bi, b := range p.Bad {
		if p.inBad(s, &b) {
			return bi
		}
	}
	return -1
}

// InBad reports whether s is in bad state bi of p (MatchBad tries them
// all, in order).
func (p *Program) InBad(s State, bi int) bool { return p.inBad(s, &p.Bad[bi]) }

// InBadState reports whether s is in b, a bad state that p may not list
// (one a search made of the state it found).
func InBadState(p *Program, s State, b *BadState) bool { return p.inBad(s, b) }

func (p *Program) inBad(s State, b *BadState) bool {
	for _, pl := range b.Locs {
		if s.Locs[pl.Proc] != pl.Loc {
			return false
		}
	}
	if b.Cond == nil {
		return true
	}
	if NamesMemory(b.Cond) {
		for _, buf := range s.Bufs {
			if len(buf) > 0 {
				return false
			}
		}
	}
	v, err := Eval(b.Cond, &Env{AllRegs: s.Regs, Mem: s.Mem, Ints: p.Ints})
	return err == nil && v != 0
}

// NamesMemory reports whether e reads shared memory (a [VarRef]).
func NamesMemory(e Expr) bool {
	found := false
	WalkExpr(e, func(e Expr) {
		if _, ok := e.(VarRef); ok {
			found = true
		}
	})
	return found
}

// IsBad reports whether s is a bad state: faulting, or in some BadState.
func (p *Program) IsBad(s State) bool { return s.Fault != nil || p.MatchBad(s) >= 0 }

// AppendKey appends a compact encoding of s to b: two states of one program
// have the same encoding exactly when they are equal. Engines hash states by it.
func (s State) AppendKey(b []byte) []byte {
	for _, l := range s.Locs {
		b = binary.AppendUvarint(b, uint64(l))
	}
	for _, rs := range s.Regs {
		b = AppendValues(b, rs)
	}
	b = AppendValues(b, s.Mem)
	for _, buf := range s.Bufs {
		b = binary.AppendUvarint(b, uint64(len(buf)))
		for _, e := range buf {
			b = binary.AppendUvarint(b, uint64(e.Var))
			b = binary.AppendVarint(b, e.Val)
		}
	}
	if s.Fault != nil {
		b = append(b, 1)
	}
	return b
}

// AppendValues appends the encoding of values (a process's registers,
// memory) that keys use: each run of equal values as the value and the
// length of the run. Most registers of a large process are dead and reset
// to the same value (a library's code inlined in every goroutine that
// calls it), and the race question's happens-before bits mostly keep
// their initial ones: each run takes two bytes or so. Runs are as long as
// they can be, so that equal values have equal encodings.
func AppendValues(b []byte, vals []int64) []byte {
	for i := 0; i < len(vals); {
		j := i + 1
		for j < len(vals) && vals[j] == vals[i] {
			j++
		}
		b = binary.AppendVarint(b, vals[i])
		b = binary.AppendUvarint(b, uint64(j-i))
		i = j
	}
	return b
}

// decodeValues decodes, into vals, values that AppendValues encoded at the
// start of b, and returns the length of their encoding.
func decodeValues(b []byte, vals []int64) int {
	off := 0
	for i := 0; i < len(vals); {
		v, n := binary.Varint(b[off:])
		off += n
		run, n := binary.Uvarint(b[off:])
		off += n
		for range run {
			vals[i] = v
			i++
		}
	}
	return off
}

// DecodeKey decodes the key that [State.AppendKey] wrote at the start of b
// for a state of p without a fault, and returns the state and the length
// of its key. Searches that keep their queue of states packed use it.
func (p *Program) DecodeKey(b []byte) (State, int) {
	var d Decoded
	return p.DecodeKeyInto(b, &d)
}

// Decoded is the storage of a state decoded by [Program.DecodeKeyInto],
// reused from one decoding to the next. Its zero value is ready to use.
type Decoded struct {
	locs []int
	regs [][]int64
	vals []int64 // the registers and memory
	bufs [][]BufEntry
	ents []BufEntry // the buffers' entries
}

// DecodeKeyInto decodes as [Program.DecodeKey] does, into the arrays of d
// (grown when too small): the state returned shares them, so it and every
// state that shares its slices (the successors the steps compute, which
// copy only what they change) are overwritten by d's next decoding. A
// search that decodes a state to expand it and forgets the successors
// once their keys are taken decodes without allocating.
func (p *Program) DecodeKeyInto(b []byte, d *Decoded) (State, int) {
	off := 0
	uv := func() int {
		v, n := binary.Uvarint(b[off:])
		off += n
		return int(v)
	}
	sv := func() int64 {
		v, n := binary.Varint(b[off:])
		off += n
		return v
	}
	np := len(p.Procs)
	// The registers and memory share one array, each part capped so that
	// no append reaches the next (the steps copy what they change).
	nv := len(p.Vars)
	for _, q := range p.Procs {
		nv += len(q.Regs)
	}
	if cap(d.locs) < np {
		d.locs, d.regs, d.bufs = make([]int, np), make([][]int64, np), make([][]BufEntry, np)
	}
	if cap(d.vals) < nv {
		d.vals = make([]int64, nv)
	}
	vals := d.vals[:nv]
	part := func(n int) []int64 {
		v := vals[:n:n]
		vals = vals[n:]
		return v
	}
	st := State{Locs: d.locs[:np:np], Regs: d.regs[:np:np], Bufs: d.bufs[:np:np]}
	for i := range np {
		st.Locs[i] = uv()
	}
	for i, q := range p.Procs {
		st.Regs[i] = part(len(q.Regs))
		off += decodeValues(b[off:], st.Regs[i])
	}
	st.Mem = part(len(p.Vars))
	off += decodeValues(b[off:], st.Mem)
	ents := d.ents[:0]
	for i := range np {
		n := uv()
		if n == 0 {
			st.Bufs[i] = nil
			continue
		}
		k := len(ents)
		for range n {
			var e BufEntry
			e.Var = uv()
			e.Val = sv()
			ents = append(ents, e)
		}
		st.Bufs[i] = ents[k:len(ents):len(ents)]
	}
	if cap(ents) > cap(d.ents) {
		// The buffers of this state lie in the array append grew; the
		// next decoding writes there too.
		d.ents = ents[:0]
	}
	return st, off
}
