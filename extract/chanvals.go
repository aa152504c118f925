package extract

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/fencecheck/fencecheck/model"
)

// Channel values chosen at run time.
//
// A channel variable that a goroutine reassigns (the merge idiom sets an
// input to nil once it is closed, so that its select case never proceeds
// again) is a phi of channel values. Its value is a vChanRef: a register
// holding the index of one of the channels the phi may bring (alts[e-1]),
// or 0 for nil, as a function value chosen at run time is. The
// alternatives are the channels the phi's edges bring when its block is
// entered, with those of the phis these edges name; an edge lowered later
// (a loop's back edge) that brings another channel is refused.
//
// An operation on a vChanRef is split over the alternatives under guards on
// the register: a channel site becomes one site for each combination of
// the alternatives of its cases (splitSites), in which a nil alternative
// is a case that never proceeds; a close becomes one close for each
// alternative, and a panic for nil. Comparisons compare the channels'
// identities.

// maxChanSplits bounds the sites a select on channels chosen at run time
// is split into.
const maxChanSplits = 32

// chanPhi makes the value of a join of channel values, reporting false
// when some value it brings is not a channel the setup made or nil. known
// are the values of the edges lowered so far.
func (p *proc) chanPhi(fr *frame, phi *ssa.Phi, st *blockState, known []value) bool {
	if _, ok := phi.Type().Underlying().(*types.Chan); !ok {
		return false
	}
	var alts []value
	var add func(v value) bool
	add = func(v value) bool {
		switch v.kind {
		case vNil:
			return true
		case vChan:
			if v.ch.timer {
				return false
			}
			if !slices.ContainsFunc(alts, func(a value) bool { return a.kind == vChan && a.ch == v.ch }) {
				alts = append(alts, v)
			}
			return true
		case vTimer:
			// A timer's channel: one alternative for each ticker, and one
			// for the timers, which fire alike at any moment.
			if !slices.ContainsFunc(alts, func(a value) bool { return a.kind == vTimer && a.tick == v.tick }) {
				alts = append(alts, v)
			}
			return true
		case vChanRef:
			if v.byID {
				p.s.unsupported(phi.Pos(), "a channel variable that may hold a channel received from a channel")
			}
			for _, a := range v.alts {
				add(a)
			}
			return true
		}
		return false
	}
	for _, v := range known {
		if !add(v) {
			return false
		}
	}
	for _, v := range p.s.hintedPhiTimers(phi) {
		add(v)
	}
	// The edges lowered later may bring what the phis they name hold.
	seen := map[*ssa.Phi]bool{phi: true}
	var walk func(*ssa.Phi)
	walk = func(ph *ssa.Phi) {
		for _, e := range ph.Edges {
			if v, ok := fr.vals[e]; ok {
				add(v)
				continue
			}
			if e, ok := e.(*ssa.Phi); ok && !seen[e] {
				seen[e] = true
				walk(e)
			}
		}
	}
	walk(phi)
	if len(alts) == 0 {
		return false
	}
	if len(alts) > maxCases {
		p.s.unsupported(phi.Pos(), "a channel variable that may hold one of more than %d channels", maxCases)
	}
	timers := slices.ContainsFunc(alts, func(a value) bool { return a.kind == vTimer })
	if timers && slices.ContainsFunc(alts, func(a value) bool { return a.kind != vTimer }) {
		p.s.unsupported(phi.Pos(), "a channel variable that may hold a timer's channel or another channel")
	}
	r := p.phiIndexReg(fr, phi, st, len(alts))
	fr.vals[phi] = value{kind: vChanRef, e: model.R(r), alts: alts, timers: timers}
	return true
}

// refuseTimerRef refuses what pos does with v, when v may be a timer's
// channel chosen at run time: such a variable is only received from.
func (s *system) refuseTimerRef(v value, pos token.Pos, what string) {
	if v.kind == vChanRef && v.timers {
		s.unsupported(pos, "%s a variable that may hold a timer's channel (only receiving from it is modelled)", what)
	}
}

