package pred

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
	"slices"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/model"
)

// mode is the semantics the control part follows.
type mode struct {
	// sc: no store buffers, writes reach memory at once.
	sc bool
	// k is the number of stores kept in order per buffer; exact (k < 0)
	// keeps them all (the TSO semantics itself).
	k int
	// oldest keeps the oldest k stores in order (the paper's §4) instead of
	// the newest k (its implementation, §9).
	oldest bool
}

func (m mode) exact() bool { return m.k < 0 }

func (m mode) String() string {
	switch {
	case m.sc:
		return "sc"
	case m.exact():
		return "tso"
	case m.oldest:
		return fmt.Sprintf("oldest-%d-abstraction", m.k)
	}
	return fmt.Sprintf("newest-%d-abstraction", m.k)
}

// local is the control part of one process: its location, the variables of
// the stores kept in order (oldest first) and the set S(p) of variables of
// the abstracted stores.
type local struct {
	loc int32
	buf []int32
	set uint64
}

func (l local) empty() bool { return len(l.buf) == 0 && l.set == 0 }

// control is the control part of a k-abstract configuration.
type control struct {
	procs []local
	fault bool
}

func (c control) with(p int, l local) control {
	n := control{procs: slices.Clone(c.procs)}
	n.procs[p] = l
	return n
}

// key appends an encoding of c to b; equal controls have equal encodings.
func (c control) key(b []byte) []byte {
	if c.fault {
		return append(b, 0xff)
	}
	for _, l := range c.procs {
		b = binary.AppendUvarint(b, uint64(l.loc))
		b = binary.AppendUvarint(b, l.set)
		b = binary.AppendUvarint(b, uint64(len(l.buf)))
		for _, x := range l.buf {
			b = binary.AppendUvarint(b, uint64(x))
		}
	}
	return b
}

// shapeKey encodes the buffers of c only: what the data variables depend on.
func (c control) shapeKey(b []byte) []byte {
	for _, l := range c.procs {
		b = binary.AppendUvarint(b, l.set)
		b = binary.AppendUvarint(b, uint64(len(l.buf)))
		for _, x := range l.buf {
			b = binary.AppendUvarint(b, uint64(x))
		}
	}
	return b
}

func (c control) allEmpty() bool {
	for _, l := range c.procs {
		if !l.empty() {
			return false
		}
	}
	return true
}

// dataVars returns the data variables of c: memory, registers, kept buffer
// slots and last-write variables.
//
// The slice is cached by the shape of c and shared: callers must not
// modify it (it has no spare capacity, so an append copies).
func (s *system) dataVars(c control) []dvar {
	s.varsKey = c.shapeKey(s.varsKey[:0])
	if vs, ok := s.vars[string(s.varsKey)]; ok {
		return vs
	}
	vs := s.collectDataVars(c)
	if s.vars == nil {
		s.vars = make(map[string][]dvar)
	}
	s.vars[string(s.varsKey)] = vs
	return vs
}

// collectDataVars computes dataVars.
func (s *system) collectDataVars(c control) []dvar {
	var vs []dvar
	for x := range s.p.Vars {
		vs = append(vs, dvar{Kind: dMem, I: int32(x)})
	}
	for p, q := range s.p.Procs {
		for r := range q.Regs {
			vs = append(vs, dvar{Kind: dReg, P: int32(p), I: int32(r)})
		}
	}
	for p, l := range c.procs {
		for i := range l.buf {
			vs = append(vs, dvar{Kind: dBuf, P: int32(p), I: int32(i)})
		}
		for set := l.set; set != 0; set &= set - 1 {
			vs = append(vs, dvar{Kind: dLW, P: int32(p), I: int32(bits.TrailingZeros64(set))})
		}
	}
	return slices.Clip(vs)
}

// copies returns the data variables of c that hold a value of shared
// variable x: its memory cell, the kept stores to x and its last-write
// variables.
func (s *system) copies(c control, x int) []dvar {
	vs := []dvar{{Kind: dMem, I: int32(x)}}
	for p, l := range c.procs {
		for i, y := range l.buf {
			if int(y) == x {
				vs = append(vs, dvar{Kind: dBuf, P: int32(p), I: int32(i)})
			}
		}
		if l.set&(1<<x) != 0 {
			vs = append(vs, dvar{Kind: dLW, P: int32(p), I: int32(x)})
		}
	}
	return vs
}

