package sb

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/explicit"
	"github.com/fencecheck/fencecheck/internal/longtest"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/facts"
	"github.com/fencecheck/fencecheck/model/native"
)

// The tests of this file check the forward abstraction against the concrete
// TSO semantics of package model state by state: every concrete state that
// a breadth-first search reaches must be represented by an abstract state
// the abstraction reaches, with the same locations, registers, memory and
// fault, the newest k runs of equal stores of every buffer as its exact
// suffix, and, for the older stores, a summary with the exact oldest and
// newest store, exactly the stores present and a superset of their adjacent
// pairs. That is the simulation invariant on which both the Safe answers of
// the abstraction and the pruning of the SB search rest.

var longSound = flag.Bool("long-sound", false, "run the long soundness checks of the forward abstraction")

// run is a maximal run of equal stores in a buffer.
type run struct {
	e model.BufEntry
	n int
}

func runsOf(buf []model.BufEntry) []run {
	var rs []run
	for _, e := range buf {
		if len(rs) > 0 && rs[len(rs)-1].e == e {
			rs[len(rs)-1].n++
			continue
		}
		rs = append(rs, run{e, 1})
	}
	return rs
}

// represents reports whether abstract state a of suffix length k stands for
// concrete state c by the simulation invariant (locations, registers,
// memory and fault are compared by the caller).
func represents(a *absState, c model.State, k int) bool {
	for i, buf := range c.Bufs {
		rs := runsOf(buf)
		cut := max(0, len(rs)-k)
		suf := rs[cut:]
		if len(a.suf[i]) != len(suf) {
			return false
		}
		for j, r := range suf {
			b := a.suf[i][j]
			if b.e != r.e || (r.n > 1 && !b.many) {
				return false
			}
		}
		if cut == 0 {
			if a.sum[i] != nil {
				return false
			}
			continue
		}
		var older []model.BufEntry
		for _, r := range rs[:cut] {
			for range r.n {
				older = append(older, r.e)
			}
		}
		s := a.sum[i]
		if s == nil || s.first != older[0] || s.last != older[len(older)-1] {
			return false
		}
		letters := slices.Clone(older)
		slices.SortFunc(letters, cmpEntry)
		letters = slices.Compact(letters)
		if !slices.Equal(letters, s.letters) {
			return false
		}
		for j := 1; j < len(older); j++ {
			if _, ok := slices.BinarySearchFunc(s.pairs, [2]model.BufEntry{older[j-1], older[j]}, cmpPair); !ok {
				return false
			}
		}
	}
	return true
}

// localKey encodes locations, registers, memory and fault of a state. The
// registers of a faulty state are left out: a faulting step keeps the
// registers of the state before it, where the abstraction has reset the
// dead ones (a register the faulting operation was to define), and a
// faulty state has no successor.
func localKey(locs []int, regs [][]int64, mem []int64, fault bool) string {
	if fault {
		regs = nil
	}
	s := model.State{Locs: locs, Regs: regs, Mem: mem}
	b := s.AppendKey(nil)
	if fault {
		b = append(b, 1)
	}
	return string(b)
}