// chanIndex returns the index of channel value v among the alternatives of
// cv, a vChanRef: what an edge into cv's phi assigns to its register.
func (s *system) chanIndex(cv, v value, pos token.Pos) model.Expr {
	index := func(ch *channel) int64 {
		for i, a := range cv.alts {
			if a.kind == vChan && a.ch == ch {
				return int64(i + 1)
			}
		}
		s.unsupported(pos, "a channel variable set to the channel %s, not known where its value is chosen at run time", ch.name)
		return 0
	}
	timerIndex := func(t *ticker) int64 {
		for i, a := range cv.alts {
			if a.kind == vTimer && a.tick == t {
				return int64(i + 1)
			}
		}
		s.unsupported(pos, "a channel variable set to a timer's channel, not known where its value is chosen at run time")
		return 0
	}
	switch v.kind {
	case vNil:
		return model.C(0)
	case vChan:
		return model.C(index(v.ch))
	case vTimer:
		return model.C(timerIndex(v.tick))
	case vChanRef:
		if v.byID {
			s.unsupported(pos, "a channel variable set to a channel received from a channel")
		}
		same := len(v.alts) == len(cv.alts)
		var e model.Expr = model.C(0)
		for i, a := range v.alts {
			var k int64
			if a.kind == vTimer {
				k = timerIndex(a.tick)
			} else {
				k = index(a.ch)
			}
			same = same && k == int64(i+1)
			e = model.Bin(model.OpAdd, e, model.Bin(model.OpMul, model.Bin(model.OpEq, v.e, model.C(int64(i+1))), model.C(k)))
		}
		if same {
			return v.e
		}
		return e
	}
	s.unsupported(pos, "a channel variable set to %s", describe(v))
	return nil
}

// chanID is the identity of channel value v as an expression: 1 + the
// channel's index among the system's channels, 0 for nil.
func (s *system) chanID(v value, pos token.Pos) model.Expr {
	id := func(ch *channel) int64 { return int64(slices.Index(s.chans, ch) + 1) }
	switch v.kind {
	case vNil:
		return model.C(0)
	case vChan:
		return model.C(id(v.ch))
	case vChanRef:
		if v.byID {
			return v.e
		}
		s.refuseTimerRef(v, pos, "comparing, storing or passing")
		var e model.Expr = model.C(0)
		for i, a := range v.alts {
			e = model.Bin(model.OpAdd, e, model.Bin(model.OpMul, model.Bin(model.OpEq, v.e, model.C(int64(i+1))), model.C(id(a.ch))))
		}
		return e
	}
	s.unsupported(pos, "%s where a channel is expected", describe(v))
	return nil
}

// chanCompare lowers x == y and x != y on channel values, one of them
// chosen at run time or both channels; ok is false for other operands.
func (s *system) chanCompare(x, y value, in *ssa.BinOp) (v value, ok bool) {
	if x.kind != vChanRef && y.kind != vChanRef && (x.kind != vChan || y.kind != vChan) {
		return value{}, false
	}
	op := model.OpEq
	switch in.Op {
	case token.EQL:
	case token.NEQ:
		op = model.OpNe
	default:
		s.unsupported(in.Pos(), "the operator %s on channels", in.Op)
	}
	if x.kind == vChanRef && y.kind == vNil {
		return intVal(model.Bin(op, x.e, model.C(0))), true
	}
	if y.kind == vChanRef && x.kind == vNil {
		return intVal(model.Bin(op, y.e, model.C(0))), true
	}
	ex, ey := s.chanID(x, in.Pos()), s.chanID(y, in.Pos())
	if cx, okx := ex.(model.Const); okx {
		if cy, oky := ey.(model.Const); oky {
			return constVal(b2i((cx.Value == cy.Value) == (op == model.OpEq))), true
		}
	}
	return intVal(model.Bin(op, ex, ey)), true
}

// setCaseChan sets the channel of case c to v's.
func (s *system) setCaseChan(c *chanCase, v value, pos token.Pos) {
	switch v.kind {
	case vNil:
	case vChanRef:
		c.pick = v.e
		if v.byID {
			c.byID = v.typ
			break
		}
		for _, a := range v.alts {
			c.alts = append(c.alts, a.ch)
		}
		if v.timers {
			c.timerAlts = v.alts
		}
	default:
		c.ch = s.chanOf(v, pos)
	}
}

