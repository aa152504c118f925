package extract

import (
	"fmt"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/fencecheck/fencecheck/model"
)

// Condition variables.
//
// A sync.Cond is made by the setup with sync.NewCond(l), l a *sync.Mutex,
// and flows like a channel (a value that fields, variables and closures
// hold; goroutines do not store it). c.L is l. Each goroutine G that may
// call c.Wait has a variable c.waiting[G]: Wait unlocks l and sets it in
// one locked step, then waits until it is clear and l is free, and takes
// l in the same step (Go's Wait re-locks l once woken; a woken goroutine
// that cannot have l yet waits in Wait). Signal clears the variable of one
// waiting goroutine, any of them (Go wakes the one that waited longest; the
// model lets any go, which only adds behaviours), or does nothing when none
// waits; Broadcast clears them all. There are no spurious wake-ups. The
// Go memory model orders nothing by a Cond (the mutex orders the goroutines
// that use it), so the waiting variables are read without synchronising.

// A condVar is one sync.Cond the setup made.
type condVar struct {
	name   string
	anon   bool
	locker value // what NewCond was given
	// mu is the *sync.Mutex the Cond's Wait unlocks and locks in one step
	// with its wait; when NewCond was given another Locker (a spin lock of
	// the package's own), mu is unset and lock and unlock are that
	// Locker's methods, inlined around the wait as Go's Wait calls them.
	mu           pointer
	lock, unlock *ssa.Function
	pos          token.Pos
	waiting      map[int]int // by process: the variable, made by lowerConds
}

// A condSite is a Wait, Signal or Broadcast of a process.
type condSite struct {
	p        *proc
	from, to int
	c        *condVar
	op       string // "Wait", "Signal", "Broadcast"
	pos      token.Pos
	origin   Origin
}

// isCondMethod reports whether fn is a method of *sync.Cond, and which.
func isCondMethod(fn *ssa.Function) (string, bool) {
	recv := fn.Signature.Recv()
	if recv == nil || !isNamed(deref(recv.Type()), "sync", "Cond") {
		return "", false
	}
	return fn.Name(), true
}

// isNewCond reports whether fn is sync.NewCond.
func isNewCond(fn *ssa.Function) bool {
	obj, _ := fn.Object().(*types.Func)
	return obj != nil && obj.Pkg() != nil && obj.Pkg().Path() == "sync" && fn.Name() == "NewCond" && fn.Signature.Recv() == nil
}

// newCond makes the Cond of a sync.NewCond(l) of the setup.
func (s *system) newCond(l value, pos token.Pos) value {
	c := &condVar{name: "cond", anon: true, locker: l, pos: pos, waiting: map[int]int{}}
	switch {
	case s.condMutex(l):
		c.mu = condLocker(l).ptr
	case l.kind == vIface && len(l.env) > 0 && l.env[0].kind == vPtr && !l.env[0].ptr.dynamic() && l.typ != nil:
		// A Locker of the program's own: Wait calls its methods.
		prog := s.x.ssapkg.Prog
		c.lock = prog.LookupMethod(l.typ, nil, "Lock")
		c.unlock = prog.LookupMethod(l.typ, nil, "Unlock")
		if c.lock == nil || c.unlock == nil || len(c.lock.Blocks) == 0 || len(c.unlock.Blocks) == 0 {
			s.unsupported(pos, "a sync.Cond whose Locker's methods have no Go source (%s)", l.typ)
		}
	default:
		s.unsupported(pos, "a sync.Cond whose Locker is not a *sync.Mutex or a pointer the setup fixes (%s)", describe(l))
	}
	return value{kind: vCond, cond: c}
}

// condLocker is the value a sync.Locker l holds.
func condLocker(l value) value {
	if l.kind == vIface && len(l.env) > 0 {
		return l.env[0]
	}
	return l
}

// condMutex reports whether l, the argument of sync.NewCond, is a
// *sync.Mutex the setup fixes (a variable's, a field's, or one of its own,
// as in sync.NewCond(&sync.Mutex{})) whose value the package's
// initialisation knows.
func (s *system) condMutex(l value) bool {
	mu := condLocker(l)
	if mu.kind != vPtr || mu.ptr.dynamic() || s.issueAt(mu.ptr) != nil {
		return false
	}
	t, _ := mu.ptr.target()
	return classify(t) == leafMutex
}