// simulation explores p concretely under TSO (buffers bounded by bound, 0
// for none, at most maxStates states) and checks that the abstraction with
// suffix length k represents every state found, that it reaches a bad
// state when the concrete search does, and that it records every concrete
// local state for pruning. It returns the number of concrete states checked
// (-1 when the abstraction exceeds maxAbs states) and whether one of them
// is bad.
func simulation(t *testing.T, p *model.Program, k, bound, maxStates int, maxAbs int64) (int, bool) {
	t.Helper()
	dead := facts.Dead(p)
	f := &forward{prog: p, k: k, visited: map[string]struct{}{}, local: map[string]*localStates{}, keep: true, dead: dead}
	if err := f.run(context.Background(), maxAbs); errors.Is(err, errAbsBudget) {
		return -1, false
	} else if err != nil {
		t.Fatalf("abstraction, k=%d: %v\n%s", k, err, native.Format(p))
	}
	abs := map[string][]*absState{}
	for i := range f.queue {
		a := &f.queue[i]
		key := localKey(a.locs, a.regs, a.mem, a.fault)
		abs[key] = append(abs[key], a)
	}
	type node struct {
		s      model.State
		parent int
		step   model.Step
		depth  int32
	}
	var nodes []node
	seen := map[string]bool{}
	var key []byte
	add := func(s model.State, parent int, st model.Step) {
		key = s.AppendKey(key[:0])
		if seen[string(key)] || len(nodes) >= maxStates {
			return
		}
		seen[string(key)] = true
		depth := int32(0)
		if parent >= 0 {
			depth = nodes[parent].depth + 1
		}
		nodes = append(nodes, node{s, parent, st, depth})
	}
	if err := p.Initial(func(s model.State) { add(s, -1, model.Step{}) }); err != nil {
		t.Fatal(err)
	}
	all := make([]uint64, len(p.Procs))
	for i, q := range p.Procs {
		all[i] = 1<<uint(len(q.Regs)) - 1
	}
	bad := false
	for head := 0; head < len(nodes); head++ {
		c := facts.CanonicalRegs(nodes[head].s, dead) // as the abstraction keeps them
		ok := false
		for _, a := range abs[localKey(c.Locs, c.Regs, c.Mem, c.Fault != nil)] {
			if represents(a, c, k) {
				ok = true
				break
			}
		}
		if !ok || c.Fault == nil && !f.mayReach(c.Locs, c.Regs, all) {
			var steps []string
			for n := head; nodes[n].parent >= 0; n = nodes[n].parent {
				steps = append(steps, nodes[n].step.Format(p))
			}
			slices.Reverse(steps)
			t.Fatalf("k=%d: no abstract state represents concrete state\n  locs %v regs %v mem %v bufs %v fault %v\nreached by\n  %s\nin\n%s",
				k, c.Locs, c.Regs, c.Mem, c.Bufs, c.Fault != nil, strings.Join(steps, "\n  "), native.Format(p))
		}
		// Breadth first, a node's depth is the length of the shortest run
		// to it: the abstraction's shortest run to its local state is no
		// longer (the best-first estimate of the backward search).
		if d := f.leastDepth(c.Locs, c.Regs, all, nil); c.Fault == nil && d > nodes[head].depth {
			t.Fatalf("k=%d: the abstraction's least depth %d of the local state of %v exceeds its concrete depth %d\n%s", k, d, c, nodes[head].depth, native.Format(p))
		}
		// So does a projection, with the first process's location wild
		// (a union of lists, sorted by depth).
		free := slices.Clone(c.Locs)
		free[0] = wild
		if d := f.leastDepth(free, c.Regs, all, nil); c.Fault == nil && (d < 0 || d > nodes[head].depth) {
			t.Fatalf("k=%d: the abstraction's least depth %d of the local state of %v with P0 free exceeds its concrete depth %d\n%s", k, d, c, nodes[head].depth, native.Format(p))
		}
		// A state with every buffer empty is recorded with its memory
		// (the backward search prunes by it), no deeper.
		if drained(c) && c.Fault == nil {
			full := &msg{mem: c.Mem, known: 1<<uint(len(c.Mem)) - 1}
			if d := f.leastDepth(c.Locs, c.Regs, all, full); d < 0 || d > nodes[head].depth {
				t.Fatalf("k=%d: the abstraction's least depth %d of the drained state %v exceeds its concrete depth %d\n%s", k, d, c, nodes[head].depth, native.Format(p))
			}
		}
		// So is every process's view with its buffer empty.
		if c.Fault == nil {
			full := &msg{mem: c.Mem, known: 1<<uint(len(c.Mem)) - 1}
			for q, b := range c.Bufs {
				if len(b) == 0 && !f.viewReached(q, c.Locs[q], c.Regs[q], all[q], full) {
					t.Fatalf("k=%d: the abstraction does not record the view of P%d in %v\n%s", k, q, c, native.Format(p))
				}
			}
		}
		// A fault is recorded with its process and transition (the
		// backward search prunes the twins of the others).
		if ft := c.Fault; ft != nil && f.complete && !f.hasFaulted(ft.Proc, ft.Trans) {
			t.Fatalf("k=%d: the abstraction does not record the fault of %v\n%s", k, c, native.Format(p))
		}
		if p.IsBad(c) {
			bad = true
			if !f.bad {
				t.Fatalf("k=%d: the concrete state %v is bad, the abstraction reaches no bad state\n%s", k, c, native.Format(p))
			}
		}
		p.Successors(nodes[head].s, model.TSO, bound, func(st model.Step, ns model.State) { add(ns, head, st) })
	}
	return len(nodes), bad
}

// builder assembles a process as a sequence of operations with optional
// backward jumps.
type builder struct {
	q *model.Process
	l int
}

func newBuilder(name string, regs ...model.Reg) *builder {
	q := &model.Process{Name: name, Regs: regs}
	return &builder{q: q, l: q.AddLoc("L0", model.Pos{})}
}

func (b *builder) op(o model.Op) *builder {
	n := b.q.AddLoc(fmt.Sprintf("L%d", len(b.q.Locs)), model.Pos{})
	b.q.AddTrans(b.l, o, n, model.Pos{})
	b.l = n
	return b
}

func (b *builder) w(x int, v int64) *builder { return b.op(model.WriteOp(x, model.C(v))) }
func (b *builder) r(x, reg int) *builder     { return b.op(model.ReadOp(x, reg)) }
func (b *builder) req(x int, v int64) *builder {
	return b.op(model.ReadEqOp(x, model.C(v)))
}

// vars returns n shared variables v0.. over [0:hi].
func vars(n int, hi int64) []model.Var {
	var vs []model.Var
	for x := range n {
		vs = append(vs, model.Var{Name: fmt.Sprintf("v%d", x), Dom: model.Range(0, hi)})
	}
	return vs
}