// splitSites replaces each site with a case on a channel chosen at run
// time by one site for each combination of the cases' alternatives,
// reached from the site's location under the combination's guard.
func (s *system) splitSites() {
	var out []*chanSite
	for _, site := range s.chanSites {
		var refs []int // the cases on channels chosen at run time
		n := 1
		for k := range site.cases {
			c := &site.cases[k]
			if c.byID != nil {
				// Received from a channel: any channel of its type, by
				// identity.
				c.alts = s.chansOfType(c.byID)
				ids := make([]model.Expr, len(c.alts))
				for i, ch := range c.alts {
					ids[i] = model.C(int64(slices.Index(s.chans, ch) + 1))
				}
				c.pick = pickByID(c.pick, ids)
				c.byID = nil
			}
			if c.pick != nil {
				refs = append(refs, k)
				n *= len(c.alts) + 1
			}
		}
		if len(refs) == 0 {
			out = append(out, site)
			continue
		}
		if n > maxChanSplits {
			s.unsupported(site.pos, "a select on channels chosen at run time with more than %d combinations of them", maxChanSplits)
		}
		for comb := range n {
			var cond model.Expr
			cases := slices.Clone(site.cases)
			rest := comb
			for _, k := range refs {
				c := &cases[k]
				i := rest % (len(c.alts) + 1)
				rest /= len(c.alts) + 1
				cond = andAll(cond, eq(c.pick, int64(i)))
				switch {
				case i > 0 && c.timerAlts != nil && c.timerAlts[i-1].kind == vTimer:
					// A timer's channel: ready at any moment. (The others
					// of a mix are channels.)
					c.always, c.tick = true, c.timerAlts[i-1].tick
				case i > 0:
					c.ch = c.alts[i-1]
				}
				c.pick, c.alts, c.timerAlts = nil, nil, nil
			}
			sub := *site
			sub.from = site.p.emit(site.from, model.GuardOp(cond), site.pos, site.origin)
			sub.cases = cases
			sub.panicAt = -1
			out = append(out, &sub)
		}
	}
	s.chanSites = out
}

// chansOfType lists the system's channels whose values have type t (of
// any direction).
func (s *system) chansOfType(t types.Type) []*channel {
	elem := t.Underlying().(*types.Chan).Elem()
	var out []*channel
	for _, ch := range s.chans {
		if types.Identical(ch.elem, elem) && !ch.timer {
			out = append(out, ch)
		}
	}
	return out
}

// pickByID turns a channel identity e into the index among the channels
// of identities ids (0 for nil, and for a channel not among them).
func pickByID(e model.Expr, ids []model.Expr) model.Expr {
	var pick model.Expr = model.C(0)
	for i, id := range ids {
		pick = model.Bin(model.OpAdd, pick, model.Bin(model.OpMul, model.Bin(model.OpEq, e, id), model.C(int64(i+1))))
	}
	return pick
}

// splitCloses replaces each close of a channel received from a channel
// by one close for each channel of its type, under a guard on its
// identity.
func (s *system) splitCloses() {
	var out []*chanClose
	for _, c := range s.chanCloses {
		if c.byID == nil {
			out = append(out, c)
			continue
		}
		for _, ch := range s.chansOfType(c.byID) {
			id := int64(slices.Index(s.chans, ch) + 1)
			from := c.p.emit(c.from, model.GuardOp(eq(c.pick, id)), c.pos, c.origin)
			out = append(out, &chanClose{p: c.p, from: from, to: c.to, ch: ch, pos: c.pos, origin: c.origin, landing: c.landing})
		}
	}
	s.chanCloses = out
}

