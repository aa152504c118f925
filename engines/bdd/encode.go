package bdd

import (
	"fmt"
	"math/bits"
	"slices"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/lib/dd"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/facts"
)

// MaxCombinations bounds the assignments of the values a transition (or a
// bad-state condition) reads that the encoding enumerates; a program that
// needs more is beyond the engine (engines.Unsupported).
const MaxCombinations = 1 << 16

// maxSlotBits bounds the bits of one location of the state.
const maxSlotBits = 24

// A slot is one component of the state (a process's control location, a
// register, a shared variable), encoded in binary as value−lo over bits,
// most significant first. Bit b is the variable at level 2b (its value
// now) and 2b+1 (its value after a step).
type slot struct {
	lo, size int64
	bits     []int
}

type slotID struct {
	kind      uint8 // slotLoc, slotReg, slotVar
	proc, idx int
}

const (
	slotLoc uint8 = iota
	slotReg
	slotVar
)

// encoding is the symbolic form of a finite program under SC.
type encoding struct {
	p     *model.Program
	m     *dd.Manager
	locs  []slot   // by process
	regs  [][]slot // by process, register
	vars  []slot
	nbits int
	dead  [][][]int // registers dead at each location, by process

	// procs holds, by process, the transition relation of its steps
	// (every step of the process, with the rest of what it may change
	// kept as it is), the cube of what it may change (now) and the
	// renamings between now and after for those bits.
	procs []procRel
	// init, the initial states; bad, the bad states and the states from
	// which a step faults.
	init, bad Node

	lastLive int   // nodes kept by the last collection
	images   int64 // images computed, each charged as a unit of work
}

// maybeCollect compacts the manager's nodes to the encoding's diagrams and
// extra, once it holds four times as many as the last collection kept, or
// three quarters of its node limit and an eighth of it more than the last
// collection kept: the limit bounds the nodes live, not the garbage.
func (e *encoding) maybeCollect(extra ...*Node) {
	n, limit := e.m.Nodes(), e.m.MaxNodes
	nearLimit := limit > 0 && n > limit/4*3 && n-e.lastLive > limit/8
	if live := max(e.lastLive, 1<<18); n < 4*live && !nearLimit {
		return
	}
	e.collect(extra...)
}

// collect compacts the manager's nodes to the encoding's diagrams and
// extra.
func (e *encoding) collect(extra ...*Node) {
	roots := append([]*Node{&e.init, &e.bad}, extra...)
	for k := range e.procs {
		pr := &e.procs[k]
		roots = append(roots, &pr.rel, &pr.nowCube, &pr.afterCube, &pr.faults)
	}
	e.m.Collect(roots...)
	e.lastLive = e.m.Nodes()
}

// Node is a diagram of the engine's manager.
type Node = dd.Node

type procRel struct {
	rel         Node
	changes     []slotID
	nowCube     Node
	afterCube   Node
	toNow       dd.Renaming // after → now, for the bits it may change
	toAfter     dd.Renaming // now → after, for the same bits
	faults      Node        // states from which one of its steps faults
	transitions int
}

// newEncoding lays out the bits of p's state and builds its relations.
func newEncoding(p *model.Program, m *dd.Manager) (*encoding, error) {
	e := &encoding{p: p, m: m, dead: facts.Dead(p)}
	if err := e.layout(); err != nil {
		return nil, err
	}
	e.init = e.initial()
	bad, err := e.badStates()
	if err != nil {
		return nil, err
	}
	e.bad = bad
	for i := range p.Procs {
		r, err := e.procRelation(i)
		if err != nil {
			return nil, err
		}
		e.procs = append(e.procs, r)
		e.bad = m.Or(e.bad, r.faults)
	}
	return e, m.Err()
}

// writers returns, by shared variable, the processes that may write it.
func writers(p *model.Program) [][]int {
	w := make([][]int, len(p.Vars))
	add := func(x, i int) {
		if !slices.Contains(w[x], i) {
			w[x] = append(w[x], i)
		}
	}
	for i, q := range p.Procs {
		for _, t := range q.Trans {
			if t.Op.Kind == model.Write {
				add(t.Op.Var, i)
			}
			for _, b := range t.Op.Body {
				if b.Kind == model.Write {
					add(b.Var, i)
				}
			}
		}
	}
	return w
}