// nameCond names an anonymous Cond after the variable or cell it is first
// bound to, and the anonymous mutex it was made with after its field L
// (sync.NewCond(&sync.Mutex{}) bound to c: c.L).
func nameCond(v value, name string) {
	if v.kind == vCond && v.cond.anon {
		v.cond.name, v.cond.anon = name, false
		if o := v.cond.mu.obj; o != nil && o.anon && len(v.cond.mu.path) == 0 && !o.named {
			o.name, o.anon = name+".L", false
		}
	}
}

// condCall lowers c.Wait(), c.Signal() and c.Broadcast() of a process.
func (p *proc) condCall(fr *frame, in *ssa.Call, op string, recv value, cur int) int {
	s := p.s
	recv = s.condAt(recv, in.Pos())
	if recv.kind != vCond {
		s.unsupported(in.Pos(), "a sync.Cond the setup did not make with sync.NewCond (%s)", describe(recv))
	}
	switch op {
	case "Wait", "Signal", "Broadcast":
	default:
		s.unsupported(in.Pos(), "(*sync.Cond).%s", op)
	}
	origin := Origin{Node: s.chanNode(fr, in, in.Pos())}
	if c := recv.cond; op == "Wait" && c.unlock != nil {
		// As Go's Wait: join the waiters, c.L.Unlock(), wait for a
		// Signal or Broadcast, c.L.Lock().
		l := c.locker.env[0]
		enter := &condSite{p: p, from: cur, to: p.newLoc(in.Pos()), c: c, op: "WaitEnter", pos: in.Pos(), origin: origin}
		unlocked := p.splitCall(fr, in, []callTarget{{cond: model.C(1), fn: c.unlock, args: []value{l}}}, model.C(0), enter.to)
		if unlocked < 0 {
			return -1
		}
		block := &condSite{p: p, from: unlocked, to: p.newLoc(in.Pos()), c: c, op: "WaitBlock", pos: in.Pos(), origin: origin}
		s.condSites = append(s.condSites, enter, block)
		return p.splitCall(fr, in, []callTarget{{cond: model.C(1), fn: c.lock, args: []value{l}}}, model.C(0), block.to)
	}
	site := &condSite{p: p, from: cur, to: p.newLoc(in.Pos()), c: recv.cond, op: op, pos: in.Pos(), origin: origin}
	s.condSites = append(s.condSites, site)
	return site.to
}

// lowerConds makes the waiting variables and the transitions of every
// Wait, Signal and Broadcast, now that every process that may wait is
// known.
func (s *system) lowerConds() {
	for _, site := range s.condSites {
		if site.op == "Wait" || site.op == "WaitEnter" {
			if _, ok := site.c.waiting[site.p.idx]; !ok {
				site.c.waiting[site.p.idx] = s.newChanVar(fmt.Sprintf("%s.waiting[%s]", site.c.name, s.prog.Procs[site.p.idx].Name),
					types.Typ[types.Bool], 0, site.c.pos)
			}
		}
	}
	for _, site := range s.condSites {
		p, c := site.p, site.c
		emit := func(from int, body []model.Op, to int) {
			p.emitTo(from, model.LockedOp(body...), to, site.pos, site.origin)
		}
		switch site.op {
		case "Wait":
			mu, w := s.varFor(c.mu), c.waiting[p.idx]
			wait := p.newLoc(site.pos)
			emit(site.from, []model.Op{model.ReadEqOp(mu, model.C(1)), model.WriteOp(mu, model.C(0)), model.WriteOp(w, model.C(1))}, wait)
			// Wait unlocks l: Go's fatal error when it is not locked.
			p.fatal(site.from, model.LockedOp(guard(model.Bin(model.OpNe, model.V(mu), model.C(1))), model.ReadOp(mu, -1)),
				"sync: unlock of unlocked mutex", site.pos, site.origin)
			emit(wait, []model.Op{{Kind: model.Read, Var: w, Reg: -1, Expr: model.C(0), NoSync: true},
				model.ReadEqOp(mu, model.C(0)), model.WriteOp(mu, model.C(1))}, site.to)
		case "WaitEnter":
			emit(site.from, []model.Op{model.WriteOp(c.waiting[p.idx], model.C(1))}, site.to)
		case "WaitBlock":
			emit(site.from, []model.Op{{Kind: model.Read, Var: c.waiting[p.idx], Reg: -1, Expr: model.C(0), NoSync: true}}, site.to)
		case "Signal":
			var none model.Expr
			for _, w := range sortedWaiters(c.waiting) {
				emit(site.from, []model.Op{{Kind: model.Read, Var: w, Reg: -1, Expr: model.C(1), NoSync: true},
					model.WriteOp(w, model.C(0))}, site.to)
				none = andAll(none, eq(model.V(w), 0))
			}
			if none == nil {
				none = model.C(1)
			}
			emit(site.from, noSync(guard(none)), site.to)
		case "Broadcast":
			body := []model.Op{}
			for _, w := range sortedWaiters(c.waiting) {
				body = append(body, model.WriteOp(w, model.C(0)))
			}
			emit(site.from, body, site.to)
		}
	}
}