// closeChanRef lowers close(ch) of a channel chosen at run time: one
// close for each alternative, and a panic for nil.
func (p *proc) closeChanRef(v value, pos token.Pos, node ast.Node, cur int) int {
	s := p.s
	if v.byID {
		isNil := p.emit(cur, model.GuardOp(eq(v.e, 0)), pos, Origin{Node: node})
		p.panicAt(panicSite{loc: isNil, name: "panic: close of nil channel", pos: pos})
		c := &chanClose{p: p, from: cur, to: p.newLoc(pos), pick: v.e, byID: v.typ, pos: pos, origin: Origin{Node: node},
			landing: p.landing("panic: close of closed channel", pos)}
		s.chanCloses = append(s.chanCloses, c)
		return c.to
	}
	isNil := p.emit(cur, model.GuardOp(eq(v.e, 0)), pos, Origin{Node: node})
	p.panicAt(panicSite{loc: isNil, name: "panic: close of nil channel", pos: pos})
	to := p.newLoc(pos)
	landing := p.landing("panic: close of closed channel", pos)
	s.refuseTimerRef(v, pos, "closing")
	for i, a := range v.alts {
		from := p.emit(cur, model.GuardOp(eq(v.e, int64(i+1))), pos, Origin{Node: node})
		s.chanCloses = append(s.chanCloses, &chanClose{p: p, from: from, to: to, ch: a.ch, pos: pos, origin: Origin{Node: node}, landing: landing})
	}
	return to
}

// queueProcs lists the processes of an unbuffered channel's queue in
// order.
func queueProcs(q map[int][]int) []int {
	var ps []int
	for g := range q {
		ps = append(ps, g)
	}
	slices.Sort(ps)
	return ps
}

// Channel variables set to nil.
//
// A channel variable that goroutines share is a cell of the setup's
// memory; goroutines may not store other channels in it, but a variable
// that the code only ever sets to nil (the merge idiom in a closure that
// captures its inputs) holds either the channel the setup left in it or
// nil: it is a model variable, 1 for the channel and 0 for nil, and a load
// of it is a vChanRef over that one channel.

// nilledVars returns the channel variables of the package whose every
// assignment (other than their declaration) assigns nil, and whose address
// is never taken.
func (s *system) nilledVars() map[*types.Var]bool {
	if s.nilled != nil {
		return s.nilled
	}
	info := s.x.info
	nilled, bad := map[*types.Var]bool{}, map[*types.Var]bool{}
	chanVar := func(e ast.Expr) *types.Var {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return nil
		}
		v, ok := info.Uses[id].(*types.Var)
		if !ok {
			return nil
		}
		if _, isChan := v.Type().Underlying().(*types.Chan); !isChan {
			return nil
		}
		return v
	}
	for _, f := range s.x.files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for i, lhs := range n.Lhs {
					v := chanVar(lhs)
					if v == nil {
						continue
					}
					if len(n.Lhs) == len(n.Rhs) && info.Types[n.Rhs[i]].IsNil() {
						nilled[v] = true
					} else {
						bad[v] = true
					}
				}
			case *ast.RangeStmt:
				for _, e := range []ast.Expr{n.Key, n.Value} {
					if v := chanVar(e); v != nil && n.Tok == token.ASSIGN {
						bad[v] = true
					}
				}
			case *ast.UnaryExpr:
				if v := chanVar(n.X); v != nil && n.Op == token.AND {
					bad[v] = true
				}
			}
			return true
		})
	}
	for v := range bad {
		delete(nilled, v)
	}
	s.nilled = nilled
	return nilled
}

// chanCell returns the model variable of cell ptr, a channel variable
// that the code sets only to nil, and the channel the setup left in it; ok
// is false for other cells.
func (s *system) chanCell(ptr pointer) (x int, ch value, ok bool) {
	if ptr.dynamic() || ptr.obj.owner >= 0 || len(ptr.path) > 0 || ptr.obj.decl == nil || !s.nilledVars()[ptr.obj.decl] {
		return 0, value{}, false
	}
	ch, ok = s.mem[ptr.key()]
	if !ok || ch.kind != vChan || ch.ch.timer {
		return 0, value{}, false
	}
	k := ptr.key()
	if x, ok := s.vars[k]; ok {
		return x, ch, true
	}
	s.display(ptr.obj)
	t, decl := ptr.target()
	s.prog.Vars = append(s.prog.Vars, model.Var{Name: ptr.name(), Init: model.Init{Value: 1}, Pos: s.mpos(ptr.obj.decl.Pos())})
	s.varType = append(s.varType, t)
	s.varDecl = append(s.varDecl, decl)
	s.vars[k] = len(s.prog.Vars) - 1
	return s.vars[k], ch, true
}

