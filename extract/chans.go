package extract

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/fencecheck/fencecheck/model"
)

// Channels.
//
// A channel is made by the setup (make with a constant capacity) and is
// a value that flows like a pointer: in variables, fields the setup fills,
// closure environments and the arguments of go statements. Every channel
// operation takes the channel's lock in Go's run time, so each is a
// locked operation of the model (it drains the store buffer under x86-TSO)
// over cells of the channel's own:
//
//   - ch.closed, set by close;
//   - for a buffered channel of capacity C, a ring of C slots: ch.full[i]
//     says slot i holds an element, ch.buf[i] holds it, and ch.sendx and
//     ch.recvx are the next slots to send to and receive from. A send waits
//     until its slot is free, a receive until its slot is full (or the
//     channel is closed and empty);
//   - for an unbuffered channel, the offers of the goroutines waiting on
//     it, as Go's run time keeps them in the channel's queues:
//     ch.recvq[G] is non-zero while goroutine G waits to receive from ch
//     (it names the case of G's select), ch.sendq[G] while G waits to send,
//     with the value in ch.sendv[G]. A goroutine arriving at an operation
//     whose partner waits completes it at once: it hands the value over (or
//     takes it) through G's own cells G.chanval and G.chanok and wakes G by
//     setting G.chansel to the case, withdrawing G's other offers. A
//     goroutine whose operations are not ready publishes its offers, all at
//     once, and waits until a partner sets its chansel. A select that names
//     the same channel in several cases of one direction offers each in a
//     slot of its own (ch.recvq[G/2] for the second), as the run time
//     enqueues one waiter per case; a partner takes any one of them. A
//     goroutine never takes its own offers: it publishes them only after
//     finding no partner, and waits from then on.
//
// A select is one such site with several cases; a plain send or receive is
// a select of one case without default, and select {} one with none. The
// sites are recorded while the processes are lowered and turned into
// transitions once every process is known (lowerChannels), since a partner
// must name every goroutine that may wait.
//
// Happens-before follows the Go memory model exactly (go.dev/ref/mem): the
// k-th send synchronises before the k-th receive completes (the receive
// observes the slot's full flag and value the send wrote, or the sender's
// offer); the k-th receive before the (k+C)-th send completes (that send
// observes the full flag the receive cleared); an unbuffered receive before
// its send completes (the sender observes the receiver's offer, or is
// woken by the receiver); close before a receive that returns because the
// channel is closed. The indices and the readiness tests are the run time's
// bookkeeping, read with [model.Op.NoSync].

// A channel is one channel the setup made.
type channel struct {
	name string
	anon bool // not named after a variable yet
	cap  int
	elem types.Type
	pos  token.Pos
	// timer marks the channel of a time.After of the setup: what it
	// delivers is a time, a value only pure calls may use.
	timer bool

	// What the setup left in it.
	initBuf    []int64
	initClosed bool

	// Model variables, made by lowerChannels (-1 before).
	closed       int
	full, buf    []int // buffered: by slot; buf empty for elements with no cell
	sendx, recvx int
	// unbuffered: by process, then by slot (the cases of one select on
	// the channel in the same direction)
	recvq, sendq map[int][]int
	sendv        map[int][]int
}

// hasCell reports whether the elements of ch carry a value (struct{} does
// not).
func (ch *channel) hasCell() bool { return !isZeroSize(ch.elem) }

// isZeroSize reports whether values of t carry nothing (struct{}, [0]T).
func isZeroSize(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Struct:
		for i := range u.NumFields() {
			if !isZeroSize(u.Field(i).Type()) {
				return false
			}
		}
		return true
	case *types.Array:
		return u.Len() == 0 || isZeroSize(u.Elem())
	}
	return false
}

// makeChan makes the channel of a make in the setup.
func (s *system) makeChan(fr *frame, in *ssa.MakeChan) value {
	size, ok := s.get(fr, in.Size).constant()
	if !ok {
		s.unsupported(in.Pos(), "a channel whose capacity the setup cannot compute")
	}
	if size < 0 {
		s.fail(in.Pos(), "the setup of system %s panics: makechan: size out of range", s.name)
	}
	if size > maxChanCap {
		s.unsupported(in.Pos(), "a channel of capacity %d (at most %d are modelled)", size, maxChanCap)
	}
	elem := in.Type().Underlying().(*types.Chan).Elem()
	if k := classify(elem); !isZeroSize(elem) && k != leafInt && k != leafPointer && !isFuncCell(elem) {
		s.unsupported(in.Pos(), "a channel of %s (channels of integers, booleans, strings, pointers, interface values, functions and struct{} are modelled)", elem)
	}
	ch := &channel{name: "ch", anon: true, cap: int(size), elem: elem, pos: in.Pos(), closed: -1}
	s.chans = append(s.chans, ch)
	return value{kind: vChan, ch: ch}
}