func reg(name string, hi int64) model.Reg { return model.Reg{Name: name, Dom: model.Range(0, hi)} }

// at returns the bad state of every given builder at its current location.
func at(cond model.Expr, bs ...*builder) model.BadState {
	bad := model.BadState{Name: "bad", Cond: cond}
	for i, b := range bs {
		bad.Locs = append(bad.Locs, model.ProcLoc{Proc: i, Loc: b.l})
	}
	return bad
}

func eq(a, b model.Expr) model.Expr  { return model.Bin(model.OpEq, a, b) }
func and(a, b model.Expr) model.Expr { return model.Bin(model.OpAnd, a, b) }
func regOf(p, r int) model.Expr      { return model.RegRef{Proc: p, Reg: r} }

// targeted returns hand-made programs aimed at the summary of the older
// stores: deep buffers of interleaved stores to several variables observed
// by another process, runs of equal stores, own reads through a summary
// whose variable has left it, memory-naming bad states, locked operations
// and faults.
func targeted() []*model.Program {
	var ps []*model.Program
	mk := func(name string, nv int, hi int64, bad func(bs []*builder) model.BadState, bs ...*builder) {
		p := &model.Program{Name: name, Vars: vars(nv, hi)}
		for _, b := range bs {
			p.Procs = append(p.Procs, b.q)
		}
		p.Bad = []model.BadState{bad(bs)}
		ps = append(ps, p)
	}
	// x,y,x,y,...: the observer reads y then x; memory states x=1,y=2 and
	// x=2,y=1 arise at different points of the flush order.
	for _, obs := range [][2]int64{{2, 1}, {2, 0}, {1, 2}, {1, 0}, {2, 2}} {
		p0 := newBuilder("P0").w(0, 1).w(1, 1).w(0, 2).w(1, 2).w(0, 1).w(1, 1)
		p1 := newBuilder("P1", reg("a", 2), reg("b", 2)).r(1, 0).r(0, 1)
		ry, rx := obs[0], obs[1]
		mk(fmt.Sprintf("xyxy-y%d-x%d", ry, rx), 2, 2, func(bs []*builder) model.BadState {
			return at(and(eq(regOf(1, 0), model.C(ry)), eq(regOf(1, 1), model.C(rx))), bs...)
		}, p0, p1)
	}
	// The same stream with a memory-naming bad state at P0's end.
	for _, m := range [][2]int64{{1, 2}, {2, 1}, {1, 1}} {
		p0 := newBuilder("P0").w(0, 1).w(1, 1).w(0, 2).w(1, 2).w(0, 1).w(1, 1).w(0, 2)
		p1 := newBuilder("P1", reg("a", 2)).r(0, 0)
		mx, my := m[0], m[1]
		mk(fmt.Sprintf("xyxy-mem-x%d-y%d", mx, my), 2, 2, func(bs []*builder) model.BadState {
			return model.BadState{Name: "bad", Locs: []model.ProcLoc{{Proc: 0, Loc: bs[0].l}},
				Cond: and(eq(model.V(0), model.C(mx)), eq(model.V(1), model.C(my)))}
		}, p0, p1)
	}
	// An own read of x after the summarised store to x is flushed and
	// another process overwrote x: the read must see memory. P1's read of
	// x = 0 after its exchange of z, which P0 read as 0 after its stores,
	// forces x := 1 to leave the summary only after y := 1 joined it.
	{
		p0 := newBuilder("P0", reg("a", 2)).w(0, 1).w(1, 1).w(1, 2).req(2, 0).r(0, 0)
		p1 := newBuilder("P1").op(model.Exchange(2, -1, model.C(1))).req(0, 0).op(model.Exchange(0, -1, model.C(2)))
		mk("own-read-after-summary", 3, 2, func(bs []*builder) model.BadState {
			return at(eq(regOf(0, 0), model.C(2)), bs...)
		}, p0, p1)
	}
	// Runs of equal stores: x=1,x=1,y=1,x=1,x=2 observed in between.
	{
		p0 := newBuilder("P0", reg("a", 2)).w(0, 1).w(0, 1).w(1, 1).w(0, 1).w(0, 2).w(1, 2).r(0, 0)
		p1 := newBuilder("P1", reg("a", 2), reg("b", 2)).r(1, 0).r(0, 1)
		mk("runs", 2, 2, func(bs []*builder) model.BadState {
			return at(and(eq(regOf(1, 0), model.C(1)), eq(regOf(1, 1), model.C(1))), bs...)
		}, p0, p1)
	}
	// Eight pending stores of three variables, then a read of a flag.
	{
		p0 := newBuilder("P0", reg("a", 1))
		for i := range 8 {
			p0.w(i%3, int64(1+i%2))
		}
		p0.r(2, 0)
		p1 := newBuilder("P1", reg("a", 2), reg("b", 2)).r(1, 0).op(model.FenceOp()).r(0, 1)
		mk("eight-pending", 3, 2, func(bs []*builder) model.BadState {
			return at(and(eq(regOf(1, 0), model.C(2)), eq(regOf(1, 1), model.C(1))), bs...)
		}, p0, p1)
	}
	// Two writers with deep buffers and a locked observer.
	{
		p0 := newBuilder("P0").w(0, 1).w(1, 1).w(0, 2).w(2, 1)
		p1 := newBuilder("P1").w(1, 2).w(2, 2).w(0, 1).w(1, 1)
		p2 := newBuilder("P2", reg("a", 2), reg("b", 2), reg("c", 2)).
			op(model.FetchAdd(2, 2, model.C(0))).r(0, 0).r(1, 1)
		mk("two-writers", 3, 2, func(bs []*builder) model.BadState {
			return at(and(eq(regOf(2, 0), model.C(2)), eq(regOf(2, 1), model.C(1))), bs[2])
		}, p0, p1, p2)
	}
	// A fault only reachable through a particular flush order: the
	// observer adds what it read and stores it into a [0:2] variable.
	{
		p0 := newBuilder("P0").w(0, 1).w(1, 1).w(0, 2).w(1, 2).w(0, 0)
		p1 := newBuilder("P1", reg("a", 2), reg("b", 2)).r(1, 0).r(0, 1).
			op(model.WriteOp(2, model.Bin(model.OpAdd, model.R(0), model.R(1))))
		mk("fault", 3, 2, func(bs []*builder) model.BadState {
			return at(eq(regOf(1, 0), model.C(9)), bs...)
		}, p0, p1)
	}
	// A looping producer of x=1,x=2 forever and a reader of three values.
	{
		p0 := newBuilder("P0").w(0, 1).w(1, 1).w(0, 2)
		p0.q.AddTrans(p0.l, model.NopOp(), 0, model.Pos{})
		p1 := newBuilder("P1", reg("a", 2), reg("b", 2), reg("c", 2)).r(0, 0).r(1, 1).r(0, 2)
		mk("loop-producer", 2, 2, func(bs []*builder) model.BadState {
			return model.BadState{Name: "bad", Locs: []model.ProcLoc{{Proc: 1, Loc: bs[1].l}},
				Cond: and(eq(regOf(1, 0), model.C(2)), and(eq(regOf(1, 1), model.C(1)), eq(regOf(1, 2), model.C(1))))}
		}, p0, p1)
	}
	// An own read of x behind a loop of stores to y: the newest store to x
	// is summarised with an older one, so the abstraction cannot tell which
	// one the read returns at any suffix length, and the SB search decides.
	// With another process storing x := 1 by an exchange, 1 is readable.
	for _, other := range []bool{false, true} {
		p0 := newBuilder("P0", reg("a", 2)).w(0, 1).w(0, 2)
		loop := p0.l
		p0.w(1, 1).w(1, 2)
		p0.q.AddTrans(p0.l, model.NopOp(), loop, model.Pos{})
		p0.r(0, 0)
		bs := []*builder{p0}
		name := "own-read-behind-loop"
		if other {
			bs = append(bs, newBuilder("P1").op(model.Exchange(0, -1, model.C(1))))
			name += "-other"
		}
		mk(name, 2, 2, func(bs []*builder) model.BadState {
			return model.BadState{Name: "bad", Locs: []model.ProcLoc{{Proc: 0, Loc: bs[0].l}}, Cond: eq(regOf(0, 0), model.C(1))}
		}, bs...)
	}
	return ps
}

