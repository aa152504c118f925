package extract

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/fencecheck/fencecheck/model"
)

// Contexts and timers.
//
// A context.Context the setup makes is a node of a tree: Background and
// TODO are roots that are never cancelled (Done is a nil channel); each
// WithCancel, WithTimeout or WithDeadline makes a child with a channel of
// its own (Done), closed when the context is cancelled. Cancelling a
// context closes the channels of its whole subtree in one locked step, as
// Go's propagation does; cancelling again does nothing. A context with a
// deadline also has a process of its own, named after the call
// (timeout@LINE), that may cancel it at any moment: the model does not
// measure time, so a deadline may pass before anything else happens, or
// after everything. A goroutine that waits on Done of such a context never
// waits forever.
//
// A timer's channel (time.After, time.Tick, the C of a time.NewTicker) is
// a channel a receive from is always ready: it fires at some moment, and
// that moment may be any. So a select with a timeout case never blocks
// forever, and the received time is a value only pure calls may use.

// A ctxNode is one context of the setup.
type ctxNode struct {
	parent   *ctxNode
	children []*ctxNode
	ch       *channel // Done; nil for Background and TODO
	deadline bool     // WithTimeout, WithDeadline
	pos      token.Pos
	// key names a derived context across rounds: its call's position and
	// rank (nextCtxKey); empty for Background and TODO.
	key string
	// made is 1 + the variable a goroutine that makes the context sets
	// when it does, in a locked step (Go's WithDeadline arms its timer, and
	// WithCancel of a cancellable parent registers with it, under a
	// mutex); 0 for a context of the set-up or one made without a lock.
	// Its deadline cannot pass before.
	made int
	// timeout is, for a WithTimeout of a constant duration, that duration,
	// and for a WithDeadline of a clock reading moved by a constant, that
	// constant (timed is then set): its deadline is at most that long
	// after it is made. fromNow marks a WithTimeout: its deadline is that
	// long after it is made, so it is not before an ancestor's whose
	// bound is shorter.
	timeout        int64
	timed, fromNow bool
	// todo marks context.TODO (a root, as Background, but another one).
	todo bool
	// derived is set once the call that derives the context is lowered:
	// a context made ahead of it for a load (ctxcells.go) does not know its
	// parent or deadline before.
	derived bool
	// past marks a context whose deadline has passed when it is made
	// (WithTimeout of a duration not above 0, WithDeadline of a time not
	// after the reading it was taken from): Go cancels it, as expired,
	// before WithTimeout returns.
	past bool
	// expired is the variable that holds whether a deadline (its own or an
	// ancestor's) cancelled the context, for Err to tell
	// context.DeadlineExceeded from context.Canceled; made by
	// lowerChannels for the contexts that have a deadline, else -1.
	expired int
	// vals are the values of context.WithValue that the context it is
	// derived from carried (ctxvalue.go).
	vals *ctxValue
}

// pastInSetup reports whether the set-up made n, or the context it
// derives from, with a deadline that had passed: it starts cancelled, as
// expired.
func (n *ctxNode) pastInSetup() bool {
	for m := n; m != nil; m = m.parent {
		if m.past {
			return m.ch != nil && m.ch.initClosed
		}
	}
	return false
}

// mayExpire reports whether a deadline can cancel n.
func (n *ctxNode) mayExpire() bool {
	for m := n; m != nil; m = m.parent {
		if m.deadline {
			return true
		}
	}
	return false
}

// laterThanAncestor drops the deadline of n, a WithTimeout of a constant
// duration, when the nearest ancestor with a deadline has one at most a
// shorter time after it was made (a WithTimeout, or a WithDeadline of a
// reading moved by a constant): made before n, it expires first, and Go's
// WithDeadline then gives n no timer of its own (it expires with the
// ancestor).
func (s *system) laterThanAncestor(n *ctxNode) {
	if !n.fromNow || n.past {
		return
	}
	for m := n.parent; m != nil; m = m.parent {
		if !m.deadline {
			continue
		}
		if m.timed && m.timeout < n.timeout {
			n.deadline = false
			s.deadlines = slices.DeleteFunc(s.deadlines, func(d *ctxNode) bool { return d == n })
		}
		return
	}
}