// maxChanCap bounds the capacity of a modelled channel: each slot is two
// variables, and every send a case split over the slots.
const maxChanCap = 16

// nameChan names an anonymous channel after the variable or cell it is
// first bound to.
func nameChan(v value, name string) {
	if v.kind == vChan && v.ch.anon {
		v.ch.name, v.ch.anon = name, false
	}
}

// setupSend executes a send of the setup, to a buffered channel with room;
// a send that would block the setup is reported (as setupRecv reports a
// receive from an empty channel, and the builtin close closes).
func (s *system) setupSend(fr *frame, in *ssa.Send) {
	v := s.get(fr, in.Chan)
	if v.kind == vNil {
		s.unsupported(in.Pos(), "a send on a nil channel in the setup (it blocks forever)")
	}
	ch := s.chanOf(v, in.Pos())
	if ch.initClosed {
		s.fail(in.Pos(), "the setup of system %s panics: send on closed channel", s.name)
	}
	if len(ch.initBuf) >= ch.cap {
		s.unsupported(in.Pos(), "a send that would block before the last go statement, where the system function runs alone as the set-up (the channel is full or unbuffered)")
	}
	val := int64(0)
	if ch.hasCell() {
		x := s.get(fr, in.X)
		if isPtrCell(ch.elem) {
			x = intVal(s.refExpr(x, in.Pos()))
		}
		if isFuncCell(ch.elem) {
			x = intVal(s.funcID(ch.elem, x, in.Pos()))
		}
		c, ok := x.constant()
		if !ok {
			s.unsupported(in.Pos(), "a send in the setup of a value it cannot compute")
		}
		val = c
	}
	ch.initBuf = append(ch.initBuf, val)
}

// setupRecv executes a receive of the setup.
func (s *system) setupRecv(fr *frame, in *ssa.UnOp) {
	ch := s.chanOf(s.get(fr, in.X), in.Pos())
	val, ok := int64(0), int64(0)
	switch {
	case len(ch.initBuf) > 0:
		val, ok = ch.initBuf[0], 1
		ch.initBuf = ch.initBuf[1:]
	case !ch.initClosed:
		s.unsupported(in.Pos(), "a receive that would block before the last go statement, where the system function runs alone as the set-up")
	}
	v := constVal(val)
	if isPtrCell(ch.elem) {
		v = s.refVal(model.C(val), ch.elem)
	}
	if isFuncCell(ch.elem) {
		if val == 0 {
			v = value{kind: vNil}
		} else {
			v = s.funcTableOf(ch.elem).funcs[val-1]
		}
	}
	if in.CommaOk {
		fr.vals[in] = value{kind: vTuple, tup: []value{v, constVal(ok)}}
	} else {
		fr.vals[in] = v
	}
}

// chanOf returns the channel of v, a channel value known when the system
// is lowered.
func (s *system) chanOf(v value, pos token.Pos) *channel {
	if v.kind != vChan {
		s.unsupported(pos, "a channel operation on %s", describe(v))
	}
	return v.ch
}

// A chanCase is one case of a channel site.
type chanCase struct {
	ch *channel // nil: a nil channel, never ready (unless always)
	// pick and alts are set for a channel chosen at run time: the case
	// is on alts[pick-1], or on nil when pick is 0. splitSites resolves
	// them into ch before the site is lowered.
	pick   model.Expr
	alts   []*channel
	slot   int     // the slot of the case's offer (lowerChannels)
	always bool    // a timer's channel: ready at a moment that may be any
	tick   *ticker // with always: the ticker, ready until stopped
	send   bool
	val    model.Expr // send: the value
	valReg int        // receive: the register of the value, or -1
	okReg  int        // receive: the register of ok, or -1
}

// A chanSite is a select, send or receive of a process, lowered once every
// process is known.
type chanSite struct {
	p       *proc
	from    int // the location of the operation
	join    int // where every case goes on
	dflt    bool
	idxReg  int // the register of the chosen case (a select's index), or -1
	cases   []chanCase
	pos     token.Pos
	origin  Origin
	panicAt int // location of a send on a closed channel, or -1
}