func TestForwardSimulatesTargeted(t *testing.T) {
	for _, p := range targeted() {
		t.Run(p.Name, func(t *testing.T) {
			for _, k := range []int{1, 2, 3} {
				bound := 0
				if _, acyclic := maxWritesAcyclic(p); !acyclic {
					bound = 7
				}
				n, bad := simulation(t, p, k, bound, 300_000, 1<<20)
				if n < 0 {
					t.Fatalf("k=%d: abstraction budget exhausted", k)
				}
				t.Logf("k=%d: %d concrete states, bad=%v", k, n, bad)
			}
		})
	}
}

// maxWritesAcyclic reports whether every process of p is loop-free.
func maxWritesAcyclic(p *model.Program) (int, bool) {
	best := 0
	for _, q := range p.Procs {
		memo := map[int]int{}
		active := map[int]bool{}
		var visit func(l int) (int, bool)
		visit = func(l int) (int, bool) {
			if v, ok := memo[l]; ok {
				return v, true
			}
			if active[l] {
				return 0, false
			}
			active[l] = true
			n := 0
			for _, ti := range q.Out(l) {
				tr := q.Trans[ti]
				m, ok := visit(tr.To)
				if !ok {
					return 0, false
				}
				if tr.Op.Kind == model.Write {
					m++
				}
				n = max(n, m)
			}
			active[l] = false
			memo[l] = n
			return n, true
		}
		n, ok := visit(q.Init)
		if !ok {
			return 0, false
		}
		best = max(best, n)
	}
	return best, true
}