// known reports whether the calls that derive n and its ancestors have
// been lowered (a context made ahead of its call does not know its parent
// or deadline before).
func (n *ctxNode) known() bool {
	for m := n; m != nil; m = m.parent {
		if !m.derived && m.key != "" && !isRootKey(m.key) {
			return false
		}
	}
	return true
}

// nodes returns n and every context derived from it.
func (n *ctxNode) nodes() []*ctxNode {
	out := []*ctxNode{n}
	for _, c := range n.children {
		out = append(out, c.nodes()...)
	}
	return out
}

// subtree returns the channels of n and of every context derived from it.
func (n *ctxNode) subtree() []*channel {
	var out []*channel
	if n.ch != nil {
		out = append(out, n.ch)
	}
	for _, c := range n.children {
		out = append(out, c.subtree()...)
	}
	return out
}

// contextCall executes a call of the context or time package in the setup,
// or says it is none it knows.
func (s *system) contextCall(fn *ssa.Function, args []value, pos token.Pos) (value, bool) {
	obj, _ := fn.Object().(*types.Func)
	if obj == nil || obj.Pkg() == nil || fn.Signature.Recv() != nil {
		return value{}, false
	}
	switch obj.Pkg().Path() + "." + fn.Name() {
	case "context.Background", "context.TODO":
		return value{kind: vCtx, ctx: &ctxNode{pos: pos, expired: -1, todo: fn.Name() == "TODO"}}, true
	case "context.WithValue":
		return s.withValue(args, pos), true
	case "context.WithCancel", "context.WithCancelCause", "context.WithTimeout", "context.WithDeadline":
		// WithCancelCause's cancel function takes the cause, which only
		// context.Cause reads (not modelled): it cancels as WithCancel's.
		n := s.deriveCtx(args[0], fn.Name() != "WithCancel" && fn.Name() != "WithCancelCause", pos)
		// A parent already done cancels it first, with its own error.
		n.past = n.deadline && !n.ch.initClosed && s.deadlinePassed(fn.Name(), args[1], pos)
		switch fn.Name() {
		case "WithTimeout":
			n.timeout, n.timed = args[1].constant()
			n.fromNow = n.timed
			s.laterThanAncestor(n)
		case "WithDeadline":
			n.timeout, n.timed = s.deadlineOffset(args[1], pos)
		}
		return value{kind: vTuple, tup: []value{{kind: vCtx, ctx: n}, {kind: vCancel, ctx: n}}}, true
	case "time.After":
		ch := &channel{name: "time.After", anon: true, cap: 1, elem: types.NewStruct(nil, nil), pos: pos, closed: -1, timer: true}
		s.chans = append(s.chans, ch)
		s.timers = append(s.timers, ch)
		return value{kind: vChan, ch: ch}, true
	case "time.NewTimer", "time.NewTicker":
		if d, ok := args[0].constant(); ok && d <= 0 && fn.Name() == "NewTicker" {
			s.goPanic(pos, "non-positive interval for NewTicker")
		}
		return value{kind: vTicker, tick: s.madeTimer(fn.Signature.Results().At(0).Type(), pos)}, true
	case "time.Tick":
		if d, ok := args[0].constant(); ok && d <= 0 {
			return value{kind: vNil}, true // Go's is nil
		}
		t := &ticker{name: "ticker", stopped: -1, turn: -1, pos: pos}
		s.tickers = append(s.tickers, t)
		return value{kind: vTimer, tick: t}, true
	}
	return value{}, false
}

// deriveCtx makes a context derived from parent that can be cancelled,
// and by a deadline when deadline is set.
func (s *system) deriveCtx(parent value, deadline bool, pos token.Pos) *ctxNode {
	return s.deriveCtxKeyed(parent, deadline, s.nextCtxKey(pos), pos)
}