// A chanClose is a close of a process, or the cancellation of a context.
type chanClose struct {
	p        *proc
	from, to int
	ch       *channel
	cancel   *ctxNode   // set for a cancellation: ch is nil
	expire   bool       // the cancellation is a deadline's
	also     []model.Op // with cancel: steps of the same locked block before it
	pos      token.Pos
	origin   Origin
}

// chanSiteAt starts a site of process p at cur and returns it; the caller
// adds the cases.
func (p *proc) chanSiteAt(cur int, pos token.Pos, node ast.Node) *chanSite {
	site := &chanSite{p: p, from: cur, join: p.newLoc(pos), idxReg: -1, pos: pos, panicAt: -1,
		origin: Origin{Node: node}}
	p.s.chanSites = append(p.s.chanSites, site)
	return site
}

// recvCase returns the case of a receive from v, with registers for what it
// needs of the value and ok.
func (p *proc) recvCase(v value, elem types.Type, wantVal, wantOk bool, name string, pos token.Pos) chanCase {
	c := chanCase{valReg: -1, okReg: -1}
	if v.kind == vTimer {
		c.always, c.tick = true, v.tick
		if wantOk {
			c.okReg = p.newReg(name+"_ok", types.Typ[types.Bool])
		}
		return c
	}
	p.s.setCaseChan(&c, v, pos)
	if wantVal && !isZeroSize(elem) {
		c.valReg = p.newReg(name, elem)
	}
	if wantOk {
		c.okReg = p.newReg(name+"_ok", types.Typ[types.Bool])
	}
	return c
}

// sendCase returns the case of a send of x on v.
func (p *proc) sendCase(v, x value, elem types.Type, pos token.Pos) chanCase {
	c := chanCase{send: true, valReg: -1, okReg: -1, val: model.C(0)}
	p.s.setCaseChan(&c, v, pos)
	switch {
	case isZeroSize(elem):
	case isPtrCell(elem):
		c.val = p.s.refExpr(x, pos)
	case isFuncCell(elem):
		c.val = p.s.funcID(elem, x, pos)
	default:
		c.val = p.s.asInt(x, pos)
	}
	return c
}

// recvValue is the value a receive case leaves in its register.
func (p *proc) recvValue(c chanCase, elem types.Type) value {
	switch {
	case c.always, c.ch != nil && c.ch.timer:
		return opaque("the time a timer fired")
	case c.valReg < 0:
		return constVal(0)
	case isPtrCell(elem):
		return p.s.refVal(model.R(c.valReg), elem)
	case isFuncCell(elem):
		return p.s.funcFromID(elem, model.R(c.valReg))
	}
	return intVal(model.R(c.valReg))
}

// chanNode is the source of the channel operation at pos: the statement
// or expression, for messages.
func (s *system) chanNode(fr *frame, v ssa.Value, pos token.Pos) ast.Node {
	if v != nil {
		if x, ok := s.x.debugOf(fr.fn).expr[v]; ok {
			return x
		}
	}
	if st := s.x.stmtAt(pos, pos); st != nil {
		return st
	}
	return nil
}

// send lowers ch <- x.
func (p *proc) send(fr *frame, in *ssa.Send, cur int) int {
	s := p.s
	elem := in.Chan.Type().Underlying().(*types.Chan).Elem()
	site := p.chanSiteAt(cur, in.Pos(), s.chanNode(fr, nil, in.Pos()))
	site.cases = []chanCase{p.sendCase(s.get(fr, in.Chan), s.get(fr, in.X), elem, in.Pos())}
	return site.join
}

// recv lowers <-ch and v, ok := <-ch.
func (p *proc) recv(fr *frame, in *ssa.UnOp, cur int) int {
	s := p.s
	elem := in.X.Type().Underlying().(*types.Chan).Elem()
	node := s.chanNode(fr, in, in.Pos())
	site := p.chanSiteAt(cur, in.Pos(), node)
	c := p.recvCase(s.get(fr, in.X), elem, used(in), in.CommaOk, p.regName(fr, in), in.Pos())
	site.cases = []chanCase{c}
	val := p.recvValue(c, elem)
	if c.valReg >= 0 {
		p.holds(c.valReg, fr, in)
	}
	if in.CommaOk {
		ok := constVal(0)
		if c.okReg >= 0 {
			ok = intVal(model.R(c.okReg))
		}
		fr.vals[in] = value{kind: vTuple, tup: []value{val, ok}}
	} else {
		fr.vals[in] = val
	}
	return site.join
}

