package extract

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

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
	// key names a channel of a make across rounds (chanKey).
	key string

	// cells are the cells of an element (elemCells): none for struct{},
	// one for a scalar, one per leaf of a struct or array.
	cells []cell

	// What the setup left in it: each element by its cells.
	initBuf    [][]int64
	initClosed bool

	// Model variables, made by lowerChannels (-1 before).
	closed       int
	full         []int   // buffered: by slot
	buf          [][]int // buffered: by slot, then by cell (none for struct{})
	sendx, recvx int
	// unbuffered: by process, then by slot (the cases of one select on
	// the channel in the same direction); sendv then by cell, with one
	// cell for an element that has none
	recvq, sendq map[int][]int
	sendv        map[int][][]int
}

// offerCells are the cells of an offer of ch (ch.sendv) and of a value
// handed over (procChan.vals): the element's cells, or one cell holding 0
// for an element that has none.
func (ch *channel) offerCells() []cell {
	if len(ch.cells) == 0 {
		return []cell{{typ: ch.elem}}
	}
	return ch.cells
}

// Struct and array elements.
//
// A channel of a struct or array type carries each element as its cells,
// in memory order (cellsOf): a buffer slot, an offer and the value handed
// to a waiting receiver are one model variable per cell, a send writes
// them all in its locked step and a receive reads them all into registers
// of its own, of which it rebuilds the struct value. Each cell must be of
// a type a channel of scalars carries (integers, booleans, strings,
// pointers, interface values, functions, channels and maps, the last two
// by identity); slices and the like are refused.
//
// A channel carried by a channel (the reply channel of a request) is its
// identity, chanID; a received one may be any channel of its type, and an
// operation on it is split over all of them once every process is lowered
// (splitSites, splitCloses), when the system's channels are known. A
// goroutine's local memory (a struct variable whose fields the code
// selects) keeps channel and function values the same way: a register
// holding the identity (privateCellExpr, loadPrivateRef).

// maxElemCells bounds the cells of a channel's element: each is a variable
// per buffer slot and per waiting sender.
const maxElemCells = 8

// elemCells lists the cells of a channel element of type elem: none when
// it carries nothing (struct{}), one with the empty key for a scalar, else
// the leaves of the struct or array; elements with a cell of a type no
// channel carries are refused at pos.
func (s *system) elemCells(elem types.Type, pos token.Pos) []cell {
	if isZeroSize(elem) {
		return nil
	}
	if !isAggregate(elem) {
		if !isElemCell(elem) {
			s.unsupported(pos, "a channel of %s (channels of integers, booleans, strings, pointers, interface values, functions, channels, maps and struct{} are modelled)", elem)
		}
		return []cell{{typ: elem}}
	}
	cells, ok := cellsOf(elem)
	if !ok || len(cells) > maxElemCells {
		s.unsupported(pos, "a channel of %s, whose elements have more than %d cells", elem, maxElemCells)
	}
	for _, c := range cells {
		name := strings.TrimPrefix(c.name, ".")
		if !isElemCell(c.typ) {
			s.unsupported(pos, "a channel of %s, whose elements hold a value of type %s (%s); channels of integers, booleans, strings, pointers, interface values, functions, channels, maps, struct{}, and structs and arrays of these are modelled", elem, c.typ, name)
		}
	}
	return cells
}

// isElemCell reports whether a channel's element, or a cell of it, of
// type t is a model cell: an integer, boolean or string, a pointer or
// interface value, a function, a channel or a map (its identity).
func isElemCell(t types.Type) bool {
	k := classify(t)
	return k == leafInt || k == leafPointer || isFuncCell(t) || isChanCell(t) || isMap(t)
}

// isChanCell reports whether a cell of type t holds a channel: its
// identity, 1 + its index among the system's channels, or 0 for nil
// (chanID).
func isChanCell(t types.Type) bool {
	_, ok := t.Underlying().(*types.Chan)
	return ok
}

// cellExpr returns the expression of cell value v of type t as a channel
// carries it: a heap id, a function's index, or an integer.
func (s *system) cellExpr(t types.Type, v value, pos token.Pos) model.Expr {
	switch {
	case isPtrCell(t):
		return s.refExpr(v, pos)
	case isFuncCell(t):
		return s.funcID(t, v, pos)
	case isChanCell(t):
		return s.chanID(v, pos)
	case isMap(t):
		return s.mapRefExpr(v, pos) // the map's identity (maps.go)
	}
	return s.asInt(v, pos)
}

