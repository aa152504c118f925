package extract

import (
	"fmt"
	"go/token"
	"go/types"

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
		return value{kind: vCtx, ctx: &ctxNode{pos: pos}}, true
	case "context.WithCancel", "context.WithTimeout", "context.WithDeadline":
		parent := args[0]
		if parent.kind != vCtx {
			s.unsupported(pos, "a context derived from %s (contexts the setup makes from context.Background are modelled)", describe(parent))
		}
		n := &ctxNode{parent: parent.ctx, deadline: fn.Name() != "WithCancel", pos: pos}
		n.ch = &channel{name: "ctx", anon: true, elem: types.NewStruct(nil, nil), pos: pos, closed: -1}
		s.chans = append(s.chans, n.ch)
		for p := parent.ctx; p != nil; p = p.parent {
			if p.ch != nil && p.ch.initClosed {
				n.ch.initClosed = true
			}
		}
		parent.ctx.children = append(parent.ctx.children, n)
		if n.deadline {
			s.deadlines = append(s.deadlines, n)
		}
		return value{kind: vTuple, tup: []value{{kind: vCtx, ctx: n}, {kind: vCancel, ctx: n}}}, true
	case "time.After":
		ch := &channel{name: "time.After", anon: true, cap: 1, elem: types.NewStruct(nil, nil), pos: pos, closed: -1, timer: true}
		s.chans = append(s.chans, ch)
		s.timers = append(s.timers, ch)
		return value{kind: vChan, ch: ch}, true
	case "time.Tick", "time.NewTicker":
		t := &ticker{name: "ticker", stopped: -1, pos: pos}
		s.tickers = append(s.tickers, t)
		if fn.Name() == "Tick" {
			return value{kind: vTimer, tick: t}, true
		}
		return value{kind: vTicker, tick: t}, true
	}
	return value{}, false
}

// setupCancel executes cancel() of the setup.
func (s *system) setupCancel(n *ctxNode) {
	for _, ch := range n.subtree() {
		ch.initClosed = true
	}
}

// ctxMethod evaluates ctx.Done() (a channel, with no step: Done returns the
// same channel every time), in the setup and in processes alike.
func (s *system) ctxMethod(recv value, name string, pos token.Pos) value {
	switch name {
	case "Done":
		if recv.ctx.ch == nil {
			return value{kind: vNil}
		}
		return value{kind: vChan, ch: recv.ctx.ch}
	}
	s.unsupported(pos, "the method %s of a context (Done and cancellation are modelled)", name)
	return value{}
}

// cancelProc lowers cancel() of a process: the subtree's channels close in
// one locked step.
func (p *proc) cancelProc(n *ctxNode, pos token.Pos, cur int) int {
	c := &chanClose{p: p, from: cur, to: p.newLoc(pos), cancel: n, pos: pos}
	p.s.chanCloses = append(p.s.chanCloses, c)
	return c.to
}

// A ticker is a time.Ticker (or time.Tick) of the setup: its channel is
// ready at every moment until it is stopped.
type ticker struct {
	name        string
	stopped     int // the variable, made by lowerChannels (-1 before)
	initStopped bool
	pos         token.Pos
}

// A tickStop is a Stop or Reset of a ticker by a process.
type tickStop struct {
	p        *proc
	from, to int
	tick     *ticker
	stop     bool
	pos      token.Pos
}

// isTimeFunc reports whether fn is the function time.name.
func isTimeFunc(fn *ssa.Function, name string) bool {
	return isErrorsFunc(fn, "time", name)
}

// tickerCall lowers t.Stop() and t.Reset(d) of a process.
func (p *proc) tickerCall(name string, t *ticker, pos token.Pos, cur int) int {
	if name != "Stop" && name != "Reset" {
		p.s.unsupported(pos, "(*time.Ticker).%s", name)
	}
	ts := tickStop{p: p, from: cur, to: p.newLoc(pos), tick: t, stop: name == "Stop", pos: pos}
	p.s.tickStops = append(p.s.tickStops, ts)
	return ts.to
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
		site.cases = []chanCase{{ch: ch, send: true, val: model.C(0), valReg: -1, okReg: -1}}
		s.spawns = append(s.spawns, ch.pos)
	}
	for _, n := range s.deadlines {
		line := s.x.fset.Position(n.pos).Line
		p := s.newProc(fmt.Sprintf("timeout@%d", line))
		p.q.Init = p.newLoc(n.pos)
		c := &chanClose{p: p, from: p.q.Init, to: p.newLoc(n.pos), cancel: n, pos: n.pos}
		s.chanCloses = append(s.chanCloses, c)
		s.spawns = append(s.spawns, n.pos)
	}
}

// cancelOps are the steps of a cancellation: every channel of the subtree
// closed.
func cancelOps(n *ctxNode) []model.Op {
	var ops []model.Op
	for _, ch := range n.subtree() {
		ops = append(ops, model.WriteOp(ch.closed, model.C(1)))
	}
	return ops
}

// nameCtx names the channel of a context after the variable it is first
// bound to.
func nameCtx(v value, name string) {
	if v.kind == vTicker && v.tick.name == "ticker" {
		v.tick.name = name
	}
	if v.kind == vCtx && v.ctx.ch != nil && v.ctx.ch.anon {
		v.ctx.ch.name, v.ctx.ch.anon = name, false
	}
}