// loadChanCell lowers a load of a channel variable that the code sets only
// to nil; ok is false for other cells.
func (p *proc) loadChanCell(fr *frame, in *ssa.UnOp, ptr pointer, pos token.Pos, o Origin, cur int) (next int, ok bool) {
	x, ch, ok := p.s.chanCell(ptr)
	if !ok {
		return cur, false
	}
	if !used(in) {
		return cur, true
	}
	r := p.indexReg(fr, in, 1)
	fr.vals[in] = value{kind: vChanRef, e: model.R(r), alts: []value{ch}}
	return p.emit(cur, model.ReadOp(x, r), pos, o), true
}

// storeChanCell lowers a store of nil in a channel variable that the code
// sets only to nil; ok is false for other cells.
func (p *proc) storeChanCell(ptr pointer, val value, pos token.Pos, o Origin, cur int) (next int, ok bool) {
	x, ch, ok := p.s.chanCell(ptr)
	if !ok {
		return cur, false
	}
	e := p.s.chanIndex(value{kind: vChanRef, alts: []value{ch}}, val, pos)
	return p.emit(cur, model.WriteOp(x, e), pos, o), true
}

// edgePos is the position of the value edge i of phi brings, or of phi.
func edgePos(phi *ssa.Phi, i int) token.Pos {
	if pos := phi.Edges[i].Pos(); pos.IsValid() {
		return pos
	}
	return phi.Pos()
}

// Channels goroutines store in shared memory.
//
// A cell of channel type that a goroutine stores to (a pool's task queue
// that its first Go makes under a sync.Once, once the set-up has ended
// before it) is a variable holding an index: 0 for nil, 1 for the channel
// the set-up left there, if any, then the channels goroutines store, in
// the order a round found them. Channels are known across rounds by their
// make's position and their rank among the channels made there
// (nextChanKey).
// As with pointer cells (pointers.go), a load reads the variable from the
// round after a goroutine's store to the cell on; a store of a channel the
// round's hint did not list asks for another round.

// nextChanKey returns the key of the next channel made at pos: the
// position and the number of channels made there before it.
func (s *system) nextChanKey(pos token.Pos) string {
	if s.chanRank == nil {
		s.chanRank = map[token.Pos]int{}
	}
	k := s.chanRank[pos]
	s.chanRank[pos] = k + 1
	return fmt.Sprintf("%d#%d", pos, k)
}

// A chanInfo is what a round needs to make a channel ahead of its make.
type chanInfo struct {
	key  string
	cap  int
	elem types.Type
	pos  token.Pos
}

// sharedChanAlts returns the channels the cell q may hold, in the order of
// its indices from 1, and the variable of the cell. A channel of the hint
// that no make of this round has made yet is made ahead, and adopted by its
// make (makeChan).
func (s *system) sharedChanAlts(q pointer, pos token.Pos) (int, []value) {
	var alts []value
	if v, ok := s.mem[q.key()]; ok && v.kind == vChan {
		alts = append(alts, v)
	}
	for _, ci := range s.heap.hint.chanCells[q.key()] {
		i := slices.IndexFunc(s.chans, func(c *channel) bool { return c.key == ci.key })
		var ch *channel
		switch {
		case i >= 0:
			ch = s.chans[i]
		case s.preChans[ci.key] != nil:
			ch = s.preChans[ci.key]
		default:
			ch = &channel{name: "ch", anon: true, cap: ci.cap, elem: ci.elem, cells: s.elemCells(ci.elem, ci.pos), pos: ci.pos, closed: -1, key: ci.key}
			s.chans = append(s.chans, ch)
			if s.preChans == nil {
				s.preChans = map[string]*channel{}
			}
			s.preChans[ci.key] = ch
		}
		if !slices.ContainsFunc(alts, func(a value) bool { return a.ch == ch }) {
			alts = append(alts, value{kind: vChan, ch: ch})
		}
	}
	k := "chan:" + q.key()
	if x, ok := s.vars[k]; ok {
		return x, alts
	}
	init := int64(0)
	if len(alts) > 0 && s.mem[q.key()].kind == vChan {
		init = 1
	}
	t, _ := q.target()
	return s.cellVar(k, q, init, t, pos), alts
}

