package extract

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/fencecheck/fencecheck/model"
)

// Timers a goroutine's loop makes and keeps.
//
// A time.NewTimer or NewTicker that a loop of a goroutine runs and whose
// timer outlives the iteration (a lazy timer in a field, made on the first
// round and Reset on the others, as cenkalti/backoff's defaultTimer is; a
// timeout armed on the first round and carried in a variable) is an
// allocation in a loop: each run takes the next of maxPool timer objects
// (one more is inconclusive, naming the count), each object a ticker of
// its own, stopped until the run that makes it arms it. The value is a
// pointer chosen at run time, kept in variables and fields as pointers
// are; its Stop and Reset are the chosen timer's, its channel C the
// chosen timer's channel (a receive from it as from a timer's), and a
// nil one panics as Go's does.

// pooledTimer lowers the call in of time.NewTimer or NewTicker (fn) in a
// loop of the goroutine whose timer outlives the iteration.
func (p *proc) pooledTimer(fr *frame, in *ssa.Call, fn *ssa.Function, cur int) int {
	s := p.s
	pos := in.Pos()
	t := deref(in.Type())
	first := s.newObject("timer", t, nil, -1)
	objs := s.poolObjects(first, -1, pos)
	for _, o := range objs {
		o.timer = true
		s.tickerOf(o, pos)
	}
	r := p.newReg(p.regName(fr, in), in.Type())
	p.holds(r, fr, in)
	arm := func(o *object, at int) int {
		// Made now: armed from here, as Reset arms a timer.
		ts := tickStop{p: p, from: at, to: p.newLoc(pos), tick: s.tickerOf(o, pos), pos: pos, reg: -1,
			origin: Origin{Node: s.chanNode(fr, in, pos)}}
		s.tickStops = append(s.tickStops, ts)
		return ts.to
	}
	join := p.pickFromPool(objs, r, "time."+fn.Name(), pos, cur, arm)
	fr.vals[in] = value{kind: vRef, e: model.R(r), objs: objs, typ: in.Type()}
	return join
}

// isTimerObj reports whether o is a timer object (pooledTimer,
// madeTimer), not a time.Timer the program made itself (whose Stop
// panics, as an uninitialised timer's does).
func isTimerObj(o *object) bool {
	return o.timer
}

// tickerOf returns the ticker of the timer object o, made at its first
// use in the round: a load of a field that holds it may come before the
// call that makes it (a lazy timer's Reset lowered before its NewTimer).
// It is stopped until that call arms it.
func (s *system) tickerOf(o *object, pos token.Pos) *ticker {
	if tk := s.timerObjs[o]; tk != nil {
		return tk
	}
	tk := &ticker{name: "timer", once: isNamed(o.typ, "time", "Timer"), stopped: -1, turn: -1, pos: pos, initStopped: true, obj: o}
	if !tk.once {
		tk.name = "ticker"
	}
	s.tickers = append(s.tickers, tk)
	if s.timerObjs == nil {
		s.timerObjs = map[*object]*ticker{}
	}
	s.timerObjs[o] = tk
	return tk
}

// timerRef reports whether v is a pointer chosen at run time among timer
// objects (pooledTimer).
func (s *system) timerRef(v value) bool {
	if v.kind != vRef || len(v.objs) == 0 {
		return false
	}
	for _, o := range v.objs {
		if !isTimerObj(o) {
			return false
		}
	}
	return true
}

// timerRefCall lowers the method name (Stop or Reset) of the timer x, a
// timerRef, called by in: the chosen timer's, through a case split; a nil
// timer panics.
func (p *proc) timerRefCall(fr *frame, in *ssa.Call, name string, x value, cur int) int {
	s := p.s
	pos := in.Pos()
	g := p.emit(cur, model.GuardOp(model.Bin(model.OpEq, x.e, model.C(0))), pos, Origin{})
	p.panicAt(panicSite{loc: g, name: "invalid memory address or nil pointer dereference", pos: pos})
	r := p.resultReg(fr, in, types.Typ[types.Bool])
	join := p.newLoc(pos)
	for _, o := range x.objs {
		at := p.emit(cur, model.GuardOp(model.Bin(model.OpEq, x.e, model.C(s.idOf(o, pos)))), pos, Origin{})
		delete(fr.vals, in)
		end := p.tickerCall(fr, in, name, s.tickerOf(o, pos), pos, at)
		if end < 0 {
			continue // Go's panic (Ticker.Reset of an interval not above 0)
		}
		if v, ok := fr.vals[in]; ok && r >= 0 {
			end = p.emit(end, model.AssignOp(r, s.asInt(v, pos)), pos, Origin{})
		} else if r >= 0 {
			end = p.emit(end, model.AssignOp(r, model.C(0)), pos, Origin{})
		}
		p.emitTo(end, model.NopOp(), join, pos, Origin{})
	}
	if r >= 0 {
		fr.vals[in] = intVal(model.R(r))
	}
	return join
}

// timerRefChan is the channel C of the timer x, a timerRef whose address
// of field C was taken: one of the timers' channels, chosen by x.
func (s *system) timerRefChan(x value, pos token.Pos) value {
	var alts []value
	var pick model.Expr = model.C(0)
	for k, o := range x.objs {
		alts = append(alts, value{kind: vTimer, tick: s.tickerOf(o, pos)})
		pick = model.Bin(model.OpAdd, pick, model.Bin(model.OpMul, model.Bin(model.OpEq, x.e, model.C(s.idOf(o, pos))), model.C(int64(k+1))))
	}
	return value{kind: vChanRef, e: pick, alts: alts, timers: true}
}