// deriveCtxKeyed is deriveCtx of the context named key (ctxcells.go).
func (s *system) deriveCtxKeyed(parent value, deadline bool, key string, pos token.Pos) *ctxNode {
	if parent.kind != vCtx {
		s.unsupported(pos, "a context derived from %s (contexts the setup makes from context.Background are modelled)", describe(parent))
	}
	n := s.ctxNamed(key, pos)
	n.parent, n.deadline, n.derived = parent.ctx, deadline, true
	n.vals = ctxValsOf(parent)
	for p := parent.ctx; p != nil; p = p.parent {
		if p.ch != nil && p.ch.initClosed {
			n.ch.initClosed = true
		}
	}
	parent.ctx.children = append(parent.ctx.children, n)
	if n.deadline {
		s.deadlines = append(s.deadlines, n)
	}
	return n
}

// deadlinePassed reports whether the deadline arg of context.name (a
// duration for WithTimeout, a time for WithDeadline) has passed when the
// context is made: a constant duration not above 0, or a reading of the
// clock (or the zero Time) moved by a constant not above 0, since the
// clock has not gone back since it was read.
func (s *system) deadlinePassed(name string, arg value, pos token.Pos) bool {
	if name == "WithTimeout" {
		d, ok := arg.constant()
		return ok && d <= 0
	}
	if arg.clock != nil && arg.clock.dur {
		return false
	}
	if arg.clock == nil && arg.kind != vInt && !(arg.kind == vAgg && len(arg.agg) == 0) {
		return false
	}
	c := s.clockOf(arg, pos)
	return c.offE == nil && c.off <= 0
}

// deadlineOffset returns, for the deadline arg of context.WithDeadline, a
// reading of the clock moved by a constant, that constant: the reading was
// taken before the call, so the deadline is at most that long after it.
func (s *system) deadlineOffset(arg value, pos token.Pos) (int64, bool) {
	if arg.clock == nil || arg.clock.dur {
		return 0, false
	}
	c := s.clockOf(arg, pos)
	return c.off, c.offE == nil
}

// setupCancel executes cancel() of the setup.
func (s *system) setupCancel(n *ctxNode) {
	for _, ch := range n.subtree() {
		ch.initClosed = true
	}
}

// ctxMethod evaluates ctx.Done() (a channel, with no step: Done returns the
// same channel every time), in the setup and in processes alike, and
// ctx.Err() in the setup, where only a cancel of the setup's own can have
// cancelled it.
func (s *system) ctxMethod(recv value, name string, args []value, pos token.Pos) value {
	switch name {
	case "Done":
		if recv.ctx.ch == nil {
			return value{kind: vNil}
		}
		return value{kind: vChan, ch: recv.ctx.ch}
	case "Err":
		if recv.ctx.ch == nil || !recv.ctx.ch.initClosed {
			return value{kind: vNil}
		}
		return s.ctxError(recv.ctx.pastInSetup())
	case "Value":
		return s.ctxValue(recv, args[0], pos)
	}
	s.unsupported(pos, "the method %s of a context (Done, Err, Value and cancellation are modelled)", name)
	return value{}
}

// ctxError returns context.Canceled, or context.DeadlineExceeded when
// expired is set: errors of the system's own, made once, which the
// package variables of package context hold too.
func (s *system) ctxError(expired bool) value {
	i, msg := 0, "context canceled"
	if expired {
		i, msg = 1, "context deadline exceeded"
	}
	if s.ctxErrs[i].kind == vOpaque {
		s.ctxErrs[i] = s.newError(errSpec{msg: s.intern(msg), name: "errors.New(" + quote(msg) + ")"})
	}
	return s.ctxErrs[i]
}