// cellVar returns the model variable, under key k, of the shared cell q
// that holds which of several values it is (t the Go type that names its
// values in findings, init its first), made the first time.
func (s *system) cellVar(k string, q pointer, init int64, t types.Type, pos token.Pos) int {
	if x, ok := s.vars[k]; ok {
		return x
	}
	s.display(q.obj)
	_, decl := q.target()
	if q.obj.decl != nil {
		pos = q.obj.decl.Pos()
	}
	s.prog.Vars = append(s.prog.Vars, model.Var{Name: q.name(), Init: model.Init{Value: init}, Pos: s.mpos(pos)})
	s.varType = append(s.varType, t)
	s.varDecl = append(s.varDecl, decl)
	s.vars[k] = len(s.prog.Vars) - 1
	if s.cellVars == nil {
		s.cellVars = map[string][]int{}
	}
	s.cellVars[q.key()] = append(s.cellVars[q.key()], s.vars[k])
	return s.vars[k]
}

// indexReg makes the register, named after in, that holds an index from 0
// to hi (one of several values, or nil).
func (p *proc) indexReg(fr *frame, in ssa.Value, hi int64) int {
	r := p.newReg(p.regName(fr, in), types.Typ[types.Int])
	p.holds(r, fr, in)
	if p.limits == nil {
		p.limits = map[int][2]int64{}
	}
	p.limits[r] = [2]int64{0, hi}
	return r
}

// storeSharedChan lowers a goroutine's store of the channel val (a
// channel, nil, or one chosen at run time) into the shared cell ptr.
func (p *proc) storeSharedChan(ptr pointer, val value, pos token.Pos, o Origin, cur int) int {
	s := p.s
	var chans []*channel
	switch val.kind {
	case vNil:
	case vChan:
		chans = []*channel{val.ch}
	case vChanRef:
		if val.byID {
			// A channel known by its identity (received from a channel,
			// made in a loop): the cell holds identities.
			return p.access(cur, ptr, pos, o, func(q pointer) []model.Op {
				s.wrotePtrCell(q)
				if s.heap.idCells == nil {
					s.heap.idCells = map[string]bool{}
				}
				s.heap.idCells[q.key()] = true
				if !s.heap.hint.idCells[q.key()] {
					s.heapChange("a goroutine stores a channel known by its identity in memory")
					return []model.Op{model.WriteOp(s.idChanVar(q, pos), model.C(0))}
				}
				return []model.Op{model.WriteOp(s.idChanVar(q, pos), s.chanID(val, pos))}
			})
		}
		s.refuseTimerRef(val, pos, "storing")
		for _, a := range val.alts {
			chans = append(chans, a.ch)
		}
	default:
		s.unsupported(pos, "storing %s as a channel in memory", describe(val))
	}
	return p.access(cur, ptr, pos, o, func(q pointer) []model.Op {
		s.wrotePtrCell(q)
		if s.heap.hint.idCells[q.key()] {
			return []model.Op{model.WriteOp(s.idChanVar(q, pos), s.chanID(val, pos))}
		}
		known := true
		for _, ch := range chans {
			if ch.key == "" {
				s.unsupported(pos, "storing the channel %s in memory from a goroutine", ch.name)
			}
			has := func(list []chanInfo) bool {
				return slices.ContainsFunc(list, func(ci chanInfo) bool { return ci.key == ch.key })
			}
			if s.heap.chanCells == nil {
				s.heap.chanCells = map[string][]chanInfo{}
			}
			if !has(s.heap.chanCells[q.key()]) {
				s.heap.chanCells[q.key()] = append(s.heap.chanCells[q.key()], chanInfo{key: ch.key, cap: ch.cap, elem: ch.elem, pos: ch.pos})
			}
			if !has(s.heap.hint.chanCells[q.key()]) {
				known = false
				s.heapChange("a goroutine stores a channel in memory")
			}
		}
		x, alts := s.sharedChanAlts(q, pos)
		var e model.Expr = model.C(0) // a placeholder: the next round lists the channel
		if known {
			e = s.chanIndex(value{kind: vChanRef, alts: alts}, val, pos)
		}
		return []model.Op{model.WriteOp(x, e)}
	})
}

