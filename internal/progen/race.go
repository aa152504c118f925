package progen

import (
	"fmt"
	"math/rand/v2"

	"github.com/fencecheck/fencecheck/model"
)

// RaceOptions shape the programs of Race.
type RaceOptions struct {
	// Loops allows spin loops (a compare-and-swap that retries, a wait on a
	// flag) and guarded backward jumps; without it every process is
	// loop-free.
	Loops bool
	// Bad adds a bad state: two processes at their last or next-to-last
	// location with a register condition.
	Bad bool
	// Join adds a WaitGroup: a counter wg that every process but the
	// last decrements at its end, with a locked wg := wg - 1, and that the
	// last waits for (an atomic read requiring 0) at its start or after
	// its first segment. Now and then a process accesses data after its
	// decrement, or wg starts one below the number of decrements, so that
	// the wait does not order everything.
	Join bool
}

// discipline is how the generated program accesses one data variable.
type discipline uint8

const (
	// free: any process, plain or atomic accesses (usually racy).
	free discipline = iota
	// atomicOnly: atomic loads and locked operations only.
	atomicOnly
	// guarded: plain accesses inside critical sections of the mutex only.
	guarded
	// owned: plain accesses by one process only.
	owned
	// published: plain writes by process 0 before it sets the flag with a
	// locked operation; plain reads by the others after an atomic load of
	// the flag sees it set (message passing).
	published
)

// gen holds the state of the generation of one program.
type gen struct {
	rng  *rand.Rand
	opt  RaceOptions
	p    *model.Program
	hi   int64
	data []int // data variables
	disc map[int]discipline
	// owner is the process of each owned variable.
	owner map[int]int
	// mutex and flag are the variables of the lock and of the message
	// passing flag, or -1.
	mutex, flag int
	// wg is the WaitGroup counter of RaceOptions.Join, or -1.
	wg int
	// sloppy is the chance, one in sloppy, that an access breaks its
	// variable's discipline; 0 for never.
	sloppy int
	// shape is set for the store-buffering shape; shapeEnd holds each
	// process's location after it.
	shape    bool
	shapeEnd []int
}

// Race builds a random finite program for the race question from rng:
// two or three processes over one to three data variables in [0:1] or
// [0:2], sometimes a mutex and a message passing flag in [0:1], and
// registers $r, $s per process. Each data variable follows a discipline
// (free, atomic only, guarded by the mutex, owned by one process, or
// published through the flag); in some programs accesses break their
// discipline now and then. Operations: plain reads (into registers and
// required values) and writes, atomic loads, exchanges, fetch-and-adds
// (which can leave the domain: a fault), increments modulo the domain,
// compare-and-swaps (success and failure from one location), locked copies
// that read memory in an expression, register assignments and assumes;
// critical sections (lock by compare-and-swap, unlock by a locked store),
// publication and acquisition of the flag, and with opt.Loops spin loops
// and guarded backward jumps. With a bad state, a third of the programs
// have the store-buffering shape: every process opens by writing 1 to x0 or
// x1 and reading the other into $r (by plain accesses, with or without a
// fence, when the variables are free; by an exchange and an atomic load when
// they are atomic), and the bad state asks that two processes read 0.
func Race(rng *rand.Rand, opt RaceOptions) *model.Program {
	g := &gen{rng: rng, opt: opt, p: &model.Program{Name: "race"}, disc: map[int]discipline{}, owner: map[int]int{},
		mutex: -1, flag: -1, wg: -1}
	g.hi = int64(1 + rng.IntN(2))
	nprocs := 2 + rng.IntN(2)
	if rng.IntN(2) == 0 {
		g.mutex = g.addVar("m", 1)
	}
	if rng.IntN(2) == 0 {
		g.flag = g.addVar("f", 1)
	}
	g.shape = opt.Bad && rng.IntN(3) == 0
	ndata := 1 + rng.IntN(3)
	if g.shape {
		ndata = max(ndata, 2)
	}
	for k := range ndata {
		x := g.addVar(fmt.Sprintf("x%d", k), g.hi)
		g.data = append(g.data, x)
		var choices []discipline
		choices = append(choices, free, atomicOnly, atomicOnly, owned)
		switch {
		case g.shape && k < 2:
			choices = []discipline{free, atomicOnly}
		case g.mutex >= 0:
			choices = append(choices, guarded, guarded)
		}
		if g.flag >= 0 && !(g.shape && k < 2) {
			choices = append(choices, published, published)
		}
		g.disc[x] = choices[rng.IntN(len(choices))]
		g.owner[x] = rng.IntN(nprocs)
	}
	if rng.IntN(5) < 2 {
		g.sloppy = 6 + rng.IntN(10)
	}
	if opt.Join {
		n := int64(nprocs - 1)
		if n > 1 && rng.IntN(4) == 0 {
			n-- // the wait returns before the last decrement
		}
		g.wg = g.addVar("wg", n)
		g.p.Vars[g.wg].Init = model.Init{Value: n}
	}
	for i := range nprocs {
		g.p.Procs = append(g.p.Procs, g.process(i, nprocs))
	}
	if opt.Bad {
		g.addBad()
	}
	return g.p
}

