package bmc_test

import (
	"fmt"

	"github.com/fencecheck/fencecheck/model"
)

// This file builds the systems of the Fig. 11-style benchmark: goroutines
// synchronising by a spin lock, a counting barrier, or a publication flag,
// with and without a seeded bug, as model programs whose spin loops the
// engine unrolls.

// system is one benchmark program.
type system struct {
	name string
	n    int  // goroutines
	bug  bool // a seeded bug: the bad state is reachable
	prog *model.Program
	// unroll is the bound the benchmark checks it with.
	unroll int
}

// builder appends operations to one process.
type pbuilder struct {
	q   *model.Process
	cur int
}

func newProc(name string, regs ...model.Reg) *pbuilder {
	b := &pbuilder{q: &model.Process{Name: name, Regs: regs}}
	b.cur = b.loc()
	return b
}

func (b *pbuilder) loc() int { return b.q.AddLoc(fmt.Sprintf("L%d", len(b.q.Locs)), model.Pos{}) }

// emit adds op from the current location to a new one.
func (b *pbuilder) emit(op model.Op) {
	n := b.loc()
	b.q.AddTrans(b.cur, op, n, model.Pos{})
	b.cur = n
}

// lock emits a spin lock acquisition of m: a compare-and-swap from 0 to 1
// that retries while m is held.
func (b *pbuilder) lock(m int) {
	head := b.cur
	b.emit(model.CASSuccess(m, -1, model.C(0), model.C(1)))
	b.q.AddTrans(head, model.CASFailure(m, -1, model.C(0)), head, model.Pos{})
}

// unlock emits the release of m: an atomic store of 0.
func (b *pbuilder) unlock(m int) { b.emit(model.LockedOp(model.WriteOp(m, model.C(0)))) }

// spinUntil emits a wait until an atomic load of x into register r reads v.
func (b *pbuilder) spinUntil(x, r int, v int64) {
	head := b.cur
	b.emit(model.AtomicReadOp(x, r))
	b.q.AddTrans(b.cur, model.GuardOp(model.Bin(model.OpNe, model.R(r), model.C(v))), head, model.Pos{})
	b.emit(model.GuardOp(model.Bin(model.OpEq, model.R(r), model.C(v))))
}

func reg(name string, hi int64) model.Reg { return model.Reg{Name: name, Dom: model.Range(0, hi)} }

func addVar(p *model.Program, name string, hi int64) int {
	p.Vars = append(p.Vars, model.Var{Name: name, Dom: model.Range(0, hi)})
	return len(p.Vars) - 1
}

// mutexSystem: n goroutines each enter a critical section of a spin lock
// m (a compare-and-swap that retries) in which they increment a shared
// counter c by a plain load and a plain store, and leave it by an atomic
// store; the bad state is two goroutines inside at once. The bug:
// goroutine 0 takes no lock.
func mutexSystem(n int, bug bool) *model.Program {
	p := &model.Program{Name: fmt.Sprintf("mutex%d", n)}
	m := addVar(p, "m", 1)
	// The counter is unbounded: with a finite domain, whether an
	// increment can leave it (a fault, also a bad state) would be a
	// counting question of its own.
	p.Vars = append(p.Vars, model.Var{Name: "c", Dom: model.Unbounded})
	c := len(p.Vars) - 1
	inside := make([]int, n)
	for i := range n {
		b := newProc(fmt.Sprintf("G%d", i), model.Reg{Name: "r", Dom: model.Unbounded})
		locked := !(bug && i == 0)
		if locked {
			b.lock(m)
		}
		inside[i] = b.cur
		b.emit(model.ReadOp(c, 0))
		b.emit(model.WriteOp(c, model.Bin(model.OpAdd, model.R(0), model.C(1))))
		if locked {
			b.unlock(m)
		}
		p.Procs = append(p.Procs, b.q)
	}
	for i := range n {
		for j := i + 1; j < n; j++ {
			p.Bad = append(p.Bad, model.BadState{Name: fmt.Sprintf("G%d and G%d inside", i, j),
				Locs: []model.ProcLoc{{Proc: i, Loc: inside[i]}, {Proc: j, Loc: inside[j]}}})
		}
	}
	return p
}

// counterSystem is mutexSystem with the lost update as the bad state: all
// goroutines at their end with c != n. Its proof is a counting argument
// over every load of c.
func counterSystem(n int, bug bool) *model.Program {
	p := mutexSystem(n, bug)
	p.Name = fmt.Sprintf("counter%d", n)
	c := p.VarIndex("c")
	bad := model.BadState{Name: "lost update", Cond: model.Bin(model.OpNe, model.V(c), model.C(int64(n)))}
	for i, q := range p.Procs {
		bad.Locs = append(bad.Locs, model.ProcLoc{Proc: i, Loc: len(q.Locs) - 1})
	}
	p.Bad = []model.BadState{bad}
	return p
}

