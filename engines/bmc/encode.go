package bmc

import (
	"fmt"
	"math/bits"

	"github.com/fencecheck/fencecheck/engines/lib/smt"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/facts"
)

// This file is the interference-modular encoding Φ_C of §3.1 and the
// property Φ_PRP of §3.2: each process of the unrolled (loop-free) program
// in gated SSA form, with a placeholder for the value of every global read,
// and the interference skeleton (the accesses with their enabling
// conditions, values, times and program order).

// An access is a global read or write (§3.1, "global accesses"): the
// access tuple (Addr, Val, En) and its time.
type access struct {
	write bool
	proc  int // -1 for an initial write or a final read
	trans int // transition of the unrolled process, -1 for none
	x     int // the variable (Addr)
	val   *smt.Expr
	en    *smt.Expr
	// at is the time of the access's event: when a read reads, when a
	// write is issued by its process. nil for an initial write (before
	// everything).
	at *smt.Expr
	// mem is the time a write reaches memory: at, except for a plain
	// write under TSO, which reaches memory when it leaves the store
	// buffer (its flush). nil for an initial write.
	mem *smt.Expr
	// buffered is set for a plain write under TSO.
	buffered bool
	init     bool
	final    bool

	// Reads only.
	sel *smt.Expr // link(r, cand[j]) is en ∧ sel = j
	// cand is the default link set cW(r) after static pruning (§7.1 S0,
	// S2a): the writes r may read from.
	cand []int
	// interf are the writes that may come between r and the write it
	// reads from: the Π3 partners w'.
	interf []int
	// need, when set, is a condition every value r reads must meet for
	// its event to happen at all (a required value, a compare-and-swap's
	// comparison): the lock lemma S2a drops writes of constants that fail it.
	need func(int64) bool
}

// edge kinds.
const (
	local  = iota // no shared memory: Nop, Assign, Guard (and Fence under SC)
	reads         // a Read
	writes        // a Write
	locked        // a Locked operation
	fence         // a Fence under TSO
)

// proc is the encoding of one unrolled process.
type proc struct {
	i    int
	q    *model.Process
	kind []int // per transition
	// at[l]: the process's path visits location l. env[l]: the registers
	// there (gated SSA).
	at  []*smt.Expr
	env [][]*smt.Expr
	// e[t]: transition t is executed; f[t]: the process attempts t and
	// faults (nil when t cannot fault).
	e, f []*smt.Expr
	// xt[t]: the time of access transition t; fl[t]: the flush time of a
	// plain write under TSO.
	xt, fl []*smt.Expr
	// acc[t]: the accesses of transition t.
	acc [][]int
	// reach[l]: the transitions reachable from location l.
	reach []bitset
	fin   map[finKey]*smt.Expr
	ends  []*smt.Expr
	// pre[l], once computed, is before(l).
	pre [][]bool
	// in lists the transitions into each location (beforeAny).
	in [][]int
}

// po reports whether transition a comes before transition b on some path.
func (pr *proc) po(a, b int) bool { return pr.reach[pr.q.Trans[a].To].has(b) }

type bitset []uint64

func newBitset(n int) bitset    { return make(bitset, (n+63)/64) }
func (s bitset) has(i int) bool { return s[i/64]&(1<<(i%64)) != 0 }
func (s bitset) set(i int)      { s[i/64] |= 1 << (i % 64) }
func (s bitset) union(o bitset) {
	for i := range s {
		s[i] |= o[i]
	}
}
func (s bitset) count() (n int) {
	for _, w := range s {
		n += bits.OnesCount64(w)
	}
	return n
}