// elemExprs returns the expressions of the cells of x, an element of type
// elem sent at pos: one per cell, or 0 for an element with none.
func (s *system) elemExprs(elem types.Type, x value, pos token.Pos) []model.Expr {
	cells := s.elemCells(elem, pos)
	if len(cells) == 0 {
		return []model.Expr{model.C(0)}
	}
	if !isAggregate(elem) {
		return []model.Expr{s.cellExpr(elem, x, pos)}
	}
	switch x.kind {
	case vAgg:
	case vOpaque:
		s.unsupported(pos, "%s", x.why)
	default:
		s.unsupported(pos, "sending %s as a value of type %s", describe(x), elem)
	}
	var es []model.Expr
	for _, c := range cells {
		es = append(es, s.cellExpr(c.typ, cellOf(x, c), pos))
	}
	return es
}

// cellValue is the value of cell c of a received element, held in e.
func (s *system) cellValue(t types.Type, e model.Expr) value {
	switch {
	case isPtrCell(t):
		return s.refVal(e, t)
	case isFuncCell(t):
		return s.funcFromID(t, e)
	case isChanCell(t):
		return value{kind: vChanRef, e: e, typ: t, byID: true}
	case isMap(t):
		return value{kind: vMapRef, e: e, typ: t}
	}
	return intVal(e)
}

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
		// A capacity a goroutine loads from a field or variable that only
		// the set-up and package initialisation write (ants'
		// workerChanCap): another round reads it as they left it.
		s.requestReadOnly(in.Size)
		s.unsupported(in.Pos(), "a channel whose capacity the setup cannot compute")
	}
	if size < 0 {
		s.fail(in.Pos(), "the setup of system %s panics: makechan: size out of range", s.name)
	}
	if size > maxChanCap {
		s.unsupported(in.Pos(), "a channel of capacity %d (at most %d are modelled)", size, maxChanCap)
	}
	key := s.nextChanKey(in.Pos())
	if ch, ok := s.preChans[key]; ok {
		// Made ahead for a load of a cell a goroutine stores it in.
		delete(s.preChans, key)
		return value{kind: vChan, ch: ch}
	}
	elem := in.Type().Underlying().(*types.Chan).Elem()
	cells := s.elemCells(elem, in.Pos())
	ch := &channel{name: "ch", anon: true, cap: int(size), elem: elem, cells: cells, pos: in.Pos(), closed: -1, key: key}
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
	s.setupSendOn(s.chanOf(v, in.Pos()), s.get(fr, in.X), in.Pos())
}

// setupSendOn sends x on ch in the setup.
func (s *system) setupSendOn(ch *channel, x value, pos token.Pos) {
	s.setupChanOp(ch, len(ch.initBuf) >= ch.cap && !ch.initClosed, pos, "a send on "+ch.name)
	if ch.initClosed {
		s.fail(pos, "the setup of system %s panics: send on closed channel", s.name)
	}
	if len(ch.initBuf) >= ch.cap {
		s.unsupported(pos, "a send that would block before the last go statement, where the system function runs alone as the set-up (the channel is full or unbuffered)")
	}
	var vals []int64
	if len(ch.cells) > 0 {
		es := s.elemExprs(ch.elem, x, pos)
		for _, e := range es {
			c, ok := e.(model.Const)
			if !ok {
				s.unsupported(pos, "a send in the setup of a value it cannot compute")
			}
			vals = append(vals, c.Value)
		}
		s.noteSent(&chanCase{ch: ch, vals: es}, ch.elem, x, false)
	}
	ch.initBuf = append(ch.initBuf, vals)
}

// setupChanOp handles what, a send, receive or close of the set-up on ch,
// or a select that would block it (ch nil), once the set-up has started a
// goroutine: when the channel existed then (the goroutine may wait on it,
// or see it before the operation) or the operation would block the set-up,
// the set-up ends before the goroutine started (splitSetup). A channel
// made after the first go statement is the set-up's alone until it stores
// it or passes it to a goroutine.
func (s *system) setupChanOp(ch *channel, blocks bool, pos token.Pos, what string) {
	if s.goStarted && (blocks || ch != nil && slices.Index(s.chans, ch) < s.spawnChans) {
		s.splitSetup(pos, what)
	}
}