// sharedOf returns the shared variable whose value data variable v holds in
// c, or -1 for registers and helpers.
func (s *system) sharedOf(c control, v dvar) int {
	switch v.Kind {
	case dMem, dLW, dHavoc:
		return int(v.I)
	case dBuf:
		return int(c.procs[v.P].buf[v.I])
	}
	return -1
}

// domain returns the domain of data variable v in c.
func (s *system) domain(c control, v dvar) model.Domain {
	switch v.Kind {
	case dReg:
		return s.p.Procs[v.P].Regs[v.I].Dom
	case dSSA:
		return s.ssaDom[v.I]
	}
	if x := s.sharedOf(c, v); x >= 0 {
		return s.p.Vars[x].Dom
	}
	return model.Unbounded
}

// Rule names the abstract transition rule of a step (Fig. 5 and 7 of the
// paper, plus NOP, WRITE (under SC) and FAULT).
type Rule uint8

// The rules.
const (
	RuleNop Rule = iota
	RuleAssign
	RuleGuard
	RuleReadM
	RuleReadB
	RuleWriteL
	RuleWriteG
	RuleWrite // under SC: straight to memory
	RuleFence
	RuleARW
	RuleUpdateNE
	RuleUpdateAM
	RuleUpdateAS
)

var ruleNames = [...]string{"NOP", "ASSIGN", "GUARD", "READ-M", "READ-B", "WRITE-L", "WRITE-G", "WRITE", "FENCE", "ARW", "UPDATE-NE", "UPDATE-AM", "UPDATE-AS"}

// String returns the rule's name as in the paper.
func (r Rule) String() string {
	if int(r) < len(ruleNames) {
		return ruleNames[r]
	}
	return fmt.Sprintf("Rule(%d)", r)
}

// binding is one post-state variable and its value in pre-state terms.
type binding struct {
	v dvar
	t tid
}

// move is one abstract transition of one process: a rule applied to a
// transition (or a buffer update), as a guard and a simultaneous assignment
// over the data variables.
type move struct {
	id    int32 // unique among the cached moves
	proc  int
	trans int // -1 for a buffer update
	rule  Rule
	x     int  // the variable read, written or updated; -1 if none
	fault bool // the step leaves a finite domain: the next state is faulty
	// fseq tells apart the fault moves of one operation (one per domain
	// check, in order).
	fseq int
	// split tells apart the cases of an operation whose terms choose
	// between values (see splitMoves): 0 when not split, else 1 followed
	// by one bit per condition, 1 where it holds.
	split int
	// guard is the condition on the pre-state under which the move is enabled.
	guard tid
	// sub gives the post-state value of the variables it names; every other
	// variable of the next control keeps its pre-state value.
	sub   []binding
	havoc []dvar // the dHavoc variables of sub: arbitrary values
	next  local  // the process's control part afterwards
	// val is the value model.Step records (read, written, updated), or -1.
	val tid
}

func (m *move) lookup(v dvar) (tid, bool) {
	for _, b := range m.sub {
		if b.v == v {
			return b.t, true
		}
	}
	return 0, false
}

// system is the program compiled for the abstract semantics.
type system struct {
	p      *model.Program
	t      *terms
	ssaDom []model.Domain
	// bad conditions as terms over dMem and dReg, or -1 for none.
	badCond []tid
	badMem  []bool
	moves   map[string][]move
	// preimages caches, across the refinements, the pre-image of a
	// predicate instance under a move, by move id and instance.
	preimages map[[2]int32]tid
	// vars caches dataVars by control shape, keyed with varsKey.
	vars    map[string][]dvar
	varsKey []byte
	nextID  int32
	key     []byte
}