// genWriteHeavy builds a random program with many stores: two or three
// processes of up to maxOps operations (stores of constants or registers,
// plain reads, fences, exchanges, compare-and-swaps, fetch-and-adds, reads
// with an expected value that divides by a register or goes to a narrower
// register (all of which may fault), register updates), over nvars variables in [0:hi]; with loops set,
// guarded backward jumps. The bad state names locations of two processes
// and their registers, or, one time in three, memory.
func genWriteHeavy(rng *rand.Rand, maxOps, nvars int, loops bool) *model.Program {
	hi := int64(1 + rng.IntN(2))
	p := &model.Program{Name: "heavy", Vars: vars(nvars, hi)}
	nprocs := 2 + rng.IntN(2)
	val := func() model.Expr { return model.C(rng.Int64N(hi + 1)) }
	for i := range nprocs {
		b := newBuilder(fmt.Sprintf("P%d", i), reg("r", hi), reg("s", hi), reg("n", hi-1))
		n := 1 + rng.IntN(maxOps)
		for k := range n {
			x, r := rng.IntN(nvars), rng.IntN(2)
			switch c := rng.IntN(20); {
			case c < 9:
				b.op(model.WriteOp(x, val()))
			case c < 10:
				b.op(model.WriteOp(x, model.R(r)))
			case c < 15:
				b.r(x, r)
			case c < 16:
				b.op(model.FenceOp())
			case c < 17:
				b.op(model.Exchange(x, r, val()))
			case c < 18:
				b.op(model.CASSuccess(x, -1, val(), val()))
			case c < 19:
				switch rng.IntN(4) {
				case 0:
					b.op(model.FetchAdd(x, r, model.C(1)))
				case 1:
					// Faults when r is 0.
					b.op(model.ReadEqOp(x, model.Bin(model.OpDiv, val(), model.R(r))))
				case 2:
					// Faults when x holds hi and the register is narrower.
					b.op(model.Op{Kind: model.Read, Var: x, Reg: 2, Expr: val()})
				default:
					b.op(model.CASSuccess(x, 2, val(), val()))
				}
			default:
				b.op(model.AssignOp(r, model.Bin(model.OpSub, model.C(hi), model.R(r))))
			}
			if loops && k > 0 && rng.IntN(6) == 0 {
				back := rng.IntN(k + 1)
				b.q.AddTrans(b.l, model.GuardOp(eq(model.R(r), val())), back, model.Pos{})
			}
		}
		p.Procs = append(p.Procs, b.q)
	}
	a, c := rng.IntN(nprocs), rng.IntN(nprocs-1)
	if c >= a {
		c++
	}
	la := len(p.Procs[a].Locs) - 1 - rng.IntN(2)
	lc := len(p.Procs[c].Locs) - 1 - rng.IntN(2)
	bad := model.BadState{Name: "bad", Locs: []model.ProcLoc{{Proc: a, Loc: max(la, 0)}, {Proc: c, Loc: max(lc, 0)}}}
	if rng.IntN(3) == 0 {
		bad.Cond = and(eq(model.V(rng.IntN(nvars)), val()), eq(model.V(rng.IntN(nvars)), val()))
	} else {
		bad.Cond = and(eq(regOf(a, 0), val()), eq(regOf(c, 0), val()))
	}
	p.Bad = []model.BadState{bad}
	return p
}

// TestForwardSimulatesRandom checks the simulation invariant on random
// write-heavy programs, loop-free (explored without a bound) and with loops
// (explored with buffers bounded by 6), for suffix lengths 1 and 2.
func TestForwardSimulatesRandom(t *testing.T) {
	programs := longtest.Size(100, 600)
	if *longSound {
		programs = 20000
	}
	rng := rand.New(rand.NewPCG(41, 7))
	var states, bad, loops, skipped int
	for i := range programs {
		loop := i%3 == 2
		p := genWriteHeavy(rng, 8, 3, loop)
		bound := 0
		if loop {
			bound, loops = 6, loops+1
		}
		for _, k := range []int{1, 2} {
			n, b := simulation(t, p, k, bound, 5_000, 10_000)
			if n < 0 {
				skipped++
				continue
			}
			states += n
			if b && k == 1 {
				bad++
			}
		}
	}
	t.Logf("%d programs (%d with loops, %d reaching a bad state), %d concrete states checked, %d abstractions over budget",
		programs, loops, bad, states, skipped)
}