// setupRecv executes a receive of the setup.
func (s *system) setupRecv(fr *frame, in *ssa.UnOp) {
	v, ok := s.setupRecvFrom(s.chanOf(s.get(fr, in.X), in.Pos()), in.Pos())
	if in.CommaOk {
		fr.vals[in] = value{kind: vTuple, tup: []value{v, constVal(ok)}}
	} else {
		fr.vals[in] = v
	}
}

// setupRecvFrom receives from ch in the setup: the value, and whether it
// was sent (rather than the zero value of a closed channel).
func (s *system) setupRecvFrom(ch *channel, pos token.Pos) (value, int64) {
	s.setupChanOp(ch, len(ch.initBuf) == 0 && !ch.initClosed, pos, "a receive from "+ch.name)
	vals, ok := make([]int64, len(ch.cells)), int64(0)
	switch {
	case len(ch.initBuf) > 0:
		copy(vals, ch.initBuf[0])
		ok = 1
		ch.initBuf = ch.initBuf[1:]
	case !ch.initClosed:
		s.unsupported(pos, "a receive that would block before the last go statement, where the system function runs alone as the set-up")
	}
	cell := func(t types.Type, val int64) value {
		switch {
		case isPtrCell(t):
			return s.refVal(model.C(val), t)
		case isFuncCell(t):
			if val == 0 {
				return value{kind: vNil}
			}
			return s.funcTableOf(t).funcs[val-1]
		case isMap(t):
			return s.mapOfID(val)
		}
		return constVal(val)
	}
	v := constVal(0)
	switch {
	case isAggregate(ch.elem):
		agg := map[string]value{}
		for i, c := range ch.cells {
			agg[c.key] = cell(c.typ, vals[i])
		}
		v = value{kind: vAgg, agg: agg}
	case len(ch.cells) > 0:
		v = cell(ch.elem, vals[0])
	}
	return v, ok
}

// setupSelect executes a select of the setup, which runs alone: a case is
// ready when its channel is closed, or buffered with an element to
// receive or room to send; an unbuffered channel has no partner yet, and a
// nil one never does. The one ready case runs, or the default when none
// is; a select that would block, or whose ready cases are several (the
// run time picks one) or a timer's (it may or may not have fired), is
// refused.
func (s *system) setupSelect(fr *frame, in *ssa.Select) {
	ready := -1
	var chans []*channel
	for i, st := range in.States {
		v := s.get(fr, st.Chan)
		var ch *channel
		switch v.kind {
		case vNil:
		case vTimer:
			s.unsupported(st.Pos, "a select in the set-up on a timer's channel (it may or may not have fired)")
		default:
			ch = s.chanOf(v, st.Pos)
		}
		chans = append(chans, ch)
		if ch == nil {
			continue
		}
		// A goroutine may make a case ready, or take one's element, at any
		// moment.
		s.setupChanOp(ch, false, st.Pos, "a select on "+ch.name)
		ok := ch.initClosed || st.Dir == types.RecvOnly && len(ch.initBuf) > 0 ||
			st.Dir == types.SendOnly && len(ch.initBuf) < ch.cap
		if !ok {
			continue
		}
		if ready >= 0 {
			s.unsupported(in.Pos(), "a select in the set-up with several cases ready (the run time picks one)")
		}
		ready = i
	}
	if ready < 0 && in.Blocking {
		s.setupChanOp(nil, true, in.Pos(), "a select")
		s.unsupported(in.Pos(), "a select that would block before the last go statement, where the system function runs alone as the set-up")
	}
	tup := []value{constVal(int64(ready)), constVal(0)}
	for i, st := range in.States {
		if st.Dir != types.RecvOnly {
			if i == ready {
				s.setupSendOn(chans[i], s.get(fr, st.Send), st.Pos)
			}
			continue
		}
		v := s.zero(st.Chan.Type().Underlying().(*types.Chan).Elem())
		if i == ready {
			var ok int64
			v, ok = s.setupRecvFrom(chans[i], st.Pos)
			tup[1] = constVal(ok)
		}
		tup = append(tup, v)
	}
	fr.vals[in] = value{kind: vTuple, tup: tup}
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
	pick model.Expr
	alts []*channel
	// byID is set, instead of alts, for a channel received from a
	// channel: pick is the channel's identity (chanID), and the
	// alternatives are every channel of the system of type byID.
	byID   types.Type
	slot   int     // the slot of the case's offer (lowerChannels)
	always bool    // a timer's channel: ready at a moment that may be any
	tick   *ticker // with always: the ticker, ready until stopped
	// timerAlts are, with pick, the alternatives when they are timers'
	// channels (a vChanRef's timers): splitSites makes each an always
	// case.
	timerAlts []value
	send      bool
	// vals are, for a send, the expressions of the element's cells (one
	// 0 for an element with none), in the order of the channel's cells.
	vals []model.Expr
	// valRegs are, for a receive, the registers of the element's cells,
	// or nil when the value is not used.
	valRegs []int
	okReg   int // receive: the register of ok, or -1
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
	cancel   *ctxNode // set for a cancellation: ch is nil
	expire   bool     // the cancellation is a deadline's
	// pick and byID are set for a close of a channel received from a
	// channel (chanCase.byID); splitCloses resolves them into ch.
	pick   model.Expr
	byID   types.Type
	also   []model.Op // with cancel: steps of the same locked block before it
	pos    token.Pos
	origin Origin
	// landing, when not -1, is where a close of a closed channel goes: a
	// panic a deferred call may recover (recover.go).
	landing int
}