// selectStmt lowers a select: its result is (index, recvOk, r0, ...), one
// r for each receive case.
func (p *proc) selectStmt(fr *frame, in *ssa.Select, cur int) int {
	s := p.s
	site := p.chanSiteAt(cur, in.Pos(), s.chanNode(fr, nil, in.Pos()))
	site.dflt = !in.Blocking
	site.idxReg = p.newReg("case", types.Typ[types.Int])
	okReg := -1
	tup := []value{intVal(model.R(site.idxReg)), constVal(0)}
	for _, st := range in.States {
		elem := st.Chan.Type().Underlying().(*types.Chan).Elem()
		v := s.get(fr, st.Chan)
		var c chanCase
		if st.Dir == types.SendOnly {
			c = p.sendCase(v, s.get(fr, st.Send), elem, st.Pos)
		} else {
			if okReg < 0 {
				okReg = p.newReg("recvOK", types.Typ[types.Bool])
				tup[1] = intVal(model.R(okReg))
			}
			c = p.recvCase(v, elem, true, false, "recv", st.Pos)
			c.okReg = okReg
			tup = append(tup, p.recvValue(c, elem))
		}
		site.cases = append(site.cases, c)
	}
	fr.vals[in] = value{kind: vTuple, tup: tup}
	return site.join
}

// closeChan lowers close(ch).
func (p *proc) closeChan(fr *frame, in *ssa.Call, cur int) int {
	s := p.s
	v := s.get(fr, in.Call.Args[0])
	node := s.chanNode(fr, in, in.Pos())
	if v.kind == vNil {
		p.panics = append(p.panics, panicSite{loc: cur, name: "panic: close of nil channel", pos: in.Pos()})
		return -1
	}
	if v.kind == vChanRef {
		return p.closeChanRef(v, in.Pos(), node, cur)
	}
	c := &chanClose{p: p, from: cur, to: p.newLoc(in.Pos()), ch: s.chanOf(v, in.Pos()), pos: in.Pos(), origin: Origin{Node: node}}
	s.chanCloses = append(s.chanCloses, c)
	return c.to
}

// chanLen lowers len(ch) and cap(ch).
func (p *proc) chanLen(fr *frame, in *ssa.Call, name string, cur int) int {
	s := p.s
	v := s.get(fr, in.Call.Args[0])
	if v.kind == vNil {
		fr.vals[in] = constVal(0)
		return cur
	}
	ch := s.chanOf(v, in.Pos())
	if name == "cap" || ch.cap == 0 {
		if name == "cap" {
			fr.vals[in] = constVal(int64(ch.cap))
		} else {
			fr.vals[in] = constVal(0)
		}
		return cur
	}
	if !used(in) {
		return cur
	}
	r := p.newReg(p.regName(fr, in), types.Typ[types.Int])
	fr.vals[in] = intVal(model.R(r))
	next := p.newLoc(in.Pos())
	s.chanLens = append(s.chanLens, chanLen{p: p, from: cur, to: next, ch: ch, reg: r, pos: in.Pos(), origin: Origin{Node: s.chanNode(fr, in, in.Pos())}})
	return next
}

// A chanLen is a len(ch) of a process, lowered with the channel's cells.
type chanLen struct {
	p        *proc
	from, to int
	ch       *channel
	reg      int
	pos      token.Pos
	origin   Origin
}

// newChanVar adds a model variable for the channel machinery.
func (s *system) newChanVar(name string, t types.Type, init int64, pos token.Pos) int {
	s.prog.Vars = append(s.prog.Vars, model.Var{Name: name, Init: model.Init{Value: init}, Pos: s.mpos(pos)})
	s.varType = append(s.varType, t)
	s.varDecl = append(s.varDecl, nil)
	return len(s.prog.Vars) - 1
}

// procChan holds the cells of a process that waits on unbuffered channels.
type procChan struct {
	sel, val, ok int
}