// verdicts compares the engine's answers on p with the truth: the explicit
// engine's exact answer when p is loop-free, else a bug it finds with
// buffers bounded by 4 (a Safe answer of the engine would contradict it).
// The engine runs by default and, when backward is set, as the SB search
// alone with pruning and without (those may be inconclusive). It returns
// the default engine's status and whether the SB search alone concluded.
// stages, when not nil, counts by search the answers of the default engine.
func verdicts(t *testing.T, p *model.Program, backward bool, stages map[string]int) (engines.Status, bool) {
	t.Helper()
	_, acyclic := maxWritesAcyclic(p)
	ex := &explicit.Engine{MaxStates: 2_000_000}
	if !acyclic {
		ex.Bound = 4
	}
	truth, err := ex.Check(context.Background(), p, model.TSO)
	if err != nil {
		t.Fatalf("explicit: %v", err)
	}
	if truth.Status == engines.Inconclusive || (truth.Status == engines.Safe && truth.Bound != "") {
		truth.Status = engines.Inconclusive // only a bug is conclusive
	}
	modes := []*Engine{{}}
	if backward {
		modes = append(modes, &Engine{Backward: true, MaxConstraints: 4000}, &Engine{Backward: true, NoPrune: true, MaxConstraints: 4000})
	}
	var first engines.Status
	concluded := true
	for i, e := range modes {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		stage := "none"
		decidedBy = func(s string) { stage = s }
		got, err := e.Check(ctx, p, model.TSO)
		decidedBy = func(string) {}
		cancel()
		if i == 0 && stages != nil {
			stages[stage+"/"+got.Status.String()]++
		}
		if err != nil {
			t.Fatalf("sb (backward=%v, noprune=%v): %v\n%s", e.Backward, e.NoPrune, err, native.Format(p))
		}
		if i == 0 {
			first = got.Status
		}
		if got.Status == engines.Inconclusive {
			concluded = false
			if i == 0 {
				t.Logf("sb inconclusive: %v\n%s", got, native.Format(p))
			}
			continue
		}
		if truth.Status != engines.Inconclusive && got.Status != truth.Status {
			t.Fatalf("sb (backward=%v, noprune=%v) says %v, the explicit engine %v\n%s",
				e.Backward, e.NoPrune, got.Status, truth.Status, native.Format(p))
		}
		if truth.Status == engines.Inconclusive && got.Status == engines.Safe && explicitUnsafe(t, p) {
			t.Fatalf("sb (backward=%v, noprune=%v) says safe, the explicit engine finds a bug\n%s",
				e.Backward, e.NoPrune, native.Format(p))
		}
	}
	return first, concluded
}

// explicitUnsafe reports whether the explicit engine finds a bug with
// buffers bounded by 1..6.
func explicitUnsafe(t *testing.T, p *model.Program) bool {
	t.Helper()
	for bound := 1; bound <= 6; bound++ {
		res, err := (&explicit.Engine{Bound: bound, MaxStates: 500_000}).Check(context.Background(), p, model.TSO)
		if err != nil {
			t.Fatal(err)
		}
		if res.Status == engines.Unsafe {
			return true
		}
	}
	return false
}

// TestVerdictsTargeted compares the engine in all its modes with the
// explicit engine on the targeted programs, and checks the verdicts they
// were built for.
func TestVerdictsTargeted(t *testing.T) {
	want := map[string]engines.Status{
		"xyxy-y2-x1": engines.Unsafe, "xyxy-y2-x0": engines.Safe, "xyxy-y1-x2": engines.Unsafe,
		"xyxy-y1-x0": engines.Safe, "xyxy-y2-x2": engines.Unsafe,
		"xyxy-mem-x1-y2": engines.Safe, "xyxy-mem-x2-y1": engines.Unsafe, "xyxy-mem-x1-y1": engines.Safe,
		"own-read-after-summary": engines.Unsafe, "runs": engines.Unsafe, "eight-pending": engines.Unsafe,
		"loop-producer": engines.Unsafe, "own-read-behind-loop": engines.Safe, "own-read-behind-loop-other": engines.Unsafe,
	}
	for _, p := range targeted() {
		t.Run(p.Name, func(t *testing.T) {
			stages := map[string]int{}
			got, _ := verdicts(t, p, true, stages)
			t.Logf("answered by %v", stages)
			if w, ok := want[p.Name]; ok && got != w {
				t.Errorf("got %v, want %v", got, w)
			}
		})
	}
}

// TestVerdictsRandom compares the engine with the explicit engine on random
// write-heavy loop-free programs, whose explicit answer is exact: 120 in
// the quick run, 700 in the long suites, 5000 with -long-sound. (The SB search alone seldom
// concludes on programs of this size; TestBackwardTiny covers it.)
func TestVerdictsRandom(t *testing.T) {
	programs := longtest.Size(120, 700)
	if *longSound {
		programs = 5000
	}
	rng := rand.New(rand.NewPCG(5, 99))
	count := map[engines.Status]int{}
	stages := map[string]int{}
	for range programs {
		p := genWriteHeavy(rng, 8, 3, false)
		st, _ := verdicts(t, p, false, stages)
		count[st]++
	}
	t.Logf("%d programs: %d unsafe, %d safe, %d inconclusive; answers by search: %v",
		programs, count[engines.Unsafe], count[engines.Safe], count[engines.Inconclusive], stages)
}