func newSystem(p *model.Program, t *terms, m model.Model) (*system, error) {
	if len(p.Vars) > 64 && m != model.SC {
		// A process's set of buffered variables is a 64-bit set; under SC
		// no variable is ever buffered.
		return nil, &engines.Unsupported{Engine: "the predicate engine", What: fmt.Sprintf("%d shared variables (at most 64 under %s)", len(p.Vars), m)}
	}
	s := &system{p: p, t: t, moves: make(map[string][]move)}
	for _, b := range p.Bad {
		if b.Cond == nil {
			s.badCond = append(s.badCond, -1)
			s.badMem = append(s.badMem, false)
			continue
		}
		c, err := t.fromCond(b.Cond, func(r model.RegRef) tid {
			return t.Var(dvar{Kind: dReg, P: int32(r.Proc), I: int32(r.Reg)})
		}, func(x int) tid { return t.Var(dvar{Kind: dMem, I: int32(x)}) })
		if err != nil {
			return nil, fmt.Errorf("bad state %s: %w", p.BadName(len(s.badCond)), err)
		}
		s.badCond = append(s.badCond, c)
		s.badMem = append(s.badMem, model.NamesMemory(b.Cond))
	}
	// Compile every transition once, to report unsupported expressions
	// before the search starts.
	for pi, q := range p.Procs {
		for ti := range q.Trans {
			if _, err := s.opMoves(mode{sc: true}, local{loc: int32(q.Trans[ti].From)}, pi, ti, nil); err != nil {
				if u, ok := errors.AsType[*engines.Unsupported](err); ok {
					return nil, u.At(q.Trans[ti].Pos)
				}
				return nil, fmt.Errorf("process %s, transition %d: %w", q.Name, ti, err)
			}
		}
	}
	return s, nil
}

func (s *system) initial() control {
	c := control{procs: make([]local, len(s.p.Procs))}
	for i, q := range s.p.Procs {
		c.procs[i].loc = int32(q.Init)
	}
	return c
}

// localMoves returns the moves of process p from its control part l under
// m, cached.
func (s *system) localMoves(m mode, l local, p int) []move {
	k := s.key[:0]
	k = binary.AppendVarint(k, int64(m.k))
	k = append(k, b2byte(m.sc), b2byte(m.oldest))
	k = binary.AppendUvarint(k, uint64(p))
	k = binary.AppendUvarint(k, uint64(l.loc))
	k = binary.AppendUvarint(k, l.set)
	for _, x := range l.buf {
		k = binary.AppendUvarint(k, uint64(x))
	}
	s.key = k
	if mv, ok := s.moves[string(k)]; ok {
		return mv
	}
	var out []move
	q := s.p.Procs[p]
	for _, ti := range q.Out(int(l.loc)) {
		var err error
		out, err = s.opMoves(m, l, p, ti, out)
		if err != nil {
			panic(err) // newSystem compiled every transition already
		}
	}
	out = s.splitMoves(out)
	if !m.sc {
		out = s.updateMoves(m, l, p, out)
	}
	for i := range out {
		s.nextID++
		out[i].id = s.nextID
	}
	s.moves[string(k)] = out
	return out
}

func b2byte(b bool) byte {
	if b {
		return 1
	}
	return 0
}

// view returns the data variable process p reads for x, and whether it is
// in the buffer (READ-B) or memory (READ-M).
func (s *system) view(m mode, l local, p, x int) (dvar, bool) {
	last := -1
	for i, y := range l.buf {
		if int(y) == x {
			last = i
		}
	}
	inSet := l.set&(1<<x) != 0
	lw := dvar{Kind: dLW, P: int32(p), I: int32(x)}
	buf := dvar{Kind: dBuf, P: int32(p), I: int32(last)}
	switch {
	case m.oldest && inSet:
		return lw, true
	case last >= 0:
		return buf, true
	case inSet:
		return lw, true
	}
	return dvar{Kind: dMem, I: int32(x)}, false
}

