package extract

import (
	"fmt"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/fencecheck/fencecheck/model"
)

// time.AfterFunc called by a goroutine.
//
// A goroutine's time.AfterFunc(d, f) (a batcher that arms a flush when a
// batch begins, as eapache/go-resiliency's does) makes a timer object,
// stopped until the call arms it, and a goroutine for f that starts when
// the timer fires: the call passes f's values as a go statement does
// (a slot), and the goroutine's first step is the fire, which needs the
// timer armed and not stopped since. The result is the timer, kept in
// variables and fields as a pointer (timerpool.go), so that whoever loads
// it stops or resets that timer. A call in a loop takes the next of
// maxPool timers, each with its goroutine; one more is inconclusive,
// naming the count.

// afterFuncInProc lowers the call in of time.AfterFunc(d, f) by a process.
func (p *proc) afterFuncInProc(fr *frame, in *ssa.Call, f value, cur int) int {
	s := p.s
	pos := in.Pos()
	sw := s.funcSpawn(f, pos)
	if sw.fn == nil || !s.x.local(sw.fn) {
		s.unsupported(pos, "time.AfterFunc of %s (functions, methods and closures read from source are modelled)", describeCallee(f))
	}
	var ps []passed
	s.spawnValues(pos, sw, nil, p.idx, -1, func(v passed) value {
		ps = append(ps, v)
		return value{}
	})
	o := Origin{Node: s.stmtNode(pos)}
	t := deref(in.Type())
	first := s.newObject("timer", t, nil, -1)
	objs := []*object{first}
	again := inLoop(fr, in.Block())
	if again {
		objs = s.poolObjects(first, -1, pos)
	}
	n := nestedSpawn{sw: sw, parent: p, passed: ps, loop: again}
	base := ""
	for k, obj := range objs {
		obj.timer = true
		tk := s.tickerOf(obj, pos)
		sw.after = tk
		if k == 0 {
			base = s.procNames([]spawn{sw})[0]
		}
		name := base
		if again {
			name = fmt.Sprintf("%s(#%d)", base, k)
		}
		for range s.copies(pos) {
			n.slots = append(n.slots, s.newSlot(name, ps))
			n.after = append(n.after, tk)
		}
	}
	// arm passes f's values to the goroutines of the k-th timer (each
	// copy's slot) and arms that timer.
	arm := func(k, at int) int {
		per := s.copies(pos)
		for _, sl := range n.slots[k*per : (k+1)*per] {
			at = p.emit(at, startOp(sl, ps), pos, o)
		}
		ts := tickStop{p: p, from: at, to: p.newLoc(pos), tick: n.after[k*per], arm: true, pos: pos, reg: -1, origin: o}
		s.tickStops = append(s.tickStops, ts)
		return ts.to
	}
	var next int
	if again {
		r := p.newReg(p.regName(fr, in), in.Type())
		p.holds(r, fr, in)
		index := map[*object]int{}
		for k, obj := range objs {
			index[obj] = k
		}
		next = p.pickFromPool(objs, r, "time.AfterFunc", pos, cur, func(obj *object, at int) int { return arm(index[obj], at) })
		fr.vals[in] = value{kind: vRef, e: model.R(r), objs: objs, typ: in.Type()}
	} else {
		next = arm(0, cur)
		n.trans = len(p.q.Trans) - 1
		fr.vals[in] = value{kind: vTicker, tick: n.after[0]}
	}
	s.calls.nested = append(s.calls.nested, n)
	return next
}

// startWhenFired makes the process p of a goroutine that an AfterFunc
// timer starts wait for the timer's fire at its first location, and
// returns the location after the fire.
func (s *system) startWhenFired(p *proc, tk *ticker, pos token.Pos) int {
	fired := p.newLoc(pos)
	tk.fires = append(tk.fires, tickFire{p: p, from: p.q.Init, to: fired, copy: len(tk.fires)})
	return fired
}

// Runs of an AfterFunc's function at once.
//
// A Reset after the timer has fired arms it again, and its next fire
// starts the function in a new goroutine, whether or not the last run has
// returned. A timer that a goroutine resets gets, from the next round on,
// two copies of its function's process, which its fires start in turn (a
// variable says whose turn it is); a fire whose copy still runs, a third
// run at once, is a run-time refusal from every location of that copy.

// copies returns how many copies of the function of the AfterFunc timer
// made at pos the round lowers.
func (s *system) copies(pos token.Pos) int {
	if s.heap.hint.refired[pos] {
		return 2
	}
	return 1
}

// noteRefired records that the AfterFunc timer t, lowered with one copy
// of its function, is reset: the next round lowers two.
func (s *system) noteRefired(t *ticker) {
	if s.heap.refired == nil {
		s.heap.refired = map[token.Pos]bool{}
	}
	s.heap.refired[t.pos] = true
	if !s.heap.hint.refired[t.pos] {
		s.heapChange("a goroutine resets a time.AfterFunc timer whose function may still run")
	}
}

// emitCopyFire emits the fire of the timer t that starts the copy of its
// function f, when it is f's turn, and the refusals of a fire in f's
// turn while f still runs.
func (s *system) emitCopyFire(t *ticker, f tickFire, fire model.Op) {
	if t.turn < 0 {
		t.turn = s.newChanVar(t.name+".turn", types.Typ[types.Int], 0, t.pos)
	}
	mine := model.ReadEqOp(t.turn, model.C(int64(f.copy)))
	body := append([]model.Op{mine}, fire.Body...)
	body = append(body, model.WriteOp(t.turn, model.C(int64(1-f.copy))))
	f.p.emitTo(f.from, model.LockedOp(body...), f.to, t.pos, Origin{})
	r := f.p.refusalReg("a third run at once of the function of the time.AfterFunc timer reset while two still run (fencecheck models two)", t.pos)
	refuse := model.LockedOp(model.ReadEqOp(t.stopped, model.C(0)), mine, model.AssignOp(r, model.C(1)))
	for l := range f.p.q.Locs {
		if l != f.from {
			f.p.emitTo(l, refuse, f.p.newLoc(t.pos), t.pos, Origin{})
		}
	}
}

// firedEnds records where the goroutine p, which the last fire of t
// starts, ends: its returns rets and its runtime.Goexit calls, where a
// Reset that arms t again lets it fire again.
func (t *ticker) firedEnds(p *proc, rets []retSite) {
	f := &t.fires[len(t.fires)-1]
	for _, r := range rets {
		f.ends = append(f.ends, r.loc)
	}
	f.ends = append(f.ends, p.goexits...)
}