// encoding is one check of one unrolled program under one memory model.
type encoding struct {
	*fb
	p     *model.Program // the original
	u     *Unrolled
	m     model.Model
	procs []*proc
	acc   []*access
	rd    []int // the reads among acc
	wr    []int // the writes among acc
	// byVar[x] lists the writes of x.
	byVar [][]int
	// tEnd is the time of the end of the execution: every executed step
	// comes before it; a fault happens at it; final reads read at it.
	tEnd *smt.Expr
	// endOrder orders the executed accesses (and, with flushAll, the
	// flushes) before tEnd, asserted only when the end is read: by a
	// final read or a faulting attempt. Otherwise openEnd is set and
	// tEnd is unconstrained.
	endOrder []*smt.Expr
	openEnd  bool
	// dead[i][l] lists the registers of process i dead at location l of
	// the unrolled program (facts.Dead).
	dead [][][]int
	// flushAll holds when the chosen bad state names memory: every store
	// has left its buffer by tEnd.
	flushAll *smt.Expr
	final    map[int]int // variable -> final read access
	finalEn  map[int][]*smt.Expr
	// rdPos and varReads, once computed, are the positions in rd of the
	// reads by access, and by variable the reads that can matter to its
	// writes, with the variables they read (focus.go's closure).
	rdPos    map[int]int
	varReads [][]int
	badSel   []*smt.Expr
	faults   []faultRef
	initVals []*smt.Expr   // per variable
	initRegs [][]*smt.Expr // per process and register
	base     []*smt.Expr   // the assertions of Φ_C ∧ Φ_PRP
	lemmas   int           // lock lemmas (S2b) among them
	// isLock marks the variables the lock lemmas describe.
	isLock []bool
}

type faultRef struct{ proc, trans int }

// assert records a formula of Φ_C or Φ_PRP.
func (en *encoding) assert(f *smt.Expr) {
	if f != en.tt {
		en.base = append(en.base, f)
	}
}

// encode builds Φ_C and Φ_PRP for u under m. p is the original program.
//
// With noProp, Φ_PRP is left out and no process faults (every faulting
// attempt is excluded): the race questions state their own goals.
func encode(b *fb, p *model.Program, u *Unrolled, m model.Model, lemmas, noProp bool, maxPairs int64) (*encoding, error) {
	en := &encoding{fb: b, p: p, u: u, m: m, byVar: make([][]int, len(p.Vars)),
		final: map[int]int{}, finalEn: map[int][]*smt.Expr{}}
	en.tEnd = b.z.Int("tend")
	en.flushAll = b.z.Bool("flushall")
	// The registers no later step reads need no value where paths join.
	// u.Prog has no bad states (the property names copies of p's
	// locations); the registers p's bad states read are live everywhere.
	en.dead = facts.Dead(&model.Program{Name: p.Name, Vars: u.Prog.Vars, Procs: u.Prog.Procs, Bad: p.Bad})
	// Initial writes (t0 in Fig. 2).
	for x, v := range p.Vars {
		val := b.num(v.Init.Value)
		if v.Init.Any {
			val = b.z.Int(fmt.Sprintf("init%d", x))
			en.assert(b.inDom(v.Dom, val))
		}
		en.initVals = append(en.initVals, val)
		en.addAccess(&access{write: true, proc: -1, trans: -1, x: x, val: val, en: b.tt, init: true})
	}
	for i, q := range u.Prog.Procs {
		pr, err := en.encodeProc(i, q)
		if err != nil {
			return nil, err
		}
		en.procs = append(en.procs, pr)
	}
	if noProp {
		for _, f := range en.faults {
			en.assert(b.not(en.procs[f.proc].f[f.trans]))
		}
	} else if err := en.property(); err != nil {
		return nil, err
	}
	if len(en.final) == 0 && (noProp || len(en.faults) == 0) {
		// Nothing happens at the end: no final read of memory, no
		// faulting attempt. Every access coming before it would only
		// constrain tEnd, which nothing else reads.
		en.openEnd = true
	} else {
		for _, f := range en.endOrder {
			en.assert(f)
		}
	}
	en.endOrder = nil
	en.programOrder()
	if n := en.pairs(); maxPairs > 0 && n > maxPairs {
		return nil, tooLarge{pairs: n, max: maxPairs}
	}
	en.linkSets()
	en.isLock = make([]bool, len(p.Vars))
	if lemmas {
		en.lemmas = en.lockLemmas()
	}
	en.base = append(en.base, b.side...)
	return en, nil
}

func (en *encoding) addAccess(a *access) int {
	id := len(en.acc)
	en.acc = append(en.acc, a)
	if a.write {
		en.wr = append(en.wr, id)
		en.byVar[a.x] = append(en.byVar[a.x], id)
	} else {
		en.rd = append(en.rd, id)
	}
	return id
}