// opMoves appends the moves of transition ti of process p from l.
func (s *system) opMoves(m mode, l local, p, ti int, out []move) ([]move, error) {
	t := s.t
	tr := &s.p.Procs[p].Trans[ti]
	q := s.p.Procs[p]
	op := &tr.Op
	next := l
	next.loc = int32(tr.To)
	reg := func(r int) dvar { return dvar{Kind: dReg, P: int32(p), I: int32(r)} }
	regTerm := func(r model.RegRef) tid { return t.Var(reg(r.Reg)) }
	base := move{proc: p, trans: ti, x: -1, guard: idTrue, next: next, val: -1}
	nfault := 0
	// checked appends the fault move (value v outside d) and returns the
	// guard of the normal continuation.
	checked := func(mv move, guard, v tid, d model.Domain) tid {
		in := t.inDomain(v, d)
		if in != idTrue {
			f := mv
			f.fault, f.guard, f.sub, f.havoc = true, t.And(guard, t.Not(in)), nil, nil
			f.fseq = nfault
			nfault++
			f.next = l
			out = append(out, f)
		}
		return t.And(guard, in)
	}
	// divChecked appends the fault move of a division by zero in e and
	// returns the guard of the normal continuation.
	divChecked := func(mv move, guard tid, e model.Expr) (tid, error) {
		dz, err := t.faultCond(e, regTerm, nil)
		if err != nil || dz == idFalse {
			return guard, err
		}
		f := mv
		f.fault, f.guard, f.sub, f.havoc = true, t.And(guard, dz), nil, nil
		f.fseq = nfault
		nfault++
		f.next = l
		out = append(out, f)
		return t.And(guard, t.Not(dz)), nil
	}
	switch op.Kind {
	case model.Nop:
		base.rule = RuleNop
		out = append(out, base)
	case model.Assign:
		v, err := t.fromExpr(op.Expr, regTerm, nil)
		if err != nil {
			return out, err
		}
		base.rule = RuleAssign
		g, err := divChecked(base, idTrue, op.Expr)
		if err != nil {
			return out, err
		}
		base.guard = checked(base, g, v, q.Regs[op.Reg].Dom)
		base.sub = []binding{{reg(op.Reg), v}}
		out = append(out, base)
	case model.Guard:
		g, err := t.fromCond(op.Expr, regTerm, nil)
		if err != nil {
			return out, err
		}
		base.rule = RuleGuard
		ok, err := divChecked(base, idTrue, op.Expr)
		if err != nil {
			return out, err
		}
		base.guard = t.And(ok, g)
		out = append(out, base)
	case model.Read:
		src, inBuf := dvar{Kind: dMem, I: int32(op.Var)}, false
		if !m.sc {
			src, inBuf = s.view(m, l, p, op.Var)
		}
		base.rule = RuleReadM
		if inBuf {
			base.rule = RuleReadB
		}
		base.x = op.Var
		v := t.Var(src)
		base.val = v
		g := idTrue
		if op.Expr != nil {
			want, err := t.fromExpr(op.Expr, regTerm, nil)
			if err != nil {
				return out, err
			}
			ok, err := divChecked(base, idTrue, op.Expr)
			if err != nil {
				return out, err
			}
			g = t.And(ok, t.Eq(v, want))
		}
		if op.Reg >= 0 {
			g = checked(base, g, v, q.Regs[op.Reg].Dom)
			base.sub = []binding{{reg(op.Reg), v}}
		}
		base.guard = g
		out = append(out, base)
	case model.Write:
		v, err := t.fromExpr(op.Expr, regTerm, nil)
		if err != nil {
			return out, err
		}
		g, err := divChecked(base, idTrue, op.Expr)
		if err != nil {
			return out, err
		}
		base.x, base.val = op.Var, v
		base.guard = checked(base, g, v, s.p.Vars[op.Var].Dom)
		out = append(out, s.writeMove(m, l, base, v))
	case model.Fence:
		if !l.empty() {
			break
		}
		base.rule = RuleFence
		out = append(out, base)
	case model.Locked:
		if !l.empty() {
			break
		}
		var err error
		out, err = s.lockedMoves(base, op.Body, l, out)
		if err != nil {
			return out, err
		}
	default:
		return out, fmt.Errorf("unknown operation %v", op.Kind)
	}
	return out, nil
}