// lowerChannels makes the channels' variables and the transitions of every
// channel site, now that every process that may wait on a channel is
// known.
func (s *system) lowerChannels() {
	s.addDeadlineProcs()
	for _, t := range s.tickers {
		t.stopped = s.newChanVar(t.name+".stopped", types.Typ[types.Bool], b2i(t.initStopped), t.pos)
	}
	for _, ts := range s.tickStops {
		ts.p.emitTo(ts.from, ts.ops(), ts.to, ts.pos, ts.origin)
	}
	for _, t := range s.tickers {
		for _, f := range t.fires {
			fire := model.LockedOp(model.ReadEqOp(t.stopped, model.C(0)), model.WriteOp(t.stopped, model.C(1)))
			f.p.emitTo(f.from, fire, f.to, t.pos, Origin{})
		}
	}
	if len(s.chanSites) == 0 && len(s.chanCloses) == 0 && len(s.chanLens) == 0 && len(s.ctxErrSites) == 0 {
		return
	}
	s.splitSites()
	boolT, intT := types.Typ[types.Bool], types.Typ[types.Int]
	s.uniqueChanNames()
	for _, ch := range s.chans {
		ch.closed = s.newChanVar(ch.name+".closed", boolT, b2i(ch.initClosed), ch.pos)
		if ch.cap > 0 {
			for i := range ch.cap {
				full, val := int64(0), int64(0)
				if i < len(ch.initBuf) {
					full, val = 1, ch.initBuf[i]
				}
				ch.full = append(ch.full, s.newChanVar(fmt.Sprintf("%s.full[%d]", ch.name, i), boolT, full, ch.pos))
				if ch.hasCell() {
					ch.buf = append(ch.buf, s.newChanVar(fmt.Sprintf("%s.buf[%d]", ch.name, i), ch.elem, val, ch.pos))
				}
			}
			ch.sendx = s.newChanVar(ch.name+".sendx", intT, int64(len(ch.initBuf)%ch.cap), ch.pos)
			ch.recvx = s.newChanVar(ch.name+".recvx", intT, 0, ch.pos)
		}
		ch.recvq, ch.sendq, ch.sendv = map[int][]int{}, map[int][]int{}, map[int][]int{}
	}
	for _, d := range s.deadlines {
		for _, n := range d.nodes() {
			if n.expired < 0 {
				n.expired = s.newChanVar(n.ch.name+".expired", boolT, 0, n.pos)
			}
		}
	}
	for _, e := range s.ctxErrSites {
		body := []model.Op{model.ReadOp(e.ctx.ch.closed, e.closedReg)}
		if e.expReg >= 0 {
			body = append(body, model.ReadOp(e.ctx.expired, e.expReg))
		}
		e.p.emitTo(e.from, model.LockedOp(body...), e.to, e.pos, e.origin)
	}
	// The offers: every process with a site on an unbuffered channel.
	pcs := map[int]*procChan{}
	for _, site := range s.chanSites {
		q := site.p.idx
		for k := range site.cases {
			c := &site.cases[k]
			if c.ch == nil || c.ch.cap > 0 {
				continue
			}
			for _, d := range site.cases[:k] {
				if d.ch == c.ch && d.send == c.send {
					c.slot++
				}
			}
			if pcs[q] == nil {
				name := s.prog.Procs[q].Name
				pcs[q] = &procChan{
					sel: s.newChanVar(name+".chansel", intT, 0, site.pos),
					val: s.newChanVar(name+".chanval", intT, 0, site.pos),
					ok:  s.newChanVar(name+".chanok", boolT, 0, site.pos),
				}
			}
			who := s.prog.Procs[q].Name
			if c.slot > 0 {
				who = fmt.Sprintf("%s/%d", who, c.slot+1)
			}
			if c.send {
				for len(c.ch.sendq[q]) <= c.slot {
					c.ch.sendq[q] = append(c.ch.sendq[q], s.newChanVar(fmt.Sprintf("%s.sendq[%s]", c.ch.name, who), intT, 0, site.pos))
					c.ch.sendv[q] = append(c.ch.sendv[q], s.newChanVar(fmt.Sprintf("%s.sendv[%s]", c.ch.name, who), c.ch.elem, 0, site.pos))
				}
			} else {
				for len(c.ch.recvq[q]) <= c.slot {
					c.ch.recvq[q] = append(c.ch.recvq[q], s.newChanVar(fmt.Sprintf("%s.recvq[%s]", c.ch.name, who), intT, 0, site.pos))
				}
			}
		}
	}
	// withdraw clears every offer of process q.
	withdraw := func(q int) []model.Op {
		var ops []model.Op
		for _, ch := range s.chans {
			for _, x := range ch.recvq[q] {
				ops = append(ops, model.WriteOp(x, model.C(0)))
			}
			for j, x := range ch.sendq[q] {
				ops = append(ops, model.WriteOp(x, model.C(0)), model.WriteOp(ch.sendv[q][j], model.C(0)))
			}
		}
		return ops
	}
	for _, site := range s.chanSites {
		s.lowerSite(site, pcs, withdraw)
	}
	for _, c := range s.chanCloses {
		p := c.p
		if c.cancel != nil {
			p.emitTo(c.from, model.LockedOp(append(append([]model.Op(nil), c.also...), cancelOps(c.cancel, c.expire)...)...), c.to, c.pos, c.origin)
			continue
		}
		x := c.ch.closed
		p.emitTo(c.from, model.LockedOp(model.ReadEqOp(x, model.C(0)), model.WriteOp(x, model.C(1))), c.to, c.pos, c.origin)
		panicLoc := p.newLoc(c.pos)
		p.emitTo(c.from, model.LockedOp(model.ReadEqOp(x, model.C(1))), panicLoc, c.pos, c.origin)
		p.panics = append(p.panics, panicSite{loc: panicLoc, name: "panic: close of closed channel", pos: c.pos})
	}
	for _, l := range s.chanLens {
		var sum model.Expr = model.C(0)
		for _, f := range l.ch.full {
			sum = model.Bin(model.OpAdd, sum, model.V(f))
		}
		op := model.LockedOp(model.Op{Kind: model.Assign, Reg: l.reg, Expr: sum, NoSync: true})
		l.p.emitTo(l.from, op, l.to, l.pos, l.origin)
	}
}