// contextGlobal returns, for context.Canceled and context.DeadlineExceeded,
// the error the variable holds.
func (s *system) contextGlobal(g *ssa.Global) (value, bool) {
	if g.Pkg == nil || g.Pkg.Pkg.Path() != "context" {
		return value{}, false
	}
	switch g.Name() {
	case "Canceled":
		return s.ctxError(false), true
	case "DeadlineExceeded":
		return s.ctxError(true), true
	}
	return value{}, false
}

// A ctxErrSite is a call ctx.Err() of a process: one locked step (Err
// takes the context's lock) that reads whether the context is cancelled
// and why, emitted by lowerChannels.
type ctxErrSite struct {
	p                 *proc
	from, to          int
	ctx               *ctxNode
	closedReg, expReg int // expReg is -1 when no deadline can cancel ctx
	pos               token.Pos
	origin            Origin
}

// ctxErr lowers ctx.Err() of a process: nil until the context is
// cancelled, then context.Canceled or context.DeadlineExceeded.
func (p *proc) ctxErr(fr *frame, in *ssa.Call, n *ctxNode, cur int) int {
	v, next := p.ctxErrAt(fr, in, n, cur)
	fr.vals[in] = v
	return next
}

// ctxErrAt lowers ctx.Err() of a process from cur, returning the error and
// the location after it.
func (p *proc) ctxErrAt(fr *frame, in *ssa.Call, n *ctxNode, cur int) (value, int) {
	s := p.s
	if n.ch == nil {
		return value{kind: vNil}, cur
	}
	site := &ctxErrSite{p: p, from: cur, to: p.newLoc(in.Pos()), ctx: n, expReg: -1, pos: in.Pos(),
		origin: Origin{Node: s.chanNode(fr, in, in.Pos())}}
	site.closedReg = p.newReg(n.ch.name+".err", types.Typ[types.Bool])
	canceled := s.ctxError(false)
	id := func(v value) model.Expr { return s.refExpr(v, in.Pos()) }
	e := model.Bin(model.OpMul, model.R(site.closedReg), id(canceled))
	objs := []*object{canceled.env[0].ptr.obj}
	if n.mayExpire() || !n.known() {
		// (A context made ahead of its call may have a deadline, or an
		// ancestor with one: lowerChannels reads 0 where it has none.)
		site.expReg = p.newReg(n.ch.name+".expired", types.Typ[types.Bool])
		exceeded := s.ctxError(true)
		// closed * (canceled + expired * (exceeded - canceled))
		e = model.Bin(model.OpMul, model.R(site.closedReg), model.Bin(model.OpAdd, id(canceled),
			model.Bin(model.OpMul, model.R(site.expReg), model.Bin(model.OpSub, id(exceeded), id(canceled)))))
		objs = append(objs, exceeded.env[0].ptr.obj)
	}
	s.ctxErrSites = append(s.ctxErrSites, site)
	return value{kind: vRef, e: e, objs: objs, typ: in.Type()}, site.to
}

// cancelProc lowers cancel() of a process: the subtree's channels close in
// one locked step.
func (p *proc) cancelProc(n *ctxNode, pos token.Pos, cur int) int {
	c := &chanClose{p: p, from: cur, to: p.newLoc(pos), cancel: n, pos: pos}
	p.s.chanCloses = append(p.s.chanCloses, c)
	return c.to
}

// A ticker is a time.Ticker (or time.Tick) of the setup: its channel is
// ready at every moment until it is stopped. With once set it is a
// time.Timer (NewTimer, AfterFunc): it fires once, so a receive from its
// channel (or the start of its function) stops it. Since Go 1.23 a timer's
// channel is unbuffered: after Stop or Reset returns, no value from before
// it is received, and Stop reports true when no value was received (and
// the function has not started): exactly while stopped is false.
type ticker struct {
	name    string
	stopped int // the variable, made by lowerChannels (-1 before)
	// turn is, for an AfterFunc timer whose function has two copies
	// (afterfunc.go), the variable that says which copy the next fire
	// starts.
	turn        int
	initStopped bool
	once        bool
	pos         token.Pos
	// fires are the steps that start an AfterFunc's function, emitted by
	// lowerChannels.
	fires []tickFire
	// ctx is, for a context.AfterFunc, the context whose cancellation
	// fires it (nil for a timer of package time).
	ctx *ctxNode
	// obj is, for the timer of a timer object (timerpool.go), that
	// object.
	obj *object
}