// addVar adds a shared variable in [0:hi] and returns its index.
func (g *gen) addVar(name string, hi int64) int {
	g.p.Vars = append(g.p.Vars, model.Var{Name: name, Dom: model.Range(0, hi)})
	return len(g.p.Vars) - 1
}

// val returns a constant of the data domain.
func (g *gen) val() model.Expr { return model.C(g.rng.Int64N(g.hi + 1)) }

// breaks reports whether the next access breaks its discipline.
func (g *gen) breaks() bool { return g.sloppy > 0 && g.rng.IntN(g.sloppy) == 0 }

// builder appends the operations of one process.
type builder struct {
	g   *gen
	q   *model.Process
	id  int
	cur int
	// starts are the locations where segments began, for backward jumps.
	starts []int
}

// newLoc adds a location and returns it.
func (b *builder) newLoc() int {
	return b.q.AddLoc(fmt.Sprintf("L%d", len(b.q.Locs)), model.Pos{})
}

// emit adds op from the current location to a new one, which becomes
// current.
func (b *builder) emit(op model.Op) {
	n := b.newLoc()
	b.q.AddTrans(b.cur, op, n, model.Pos{})
	b.cur = n
}

// trans adds the transition (from, op, to).
func (b *builder) trans(from int, op model.Op, to int) { b.q.AddTrans(from, op, to, model.Pos{}) }

// process generates process i of n: its segments, with the publication of
// the flag in process 0 and its acquisition in the others.
func (g *gen) process(i, n int) *model.Process {
	dom := model.Range(0, g.hi)
	b := &builder{g: g, id: i, q: &model.Process{Name: fmt.Sprintf("P%d", i),
		Regs: []model.Reg{{Name: "r", Dom: dom}, {Name: "s", Dom: dom}}}}
	b.cur = b.newLoc()
	if g.shape {
		b.storeBuffering()
		g.shapeEnd = append(g.shapeEnd, b.cur)
	}
	segs := 1 + g.rng.IntN(4)
	sync := -1 // the segment that publishes or acquires
	if g.flag >= 0 {
		sync = g.rng.IntN(segs + 1)
	}
	synced := false
	wait := -1 // the segment before which the last process waits for wg
	if g.wg >= 0 && i == n-1 {
		wait = g.rng.IntN(2)
	}
	for k := 0; k <= segs; k++ {
		if k == wait {
			b.emit(model.Op{Kind: model.Read, Var: g.wg, Reg: -1, Expr: model.C(0), Atomic: true})
		}
		b.starts = append(b.starts, b.cur)
		switch {
		case k == sync:
			if i == 0 {
				b.publish()
			} else {
				b.acquire(n)
			}
			synced = true
		case k == segs:
			continue
		case g.mutex >= 0 && g.rng.IntN(3) == 0:
			b.critical(synced)
		default:
			for range 1 + g.rng.IntN(2) {
				b.simple(synced, false)
			}
		}
		if g.opt.Loops && k > 0 && g.rng.IntN(5) == 0 {
			// A loop: go back while a register holds a value.
			back := b.starts[g.rng.IntN(len(b.starts))]
			b.trans(b.cur, model.GuardOp(model.Bin(model.OpEq, model.R(g.rng.IntN(2)), g.val())), back)
		}
	}
	if g.wg >= 0 && i < n-1 {
		b.emit(model.FetchAdd(g.wg, -1, model.C(-1)))
		if g.rng.IntN(4) == 0 {
			b.simple(synced, false) // after Done
		}
	}
	return b.q
}

// storeBuffering emits the opening of the store-buffering shape: write 1
// to x0 (x1 in odd processes), then read the other into $r.
func (b *builder) storeBuffering() {
	g := b.g
	x, y := g.data[b.id%2], g.data[1-b.id%2]
	switch {
	case g.disc[x] == atomicOnly && !g.breaks():
		b.emit(model.Exchange(x, -1, model.C(1)))
	case g.disc[x] == atomicOnly && g.rng.IntN(2) == 0:
		b.emit(model.WriteOp(x, model.C(1)))
	case g.disc[x] == atomicOnly:
		b.emit(model.LockedOp(model.WriteOp(x, model.C(1))))
	default:
		b.emit(model.WriteOp(x, model.C(1)))
		if g.rng.IntN(4) == 0 {
			b.emit(model.FenceOp())
		}
	}
	if g.disc[y] == atomicOnly && !g.breaks() {
		b.emit(model.AtomicReadOp(y, 0))
	} else {
		b.emit(model.ReadOp(y, 0))
	}
}