// siteOrigin is the origin of a channel operation lowered once every
// process is known, from node: one in the model's own source (go
// close(ch)'s shim) is shown at the user's call that runs it.
func (p *proc) siteOrigin(node ast.Node) Origin {
	o := Origin{Node: node}
	if node != nil && p.modelCall.IsValid() && p.s.x.inModelSource(node.Pos()) {
		o.At = p.modelCall
	}
	return o
}

// chanSiteAt starts a site of process p at cur and returns it; the caller
// adds the cases.
func (p *proc) chanSiteAt(cur int, pos token.Pos, node ast.Node) *chanSite {
	site := &chanSite{p: p, from: cur, join: p.newLoc(pos), idxReg: -1, pos: pos, panicAt: -1,
		origin: p.siteOrigin(node)}
	p.s.chanSites = append(p.s.chanSites, site)
	return site
}

// recvCase returns the case of a receive from v, with registers for what it
// needs of the value and ok.
func (p *proc) recvCase(v value, elem types.Type, wantVal, wantOk bool, name string, pos token.Pos) chanCase {
	c := chanCase{okReg: -1}
	if v.kind == vTimer {
		c.always, c.tick = true, v.tick
		if wantOk {
			c.okReg = p.newReg(name+"_ok", types.Typ[types.Bool])
		}
		return c
	}
	p.s.setCaseChan(&c, v, pos)
	switch {
	case !wantVal, c.timerAlts != nil:
		// What a timer's channel delivers, the time it fired, is a
		// value the model does not compute (recvValue).
	case c.ch != nil && c.ch.timer:
		if !isZeroSize(elem) {
			c.valRegs = []int{p.newReg(name, elem)}
		}
	default:
		for _, cl := range p.s.elemCells(elem, pos) {
			c.valRegs = append(c.valRegs, p.newReg(name+cl.name, cl.typ))
		}
	}
	if wantOk {
		c.okReg = p.newReg(name+"_ok", types.Typ[types.Bool])
	}
	return c
}

// sendCase returns the case of a send of x on v; nonNil says a branch
// tested x not nil where it is sent.
func (p *proc) sendCase(v, x value, elem types.Type, pos token.Pos, nonNil bool) chanCase {
	c := chanCase{send: true, okReg: -1}
	p.s.setCaseChan(&c, v, pos)
	c.vals = p.s.elemExprs(elem, x, pos)
	p.s.noteSent(&c, elem, x, nonNil)
	return c
}

// recvValue is the value a receive case leaves in its register.
func (p *proc) recvValue(c chanCase, elem types.Type) value {
	switch {
	case c.always, c.timerAlts != nil, c.ch != nil && c.ch.timer:
		return opaque("the time a timer fired")
	case c.valRegs == nil:
		if isAggregate(elem) && !isZeroSize(elem) {
			return value{kind: vAgg, agg: map[string]value{}}
		}
		return constVal(0)
	case isAggregate(elem):
		agg := map[string]value{}
		cells, _ := cellsOf(elem)
		for i, cl := range cells {
			agg[cl.key] = p.recvCell(&c, elem, i, cl.typ)
		}
		return value{kind: vAgg, agg: agg}
	}
	return p.recvCell(&c, elem, 0, elem)
}