// A tickFire is the first step of an AfterFunc's process: the timer
// fires, if it has not been stopped, and stops. ends are the locations
// where the function returns: a Reset by a goroutine arms the timer
// again, and it fires again, so there the process goes back to from.
type tickFire struct {
	p        *proc
	from, to int
	ends     []int
	copy     int // which copy of the function, of the timer's fires
}

// A tickStop is a Stop or Reset of a ticker by a process.
type tickStop struct {
	p        *proc
	from, to int
	tick     *ticker
	stop     bool
	// arm marks the call that makes the timer (time.AfterFunc by a
	// goroutine): it arms it as Reset does, but its function, started
	// once, does not wait to be started again as after a Reset.
	arm    bool
	pos    token.Pos
	reg    int // a Timer's: the register of the result (whether it was active), or -1
	origin Origin
}

// isTimeFunc reports whether fn is the function time.name.
func isTimeFunc(fn *ssa.Function, name string) bool {
	return isErrorsFunc(fn, "time", name)
}

// timerDiesInIteration reports whether the timer or ticker that the call
// in makes is used only in its iteration: its channel received from (in a
// receive or a select) and its Stop and Reset called, nothing else keeping
// it or its channel (a store, a phi, a closure, another call).
func timerDiesInIteration(in *ssa.Call) bool {
	for _, r := range *in.Referrers() {
		switch r := r.(type) {
		case *ssa.DebugRef:
		case *ssa.FieldAddr:
			for _, l := range *r.Referrers() {
				load, ok := l.(*ssa.UnOp)
				if _, dbg := l.(*ssa.DebugRef); dbg {
					continue
				}
				if !ok || load.Op != token.MUL {
					return false
				}
				if !chanDiesInIteration(load, map[ssa.Value]bool{}) {
					return false
				}
			}
		case *ssa.Call:
			callee := r.Call.StaticCallee()
			if callee == nil || len(r.Call.Args) == 0 || r.Call.Args[0] != in || slices.Contains(r.Call.Args[1:], ssa.Value(in)) ||
				callee.Name() != "Stop" && callee.Name() != "Reset" || callee.Pkg == nil || callee.Pkg.Pkg.Path() != "time" {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// chanDiesInIteration reports whether the timer's channel v is only
// received from, or joined by a phi of the iteration (an optional
// timeout: nil, or the channel, where the select is) whose value is so
// used in turn; a phi at a loop's head would carry it to the next
// iteration.
func chanDiesInIteration(v ssa.Value, seen map[ssa.Value]bool) bool {
	if seen[v] {
		return true
	}
	seen[v] = true
	for _, u := range *v.Referrers() {
		switch u := u.(type) {
		case *ssa.DebugRef, *ssa.Select:
		case *ssa.UnOp:
			if u.Op != token.ARROW {
				return false
			}
		case *ssa.Phi:
			for _, pred := range u.Block().Preds {
				if u.Block().Dominates(pred) {
					return false // a back edge: the loop's head
				}
			}
			if !chanDiesInIteration(u, seen) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// tickerCall lowers t.Stop() and t.Reset(d) of a process, the call in
// (nil when its result is not wanted).
func (p *proc) tickerCall(fr *frame, in *ssa.Call, name string, t *ticker, pos token.Pos, cur int) int {
	if name != "Stop" && name != "Reset" {
		p.s.unsupported(pos, "(*time.Ticker).%s", name)
	}
	if name == "Reset" && !t.once && in != nil && len(in.Call.Args) > 0 {
		// Go panics on an interval not above 0.
		d := p.s.get(fr, in.Call.Args[len(in.Call.Args)-1])
		if cur = p.positiveInterval(d, "Ticker.Reset", pos, cur); cur < 0 {
			return cur
		}
	}
	ts := tickStop{p: p, from: cur, to: p.newLoc(pos), tick: t, stop: name == "Stop", pos: pos, reg: -1}
	if in != nil {
		ts.origin = Origin{Node: p.s.chanNode(fr, in, in.Pos())}
	}
	if t.once && in != nil && len(*in.Referrers()) > 0 {
		ts.reg = p.newReg(t.name+"."+name, types.Typ[types.Bool])
		fr.vals[in] = intVal(model.Bin(model.OpEq, model.R(ts.reg), model.C(0)))
	}
	p.s.tickStops = append(p.s.tickStops, ts)
	return ts.to
}

// tickerOps are the locked step of a Stop or Reset: the result register,
// when there is one, takes the old value of stopped.
func (ts tickStop) ops() model.Op {
	v := int64(0)
	if ts.stop {
		v = 1
	}
	if ts.reg < 0 {
		return model.LockedOp(model.WriteOp(ts.tick.stopped, model.C(v)))
	}
	return model.LockedOp(model.ReadOp(ts.tick.stopped, ts.reg), model.WriteOp(ts.tick.stopped, model.C(v)))
}

// setupAfterFunc executes time.AfterFunc(d, f) of the setup: a timer whose
// firing starts f in a goroutine of its own (a spawn that waits for the
// timer), at any moment unless Stop comes first.
func (s *system) setupAfterFunc(what string, f value, pos token.Pos, spawns *[]spawn) value {
	sw := s.funcSpawn(f, pos)
	if sw.fn == nil || !s.x.local(sw.fn) {
		s.unsupported(pos, "%s of %s (functions and closures of this package are modelled)", what, describeCallee(f))
	}
	t := &ticker{name: "timer", once: true, stopped: -1, turn: -1, pos: pos}
	s.tickers = append(s.tickers, t)
	sw.captured, sw.after = nil, t
	s.noteSpawn(*spawns)
	for range s.copies(pos) {
		*spawns = append(*spawns, sw)
	}
	return value{kind: vTicker, tick: t}
}

// setupCtxAfterFunc executes context.AfterFunc(ctx, f) of the setup: f
// starts in a goroutine of its own once ctx is done, unless stop (the
// result) came first. It is a timer that fires only when ctx's channel is
// closed: the firing and stop exchange one flag in locked steps, so stop
// reports true exactly when f has not started and stop was not called
// before, as Go's does; a context that is never cancelled
// (context.Background) never starts f.
func (s *system) setupCtxAfterFunc(ctx, f value, pos token.Pos, spawns *[]spawn) value {
	if ctx.kind != vCtx {
		s.unsupported(pos, "context.AfterFunc of %s (contexts the setup makes are modelled)", describe(ctx))
	}
	t := s.setupAfterFunc("context.AfterFunc", f, pos, spawns).tick
	t.name, t.ctx = "context.AfterFunc", ctx.ctx
	return value{kind: vStop, tick: t}
}

// fireOp is the locked step that starts the function of the timer t: it
// has not been stopped, and, for a context.AfterFunc, its context is done;
// ok is false when it can never fire (a context that is never cancelled).
func (t *ticker) fireOp() (model.Op, bool) {
	ops := []model.Op{model.ReadEqOp(t.stopped, model.C(0)), model.WriteOp(t.stopped, model.C(1))}
	if t.ctx != nil {
		ch := t.ctx.ch
		switch {
		case ch == nil:
			return model.Op{}, false
		case ch.closed >= 0:
			ops = append([]model.Op{model.ReadEqOp(ch.closed, model.C(1))}, ops...)
		case !ch.initClosed:
			return model.Op{}, false
		}
	}
	return model.LockedOp(ops...), true
}

// emitFires emits the steps that start the functions of AfterFunc timers.
func (s *system) emitFires() {
	for _, t := range s.tickers {
		fire, ok := t.fireOp()
		if !ok {
			continue
		}
		reset := slices.ContainsFunc(s.tickStops, func(ts tickStop) bool { return ts.tick == t && !ts.stop && !ts.arm })
		if reset && len(t.fires) == 1 {
			s.noteRefired(t)
		}
		for _, f := range t.fires {
			if len(t.fires) == 2 {
				s.emitCopyFire(t, f, fire)
			} else {
				f.p.emitTo(f.from, fire, f.to, t.pos, Origin{})
			}
			if reset {
				for _, l := range f.ends {
					f.p.emitTo(l, model.NopOp(), f.from, t.pos, Origin{})
				}
			}
		}
	}
}

// addDeadlineProcs adds, for every context with a deadline, the process
// that may cancel it at any moment, and for every time.After of the setup
// the process that sends on its channel once, at any moment.
func (s *system) addDeadlineProcs() {
	for _, ch := range s.timers {
		line := s.x.fset.Position(ch.pos).Line
		p := s.newProc(fmt.Sprintf("timer@%d", line))
		p.q.Init = p.newLoc(ch.pos)
		site := p.chanSiteAt(p.q.Init, ch.pos, nil)
		site.cases = []chanCase{{ch: ch, send: true, vals: []model.Expr{model.C(0)}, okReg: -1}}
		s.spawns = append(s.spawns, ch.pos)
	}
	for _, n := range s.deadlines {
		line := s.x.fset.Position(n.pos).Line
		p := s.newProc(fmt.Sprintf("timeout@%d", line))
		p.q.Init = p.newLoc(n.pos)
		c := &chanClose{p: p, from: p.q.Init, to: p.newLoc(n.pos), cancel: n, expire: true, pos: n.pos}
		if n.made > 0 {
			// Not before the context is made: till then the timer is not
			// armed, as a goroutine whose go statement has not run.
			c.also = []model.Op{model.ReadEqOp(n.made-1, model.C(1))}
			p.spawnWait = true
		}
		s.chanCloses = append(s.chanCloses, c)
		s.spawns = append(s.spawns, n.pos)
	}
}

// cancelOps are the steps of a cancellation: every channel of the subtree
// closed. When a deadline cancels (expire), the contexts it cancels now
// (not those cancelled before) record that it expired.
func cancelOps(n *ctxNode, expire bool) []model.Op {
	var ops []model.Op
	for _, m := range n.nodes() {
		if m.ch == nil {
			continue
		}
		if expire && m.expired >= 0 {
			// expired || !closed, before closed is set
			ops = append(ops, model.WriteOp(m.expired, model.Bin(model.OpOr, model.V(m.expired), model.Not(model.V(m.ch.closed)))))
		}
		ops = append(ops, model.WriteOp(m.ch.closed, model.C(1)))
	}
	return ops
}

// nameCtx names the channel of a context after the variable it is first
// bound to.
func nameCtx(v value, name string) {
	if v.kind == vTicker && (v.tick.name == "ticker" || v.tick.name == "timer") {
		v.tick.name = name
	}
	if v.kind == vCtx && v.ctx.ch != nil && v.ctx.ch.anon {
		v.ctx.ch.name, v.ctx.ch.anon = name, false
	}
}

// goCallSrc is the function a go statement on a function the model knows
// by behaviour runs (go cancel()): it calls it.
const goCallSrc = "package context\n\nfunc call(f func()) { f() }\n"

// goCallShim returns the function of goCallSrc, built once.
func (x *extractor) goCallShim() (*ssa.Function, error) {
	if x.goCall == nil {
		sp, err := x.modelSource("go", "context·go", goCallSrc, nil)
		if err != nil {
			return nil, fmt.Errorf("the model of a go statement: %w", err)
		}
		x.goCall = sp.Func("call")
	}
	return x.goCall, nil
}