// timerRefLoad lowers the load of the channel of a timer chosen at run
// time (x, the address of its field C): a nil timer panics.
func (p *proc) timerRefLoad(fr *frame, in *ssa.UnOp, x value, cur int) int {
	pos := in.Pos()
	g := p.emit(cur, model.GuardOp(model.Bin(model.OpEq, x.e, model.C(0))), pos, Origin{})
	p.panicAt(panicSite{loc: g, name: "invalid memory address or nil pointer dereference", pos: pos})
	fr.vals[in] = p.s.timerRefChan(x, pos)
	return p.emit(cur, model.GuardOp(model.Bin(model.OpNe, x.e, model.C(0))), pos, Origin{})
}

// timerFieldAddr is the address of a field of the timer x, a timerRef: a
// vTickerC whose objects say which timers.
func timerFieldAddr(x value) value {
	return value{kind: vTickerC, e: x.e, objs: x.objs}
}

// noteEdgeTimers records the timer objects whose channels v, brought to
// the channel variable phi by an edge, holds: a loop's back edge brings
// the channel of a timer the loop makes (a timeout armed on the first
// round and kept), which the phi, lowered before the loop's body, lists
// from the next round on.
func (s *system) noteEdgeTimers(phi *ssa.Phi, v value) {
	var ticks []*ticker
	switch v.kind {
	case vTimer:
		ticks = append(ticks, v.tick)
	case vChanRef:
		for _, a := range v.alts {
			if a.kind == vTimer {
				ticks = append(ticks, a.tick)
			}
		}
	}
	ticks = slices.DeleteFunc(ticks, func(t *ticker) bool { return t == nil || t.obj == nil })
	if len(ticks) == 0 {
		return
	}
	// The phis this one flows into (a loop's header, through the join of
	// an if that sets the variable on the first round) hold it too.
	phis := []*ssa.Phi{phi}
	for i := 0; i < len(phis); i++ {
		for _, r := range *phis[i].Referrers() {
			if q, ok := r.(*ssa.Phi); ok && !slices.Contains(phis, q) {
				phis = append(phis, q)
			}
		}
	}
	for _, t := range ticks {
		// The hint names the timer by its heap id: a timer made once and
		// kept only in variables has none yet.
		s.idOf(t.obj, phi.Pos())
		for _, q := range phis {
			if s.heap.phiTimers == nil {
				s.heap.phiTimers = map[token.Pos][]*object{}
			}
			if !slices.Contains(s.heap.phiTimers[q.Pos()], t.obj) {
				s.heap.phiTimers[q.Pos()] = append(s.heap.phiTimers[q.Pos()], t.obj)
			}
			if !slices.ContainsFunc(s.hintedPhiTimers(q), func(a value) bool { return a.tick == t }) {
				s.heapChange("a loop's channel variable gets the channel of a timer the loop makes")
			}
		}
	}
}

// hintedPhiTimers are the channels of the timer objects the rounds before
// found a back edge bringing to the channel variable phi.
func (s *system) hintedPhiTimers(phi *ssa.Phi) []value {
	var out []value
	for _, k := range s.heap.hint.phiTimers[phi.Pos()] {
		if k <= 0 || k > len(s.heap.heap) {
			continue
		}
		if o := s.heap.heap[k-1]; isTimerObj(o) {
			out = append(out, value{kind: vTimer, tick: s.tickerOf(o, phi.Pos())})
		}
	}
	return out
}

// isTimerMethod reports whether fn is a method of *time.Timer or
// *time.Ticker.
func isTimerMethod(fn *ssa.Function) bool {
	if fn == nil || fn.Signature.Recv() == nil {
		return false
	}
	t := deref(fn.Signature.Recv().Type())
	return isNamed(t, "time", "Timer") || isNamed(t, "time", "Ticker")
}

// madeTimer returns the timer of a time.NewTimer or NewTicker (of result
// type t, at pos) that runs once: the ticker of a timer object made there,
// armed from its creation, so that a timer kept in memory or sent on a
// channel is a pointer like a pooled one (refExpr), and its loads name the
// same ticker (tickerOf) even when lowered before the call.
func (s *system) madeTimer(t types.Type, pos token.Pos) *ticker {
	o := s.newObject("timer", deref(t), nil, -1)
	o.timer = true
	tk := s.tickerOf(o, pos)
	tk.pos, tk.initStopped = pos, false
	return tk
}

// positiveInterval emits, from cur, Go's panic of what (NewTicker,
// Ticker.Reset) on the interval d not above 0: at once for a constant, by
// a case split for an integer known only at run time. It returns where a
// positive interval goes on, -1 when none does.
func (p *proc) positiveInterval(d value, what string, pos token.Pos, cur int) int {
	msg := "non-positive interval for " + what
	if c, ok := d.constant(); ok {
		if c <= 0 {
			p.panicAt(panicSite{loc: cur, name: msg, pos: pos})
			return -1
		}
		return cur
	}
	if d.kind != vInt || d.clock != nil || d.e == nil {
		return cur // a duration the clock keeps: not compared here
	}
	bad := p.emit(cur, model.GuardOp(model.Bin(model.OpLe, d.e, model.C(0))), pos, Origin{})
	p.panicAt(panicSite{loc: bad, name: msg, pos: pos})
	return p.emit(cur, model.GuardOp(model.Bin(model.OpGt, d.e, model.C(0))), pos, Origin{})
}