// topo returns the locations of q in a topological order (q is a DAG).
func topo(q *model.Process) []int {
	indeg := make([]int, len(q.Locs))
	for _, t := range q.Trans {
		indeg[t.To]++
	}
	var order []int
	stack := []int{}
	for l := range q.Locs {
		if indeg[l] == 0 {
			stack = append(stack, l)
		}
	}
	for len(stack) > 0 {
		l := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		order = append(order, l)
		for _, ti := range q.Out(l) {
			to := q.Trans[ti].To
			indeg[to]--
			if indeg[to] == 0 {
				stack = append(stack, to)
			}
		}
	}
	return order
}

// edgeKind classifies op.
func (en *encoding) edgeKind(op model.Op) int {
	switch op.Kind {
	case model.Read:
		return reads
	case model.Write:
		return writes
	case model.Locked:
		return locked
	case model.Fence:
		if en.m == model.TSO {
			return fence
		}
	}
	return local
}

// encodeProc builds the gated SSA form of process i (§3.1.1, §3.1.2): the
// path conditions, the register values at every location, the guards and
// faults of every transition, and its accesses.
func (en *encoding) encodeProc(i int, q *model.Process) (*proc, error) {
	b := en.fb
	n, nt := len(q.Locs), len(q.Trans)
	pr := &proc{i: i, q: q, kind: make([]int, nt), at: make([]*smt.Expr, n), env: make([][]*smt.Expr, n),
		e: make([]*smt.Expr, nt), f: make([]*smt.Expr, nt), xt: make([]*smt.Expr, nt), fl: make([]*smt.Expr, nt),
		acc: make([][]int, nt), fin: map[finKey]*smt.Expr{}}
	order := topo(q)
	if len(order) != n {
		return nil, fmt.Errorf("internal error: process %s of the unrolled program has a cycle", q.Name)
	}
	// Reachability, for program order.
	pr.reach = make([]bitset, n)
	for k := len(order) - 1; k >= 0; k-- {
		l := order[k]
		s := newBitset(nt)
		for _, ti := range q.Out(l) {
			s.set(ti)
			s.union(pr.reach[q.Trans[ti].To])
		}
		pr.reach[l] = s
	}
	in := make([][]int, n)
	for ti, t := range q.Trans {
		in[t.To] = append(in[t.To], ti)
		pr.kind[ti] = en.edgeKind(t.Op)
		pr.e[ti] = b.z.Bool(fmt.Sprintf("e%d_%d", i, ti))
		if pr.kind[ti] != local {
			pr.xt[ti] = b.z.Int(fmt.Sprintf("t%d_%d", i, ti))
		}
	}
	// Initial registers.
	regs := make([]*smt.Expr, len(q.Regs))
	for r, reg := range q.Regs {
		regs[r] = b.num(reg.Init.Value)
		if reg.Init.Any {
			regs[r] = b.z.Int(fmt.Sprintf("ireg%d_%d", i, r))
			en.assert(b.inDom(reg.Dom, regs[r]))
		}
	}
	en.initRegs = append(en.initRegs, regs)
	dead := make([][]bool, n)
	for l, rs := range en.dead[i] {
		dead[l] = make([]bool, len(q.Regs))
		for _, r := range rs {
			dead[l][r] = true
		}
	}
	post := make([][]*smt.Expr, nt)
	for _, l := range order {
		switch {
		case l == q.Init:
			pr.at[l] = b.tt
			pr.env[l] = regs
		case len(in[l]) == 1:
			pr.at[l] = pr.e[in[l][0]]
			pr.env[l] = post[in[l][0]]
		default:
			var es []*smt.Expr
			for _, ti := range in[l] {
				es = append(es, pr.e[ti])
			}
			pr.at[l] = b.or(es...)
			env := make([]*smt.Expr, len(q.Regs))
			for r := range q.Regs {
				same := true
				first := post[in[l][0]][r]
				for _, ti := range in[l][1:] {
					if !post[ti][r].Equal(first) {
						same = false
						break
					}
				}
				if same || dead[l][r] {
					// A dead register's value at l is never read.
					env[r] = first
					continue
				}
				env[r] = b.z.Int(fmt.Sprintf("g%d_%d_%d", i, l, r))
				for _, ti := range in[l] {
					en.assert(b.implies(pr.e[ti], b.eq(env[r], post[ti][r])))
				}
			}
			pr.env[l] = env
		}
		// The transitions leaving l: at most one is taken (or attempted
		// with a fault).
		var taken []*smt.Expr
		for _, ti := range q.Out(l) {
			ok, fault, out, err := en.transition(pr, ti, pr.env[l])
			if err != nil {
				return nil, fmt.Errorf("process %s: %w", q.Name, err)
			}
			post[ti] = out
			en.assert(b.implies(pr.e[ti], b.and(pr.at[l], ok)))
			taken = append(taken, pr.e[ti])
			if fault != b.ff {
				pr.f[ti] = b.z.Bool(fmt.Sprintf("f%d_%d", i, ti))
				en.assert(b.implies(pr.f[ti], b.and(pr.at[l], fault)))
				taken = append(taken, pr.f[ti])
				en.faults = append(en.faults, faultRef{i, ti})
			}
		}
		for a := range taken {
			for c := a + 1; c < len(taken); c++ {
				en.assert(b.not(b.and(taken[a], taken[c])))
			}
		}
	}
	// Times: every executed access before the end (kept aside until the
	// property says whether anything looks at the end); a faulting
	// attempt at it.
	for ti := range q.Trans {
		if pr.xt[ti] == nil {
			continue
		}
		en.endOrder = append(en.endOrder, b.implies(pr.e[ti], b.z.Lt(pr.xt[ti], en.tEnd)))
		if pr.f[ti] != nil {
			en.assert(b.implies(pr.f[ti], b.z.Eq(pr.xt[ti], en.tEnd)))
		}
		if pr.fl[ti] != nil {
			en.assert(b.implies(pr.e[ti], b.z.Lt(pr.xt[ti], pr.fl[ti])))
			en.endOrder = append(en.endOrder, b.implies(b.and(pr.e[ti], en.flushAll), b.z.Lt(pr.fl[ti], en.tEnd)))
		}
	}
	pr.ends = make([]*smt.Expr, n)
	for l := range q.Locs {
		var out []*smt.Expr
		for _, ti := range q.Out(l) {
			out = append(out, pr.e[ti])
			if pr.f[ti] != nil {
				out = append(out, pr.f[ti])
			}
		}
		pr.ends[l] = b.and(pr.at[l], b.not(b.or(out...)))
	}
	return pr, nil
}