// layout orders the bits: the shared variables that several processes (or
// none) write first, then each process's location and registers followed
// by the variables only it writes, so that what a process owns lies
// together.
func (e *encoding) layout() error {
	p := e.p
	newSlot := func(dom model.Domain, what string) (slot, error) {
		if dom.Unbounded {
			return slot{}, &engines.Unsupported{Engine: "the bdd engine", What: what + " without a finite domain"}
		}
		size := dom.Size()
		n := bits.Len64(uint64(size - 1))
		if size <= 0 || n > maxSlotBits {
			return slot{}, &engines.Unsupported{Engine: "the bdd engine", What: fmt.Sprintf("%s with %d values", what, size)}
		}
		s := slot{lo: dom.Lo, size: size}
		for range n {
			s.bits = append(s.bits, e.nbits)
			e.nbits++
		}
		return s, nil
	}
	e.vars = make([]slot, len(p.Vars))
	owner := writers(p)
	var err error
	for x, v := range p.Vars {
		if len(owner[x]) != 1 {
			if e.vars[x], err = newSlot(v.Dom, "shared variable "+v.Name); err != nil {
				return err
			}
		}
	}
	e.locs = make([]slot, len(p.Procs))
	e.regs = make([][]slot, len(p.Procs))
	for i, q := range p.Procs {
		if e.locs[i], err = newSlot(model.Range(0, int64(max(len(q.Locs), 1)-1)), "process "+q.Name); err != nil {
			return err
		}
		e.regs[i] = make([]slot, len(q.Regs))
		for r, reg := range q.Regs {
			if e.regs[i][r], err = newSlot(reg.Dom, "register $"+reg.Name); err != nil {
				return err
			}
		}
		for x, v := range p.Vars {
			if len(owner[x]) == 1 && owner[x][0] == i {
				if e.vars[x], err = newSlot(v.Dom, "shared variable "+v.Name); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func (e *encoding) slot(id slotID) *slot {
	switch id.kind {
	case slotLoc:
		return &e.locs[id.proc]
	case slotReg:
		return &e.regs[id.proc][id.idx]
	default:
		return &e.vars[id.idx]
	}
}

// literal is one bit of a cube: the variable at level, with its value.
type literal struct {
	level int
	value bool
}

// appendValue appends the literals of slot s holding v (after a step when
// after is set).
func appendValue(lits []literal, s *slot, v int64, after bool) []literal {
	code := uint64(v - s.lo)
	for k, b := range s.bits {
		level := 2 * b
		if after {
			level++
		}
		lits = append(lits, literal{level, code>>(len(s.bits)-1-k)&1 == 1})
	}
	return lits
}

// cube returns the conjunction of lits.
func (e *encoding) cube(lits []literal) Node {
	slices.SortFunc(lits, func(a, b literal) int { return a.level - b.level })
	r := dd.True
	for k := len(lits) - 1; k >= 0; k-- {
		if lits[k].value {
			r = e.m.Mk(lits[k].level, dd.False, r)
		} else {
			r = e.m.Mk(lits[k].level, r, dd.False)
		}
	}
	return r
}

// inDomain returns the states in which slot s holds a value of its domain
// (a code below its size).
func (e *encoding) inDomain(s *slot) Node {
	// code < size, most significant bit first.
	r := dd.False // code < size given the bits above are equal to size's
	limit := uint64(s.size)
	if bits.Len64(limit) > len(s.bits) {
		return dd.True // size = 2^len(bits): every code
	}
	for k := len(s.bits) - 1; k >= 0; k-- {
		level := 2 * s.bits[k]
		if limit>>(len(s.bits)-1-k)&1 == 1 {
			// The size has a 1 here: a 0 is below it, a 1 continues.
			r = e.m.Mk(level, dd.True, r)
		} else {
			r = e.m.Mk(level, r, dd.False)
		}
	}
	return r
}

// equal returns the relation in which slot s is the same after a step.
func (e *encoding) equal(s *slot) Node {
	r := dd.True
	for k := len(s.bits) - 1; k >= 0; k-- {
		now, after := 2*s.bits[k], 2*s.bits[k]+1
		r = e.m.Mk(now, e.m.Mk(after, r, dd.False), e.m.Mk(after, dd.False, r))
	}
	return r
}

// canonical is the value a dead register holds in the encoded states: 0,
// or the least value of its domain when 0 is not in it.
func canonical(d model.Domain) int64 {
	if d.Contains(0) {
		return 0
	}
	return d.Lo
}

// canon resets the dead registers of s to their canonical values.
func (e *encoding) canon(s model.State) model.State {
	for i, l := range s.Locs {
		for _, r := range e.dead[i][l] {
			c := canonical(e.p.Procs[i].Regs[r].Dom)
			if s.Regs[i][r] != c {
				s.Regs = slices.Clone(s.Regs)
				s.Regs[i] = slices.Clone(s.Regs[i])
				s.Regs[i][r] = c
			}
		}
	}
	return s
}

// initial returns the initial states, dead registers canonical.
func (e *encoding) initial() Node {
	p := e.p
	var lits []literal
	r := dd.True
	fix := func(s *slot, in model.Init) {
		if in.Any {
			r = e.m.And(r, e.inDomain(s))
		} else {
			lits = appendValue(lits, s, in.Value, false)
		}
	}
	for x, v := range p.Vars {
		fix(&e.vars[x], v.Init)
	}
	for i, q := range p.Procs {
		lits = appendValue(lits, &e.locs[i], int64(q.Init), false)
		dead := e.dead[i][q.Init]
		for k, reg := range q.Regs {
			if slices.Contains(dead, k) {
				lits = appendValue(lits, &e.regs[i][k], canonical(reg.Dom), false)
			} else {
				fix(&e.regs[i][k], reg.Init)
			}
		}
	}
	return e.m.And(r, e.cube(lits))
}

// exprSlots calls f with the registers (of process i for RegRef.Proc < 0,
// else of the named one) and variables that x reads.
func exprSlots(i int, x model.Expr, f func(slotID)) {
	model.WalkExpr(x, func(x model.Expr) {
		switch x := x.(type) {
		case model.RegRef:
			proc := x.Proc
			if proc < 0 {
				proc = i
			}
			f(slotID{slotReg, proc, x.Reg})
		case model.VarRef:
			f(slotID{slotVar, 0, x.Var})
		}
	})
}

// opReads returns what transition op of process i reads from the state
// and what it writes (besides the location). Inside a locked body, a
// register or variable the body assigned before is not read from the
// state.
func opReads(i int, op *model.Op) (read, written []slotID) {
	add := func(ids *[]slotID, id slotID) {
		if !slices.Contains(*ids, id) {
			*ids = append(*ids, id)
		}
	}
	use := func(id slotID) {
		if !slices.Contains(written, id) {
			add(&read, id)
		}
	}
	var visit func(o *model.Op)
	visit = func(o *model.Op) {
		if o.Expr != nil {
			exprSlots(i, o.Expr, use)
		}
		switch o.Kind {
		case model.Assign:
			add(&written, slotID{slotReg, i, o.Reg})
		case model.Read:
			use(slotID{slotVar, 0, o.Var})
			if o.Reg >= 0 {
				add(&written, slotID{slotReg, i, o.Reg})
			}
		case model.Write:
			add(&written, slotID{slotVar, 0, o.Var})
		case model.Locked:
			for k := range o.Body {
				visit(&o.Body[k])
			}
		}
	}
	visit(op)
	return read, written
}

// combinations calls f with every assignment of values to the slots ids
// (within their domains), after checking that there are at most
// MaxCombinations of them.
func (e *encoding) combinations(ids []slotID, what func() string, f func(vals []int64)) error {
	total := int64(1)
	for _, id := range ids {
		total *= e.slot(id).size
		if total > MaxCombinations {
			return &engines.Unsupported{Engine: "the bdd engine", What: fmt.Sprintf("%s, which reads more than %d combinations of values", what(), MaxCombinations)}
		}
	}
	vals := make([]int64, len(ids))
	var rec func(k int)
	rec = func(k int) {
		if k == len(ids) {
			f(vals)
			return
		}
		s := e.slot(ids[k])
		for v := range s.size {
			vals[k] = s.lo + v
			rec(k + 1)
		}
	}
	rec(0)
	return nil
}

// blank returns a state with every location, register and variable at 0.
func (e *encoding) blank() model.State {
	p := e.p
	s := model.State{Locs: make([]int, len(p.Procs)), Regs: make([][]int64, len(p.Procs)), Mem: make([]int64, len(p.Vars)), Bufs: make([][]model.BufEntry, len(p.Procs))}
	for i, q := range p.Procs {
		s.Regs[i] = make([]int64, len(q.Regs))
	}
	return s
}

func (e *encoding) get(s *model.State, id slotID) int64 {
	switch id.kind {
	case slotLoc:
		return int64(s.Locs[id.proc])
	case slotReg:
		return s.Regs[id.proc][id.idx]
	default:
		return s.Mem[id.idx]
	}
}

func (e *encoding) set(s *model.State, id slotID, v int64) {
	switch id.kind {
	case slotLoc:
		s.Locs[id.proc] = int(v)
	case slotReg:
		s.Regs[id.proc][id.idx] = v
	default:
		s.Mem[id.idx] = v
	}
}

// badStates returns the bad states of p (its conditions evaluated by
// enumeration over what they read).
func (e *encoding) badStates() (Node, error) {
	p := e.p
	bad := dd.False
	for bi, b := range p.Bad {
		// One cube per location, conjoined: a bad state that names a
		// process at two locations holds no state.
		at := dd.True
		for _, pl := range b.Locs {
			at = e.m.And(at, e.cube(appendValue(nil, &e.locs[pl.Proc], int64(pl.Loc), false)))
		}
		if b.Cond == nil {
			bad = e.m.Or(bad, at)
			continue
		}
		var ids []slotID
		exprSlots(-1, b.Cond, func(id slotID) {
			if !slices.Contains(ids, id) {
				ids = append(ids, id)
			}
		})
		cond := dd.False
		s := e.blank()
		err := e.combinations(ids, func() string { return "bad state " + p.BadName(bi) }, func(vals []int64) {
			for k, id := range ids {
				e.set(&s, id, vals[k])
			}
			v, err := model.Eval(b.Cond, &model.Env{AllRegs: s.Regs, Mem: s.Mem})
			if err == nil && v != 0 {
				var l []literal
				for k, id := range ids {
					l = appendValue(l, e.slot(id), vals[k], false)
				}
				cond = e.m.Or(cond, e.cube(l))
			}
		})
		if err != nil {
			return dd.False, err
		}
		bad = e.m.Or(bad, e.m.And(at, cond))
	}
	return bad, nil
}

// procRelation builds the relation of process i's steps under SC: for each
// transition, by enumeration of the values it reads, the step's effect as
// [model.Program.Exec] computes it, the registers dead at its target reset.
func (e *encoding) procRelation(i int) (procRel, error) {
	p, q := e.p, e.p.Procs[i]
	pr := procRel{rel: dd.False, faults: dd.False, transitions: len(q.Trans)}
	// What some step of the process may change: its location, its
	// registers, the variables it writes.
	pr.changes = []slotID{{slotLoc, i, 0}}
	for r := range q.Regs {
		pr.changes = append(pr.changes, slotID{slotReg, i, r})
	}
	for x, w := range writers(p) {
		if slices.Contains(w, i) {
			pr.changes = append(pr.changes, slotID{slotVar, 0, x})
		}
	}
	s := e.blank()
	for ti := range q.Trans {
		t := &q.Trans[ti]
		read, written := opReads(i, &t.Op)
		// The step sets its location, what it writes and its dead
		// registers after it.
		set := append([]slotID{{slotLoc, i, 0}}, written...)
		for _, r := range e.dead[i][t.To] {
			if id := (slotID{slotReg, i, r}); !slices.Contains(set, id) {
				set = append(set, id)
			}
		}
		step := dd.False
		err := e.combinations(read, func() string { return fmt.Sprintf("the transition at %s", t.Pos) }, func(vals []int64) {
			st := s
			st.Locs = slices.Clone(s.Locs)
			st.Locs[i] = t.From
			st.Regs = slices.Clone(s.Regs)
			for k := range st.Regs {
				st.Regs[k] = slices.Clone(s.Regs[k])
			}
			st.Mem = slices.Clone(s.Mem)
			for k, id := range read {
				e.set(&st, id, vals[k])
			}
			_, ns, err := p.Exec(st, i, ti, false, model.SC)
			if err != nil {
				return // not enabled
			}
			lits := appendValue(nil, &e.locs[i], int64(t.From), false)
			for k, id := range read {
				lits = appendValue(lits, e.slot(id), vals[k], false)
			}
			if ns.Fault != nil {
				pr.faults = e.m.Or(pr.faults, e.cube(lits))
				return
			}
			ns = e.canon(ns)
			for _, id := range set {
				lits = appendValue(lits, e.slot(id), e.get(&ns, id), true)
			}
			step = e.m.Or(step, e.cube(lits))
		})
		if err != nil {
			return pr, err
		}
		for _, id := range pr.changes {
			if !slices.Contains(set, id) {
				step = e.m.And(step, e.equal(e.slot(id)))
			}
		}
		pr.rel = e.m.Or(pr.rel, step)
		e.maybeCollect(&pr.rel, &pr.faults)
	}
	var now, after []int
	toNow := make([]int, 2*e.nbits)
	toAfter := make([]int, 2*e.nbits)
	for l := range toNow {
		toNow[l], toAfter[l] = l, l
	}
	for _, id := range pr.changes {
		for _, b := range e.slot(id).bits {
			now = append(now, 2*b)
			after = append(after, 2*b+1)
			toNow[2*b+1] = 2 * b
			toAfter[2*b] = 2*b + 1
		}
	}
	pr.nowCube, pr.afterCube = e.m.Cube(now), e.m.Cube(after)
	pr.toNow, pr.toAfter = e.m.NewRenaming(toNow), e.m.NewRenaming(toAfter)
	return pr, nil
}

// image returns the states one step of process i leads to from set.
func (e *encoding) image(set Node, i int) Node {
	e.images++
	pr := &e.procs[i]
	return e.m.Rename(e.m.AndExists(set, pr.rel, pr.nowCube), pr.toNow)
}

// preimage returns the states from which one step of process i leads into
// set.
func (e *encoding) preimage(set Node, i int) Node {
	pr := &e.procs[i]
	return e.m.AndExists(e.m.Rename(set, pr.toAfter), pr.rel, pr.afterCube)
}

// decode returns the state an assignment (the levels set to true) encodes.
func (e *encoding) decode(set []int) model.State {
	on := make(map[int]bool, len(set))
	for _, l := range set {
		on[l] = true
	}
	value := func(s *slot) int64 {
		var code int64
		for _, b := range s.bits {
			code <<= 1
			if on[2*b] {
				code |= 1
			}
		}
		return s.lo + code
	}
	st := e.blank()
	for i := range e.p.Procs {
		st.Locs[i] = int(value(&e.locs[i]))
		for r := range e.regs[i] {
			st.Regs[i][r] = value(&e.regs[i][r])
		}
	}
	for x := range e.vars {
		st.Mem[x] = value(&e.vars[x])
	}
	return st
}

// state returns the set that holds only s.
func (e *encoding) state(s model.State) Node {
	var lits []literal
	for i := range e.p.Procs {
		lits = appendValue(lits, &e.locs[i], int64(s.Locs[i]), false)
		for r := range e.regs[i] {
			lits = appendValue(lits, &e.regs[i][r], s.Regs[i][r], false)
		}
	}
	for x := range e.vars {
		lits = appendValue(lits, &e.vars[x], s.Mem[x], false)
	}
	return e.cube(lits)
}

// nowLevels returns the levels of the bits of a state now.
func (e *encoding) nowLevels() []int {
	levels := make([]int, e.nbits)
	for b := range levels {
		levels[b] = 2 * b
	}
	return levels
}