// barrierSystem: n goroutines each write their slot d_i, arrive at a
// barrier by an atomic store of their flag a_i, wait until every flag is
// set, and read the next goroutine's slot; the bad state is a goroutine
// past the barrier that read 0. The bug: goroutine 0 sets its flag before
// it writes its slot.
func barrierSystem(n int, bug bool) *model.Program {
	p := &model.Program{Name: fmt.Sprintf("barrier%d", n)}
	a := make([]int, n)
	d := make([]int, n)
	for i := range n {
		a[i] = addVar(p, fmt.Sprintf("a%d", i), 1)
		d[i] = addVar(p, fmt.Sprintf("d%d", i), 1)
	}
	for i := range n {
		b := newProc(fmt.Sprintf("G%d", i), reg("r", 1), reg("s", 1))
		late := bug && i == 0
		if !late {
			b.emit(model.WriteOp(d[i], model.C(1)))
		}
		b.emit(model.LockedOp(model.WriteOp(a[i], model.C(1))))
		if late {
			b.emit(model.WriteOp(d[i], model.C(1)))
		}
		for j := range n {
			if j != i {
				b.spinUntil(a[j], 0, 1)
			}
		}
		b.emit(model.ReadOp(d[(i+1)%n], 1))
		p.Procs = append(p.Procs, b.q)
		p.Bad = append(p.Bad, model.BadState{Name: fmt.Sprintf("G%d reads 0", i),
			Locs: []model.ProcLoc{{Proc: i, Loc: b.cur}},
			Cond: model.Bin(model.OpEq, model.RegRef{Proc: i, Reg: 1}, model.C(0))})
	}
	return p
}

// waitGroupSystem is barrierSystem with a counting barrier (sync.WaitGroup
// style): each goroutine arrives by an atomic add to cnt and waits until
// cnt = n. Its proof is a counting argument over every increment.
func waitGroupSystem(n int, bug bool) *model.Program {
	p := &model.Program{Name: fmt.Sprintf("waitgroup%d", n)}
	cnt := addVar(p, "cnt", int64(n))
	d := make([]int, n)
	for i := range n {
		d[i] = addVar(p, fmt.Sprintf("d%d", i), 1)
	}
	for i := range n {
		b := newProc(fmt.Sprintf("G%d", i), reg("r", int64(n)), reg("s", 1))
		late := bug && i == 0
		if !late {
			b.emit(model.WriteOp(d[i], model.C(1)))
		}
		b.emit(model.FetchAdd(cnt, -1, model.C(1)))
		if late {
			b.emit(model.WriteOp(d[i], model.C(1)))
		}
		b.spinUntil(cnt, 0, int64(n))
		b.emit(model.ReadOp(d[(i+1)%n], 1))
		p.Procs = append(p.Procs, b.q)
		p.Bad = append(p.Bad, model.BadState{Name: fmt.Sprintf("G%d reads 0", i),
			Locs: []model.ProcLoc{{Proc: i, Loc: b.cur}},
			Cond: model.Bin(model.OpEq, model.RegRef{Proc: i, Reg: 1}, model.C(0))})
	}
	return p
}

// publicationSystem: goroutine 0 writes n-1 data variables (plain stores)
// and then publishes them by an atomic store of a flag; goroutines 1..n-1
// wait for the flag and read their datum; the bad state is a reader that
// read 0. The bug: the flag is stored before the last datum.
func publicationSystem(n int, bug bool) *model.Program {
	p := &model.Program{Name: fmt.Sprintf("publication%d", n)}
	flag := addVar(p, "flag", 1)
	d := make([]int, n)
	for i := 1; i < n; i++ {
		d[i] = addVar(p, fmt.Sprintf("d%d", i), 2)
	}
	w := newProc("G0")
	for i := 1; i < n; i++ {
		if bug && i == n-1 {
			w.emit(model.LockedOp(model.WriteOp(flag, model.C(1))))
		}
		w.emit(model.WriteOp(d[i], model.C(int64(1+i%2))))
	}
	if !bug {
		w.emit(model.LockedOp(model.WriteOp(flag, model.C(1))))
	}
	p.Procs = append(p.Procs, w.q)
	for i := 1; i < n; i++ {
		b := newProc(fmt.Sprintf("G%d", i), reg("r", 1), reg("s", 2))
		b.spinUntil(flag, 0, 1)
		b.emit(model.ReadOp(d[i], 1))
		p.Procs = append(p.Procs, b.q)
		p.Bad = append(p.Bad, model.BadState{Name: fmt.Sprintf("G%d reads 0", i),
			Locs: []model.ProcLoc{{Proc: i, Loc: b.cur}},
			Cond: model.Bin(model.OpEq, model.RegRef{Proc: i, Reg: 1}, model.C(0))})
	}
	return p
}

// systems returns the benchmark systems for the goroutine counts ns.
func systems(ns []int) []system {
	var out []system
	for _, kind := range []struct {
		name   string
		build  func(int, bool) *model.Program
		unroll func(n int) int
	}{
		{"mutex", mutexSystem, func(n int) int { return 2 }},
		{"barrier", barrierSystem, func(n int) int { return 1 }},
		{"publication", publicationSystem, func(n int) int { return 2 }},
		{"counter", counterSystem, func(n int) int { return 1 }},
		{"waitgroup", waitGroupSystem, func(n int) int { return 1 }},
	} {
		for _, n := range ns {
			for _, bug := range []bool{false, true} {
				out = append(out, system{name: kind.name, n: n, bug: bug, prog: kind.build(n, bug), unroll: kind.unroll(n)})
			}
		}
	}
	return out
}