// writeMove completes the move of a write of value v to base.x.
func (s *system) writeMove(m mode, l local, base move, v tid) move {
	p, x := base.proc, base.x
	mem := dvar{Kind: dMem, I: int32(x)}
	bufv := func(i int) dvar { return dvar{Kind: dBuf, P: int32(p), I: int32(i)} }
	next := base.next
	switch {
	case m.sc:
		base.rule = RuleWrite
		base.sub = []binding{{mem, v}}
	case m.exact() || (len(l.buf) < m.k && (l.set == 0 || !m.oldest)):
		base.rule = RuleWriteL
		next.buf = append(slices.Clone(l.buf), int32(x))
		base.sub = []binding{{bufv(len(l.buf)), v}}
	case m.oldest || m.k == 0:
		base.rule = RuleWriteG
		next.set |= 1 << x
		base.sub = []binding{{dvar{Kind: dLW, P: int32(p), I: int32(x)}, v}}
	default:
		// Newest k: the oldest kept store joins the abstracted part.
		base.rule = RuleWriteG
		y := l.buf[0]
		next.set |= 1 << y
		sub := []binding{{dvar{Kind: dLW, P: int32(p), I: y}, s.t.Var(bufv(0))}}
		for i := 1; i < len(l.buf); i++ {
			sub = append(sub, binding{bufv(i - 1), s.t.Var(bufv(i))})
		}
		sub = append(sub, binding{bufv(len(l.buf) - 1), v})
		next.buf = append(slices.Clone(l.buf[1:]), int32(x))
		base.sub = sub
	}
	base.next = next
	return base
}

// updateMoves appends the buffer updates of process p from l.
func (s *system) updateMoves(m mode, l local, p int, out []move) []move {
	t := s.t
	bufv := func(i int) dvar { return dvar{Kind: dBuf, P: int32(p), I: int32(i)} }
	base := move{proc: p, trans: -1, guard: idTrue, val: -1}
	ne := len(l.buf) > 0 && (l.set == 0 || m.oldest)
	if ne {
		x := int(l.buf[0])
		mv := base
		mv.rule, mv.x = RuleUpdateNE, x
		mv.val = t.Var(bufv(0))
		mv.sub = []binding{{dvar{Kind: dMem, I: int32(x)}, t.Var(bufv(0))}}
		for i := 1; i < len(l.buf); i++ {
			mv.sub = append(mv.sub, binding{bufv(i - 1), t.Var(bufv(i))})
		}
		mv.next = local{loc: l.loc, buf: slices.Clone(l.buf[1:]), set: l.set}
		if len(mv.next.buf) == 0 {
			mv.next.buf = nil
		}
		return append(out, mv)
	}
	for set := l.set; set != 0; set &= set - 1 {
		x := bits.TrailingZeros64(set)
		mem := dvar{Kind: dMem, I: int32(x)}
		h := dvar{Kind: dHavoc, I: int32(x)}
		am := base
		am.rule, am.x, am.next = RuleUpdateAM, x, l
		am.sub = []binding{{mem, t.Var(h)}}
		am.havoc = []dvar{h}
		am.val = t.Var(h)
		as := base
		as.rule, as.x = RuleUpdateAS, x
		lw := t.Var(dvar{Kind: dLW, P: int32(p), I: int32(x)})
		as.sub = []binding{{mem, lw}}
		as.val = lw
		as.next = local{loc: l.loc, buf: l.buf, set: l.set &^ (1 << x)}
		out = append(out, as, am)
	}
	return out
}