// simple emits one operation: an access to a data variable that this
// process may make at this point (synced: after the publication or
// acquisition; locked: inside a critical section), or a register operation.
func (b *builder) simple(synced, locked bool) {
	g := b.g
	r := g.rng.IntN(2)
	x := g.data[g.rng.IntN(len(g.data))]
	if g.rng.IntN(6) == 0 {
		if g.rng.IntN(3) == 0 {
			b.emit(model.GuardOp(model.Bin(model.OpNe, model.R(r), g.val())))
		} else {
			b.emit(model.AssignOp(r, model.Bin(model.OpSub, model.C(g.hi), model.R(r))))
		}
		return
	}
	switch g.disc[x] {
	case free:
		if g.rng.IntN(2) == 0 {
			b.plain(x, r)
		} else {
			b.atomic(x, r)
		}
	case atomicOnly:
		if g.breaks() {
			b.plain(x, r)
		} else {
			b.atomic(x, r)
		}
	case guarded:
		if locked || g.breaks() {
			b.plain(x, r)
		} else {
			b.emit(model.AssignOp(r, model.Bin(model.OpSub, model.C(g.hi), model.R(r))))
		}
	case owned:
		switch {
		case g.owner[x] == b.id || g.breaks():
			b.plain(x, r)
		case g.flag >= 0:
			b.emit(model.AtomicReadOp(g.flag, r))
		case g.mutex >= 0:
			b.emit(model.AtomicReadOp(g.mutex, r))
		default:
			b.emit(model.NopOp())
		}
	case published:
		switch {
		case b.id == 0 && !synced, g.breaks():
			b.plain(x, r)
		case b.id != 0 && synced:
			b.emit(model.ReadOp(x, r))
		default:
			b.emit(model.NopOp())
		}
	}
}

// plain emits a plain access to x.
func (b *builder) plain(x, r int) {
	g := b.g
	switch g.rng.IntN(7) {
	case 0, 1:
		b.emit(model.WriteOp(x, g.val()))
	case 2:
		b.emit(model.WriteOp(x, model.R(r)))
	case 3, 4:
		b.emit(model.ReadOp(x, r))
	case 5:
		b.emit(model.ReadEqOp(x, g.val()))
	default:
		// A read-modify-write in plain steps, modulo the domain.
		b.emit(model.ReadOp(x, r))
		b.emit(model.WriteOp(x, model.Bin(model.OpMod, model.Bin(model.OpAdd, model.R(r), model.C(1)), model.C(g.hi+1))))
	}
}

// atomic emits an atomic access to x: a load or a locked operation.
func (b *builder) atomic(x, r int) {
	g := b.g
	switch g.rng.IntN(10) {
	case 0, 1:
		b.emit(model.AtomicReadOp(x, r))
	case 2:
		b.emit(model.Op{Kind: model.Read, Var: x, Reg: -1, Expr: g.val(), Atomic: true})
	case 3:
		b.emit(model.Exchange(x, r, g.val()))
	case 4:
		b.emit(model.FetchAdd(x, r, model.C(1)))
	case 5:
		// An increment modulo the domain.
		b.emit(model.LockedOp(model.ReadOp(x, r),
			model.WriteOp(x, model.Bin(model.OpMod, model.Bin(model.OpAdd, model.V(x), model.C(1)), model.C(g.hi+1)))))
	case 6:
		// A locked store of the value of x or of another atomic or free
		// variable: that variable is read through an expression only.
		ys := []int{x}
		for _, y := range g.data {
			if y != x && (g.disc[y] == atomicOnly || g.disc[y] == free) {
				ys = append(ys, y)
			}
		}
		y := ys[g.rng.IntN(len(ys))]
		b.emit(model.LockedOp(model.WriteOp(x, model.V(y))))
	default:
		// A compare-and-swap: success and failure leave one location.
		expect, nw := g.val(), g.val()
		from := b.cur
		b.emit(model.CASSuccess(x, -1, expect, nw))
		switch {
		case g.opt.Loops && g.rng.IntN(3) == 0:
			b.trans(from, model.CASFailure(x, r, expect), from) // retry
		default:
			b.trans(from, model.CASFailure(x, r, expect), b.cur)
		}
	}
}