// TestReadFaults covers the faults of reads that carry an expected value:
// a division by zero in it (the read faults whatever it reads) and a value
// equal to the expected one but outside the register's domain (a
// compare-and-swap into a narrower register). The SB search must find the
// first kind and must not report the second kind when the comparison
// fails. Each program runs in every mode of the engine, and the verdict is
// compared with the explicit engine's.
func TestReadFaults(t *testing.T) {
	div := func(r int) model.Expr { return model.Bin(model.OpDiv, model.C(1), model.R(r)) }
	never := eq(model.C(0), model.C(1))
	for _, tc := range []struct {
		name string
		op   model.Op // the operation of P1, after P0's exchange x := 2
		want engines.Status
	}{
		{"read expecting 1/r", model.ReadEqOp(0, div(0)), engines.Unsafe},
		{"read expecting 1/r after a store", model.ReadEqOp(0, div(0)), engines.Unsafe},
		{"locked read expecting 1/r", model.LockedOp(model.ReadEqOp(0, div(0))), engines.Unsafe},
		{"cas into a narrow register fails", model.CASSuccess(0, 0, model.C(0), model.C(1)), engines.Safe},
		{"cas into a narrow register faults", model.CASSuccess(0, 0, model.C(2), model.C(1)), engines.Unsafe},
		{"read into a narrow register expecting 0", model.Op{Kind: model.Read, Var: 0, Reg: 0, Expr: model.C(0)}, engines.Safe},
		{"read into a narrow register expecting 2", model.Op{Kind: model.Read, Var: 0, Reg: 0, Expr: model.C(2)}, engines.Unsafe},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p0 := newBuilder("P0").op(model.Exchange(0, -1, model.C(2)))
			p1 := newBuilder("P1", reg("r", 1))
			if strings.HasSuffix(tc.name, "after a store") {
				p1.w(1, 1).w(0, 2)
			}
			p1.op(tc.op)
			p := &model.Program{Name: "fault", Vars: vars(2, 2), Procs: []*model.Process{p0.q, p1.q}}
			p.Bad = []model.BadState{{Name: "never", Locs: []model.ProcLoc{{Proc: 1, Loc: 0}}, Cond: never}}
			if got, _ := verdicts(t, p, false, nil); got != tc.want {
				t.Errorf("got %v, want %v", got, tc.want)
			}
			for _, e := range []*Engine{{Backward: true}, {Backward: true, NoPrune: true}} {
				res, err := e.Check(context.Background(), p, model.TSO)
				if err != nil {
					t.Fatal(err)
				}
				if res.Status != tc.want {
					t.Errorf("SB search alone (noprune=%v): got %v, want %v", e.NoPrune, res.Status, tc.want)
				}
			}
		})
	}
}

// TestHiddenWrite: the SB search alone must find bad states whose run
// flushes, after the last store, a store that a later store of the same
// process to the same variable hid from the ordering's last-write
// condition (P0 stores x := 1, y := 1, x := 2, ...; the bad state needs the
// final memory, or an observer reading y = 2 and then x). Predecessors by
// a store once missed the earlier store to x in the middle of the buffer,
// and the search answered Safe.
func TestHiddenWrite(t *testing.T) {
	type tc struct {
		name string
		p    *model.Program
		max  int64
	}
	single := func(seq ...[2]int64) *model.Program {
		p0 := newBuilder("P0")
		for _, w := range seq {
			p0.w(int(w[0]), w[1])
		}
		p := &model.Program{Name: "hidden", Vars: vars(2, 2), Procs: []*model.Process{p0.q}}
		p.Bad = []model.BadState{{Name: "bad", Locs: []model.ProcLoc{{Proc: 0, Loc: p0.l}},
			Cond: and(eq(model.V(0), model.C(2)), eq(model.V(1), model.C(1)))}}
		return p
	}
	cases := []tc{
		{"x1 y1 x2", single([2]int64{0, 1}, [2]int64{1, 1}, [2]int64{0, 2}), 10_000},
		{"x1 x2 y1", single([2]int64{0, 1}, [2]int64{0, 2}, [2]int64{1, 1}), 10_000},
	}
	// P0's write v1 := 1 is hidden by its write v1 := 0, and the message
	// just before the latter is written by P1, whose pointer the search
	// pins once it is at its last location: Pre of P0's second write must
	// also place the hidden write in every gap before that message (it
	// once did not, and the SB search alone called the program safe).
	behindPinned, err := native.Parse("behind-pinned.fm", []byte(hiddenBehindPinned))
	if err != nil {
		t.Fatal(err)
	}
	cases = append(cases, tc{"behind a pinned process's write", behindPinned, 5000})
	for _, p := range targeted() {
		if p.Name == "xyxy-mem-x2-y1" || (*longSound && (p.Name == "xyxy-y2-x1" || p.Name == "xyxy-y2-x2")) {
			cases = append(cases, tc{p.Name, p, 400_000})
		}
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, e := range []*Engine{{Backward: true, MaxConstraints: c.max}, {Backward: true, NoPrune: true, MaxConstraints: c.max}} {
				res, err := e.Check(context.Background(), c.p, model.TSO)
				if err != nil {
					t.Fatal(err)
				}
				if res.Status != engines.Unsafe {
					t.Errorf("SB search alone (noprune=%v): %v, want unsafe", e.NoPrune, res)
				}
			}
		})
	}
}