// attempt is the condition that process pr's transition t reads: executed
// or attempted with a fault.
func (pr *proc) attempt(b *fb, t int) *smt.Expr {
	if pr.f[t] == nil {
		return pr.e[t]
	}
	return b.or(pr.e[t], pr.f[t])
}

// transition encodes transition ti of pr from registers regs: the
// condition under which it executes, the condition under which it faults,
// the registers after it, and its accesses (added to the encoding).
func (en *encoding) transition(pr *proc, ti int, regs []*smt.Expr) (ok, fault *smt.Expr, out []*smt.Expr, err error) {
	b := en.fb
	q := pr.q
	t := q.Trans[ti]
	op := t.Op
	out = regs
	setReg := func(r int, v *smt.Expr) {
		out = append([]*smt.Expr(nil), out...)
		out[r] = v
	}
	s := &scope{regs: regs, prog: en.p, q: q}
	newRead := func(x int, need func(int64) bool) *access {
		// The value is not bounded to x's domain: a read in R reads a
		// write's value, which lies in it, and a model in which a read
		// outside R reads another value is refuted by its execution
		// like any other liar. The bounds cost two arithmetic atoms a
		// read.
		val := b.z.Int(fmt.Sprintf("v%d_%d_%d", pr.i, ti, x))
		a := &access{proc: pr.i, trans: ti, x: x, val: val, en: nil, at: pr.xt[ti], need: need}
		pr.acc[ti] = append(pr.acc[ti], en.addAccess(a))
		return a
	}
	switch op.Kind {
	case model.Nop, model.Fence:
		return b.tt, b.ff, out, nil
	case model.Assign:
		v, f, err := b.expr(op.Expr, s)
		if err != nil {
			return nil, nil, nil, err
		}
		dom := b.inDom(q.Regs[op.Reg].Dom, v)
		setReg(op.Reg, v)
		return b.and(b.not(f), dom), b.or(f, b.not(dom)), out, nil
	case model.Guard:
		c, f, err := b.cond(op.Expr, s)
		if err != nil {
			return nil, nil, nil, err
		}
		return b.and(b.not(f), c), f, out, nil
	case model.Read:
		var need func(int64) bool
		if c, isConst := op.Expr.(model.Const); isConst {
			need = func(v int64) bool { return v == c.Value }
		}
		a := newRead(op.Var, need)
		ok, fault = b.tt, b.ff
		if op.Expr != nil {
			want, f, err := b.expr(op.Expr, s)
			if err != nil {
				return nil, nil, nil, err
			}
			match := b.eq(want, a.val)
			fault = f
			ok = b.and(b.not(f), match)
		}
		if op.Reg >= 0 {
			dom := en.regDom(q.Regs[op.Reg].Dom, op.Var, a.val)
			fault = b.or(fault, b.and(ok, b.not(dom)))
			ok = b.and(ok, dom)
			setReg(op.Reg, a.val)
		}
		return ok, fault, out, nil
	case model.Write:
		v, f, err := b.expr(op.Expr, s)
		if err != nil {
			return nil, nil, nil, err
		}
		dom := b.inDom(en.p.Vars[op.Var].Dom, v)
		a := &access{write: true, proc: pr.i, trans: ti, x: op.Var, val: v, en: pr.e[ti], at: pr.xt[ti], mem: pr.xt[ti]}
		if en.m == model.TSO {
			pr.fl[ti] = b.z.Int(fmt.Sprintf("fl%d_%d", pr.i, ti))
			a.mem, a.buffered = pr.fl[ti], true
		}
		pr.acc[ti] = append(pr.acc[ti], en.addAccess(a))
		return b.and(b.not(f), dom), b.or(f, b.not(dom)), out, nil
	case model.Locked:
		return en.lockedBody(pr, ti, regs, newRead)
	}
	return nil, nil, nil, fmt.Errorf("unknown operation %v", op.Kind)
}