// recvCell is the value of cell i, of type t, of what receive case c
// gets: a pointer names what the channel's sends sent (chanflow.go).
func (p *proc) recvCell(c *chanCase, elem types.Type, i int, t types.Type) value {
	v := p.s.cellValue(t, model.R(c.valRegs[i]))
	if isPtrCell(t) && v.kind == vRef {
		v.objs, v.guessed = p.s.recvObjs(c, elem, i, t)
	}
	return v
}

// chanNode is the source of the channel operation at pos: the statement
// or expression, for messages.
func (s *system) chanNode(fr *frame, v ssa.Value, pos token.Pos) ast.Node {
	if v != nil {
		if x, ok := s.x.debugOf(fr.fn).expr[v]; ok {
			return x
		}
	}
	return s.stmtNode(pos)
}

// stmtNode returns the statement at pos, or nil (an untyped nil, not a
// nil ast.Stmt in an ast.Node) where there is none.
func (s *system) stmtNode(pos token.Pos) ast.Node {
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
	site.cases = []chanCase{p.sendCase(s.get(fr, in.Chan), s.get(fr, in.X), elem, in.Pos(), nonNilAt(in.X, in))}
	site.panicAt = p.landing("panic: send on closed channel", in.Pos())
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
	if len(c.valRegs) == 1 && !isAggregate(elem) {
		p.holds(c.valRegs[0], fr, in)
	}
	if in.CommaOk {
		ok := constVal(0)
		if c.okReg >= 0 {
			ok = intVal(model.R(c.okReg))
		}
		if val.kind == vRef && !isAggregate(elem) && usedOnlyIfOK(in) {
			// Every use got what a send sent (a closed channel's nil
			// ends the range first).
			val.noNil = s.noNilSent(s.caseKeys(&c, elem, 0, false))
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
			c = p.sendCase(v, s.get(fr, st.Send), elem, st.Pos, nonNilAt(st.Send, in))
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
		if c.send && site.panicAt < 0 {
			site.panicAt = p.landing("panic: send on closed channel", in.Pos())
		}
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
		p.panicAt(panicSite{loc: cur, name: "panic: close of nil channel", pos: in.Pos()})
		return -1
	}
	if v.kind == vChanRef {
		return p.closeChanRef(v, in.Pos(), node, cur)
	}
	c := &chanClose{p: p, from: cur, to: p.newLoc(in.Pos()), ch: s.chanOf(v, in.Pos()), pos: in.Pos(), origin: p.siteOrigin(node),
		landing: p.landing("panic: close of closed channel", in.Pos())}
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
	s.chanLens = append(s.chanLens, chanLen{p: p, from: cur, to: next, ch: ch, reg: r, pos: in.Pos(), origin: p.siteOrigin(s.chanNode(fr, in, in.Pos()))})
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
	sel, ok int
	// vals are the cells of the value handed over: as many as the cells
	// of the widest element the process receives on an unbuffered
	// channel, and at least one.
	vals []int
}

// lowerChannels makes the channels' variables and the transitions of every
// channel site, now that every process that may wait on a channel is
// known.
func (s *system) lowerChannels() {
	s.addDeadlineProcs()
	s.addClock()
	seen := map[string]bool{}
	for _, t := range s.tickers {
		// Timers a function called twice made share a name: t, t#2.
		t.name = uniqueName(seen, t.name)
		t.stopped = s.newChanVar(t.name+".stopped", types.Typ[types.Bool], b2i(t.initStopped), t.pos)
	}
	for _, ts := range s.tickStops {
		ts.p.emitTo(ts.from, ts.ops(), ts.to, ts.pos, ts.origin)
	}
	defer s.emitFires()
	if len(s.chanSites) == 0 && len(s.chanCloses) == 0 && len(s.chanLens) == 0 && len(s.ctxErrSites) == 0 {
		return
	}
	s.splitSites()
	s.splitCloses()
	boolT, intT := types.Typ[types.Bool], types.Typ[types.Int]
	s.uniqueChanNames()
	for _, ch := range s.chans {
		ch.closed = s.newChanVar(ch.name+".closed", boolT, b2i(ch.initClosed), ch.pos)
		if ch.cap > 0 {
			for i := range ch.cap {
				full, vals := int64(0), []int64(nil)
				if i < len(ch.initBuf) {
					full, vals = 1, ch.initBuf[i]
				}
				ch.full = append(ch.full, s.newChanVar(fmt.Sprintf("%s.full[%d]", ch.name, i), boolT, full, ch.pos))
				var buf []int
				for j, c := range ch.cells {
					val := int64(0)
					if j < len(vals) {
						val = vals[j]
					}
					buf = append(buf, s.newChanVar(fmt.Sprintf("%s.buf[%d]%s", ch.name, i, c.name), c.typ, val, ch.pos))
				}
				ch.buf = append(ch.buf, buf)
			}
			ch.sendx = s.newChanVar(ch.name+".sendx", intT, int64(len(ch.initBuf)%ch.cap), ch.pos)
			ch.recvx = s.newChanVar(ch.name+".recvx", intT, 0, ch.pos)
		}
		ch.recvq, ch.sendq, ch.sendv = map[int][]int{}, map[int][]int{}, map[int][][]int{}
	}
	for _, d := range s.deadlines {
		for _, n := range d.nodes() {
			if n.expired < 0 {
				n.expired = s.newChanVar(n.ch.name+".expired", boolT, b2i(n.ch.initClosed && n.pastInSetup()), n.pos)
			}
		}
	}
	for _, e := range s.ctxErrSites {
		// Go's Err loads the error atomically (a MOV: no barrier), and
		// only once it is set waits on Done, under the channel's lock.
		read := e.p.emit(e.from, model.AtomicReadOp(e.ctx.ch.closed, e.closedReg), e.pos, e.origin)
		live := e.p.emit(read, model.GuardOp(model.Bin(model.OpEq, model.R(e.closedReg), model.C(0))), e.pos, Origin{})
		done := []model.Op{model.ReadEqOp(e.ctx.ch.closed, model.C(1))}
		if e.expReg >= 0 {
			live = e.p.emit(live, model.AssignOp(e.expReg, model.C(0)), e.pos, Origin{})
			if e.ctx.expired >= 0 {
				done = append(done, model.ReadOp(e.ctx.expired, e.expReg))
			} else {
				done = append(done, model.AssignOp(e.expReg, model.C(0))) // no deadline after all
			}
		}
		e.p.emitTo(live, model.NopOp(), e.to, e.pos, Origin{})
		cancelled := e.p.emit(read, model.GuardOp(model.Bin(model.OpNe, model.R(e.closedReg), model.C(0))), e.pos, Origin{})
		e.p.emitTo(cancelled, model.LockedOp(done...), e.to, e.pos, e.origin)
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
					sel:  s.newChanVar(name+".chansel", intT, 0, site.pos),
					vals: []int{s.newChanVar(name+".chanval", intT, 0, site.pos)},
					ok:   s.newChanVar(name+".chanok", boolT, 0, site.pos),
				}
			}
			if pc := pcs[q]; !c.send {
				for j := len(pc.vals); j < len(c.ch.cells); j++ {
					pc.vals = append(pc.vals, s.newChanVar(fmt.Sprintf("%s.chanval[%d]", s.prog.Procs[q].Name, j), intT, 0, site.pos))
				}
			}
			who := s.prog.Procs[q].Name
			if c.slot > 0 {
				who = fmt.Sprintf("%s/%d", who, c.slot+1)
			}
			if c.send {
				for len(c.ch.sendq[q]) <= c.slot {
					c.ch.sendq[q] = append(c.ch.sendq[q], s.newChanVar(fmt.Sprintf("%s.sendq[%s]", c.ch.name, who), intT, 0, site.pos))
					var v []int
					for _, cl := range c.ch.offerCells() {
						v = append(v, s.newChanVar(fmt.Sprintf("%s.sendv[%s]%s", c.ch.name, who, cl.name), cl.typ, 0, site.pos))
					}
					c.ch.sendv[q] = append(c.ch.sendv[q], v)
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
				ops = append(ops, model.WriteOp(x, model.C(0)))
				for _, v := range ch.sendv[q][j] {
					ops = append(ops, model.WriteOp(v, model.C(0)))
				}
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
		panicLoc := c.landing
		if panicLoc < 0 {
			panicLoc = p.newLoc(c.pos)
			p.panics = append(p.panics, panicSite{loc: panicLoc, name: "panic: close of closed channel", pos: c.pos})
		}
		p.emitTo(c.from, model.LockedOp(model.ReadEqOp(x, model.C(1))), panicLoc, c.pos, c.origin)
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
		ch.name = uniqueName(seen, ch.name)
	}
}

// uniqueName returns name, or name#2, name#3, … when seen has it, and
// adds what it returns to seen.
func uniqueName(seen map[string]bool, name string) string {
	out := name
	for n := 2; seen[out]; n++ {
		out = fmt.Sprintf("%s#%d", name, n)
	}
	seen[out] = true
	return out
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
	// result assigns a receive's registers the cells vals (zero when
	// vals is short: a closed channel's zero value) and ok.
	result := func(c chanCase, vals []model.Expr, ok model.Expr) []model.Op {
		var ops []model.Op
		for i, r := range c.valRegs {
			var val model.Expr = model.C(0)
			if i < len(vals) {
				val = vals[i]
			}
			ops = append(ops, model.AssignOp(r, val))
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
			emit(loc, append(append(body, result(c, nil, model.C(1))...), setIdx(k)...), site.join)
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
					for j, x := range ch.buf[i] {
						body = append(body, model.WriteOp(x, c.vals[j]))
					}
					body = append(body, model.WriteOp(ch.full[i], model.C(1)), model.WriteOp(ch.sendx, next))
					emit(loc, append(body, setIdx(k)...), site.join)
					continue
				}
				body := pre(noSync(guard(eq(model.V(ch.recvx), int64(i))))...)
				body = append(body, model.ReadEqOp(ch.full[i], model.C(1)))
				var vals []model.Expr
				for _, x := range ch.buf[i] {
					vals = append(vals, model.V(x))
				}
				body = append(body, result(c, vals, model.C(1))...)
				for _, x := range ch.buf[i] {
					body = append(body, model.WriteOp(x, model.C(0)))
				}
				body = append(body, model.WriteOp(ch.full[i], model.C(0)), model.WriteOp(ch.recvx, next))
				emit(loc, append(body, setIdx(k)...), site.join)
				// Closed and empty.
				body = pre(noSync(guard(and(eq(model.V(ch.recvx), int64(i)), eq(model.V(ch.full[i]), 0))))...)
				body = append(body, model.ReadEqOp(ch.closed, model.C(1)))
				body = append(body, result(c, nil, model.C(0))...)
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
					body = append(body, guard(model.Bin(model.OpNe, model.V(x), model.C(0))))
					for j, v := range c.vals {
						body = append(body, model.WriteOp(pc.vals[j], v))
					}
					body = append(body, model.WriteOp(pc.ok, model.C(1)), model.WriteOp(pc.sel, model.V(x)))
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
				var vals []model.Expr
				for _, v := range ch.sendv[g][j] {
					vals = append(vals, model.V(v))
				}
				body = append(body, result(c, vals, model.C(1))...)
				body = append(body, model.WriteOp(pc.ok, model.C(1)), model.WriteOp(pc.sel, model.V(x)))
				body = append(body, withdraw(g)...)
				emit(loc, append(body, setIdx(k)...), site.join)
			}
		}
		// Closed: the zero value, at once.
		body := pre(model.ReadEqOp(ch.closed, model.C(1)))
		body = append(body, result(c, nil, model.C(0))...)
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
			publish = append(publish, model.WriteOp(c.ch.sendq[q][c.slot], model.C(int64(k+1))))
			for j, v := range c.ch.sendv[q][c.slot] {
				publish = append(publish, model.WriteOp(v, c.vals[j]))
			}
		} else {
			publish = append(publish, model.WriteOp(c.ch.recvq[q][c.slot], model.C(int64(k+1))))
		}
	}
	emit(site.from, publish, wait)
	for k, c := range site.cases {
		if c.always {
			// The timer fires while the offers wait, unless a partner
			// has taken one already (it is committed: Go's select
			// returns its case).
			immediate(wait, k, c, append(noSync(guard(eq(model.V(pc.sel), 0))), withdraw(q)...))
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
		reset := []model.Op{model.WriteOp(pc.sel, model.C(0))}
		for _, v := range pc.vals {
			reset = append(reset, model.WriteOp(v, model.C(0)))
		}
		reset = append(reset, model.WriteOp(pc.ok, model.C(0)))
		if c.send {
			emit(wait, append(append([]model.Op{guard(sel)}, reset...), setIdx(k)...), site.join)
		} else {
			body := []model.Op{guard(sel)}
			var vals []model.Expr
			for _, v := range pc.vals {
				vals = append(vals, model.V(v))
			}
			body = append(body, result(c, vals, model.V(pc.ok))...)
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
			body = append(body, result(c, nil, model.C(0))...)
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