// genTiny builds a random loop-free program small enough for the SB search
// alone: two processes of up to maxOps stores, reads, fences, exchanges and
// locked operations that store to both variables, over two variables in
// [0:1]; the bad state is both processes at their
// end with a condition on their registers or, one time in three, on memory.
func genTiny(rng *rand.Rand, maxOps int) *model.Program {
	p := &model.Program{Name: "tiny", Vars: vars(2, 1)}
	var bs []*builder
	for i := range 2 {
		b := newBuilder(fmt.Sprintf("P%d", i), reg("r", 1))
		for range 1 + rng.IntN(maxOps) {
			x := rng.IntN(2)
			switch c := rng.IntN(10); {
			case c < 5:
				b.w(x, rng.Int64N(2))
			case c < 8:
				b.r(x, 0)
			case c < 9:
				b.op(model.FenceOp())
			case rng.IntN(2) == 0:
				b.op(model.Exchange(x, 0, model.C(rng.Int64N(2))))
			default:
				// One message for two stores.
				b.op(model.LockedOp(model.WriteOp(x, model.C(rng.Int64N(2))), model.WriteOp(1-x, model.C(rng.Int64N(2)))))
			}
		}
		bs = append(bs, b)
		p.Procs = append(p.Procs, b.q)
	}
	if rng.IntN(3) == 0 {
		p.Bad = []model.BadState{at(and(eq(model.V(0), model.C(rng.Int64N(2))), eq(model.V(1), model.C(rng.Int64N(2)))), bs...)}
	} else {
		p.Bad = []model.BadState{at(and(eq(regOf(0, 0), model.C(rng.Int64N(2))), eq(regOf(1, 0), model.C(rng.Int64N(2)))), bs...)}
	}
	return p
}

// TestBackwardTiny compares the SB search alone, pruned by the forward
// abstraction (and, with -long-sound, also unpruned), with the explicit
// engine's exact answer on tiny loop-free programs: 20 in the normal run,
// 1500 with -long-sound. Inconclusive answers are counted, not failed.
func TestBackwardTiny(t *testing.T) {
	programs := 20
	modes := []*Engine{{Backward: true, MaxConstraints: 5000}}
	if *longSound {
		programs = 1500
		modes = append(modes, &Engine{Backward: true, NoPrune: true, MaxConstraints: 5000})
	}
	rng := rand.New(rand.NewPCG(17, 4))
	concluded := make([]int, len(modes))
	for range programs {
		p := genTiny(rng, 3)
		truth, err := (&explicit.Engine{}).Check(context.Background(), p, model.TSO)
		if err != nil || truth.Bound != "" {
			t.Fatalf("explicit: %v %v", truth, err)
		}
		for i, e := range modes {
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			got, err := e.Check(ctx, p, model.TSO)
			cancel()
			if err != nil {
				t.Fatalf("sb (noprune=%v): %v\n%s", e.NoPrune, err, native.Format(p))
			}
			if got.Status == engines.Inconclusive {
				continue
			}
			concluded[i]++
			if got.Status != truth.Status {
				t.Fatalf("SB search alone (noprune=%v) says %v, the explicit engine %v\n%s", e.NoPrune, got.Status, truth.Status, native.Format(p))
			}
		}
	}
	t.Logf("%d programs; the SB search alone concluded on %v (pruned, unpruned)", programs, concluded)
}

// drained reports whether every store buffer of s is empty.
func drained(s model.State) bool {
	for _, b := range s.Bufs {
		if len(b) > 0 {
			return false
		}
	}
	return true
}

// hiddenBehindPinned is the program of TestHiddenWrite's case "behind a
// pinned process's write".
const hiddenBehindPinned = `program "tiny"

var v0 : [0:1] = 0
var v1 : [0:1] = 0

process P0 {
  reg $r : [0:1] = 0
  locs L0 L1 L2 L3
  init L0
  L0 -> L1 : write v1 := 1
  L1 -> L2 : write v1 := 0
  L2 -> L3 : fence
}

process P1 {
  reg $r : [0:1] = 0
  locs L0 L1 L2 L3
  init L0
  L0 -> L1 : locked { read $r := v0; write v0 := 1 }
  L1 -> L2 : write v0 := 1
  L2 -> L3 : locked { read $r := v1; write v1 := 0 }
}

bad "bad" : P0@L3 & P1@L3 & P0.$r == 0 && P1.$r == 1
`