// lockedBody encodes a locked operation: one event whose reads see memory
// before the body and whose writes are the body's last write of each
// variable (every access of the event has the event's time, so nothing
// comes between them).
func (en *encoding) lockedBody(pr *proc, ti int, regs []*smt.Expr, newRead func(int, func(int64) bool) *access) (ok, fault *smt.Expr, out []*smt.Expr, err error) {
	b := en.fb
	q := pr.q
	body := q.Trans[ti].Op.Body
	regs = append([]*smt.Expr(nil), regs...)
	mem := map[int]*smt.Expr{}
	var order []int // variables written, in order of first write
	need := lockNeed(body)
	var scopeErr error
	memVal := func(x int) *smt.Expr {
		if v, ok := mem[x]; ok {
			return v
		}
		if x < 0 || x >= len(en.p.Vars) {
			scopeErr = fmt.Errorf("shared variable %d out of range", x)
			return b.zero
		}
		a := newRead(x, need[x])
		mem[x] = a.val
		return a.val
	}
	s := &scope{regs: regs, mem: memVal, prog: en.p, q: pr.q}
	ok, fault = b.tt, b.ff
	for _, o := range body {
		switch o.Kind {
		case model.Nop:
		case model.Assign:
			v, f, err := b.expr(o.Expr, s)
			if err != nil {
				return nil, nil, nil, err
			}
			dom := b.inDom(q.Regs[o.Reg].Dom, v)
			fault = b.or(fault, b.and(ok, b.or(f, b.not(dom))))
			ok = b.and(ok, b.not(f), dom)
			regs[o.Reg] = v
		case model.Guard:
			c, f, err := b.cond(o.Expr, s)
			if err != nil {
				return nil, nil, nil, err
			}
			fault = b.or(fault, b.and(ok, f))
			ok = b.and(ok, b.not(f), c)
		case model.Read:
			v := memVal(o.Var)
			if o.Expr != nil {
				want, f, err := b.expr(o.Expr, s)
				if err != nil {
					return nil, nil, nil, err
				}
				fault = b.or(fault, b.and(ok, f))
				ok = b.and(ok, b.not(f), b.eq(want, v))
			}
			if o.Reg >= 0 {
				dom := en.regDom(q.Regs[o.Reg].Dom, o.Var, v)
				fault = b.or(fault, b.and(ok, b.not(dom)))
				ok = b.and(ok, dom)
				regs[o.Reg] = v
			}
		case model.Write:
			v, f, err := b.expr(o.Expr, s)
			if err != nil {
				return nil, nil, nil, err
			}
			dom := b.inDom(en.p.Vars[o.Var].Dom, v)
			fault = b.or(fault, b.and(ok, b.or(f, b.not(dom))))
			ok = b.and(ok, b.not(f), dom)
			if !contains(order, o.Var) {
				order = append(order, o.Var)
			}
			mem[o.Var] = v
		default:
			return nil, nil, nil, fmt.Errorf("a %v inside a locked block", o.Kind)
		}
		if scopeErr != nil {
			return nil, nil, nil, scopeErr
		}
	}
	for _, x := range order {
		a := &access{write: true, proc: pr.i, trans: ti, x: x, val: mem[x], en: pr.e[ti], at: pr.xt[ti], mem: pr.xt[ti]}
		pr.acc[ti] = append(pr.acc[ti], en.addAccess(a))
	}
	return ok, fault, regs, nil
}