// uniqueChanNames numbers the channels that share a name (those a function
// called twice made): c, c#2.
func (s *system) uniqueChanNames() {
	seen := map[string]bool{}
	for _, ch := range s.chans {
		base, n := ch.name, 1
		for seen[ch.name] {
			n++
			ch.name = fmt.Sprintf("%s#%d", base, n)
		}
		seen[ch.name] = true
	}
}

// noSync marks the steps of a locked body as bookkeeping.
func noSync(ops ...model.Op) []model.Op {
	for i := range ops {
		ops[i].NoSync = true
	}
	return ops
}

// guard is a step of a locked body that needs e.
func guard(e model.Expr) model.Op { return model.GuardOp(e) }

func eq(x model.Expr, v int64) model.Expr { return model.Bin(model.OpEq, x, model.C(v)) }

// andAll conjoins b to a, a nil a being true.
func andAll(a, b model.Expr) model.Expr {
	if a == nil {
		return b
	}
	return and(a, b)
}

// orAll disjoins b to a, a nil a being false.
func orAll(a, b model.Expr) model.Expr {
	if a == nil {
		return b
	}
	return or(a, b)
}

// ready is the condition, over memory, under which case c of process q
// can proceed at once.
//
// A timer may not have fired yet, so its case never counts as ready here:
// a select with a timer case may still take its default, or wait.
func (s *system) ready(c chanCase, q int) model.Expr {
	ch := c.ch
	if c.always {
		return model.C(0)
	}
	if ch == nil {
		return model.C(0)
	}
	closed := eq(model.V(ch.closed), 1)
	if ch.cap > 0 {
		var r model.Expr
		for i := range ch.cap {
			idx := ch.sendx
			want := int64(0)
			if !c.send {
				idx, want = ch.recvx, 1
			}
			r = orAll(r, and(eq(model.V(idx), int64(i)), eq(model.V(ch.full[i]), want)))
		}
		return orAll(r, closed)
	}
	r := closed
	queue := ch.recvq
	if !c.send {
		queue = ch.sendq
	}
	for _, g := range queueProcs(queue) {
		if g == q {
			continue
		}
		for _, x := range queue[g] {
			r = orAll(r, model.Bin(model.OpNe, model.V(x), model.C(0)))
		}
	}
	return r
}