// critical emits a critical section of the mutex around one to three
// accesses. The lock is a compare-and-swap from 0 to 1 that waits (loops),
// blocks, or gives up and skips the section (a try-lock); the unlock is a
// locked store of 0. A section that breaks the discipline takes no lock.
func (b *builder) critical(synced bool) {
	g := b.g
	m := g.mutex
	noLock := g.breaks()
	lockAt := b.cur
	tryLock := false
	if !noLock {
		b.emit(model.CASSuccess(m, -1, model.C(0), model.C(1)))
		switch g.rng.IntN(3) {
		case 0:
			if g.opt.Loops {
				b.trans(lockAt, model.CASFailure(m, -1, model.C(0)), lockAt)
			}
		case 1:
			tryLock = true
		}
	}
	for range 1 + g.rng.IntN(3) {
		b.simple(synced, true)
	}
	if !noLock {
		if g.breaks() {
			b.emit(model.WriteOp(m, model.C(0)))
		} else {
			b.emit(model.LockedOp(model.WriteOp(m, model.C(0))))
		}
	}
	if tryLock {
		b.trans(lockAt, model.CASFailure(m, -1, model.C(0)), b.cur)
	}
}

// publish emits process 0's publication: plain writes of the published
// variables, then the flag set by a locked operation.
func (b *builder) publish() {
	g := b.g
	for _, x := range g.data {
		if g.disc[x] == published && g.rng.IntN(4) > 0 {
			b.emit(model.WriteOp(x, g.val()))
		}
	}
	switch {
	case g.breaks():
		b.emit(model.WriteOp(g.flag, model.C(1)))
	case g.rng.IntN(2) == 0:
		b.emit(model.Exchange(g.flag, -1, model.C(1)))
	default:
		b.emit(model.LockedOp(model.WriteOp(g.flag, model.C(1))))
	}
}

// acquire emits the wait for the flag of a process other than 0 (n
// processes in all), then plain reads of the published variables, and with
// one reader a plain write: the reader owns the data from then on. The
// wait blocks on an atomic load that requires 1, spins on atomic loads
// (loops), or loads once and skips the reads when the flag is not set.
func (b *builder) acquire(n int) {
	g := b.g
	f := g.flag
	load := model.AtomicReadOp(f, 0)
	if g.breaks() {
		load.Atomic = false
	}
	skip := -1
	switch g.rng.IntN(3) {
	case 0:
		load.Reg, load.Expr = -1, model.C(1)
		b.emit(load)
	case 1:
		if g.opt.Loops {
			head := b.cur
			b.emit(load)
			b.trans(b.cur, model.GuardOp(model.Bin(model.OpNe, model.R(0), model.C(1))), head)
			b.emit(model.GuardOp(model.Bin(model.OpEq, model.R(0), model.C(1))))
			break
		}
		fallthrough
	default:
		b.emit(load)
		skip = b.cur
		b.emit(model.GuardOp(model.Bin(model.OpEq, model.R(0), model.C(1))))
	}
	for _, x := range g.data {
		if g.disc[x] == published && g.rng.IntN(4) > 0 {
			b.emit(model.ReadOp(x, g.rng.IntN(2)))
			if n == 2 && g.rng.IntN(3) == 0 {
				b.emit(model.WriteOp(x, g.val()))
			}
		}
	}
	if skip >= 0 {
		b.trans(skip, model.GuardOp(model.Bin(model.OpNe, model.R(0), model.C(1))), b.cur)
	}
}

// addBad adds the bad state: two processes at their last or next-to-last
// location, with a condition on their registers $r; in the store-buffering
// shape, two processes at the end of the shape with $r = 0.
func (g *gen) addBad() {
	n := len(g.p.Procs)
	a, b := g.rng.IntN(n), g.rng.IntN(n-1)
	if b >= a {
		b++
	}
	la := len(g.p.Procs[a].Locs) - 1 - g.rng.IntN(2)
	lb := len(g.p.Procs[b].Locs) - 1 - g.rng.IntN(2)
	va, vb := g.val(), g.val()
	if g.shape {
		la, lb, va, vb = g.shapeEnd[a], g.shapeEnd[b], model.C(0), model.C(0)
	}
	bad := model.BadState{Name: "bad", Locs: []model.ProcLoc{{Proc: a, Loc: max(la, 0)}, {Proc: b, Loc: max(lb, 0)}}}
	bad.Cond = model.Bin(model.OpAnd,
		model.Bin(model.OpEq, model.RegRef{Proc: a, Reg: 0}, va),
		model.Bin(model.OpEq, model.RegRef{Proc: b, Reg: 0}, vb))
	g.p.Bad = []model.BadState{bad}
}