// loadSharedChan lowers a load of the shared cell ptr of channel type that
// goroutines store to; ok is false when none does (its value is the
// set-up's).
func (p *proc) loadSharedChan(fr *frame, in *ssa.UnOp, ptr pointer, pos token.Pos, o Origin, cur int) (int, bool) {
	s := p.s
	if ptr.dynamic() && ptr.obj.owner < 0 {
		// The cell of a variable made in a loop (a channel a closure
		// captures), one of a pool, the field of a request chosen at run
		// time.
		return p.loadChansAt(fr, in, ptr, pos, o, cur)
	}
	if ptr.obj.owner >= 0 || ptr.dynamic() || !s.ptrCellShared(ptr, pos) {
		return cur, false
	}
	if s.heap.hint.idCells[ptr.key()] {
		r := p.newReg(p.regName(fr, in), types.Typ[types.Int]) // an identity: the channels are not all made yet
		p.holds(r, fr, in)
		fr.vals[in] = value{kind: vChanRef, e: model.R(r), typ: in.Type(), byID: true}
		return p.emit(cur, model.ReadOp(s.idChanVar(ptr, pos), r), pos, o), true
	}
	x, alts := s.sharedChanAlts(ptr, pos)
	r := p.indexReg(fr, in, int64(len(alts)))
	fr.vals[in] = value{kind: vChanRef, e: model.R(r), alts: alts}
	return p.emit(cur, model.ReadOp(x, r), pos, o), true
}

// loadChanField returns the channel that the static cell q of shared
// memory holds, read into a register named name when goroutines store to
// it (loadSharedChan), else the one the set-up left there.
func (p *proc) loadChanField(q pointer, name string, pos token.Pos, o Origin, cur int) (value, int) {
	s := p.s
	if !s.ptrCellShared(q, pos) {
		return p.scalarFromSetup(q, "a channel"), cur
	}
	if s.heap.hint.idCells[q.key()] {
		r := p.newReg(name, types.Typ[types.Int])
		return value{kind: vChanRef, e: model.R(r), typ: cellType(q), byID: true}, p.emit(cur, model.ReadOp(s.idChanVar(q, pos), r), pos, o)
	}
	x, alts := s.sharedChanAlts(q, pos)
	r := p.newReg(name, types.Typ[types.Int])
	if p.limits == nil {
		p.limits = map[int][2]int64{}
	}
	p.limits[r] = [2]int64{0, int64(len(alts))}
	return value{kind: vChanRef, e: model.R(r), alts: alts}, p.emit(cur, model.ReadOp(x, r), pos, o)
}

// loadChansAt lowers a load of the channel cell ptr of shared memory
// chosen at run time (a struct that goroutines or the set-up made per
// request, each with its reply channel, received by a worker): a split
// over the cells, each giving the identity of the channel it holds, read
// as loadSharedChan and loadChanCell read a cell of their kind, or, from
// a cell no goroutine writes, the one the set-up left. ok is false when a
// cell holds something else.
func (p *proc) loadChansAt(fr *frame, in *ssa.UnOp, ptr pointer, pos token.Pos, o Origin, cur int) (int, bool) {
	s := p.s
	cells, ok := s.cellsOf(ptr)
	if !ok || len(cells) == 0 {
		return cur, false
	}
	for _, q := range cells {
		if q.obj.owner >= 0 {
			return cur, false
		}
		if _, _, ok := s.chanCell(q); ok || s.ptrCellShared(q, pos) {
			continue
		}
		if v, ok := s.mem[q.key()]; ok && v.kind != vNil && v.kind != vChan {
			return cur, false
		}
	}
	if !used(in) {
		return p.access(cur, ptr, pos, o, func(pointer) []model.Op { return []model.Op{model.NopOp()} }), true
	}
	r := p.newReg(p.regName(fr, in), types.Typ[types.Int])
	p.holds(r, fr, in)
	fr.vals[in] = value{kind: vChanRef, e: model.R(r), typ: in.Type(), byID: true}
	tmp := -1
	// index reads the index variable x of alts into a register of its
	// own and gives r the identity of the channel it names.
	index := func(x int, alts []value) []model.Op {
		if tmp < 0 {
			tmp = p.newReg(p.regName(fr, in)+".index", types.Typ[types.Int])
		}
		id := s.chanID(value{kind: vChanRef, e: model.R(tmp), alts: alts}, pos)
		return []model.Op{model.ReadOp(x, tmp), model.AssignOp(r, id)}
	}
	// cellOps are the steps, in order, that give r the channel of the
	// cell q.
	cellOps := func(q pointer) []model.Op {
		if x, ch, ok := s.chanCell(q); ok {
			return index(x, []value{ch})
		}
		if !s.ptrCellShared(q, pos) {
			v, ok := s.mem[q.key()]
			if !ok || v.kind == vNil {
				return []model.Op{model.AssignOp(r, model.C(0))}
			}
			return []model.Op{model.AssignOp(r, s.chanID(v, pos))}
		}
		if s.heap.hint.idCells[q.key()] {
			return []model.Op{model.ReadOp(s.idChanVar(q, pos), r)}
		}
		return index(s.sharedChanAlts(q, pos))
	}
	join := p.newLoc(pos)
	p.eachCase(cur, ptr, pos, func(q pointer, from int) {
		ops := cellOps(q)
		for _, op := range ops[:len(ops)-1] {
			from = p.emit(from, op, pos, o)
		}
		p.emitTo(from, ops[len(ops)-1], join, pos, o)
	})
	return join, true
}