// lockedMoves appends the moves of an atomic block: the body runs against
// memory, in order, as one step.
func (s *system) lockedMoves(base move, body []model.Op, l local, out []move) ([]move, error) {
	t := s.t
	p := base.proc
	q := s.p.Procs[p]
	base.rule = RuleARW
	env := make(map[dvar]tid)
	get := func(v dvar) tid {
		if x, ok := env[v]; ok {
			return x
		}
		return t.Var(v)
	}
	reg := func(r int) dvar { return dvar{Kind: dReg, P: int32(p), I: int32(r)} }
	regTerm := func(r model.RegRef) tid { return get(reg(r.Reg)) }
	memTerm := func(x int) tid { return get(dvar{Kind: dMem, I: int32(x)}) }
	guard := idTrue
	nfault := 0
	fault := func(v tid, d model.Domain) {
		in := t.inDomain(v, d)
		if in == idTrue {
			return
		}
		f := base
		f.fault, f.guard, f.next = true, t.And(guard, t.Not(in)), l
		f.fseq = nfault
		nfault++
		out = append(out, f)
		guard = t.And(guard, in)
	}
	// divFault appends the fault move of a division by zero in e.
	divFault := func(e model.Expr) error {
		dz, err := t.faultCond(e, regTerm, memTerm)
		if err != nil || dz == idFalse {
			return err
		}
		f := base
		f.fault, f.guard, f.next = true, t.And(guard, dz), l
		f.fseq = nfault
		nfault++
		out = append(out, f)
		guard = t.And(guard, t.Not(dz))
		return nil
	}
	first := true
	for _, b := range body {
		switch b.Kind {
		case model.Nop:
		case model.Assign:
			v, err := t.fromExpr(b.Expr, regTerm, memTerm)
			if err == nil {
				err = divFault(b.Expr)
			}
			if err != nil {
				return out, err
			}
			fault(v, q.Regs[b.Reg].Dom)
			env[reg(b.Reg)] = v
		case model.Guard:
			g, err := t.fromCond(b.Expr, regTerm, memTerm)
			if err == nil {
				err = divFault(b.Expr)
			}
			if err != nil {
				return out, err
			}
			guard = t.And(guard, g)
		case model.Read:
			v := memTerm(b.Var)
			if first {
				base.x, base.val, first = b.Var, v, false
			}
			if b.Expr != nil {
				want, err := t.fromExpr(b.Expr, regTerm, memTerm)
				if err == nil {
					err = divFault(b.Expr)
				}
				if err != nil {
					return out, err
				}
				guard = t.And(guard, t.Eq(v, want))
			}
			if b.Reg >= 0 {
				fault(v, q.Regs[b.Reg].Dom)
				env[reg(b.Reg)] = v
			}
		case model.Write:
			v, err := t.fromExpr(b.Expr, regTerm, memTerm)
			if err == nil {
				err = divFault(b.Expr)
			}
			if err != nil {
				return out, err
			}
			if first {
				base.x, base.val, first = b.Var, v, false
			}
			fault(v, s.p.Vars[b.Var].Dom)
			env[dvar{Kind: dMem, I: int32(b.Var)}] = v
		default:
			return out, fmt.Errorf("a %v inside a locked block", b.Kind)
		}
	}
	base.guard = guard
	for v, x := range env {
		base.sub = append(base.sub, binding{v, x})
	}
	slices.SortFunc(base.sub, func(a, b binding) int { return cmpDvar(a.v, b.v) })
	return append(out, base), nil
}

// maxSplitConds bounds the conditions splitMoves splits one move on.
const maxSplitConds = 3

// splitMoves replaces each move whose guard, assignment or recorded value
// chooses between values (an if-then-else term: a comparison or a
// negation used as a number, a product by one) by one move per case, each
// with the case's condition in its guard and the chosen values in its
// terms. The abstract post of a move is computed predicate by predicate,
// and a choice that no predicate decides before the step would leave
// every predicate about its result undecided after it (m := max(a, b)
// proves neither m == a nor m == b); split, each case decides them. Fault
// moves are not split: they assign nothing.
func (s *system) splitMoves(mvs []move) []move {
	var out []move
	for _, mv := range mvs {
		if mv.fault {
			out = append(out, mv)
			continue
		}
		out = s.splitMove(mv, 1, 0, out)
	}
	return out
}

// splitMove appends the cases of mv, whose case number so far is id after
// depth conditions.
func (s *system) splitMove(mv move, id, depth int, out []move) []move {
	t := s.t
	c, ok := s.choice(&mv)
	if !ok || depth >= maxSplitConds {
		if depth > 0 {
			mv.split = id
		}
		return append(out, mv)
	}
	for _, pol := range []bool{true, false} {
		cs := mv
		lit := c
		if !pol {
			lit = t.Not(c)
		}
		cs.guard = t.And(t.Choose(mv.guard, c, pol), lit)
		if cs.guard == idFalse {
			continue
		}
		cs.sub = make([]binding, len(mv.sub))
		for i, b := range mv.sub {
			cs.sub[i] = binding{b.v, t.Choose(b.t, c, pol)}
		}
		if mv.val >= 0 {
			cs.val = t.Choose(mv.val, c, pol)
		}
		out = s.splitMove(cs, id<<1|int(b2i(pol)), depth+1, out)
	}
	return out
}

// choice returns the condition of an if-then-else in the terms of mv.
func (s *system) choice(mv *move) (tid, bool) {
	if c, ok := s.t.iteCond(mv.guard); ok {
		return c, true
	}
	for _, b := range mv.sub {
		if c, ok := s.t.iteCond(b.t); ok {
			return c, true
		}
	}
	if mv.val >= 0 {
		return s.t.iteCond(mv.val)
	}
	return 0, false
}