// lowerSite emits the transitions of one channel site.
func (s *system) lowerSite(site *chanSite, pcs map[int]*procChan, withdraw func(int) []model.Op) {
	p, q := site.p, site.p.idx
	emit := func(from int, body []model.Op, to int) {
		p.emitTo(from, model.LockedOp(body...), to, site.pos, site.origin)
	}
	setIdx := func(k int) []model.Op {
		if site.idxReg < 0 {
			return nil
		}
		return []model.Op{model.AssignOp(site.idxReg, model.C(int64(k)))}
	}
	result := func(c chanCase, val, ok model.Expr) []model.Op {
		var ops []model.Op
		if c.valReg >= 0 {
			ops = append(ops, model.AssignOp(c.valReg, val))
		}
		if c.okReg >= 0 {
			ops = append(ops, model.AssignOp(c.okReg, ok))
		}
		return ops
	}
	panicLoc := func() int {
		if site.panicAt < 0 {
			site.panicAt = p.newLoc(site.pos)
			p.panics = append(p.panics, panicSite{loc: site.panicAt, name: "panic: send on closed channel", pos: site.pos})
		}
		return site.panicAt
	}
	// immediate emits, from loc, the transitions of case k that proceed at
	// once; extra is prepended to each body (the waiter's own checks).
	immediate := func(loc, k int, c chanCase, extra []model.Op) {
		ch := c.ch
		pre := func(ops ...model.Op) []model.Op { return append(append([]model.Op(nil), extra...), ops...) }
		if c.always {
			// The timer fires now: a channel operation, so a locked step.
			body := pre()
			if c.tick != nil {
				body = append(body, model.Op{Kind: model.Read, Var: c.tick.stopped, Reg: -1, Expr: model.C(0), NoSync: true})
				if c.tick.once {
					body = append(body, model.WriteOp(c.tick.stopped, model.C(1)))
				}
			}
			emit(loc, append(append(body, result(c, model.C(0), model.C(1))...), setIdx(k)...), site.join)
			return
		}
		if ch == nil {
			return
		}
		closed := model.V(ch.closed)
		if c.send {
			emit(loc, pre(model.ReadEqOp(ch.closed, model.C(1))), panicLoc())
		}
		if ch.cap > 0 {
			for i := range ch.cap {
				next := model.C(int64((i + 1) % ch.cap))
				if c.send {
					body := pre(noSync(guard(and(eq(closed, 0), eq(model.V(ch.sendx), int64(i)))))...)
					body = append(body, model.ReadEqOp(ch.full[i], model.C(0)))
					if ch.hasCell() {
						body = append(body, model.WriteOp(ch.buf[i], c.val))
					}
					body = append(body, model.WriteOp(ch.full[i], model.C(1)), model.WriteOp(ch.sendx, next))
					emit(loc, append(body, setIdx(k)...), site.join)
					continue
				}
				body := pre(noSync(guard(eq(model.V(ch.recvx), int64(i))))...)
				body = append(body, model.ReadEqOp(ch.full[i], model.C(1)))
				var val model.Expr = model.C(0)
				if ch.hasCell() {
					val = model.V(ch.buf[i])
					body = append(body, result(c, val, model.C(1))...)
					body = append(body, model.WriteOp(ch.buf[i], model.C(0)))
				} else {
					body = append(body, result(c, val, model.C(1))...)
				}
				body = append(body, model.WriteOp(ch.full[i], model.C(0)), model.WriteOp(ch.recvx, next))
				emit(loc, append(body, setIdx(k)...), site.join)
				// Closed and empty.
				body = pre(noSync(guard(and(eq(model.V(ch.recvx), int64(i)), eq(model.V(ch.full[i]), 0))))...)
				body = append(body, model.ReadEqOp(ch.closed, model.C(1)))
				body = append(body, result(c, model.C(0), model.C(0))...)
				emit(loc, append(body, setIdx(k)...), site.join)
			}
			return
		}
		if c.send {
			// A receiver waits: hand the value over and wake it.
			for _, g := range queueProcs(ch.recvq) {
				if g == q {
					continue
				}
				for _, x := range ch.recvq[g] {
					pc := pcs[g]
					body := pre(noSync(guard(eq(closed, 0)))...)
					body = append(body, guard(model.Bin(model.OpNe, model.V(x), model.C(0))),
						model.WriteOp(pc.val, c.val), model.WriteOp(pc.ok, model.C(1)), model.WriteOp(pc.sel, model.V(x)))
					body = append(body, withdraw(g)...)
					emit(loc, append(body, setIdx(k)...), site.join)
				}
			}
			return
		}
		// A sender waits: take its value and wake it.
		for _, g := range queueProcs(ch.sendq) {
			if g == q {
				continue
			}
			for j, x := range ch.sendq[g] {
				pc := pcs[g]
				body := pre(noSync(guard(eq(closed, 0)))...)
				body = append(body, guard(model.Bin(model.OpNe, model.V(x), model.C(0))))
				body = append(body, result(c, model.V(ch.sendv[g][j]), model.C(1))...)
				body = append(body, model.WriteOp(pc.ok, model.C(1)), model.WriteOp(pc.sel, model.V(x)))
				body = append(body, withdraw(g)...)
				emit(loc, append(body, setIdx(k)...), site.join)
			}
		}
		// Closed: the zero value, at once.
		body := pre(model.ReadEqOp(ch.closed, model.C(1)))
		body = append(body, result(c, model.C(0), model.C(0))...)
		emit(loc, append(body, setIdx(k)...), site.join)
	}
	var none model.Expr // no case is ready
	unbuffered := false
	for _, c := range site.cases {
		none = andAll(none, model.Not(s.ready(c, q)))
		if c.ch != nil && c.ch.cap == 0 {
			unbuffered = true
		}
	}
	if none == nil {
		none = model.C(1)
	}
	for k, c := range site.cases {
		immediate(site.from, k, c, nil)
	}
	if site.dflt {
		emit(site.from, append(noSync(guard(none)), setIdx(-1)...), site.join)
		return
	}
	if len(site.cases) == 0 || allNil(site.cases) {
		// select {} or a nil channel: wait for good.
		p.emitTo(site.from, model.ReadEqOp(s.foreverVar(), model.C(1)), site.join, site.pos, site.origin)
		return
	}
	if !unbuffered {
		return // the cases' guards are the wait
	}
	// Publish the offers, then wait to be woken (or for a buffered case).
	pc := pcs[q]
	wait := p.newLoc(site.pos)
	publish := noSync(guard(none))
	for k, c := range site.cases {
		if c.ch == nil || c.ch.cap > 0 {
			continue
		}
		if c.send {
			publish = append(publish, model.WriteOp(c.ch.sendq[q][c.slot], model.C(int64(k+1))), model.WriteOp(c.ch.sendv[q][c.slot], c.val))
		} else {
			publish = append(publish, model.WriteOp(c.ch.recvq[q][c.slot], model.C(int64(k+1))))
		}
	}
	emit(site.from, publish, wait)
	for k, c := range site.cases {
		if c.always {
			immediate(wait, k, c, withdraw(q))
			continue
		}
		if c.ch == nil {
			continue
		}
		if c.ch.cap > 0 {
			// A buffered case becomes ready while the offers wait.
			extra := append(noSync(guard(eq(model.V(pc.sel), 0))), withdraw(q)...)
			immediate(wait, k, c, extra)
			continue
		}
		// Woken by a partner.
		sel := eq(model.V(pc.sel), int64(k+1))
		reset := []model.Op{model.WriteOp(pc.sel, model.C(0)), model.WriteOp(pc.val, model.C(0)), model.WriteOp(pc.ok, model.C(0))}
		if c.send {
			emit(wait, append(append([]model.Op{guard(sel)}, reset...), setIdx(k)...), site.join)
		} else {
			body := []model.Op{guard(sel)}
			body = append(body, result(c, model.V(pc.val), model.V(pc.ok))...)
			emit(wait, append(append(body, reset...), setIdx(k)...), site.join)
		}
		// The channel closed while the offer waited.
		var body []model.Op
		var to int
		if c.send {
			body = append(noSync(guard(eq(model.V(pc.sel), 0))), model.ReadEqOp(c.ch.closed, model.C(1)))
			body = append(body, withdraw(q)...)
			to = panicLoc()
		} else {
			body = append(noSync(guard(eq(model.V(pc.sel), 0))), model.ReadEqOp(c.ch.closed, model.C(1)))
			body = append(body, withdraw(q)...)
			body = append(body, result(c, model.C(0), model.C(0))...)
			body = append(body, setIdx(k)...)
			to = site.join
		}
		emit(wait, body, to)
	}
}

// allNil reports whether every case is on a nil channel.
func allNil(cases []chanCase) bool {
	for _, c := range cases {
		if c.ch != nil || c.always {
			return false
		}
	}
	return true
}

// NilChanName names the variable that a wait that never ends (select {},
// an operation on a nil channel) waits on.
const NilChanName = "nilchan"

// foreverVar is a variable no process writes: waiting for it to be 1 is
// waiting forever (select {}, an operation on a nil channel).
func (s *system) foreverVar() int {
	if s.forever == 0 {
		s.forever = 1 + s.newChanVar(NilChanName, types.Typ[types.Bool], 0, s.decl.Pos())
	}
	return s.forever - 1
}

// isChan reports whether v is of a channel type.
func (s *system) isChan(v ssa.Value) bool {
	_, ok := v.Type().Underlying().(*types.Chan)
	return ok
}