// regDom is the condition that value v of shared variable x, read into a
// register of domain d, lies in d: true when x's domain lies within d, so
// that the read has no fault (an executed read reads a value of x's
// domain).
func (en *encoding) regDom(d model.Domain, x int, v *smt.Expr) *smt.Expr {
	if vd := en.p.Vars[x].Dom; d.Unbounded || (!vd.Unbounded && d.Lo <= vd.Lo && vd.Hi <= d.Hi) {
		return en.tt
	}
	return en.inDom(d, v)
}

func contains(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// lockNeed returns, for a locked body, the variables whose value the
// body's first operation requires (a compare-and-swap's read of x == c, or
// a guard x != c or x == c): every attempt of the operation, even one that
// faults later in the body, needs it (lock lemma S2a of §7.1).
func lockNeed(body []model.Op) map[int]func(int64) bool {
	need := map[int]func(int64) bool{}
	if len(body) == 0 {
		return need
	}
	o := body[0]
	switch o.Kind {
	case model.Read:
		if c, ok := o.Expr.(model.Const); ok {
			need[o.Var] = func(v int64) bool { return v == c.Value }
		}
	case model.Guard:
		be, ok := o.Expr.(model.Binary)
		if !ok || (be.Op != model.OpEq && be.Op != model.OpNe) {
			break
		}
		x, xok := be.X.(model.VarRef)
		c, cok := be.Y.(model.Const)
		if !xok || !cok {
			x, xok = be.Y.(model.VarRef)
			c, cok = be.X.(model.Const)
		}
		if xok && cok {
			if be.Op == model.OpEq {
				need[x.Var] = func(v int64) bool { return v == c.Value }
			} else {
				need[x.Var] = func(v int64) bool { return v != c.Value }
			}
		}
	}
	return need
}

// finReg returns the value of register r of process i at the end, for a
// bad state that requires the process to end at a copy of location loc
// of the original program (-1: it names no location of the process, so
// the process may end anywhere). The value is defined only where the
// process may end for the bad state.
func (en *encoding) finReg(i, r, loc int) *smt.Expr {
	pr := en.procs[i]
	key := finKey{r, loc}
	if v, ok := pr.fin[key]; ok {
		return v
	}
	name := fmt.Sprintf("fin%d_%d", i, r)
	if loc >= 0 {
		name = fmt.Sprintf("fin%d_%d_at%d", i, r, loc)
	}
	v := en.z.Int(name)
	define := func(l int) { en.assert(en.implies(pr.ends[l], en.eq(v, pr.env[l][r]))) }
	if loc >= 0 {
		for _, c := range en.u.Copies[i][loc] {
			define(c)
		}
	} else {
		for l := range pr.q.Locs {
			define(l)
		}
	}
	pr.fin[key] = v
	return v
}

// finKey names a final register value: the register and the location of
// the original program the process ends at (-1: any).
type finKey struct{ reg, loc int }

// finalRead returns the final read of variable x: the value of x in memory
// at the end, once every store has landed.
func (en *encoding) finalRead(x int) *access {
	if id, ok := en.final[x]; ok {
		return en.acc[id]
	}
	val := en.z.Int(fmt.Sprintf("final%d", x))
	en.assert(en.inDom(en.p.Vars[x].Dom, val))
	a := &access{proc: -1, trans: -1, x: x, val: val, en: en.z.Bool(fmt.Sprintf("fen%d", x)), at: en.tEnd, final: true}
	en.final[x] = en.addAccess(a)
	return a
}

// property builds Φ_PRP: some bad state of the original program is reached
// (every process it names ends at a copy of its location and its condition
// holds), or some process faults.
func (en *encoding) property() error {
	b := en.fb
	var goals []*smt.Expr
	var flushing []*smt.Expr
	for bi, bad := range en.p.Bad {
		sel := b.z.Bool(fmt.Sprintf("bad%d", bi))
		en.badSel = append(en.badSel, sel)
		var conj []*smt.Expr
		for _, pl := range bad.Locs {
			var at []*smt.Expr
			for _, c := range en.u.Copies[pl.Proc][pl.Loc] {
				at = append(at, en.procs[pl.Proc].ends[c])
			}
			conj = append(conj, b.or(at...))
		}
		if bad.Cond != nil {
			memory := false
			s := &scope{
				prog: en.p,
				mem: func(x int) *smt.Expr {
					memory = true
					a := en.finalRead(x)
					en.finalEn[x] = append(en.finalEn[x], sel)
					return a.val
				},
				qual: func(proc, reg int) *smt.Expr {
					loc := -1
					for _, pl := range bad.Locs {
						if pl.Proc == proc {
							loc = pl.Loc
						}
					}
					return en.finReg(proc, reg, loc)
				},
			}
			c, f, err := b.cond(bad.Cond, s)
			if err != nil {
				return fmt.Errorf("bad state %s: %w", en.p.BadName(bi), err)
			}
			conj = append(conj, b.not(f), c)
			if memory {
				flushing = append(flushing, sel)
			}
		}
		en.assert(b.implies(sel, b.and(conj...)))
		goals = append(goals, sel)
	}
	for x := range en.p.Vars {
		if sels, ok := en.finalEn[x]; ok {
			en.assert(b.z.Eq(en.acc[en.final[x]].en, b.or(sels...)))
		}
	}
	en.assert(b.z.Eq(en.flushAll, b.or(flushing...)))
	for _, f := range en.faults {
		goals = append(goals, en.procs[f.proc].f[f.trans])
	}
	en.assert(b.or(goals...))
	return nil
}

// firstEdges returns the transitions t of pr that a path from location l
// reaches after crossing only transitions for which stop is false; stop(t)
// holds for each.
func (pr *proc) firstEdges(l int, stop func(int) bool) []int {
	seen := map[int]bool{l: true}
	work := []int{l}
	var out []int
	for len(work) > 0 {
		c := work[len(work)-1]
		work = work[:len(work)-1]
		for _, ti := range pr.q.Out(c) {
			if stop(ti) {
				out = append(out, ti)
				continue
			}
			if to := pr.q.Trans[ti].To; !seen[to] {
				seen[to] = true
				work = append(work, to)
			}
		}
	}
	return out
}

// programOrder builds Φ_PO: consecutive events of a process in time order;
// under TSO, the program order of x86-TSO: stores leave the buffer in order
// (after they are issued), and a fence or locked operation waits for every
// earlier store to leave. A load may be performed before an earlier store
// of its process reaches memory: the one relaxed pair.
func (en *encoding) programOrder() {
	b := en.fb
	for _, pr := range en.procs {
		q := pr.q
		isAccess := func(t int) bool { return pr.kind[t] != local }
		for ti, t := range q.Trans {
			if !isAccess(ti) {
				continue
			}
			for _, next := range pr.firstEdges(t.To, isAccess) {
				en.assert(b.implies(b.and(pr.e[ti], pr.attempt(b, next)), b.z.Lt(pr.xt[ti], pr.xt[next])))
			}
			if pr.fl[ti] == nil {
				continue
			}
			// FIFO buffers and barriers.
			barrier := func(t int) bool { return pr.fl[t] != nil || pr.kind[t] == fence || pr.kind[t] == locked }
			for _, next := range pr.firstEdges(t.To, barrier) {
				if pr.fl[next] != nil {
					en.assert(b.implies(b.and(pr.e[ti], pr.e[next]), b.z.Lt(pr.fl[ti], pr.fl[next])))
				} else {
					en.assert(b.implies(b.and(pr.e[ti], pr.attempt(b, next)), b.z.Lt(pr.fl[ti], pr.xt[next])))
				}
			}
		}
		for ti := range q.Trans {
			for _, id := range pr.acc[ti] {
				if a := en.acc[id]; !a.write {
					a.en = pr.attempt(b, ti)
				}
			}
		}
	}
}

// own reports whether write w is one of read r's own process's stores that
// r may find in its store buffer (under SC: an earlier write of r's
// process), which r reads without any ordering against memory.
func (en *encoding) own(w, r *access) bool {
	if w.proc < 0 || w.proc != r.proc || w.trans == r.trans {
		return false
	}
	if en.m == model.TSO && !w.buffered {
		return false
	}
	return en.procs[r.proc].po(w.trans, r.trans)
}

// linkSets computes for every read its default link set cW(r), pruned
// statically (§7.1 S0: writes that come after r in its process, that lie
// on another branch, that an own write always overwrites before r; S2a:
// writes of constants the read's event cannot accept), and its Π3
// partners.
// pairs counts the pairs of a read and a write of its variable, which the
// link sets and the axioms range over.
func (en *encoding) pairs() int64 {
	var n int64
	for _, ri := range en.rd {
		n += int64(len(en.byVar[en.acc[ri].x]))
	}
	return n
}

// tooLarge is encode's error for a program whose reads and writes make
// more pairs than its budget: the bounded engine is for systems whose
// encoding is small, and the exact engines decide the others.
type tooLarge struct{ pairs, max int64 }

func (e tooLarge) Error() string {
	return fmt.Sprintf("the bounded encoding pairs reads with writes %d times, more than its budget of %d", e.pairs, e.max)
}

func (en *encoding) linkSets() {
	for _, ri := range en.rd {
		r := en.acc[ri]
		for _, wi := range en.byVar[r.x] {
			w := en.acc[wi]
			if w.proc >= 0 && w.proc == r.proc {
				pr := en.procs[r.proc]
				if w.trans == r.trans || !pr.po(w.trans, r.trans) {
					continue // same event, later, or another branch
				}
			}
			r.interf = append(r.interf, wi)
			if en.killed(w, r) {
				continue
			}
			if r.need != nil {
				if v, ok := w.val.Int64(); ok && !r.need(v) {
					continue
				}
			}
			r.cand = append(r.cand, wi)
		}
		r.sel = en.z.Int(fmt.Sprintf("sel%d", ri))
	}
}

// killed reports whether r can never read w because its own process
// always writes r's variable between them: on every path from w (from the
// start, for an initial write) to r.
func (en *encoding) killed(w, r *access) bool {
	if r.proc < 0 {
		return false
	}
	pr := en.procs[r.proc]
	if w.proc >= 0 && w.proc != r.proc {
		return false
	}
	start := pr.q.Init
	if w.proc >= 0 {
		start = pr.q.Trans[w.trans].To
	}
	// Search for a path from start to r's transition avoiding writes of x.
	writesX := func(t int) bool {
		for _, id := range pr.acc[t] {
			if a := en.acc[id]; a.write && a.x == r.x {
				return true
			}
		}
		return false
	}
	seen := map[int]bool{start: true}
	work := []int{start}
	for len(work) > 0 {
		l := work[len(work)-1]
		work = work[:len(work)-1]
		for _, ti := range pr.q.Out(l) {
			if ti == r.trans {
				return false
			}
			if writesX(ti) {
				continue
			}
			if to := pr.q.Trans[ti].To; !seen[to] {
				seen[to] = true
				work = append(work, to)
			}
		}
	}
	return true
}