// idChanVar returns the variable of the shared cell q that goroutines
// store channels known by their identity in: it holds chanID's, from the
// set-up's channel (or nil) on.
func (s *system) idChanVar(q pointer, pos token.Pos) int {
	init := int64(0)
	if v, ok := s.mem[q.key()]; ok && v.kind == vChan {
		init = s.chanID(v, pos).(model.Const).Value
	}
	return s.cellVar("chanid:"+q.key(), q, init, types.Typ[types.Int], pos) // an identity
}

// Channels made in a loop of a goroutine.
//
// A make in a loop of a goroutine (a reply channel made for each request,
// a worker's task channel made by a pool's New) takes, each time it runs,
// the next of maxPool channels made for it, counted by a register whose
// domain ends there, as an allocation in a loop takes the next of a pool
// of objects (pointers.go): one more run leaves the domain, which the
// analysis reports as inconclusive, naming the count; a channel is never
// reused. The value is the channel's identity (a vChanRef by identity, as
// a channel received from a channel is).

// chanPool lowers a make of a channel in a loop of a goroutine.
func (p *proc) chanPool(fr *frame, in *ssa.MakeChan, cur int) int {
	s := p.s
	ids := make([]int64, maxPool)
	for k := range ids {
		ch := s.makeChan(fr, in).ch
		ids[k] = int64(slices.Index(s.chans, ch) + 1)
	}
	expr := "make(" + types.TypeString(in.Type(), types.RelativeTo(s.x.pkg)) + ")"
	if e, ok := exprText(s, fr, in); ok {
		expr = e
	}
	r := p.newReg(p.regName(fr, in), types.Typ[types.Int])
	p.holds(r, fr, in)
	c := p.poolCounter(expr+".count", fmt.Sprintf("the number of channels %s makes in a loop of goroutine %s (fencecheck models %d)", expr, p.q.Name, maxPool), in.Pos())
	join := p.pickNext(ids, r, c, in.Pos(), cur, nil)
	fr.vals[in] = value{kind: vChanRef, e: model.R(r), typ: in.Type(), byID: true}
	return join
}

// chanJoinAlts returns the channels and timers that vals, the channel
// values a join brings together, may be: nil, channels, timers' channels,
// or channels chosen at run time among such alternatives; ok is false
// for others (a channel known by its identity).
func chanJoinAlts(vals []value) ([]value, bool) {
	var alts []value
	add := func(a value) {
		if !slices.ContainsFunc(alts, func(b value) bool { return b.kind == a.kind && b.ch == a.ch && b.tick == a.tick }) {
			alts = append(alts, a)
		}
	}
	for _, v := range vals {
		switch {
		case v.kind == vNil:
		case v.kind == vChan || v.kind == vTimer && v.tick != nil:
			add(v)
		case v.kind == vChanRef && !v.byID:
			for _, a := range v.alts {
				if a.kind != vChan && (a.kind != vTimer || a.tick == nil) {
					return nil, false
				}
				add(a)
			}
		default:
			return nil, false
		}
	}
	return alts, len(alts) > 0
}

// cellType returns the type of the cell q points to.
func cellType(q pointer) types.Type {
	t, _ := q.target()
	return t
}