// sortedWaiters returns the waiting variables of a Cond in process order.
func sortedWaiters(m map[int]int) []int {
	var out []int
	for q := 0; len(out) < len(m); q++ {
		if w, ok := m[q]; ok {
			out = append(out, w)
		}
	}
	return out
}

// condAt returns the Cond that recv, the receiver of a method of
// sync.Cond, names: recv itself, or, for a pointer to a field of type
// sync.Cond (a Cond kept by value, as queues keep theirs), the Cond the
// set-up stored there (q.cond = *sync.NewCond(&q.mu)) or the one made for
// the field, whose L the set-up set (q.cond.L = &q.mu). Other values come
// back as they are.
func (s *system) condAt(recv value, pos token.Pos) value {
	if recv.kind != vPtr || recv.ptr.dynamic() {
		return recv
	}
	t, _ := recv.ptr.target()
	if !isNamed(t, "sync", "Cond") {
		return recv
	}
	key := recv.ptr.key()
	if v, ok := s.mem[key]; ok && v.kind == vCond {
		return v
	}
	if v, ok := s.condCells[key]; ok {
		return v
	}
	l, ok := s.mem[recv.ptr.with(step{field: condLField(t)}).key()]
	if !ok {
		s.unsupported(pos, "a sync.Cond %s whose L the set-up did not set", recv.ptr.name())
	}
	v := s.newCond(l, pos)
	nameCond(v, recv.ptr.name())
	if s.condCells == nil {
		s.condCells = map[string]value{}
	}
	s.condCells[key] = v
	return v
}

// condLField is the index of the field L of sync.Cond, the type pointed to
// by t.
func condLField(t types.Type) int {
	st, ok := deref(t).Underlying().(*types.Struct)
	if !ok {
		return -1
	}
	for i := range st.NumFields() {
		if st.Field(i).Name() == "L" {
			return i
		}
	}
	return -1
}

// loadCondCell lowers a load of a *sync.Cond cell through a pointer chosen
// at run time (a worker's w.pool.cond, ants' pool reached from each of its
// workers). Goroutines do not store Conds, so every cell the pointer may
// name holds what the set-up stored there; when that is one Cond, the load
// gives it. ok is false for other loads, and when the cells hold several
// Conds or one a goroutine writes.
func (p *proc) loadCondCell(fr *frame, in *ssa.UnOp, ptr pointer, t types.Type, pos token.Pos, cur int) (int, bool) {
	if !ptr.dynamic() || !isNamed(deref(t), "sync", "Cond") {
		return 0, false
	}
	if _, isPtr := t.Underlying().(*types.Pointer); !isPtr {
		return 0, false
	}
	s := p.s
	var held value
	same := true
	st := p.state()
	join := p.newLoc(pos)
	p.eachCase(cur, ptr, pos, func(q pointer, from int) {
		v, ok := s.mem[q.key()]
		if !ok || v.kind != vCond || s.ptrCellShared(q, pos) || held.cond != nil && v.cond != held.cond {
			same = false
			return
		}
		held = v
		p.emitTo(from, model.NopOp(), join, pos, Origin{})
	})
	if !same || held.cond == nil {
		p.restore(st)
		return 0, false
	}
	fr.vals[in] = held
	return join, true
}
