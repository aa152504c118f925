package sb

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/fencecheck/fencecheck/model"
)

// opInfo summarises what an operation reads and writes, for enumeration.
type opInfo struct {
	usedRegs []int // registers whose pre-values the operation reads
	defRegs  []int // registers it assigns
	readVars []int // (locked) shared variables whose memory values it reads
	wrVars   []int // (locked) shared variables it writes, in order
	// wrMore is the set of wrVars but the first: the header of the
	// operation's message is its writer, wrVars[0] and wrMore.
	wrMore uint64
}

func regsOf(e model.Expr, add func(int)) {
	model.WalkExpr(e, func(e model.Expr) {
		if r, ok := e.(model.RegRef); ok && r.Proc < 0 {
			add(r.Reg)
		}
	})
}

func varsOf(e model.Expr, add func(int)) {
	model.WalkExpr(e, func(e model.Expr) {
		if v, ok := e.(model.VarRef); ok {
			add(v.Var)
		}
	})
}

func analyse(op model.Op) opInfo {
	var info opInfo
	defined := map[int]bool{}
	written := map[int]bool{}
	addUsed := func(r int) {
		if !defined[r] && !contains(info.usedRegs, r) {
			info.usedRegs = append(info.usedRegs, r)
		}
	}
	addRead := func(x int) {
		if !written[x] && !contains(info.readVars, x) {
			info.readVars = append(info.readVars, x)
		}
	}
	var walk func(o model.Op, locked bool)
	walk = func(o model.Op, locked bool) {
		switch o.Kind {
		case model.Assign:
			regsOf(o.Expr, addUsed)
			varsOf(o.Expr, addRead)
			def(&info, defined, o.Reg)
		case model.Guard:
			regsOf(o.Expr, addUsed)
			varsOf(o.Expr, addRead)
		case model.Read:
			regsOf(o.Expr, addUsed)
			if locked {
				addRead(o.Var)
			}
			if o.Reg >= 0 {
				def(&info, defined, o.Reg)
			}
		case model.Write:
			regsOf(o.Expr, addUsed)
			varsOf(o.Expr, addRead)
			if locked && !written[o.Var] {
				written[o.Var] = true
				info.wrVars = append(info.wrVars, o.Var)
			}
		case model.Locked:
			for _, b := range o.Body {
				walk(b, true)
			}
		}
	}
	walk(op, false)
	for _, x := range info.wrVars[min(1, len(info.wrVars)):] {
		info.wrMore |= 1 << uint(x)
	}
	return info
}

func def(info *opInfo, defined map[int]bool, r int) {
	if !defined[r] {
		defined[r] = true
		info.defRegs = append(info.defRegs, r)
	}
}

func contains(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// span is what a slot of an enumeration ranges over: a cell's domain, or
// the few values the program says the cell takes (model.Var.Values), a
// float64's bit patterns in a domain of 2^62.
type span struct {
	dom  model.Domain
	vals []int64
}

// varSpan and regSpan return the span of a variable and of a register.
func varSpan(v model.Var) span { return span{v.Dom, v.Values} }
func regSpan(r model.Reg) span { return span{r.Dom, r.Values} }

// size is the number of values of s.
func (s span) size() int64 {
	if s.vals != nil {
		return int64(len(s.vals))
	}
	return s.dom.Size()
}

// String formats s as its domain, or its values.
func (s span) String() string {
	if s.vals != nil {
		return fmt.Sprint(s.vals)
	}
	return s.dom.String()
}

// odometer steps through every combination of values for slots, where slot
// i ranges over the single value fixed[i] when has[i], else over spans[i],
// the last slot fastest. It is resumable: next returns one combination at
// a time (the slice is reused).
type odometer struct {
	spans         []span
	vals          []int64
	at            []int // for a span of values, the index of vals[i]
	has           []bool
	started, done bool
}

func newOdometer(spans []span, fixed []int64, has []bool) *odometer {
	o := &odometer{spans: spans, vals: make([]int64, len(spans)), at: make([]int, len(spans)), has: has}
	for i, sp := range spans {
		d := sp.dom
		switch {
		case has[i]:
			o.vals[i] = fixed[i]
		case sp.size() == 0:
			o.done = true // an empty domain: no combination
		case sp.vals != nil:
			o.vals[i] = sp.vals[0]
		default:
			o.vals[i] = d.Lo
		}
	}
	return o
}

// next returns the next combination, or false when there is none left.
func (o *odometer) next() ([]int64, bool) {
	if o.done {
		return nil, false
	}
	if !o.started {
		o.started = true
		return o.vals, true
	}
	for i := len(o.vals) - 1; i >= 0; i-- {
		if o.has[i] {
			continue
		}
		if vs := o.spans[i].vals; vs != nil {
			if o.at[i]+1 < len(vs) {
				o.at[i]++
				o.vals[i] = vs[o.at[i]]
				return o.vals, true
			}
			o.at[i], o.vals[i] = 0, vs[0]
			continue
		}
		if o.vals[i] != o.spans[i].dom.Hi {
			o.vals[i]++
			return o.vals, true
		}
		o.vals[i] = o.spans[i].dom.Lo
	}
	o.done = true
	return nil, false
}

// size is the number of combinations, saturating at math.MaxInt64.
func (o *odometer) size() int64 {
	n := int64(1)
	for i, sp := range o.spans {
		if o.has[i] {
			continue
		}
		k := sp.size()
		if k == 0 {
			return 0
		}
		if n > math.MaxInt64/k {
			return math.MaxInt64
		}
		n *= k
	}
	return n
}

// wideError ends a search that would enumerate more valuations of finite
// domains than its work budget allows.
type wideError struct {
	doms []span
	n    int64
}

func (e *wideError) Error() string {
	var ds []string
	for _, d := range e.doms {
		ds = append(ds, d.String())
	}
	n := fmt.Sprint(e.n)
	if e.n == math.MaxInt64 {
		n = "more than 2^63"
	}
	return fmt.Sprintf("an enumeration of %s values (domains %s) exceeds the work budget: the domains are too wide for the sb engine",
		n, strings.Join(ds, " × "))
}

// enumerate calls f with every combination of values for slots, where slot
// i ranges over the single value fixed[i] when has[i], else over doms[i].
// It counts every combination as work and stops early when the search must
// stop; an enumeration larger than the remaining work budget is refused
// outright (s.stop becomes a *wideError).
func (s *search) enumerate(doms []span, fixed []int64, has []bool, f func(vals []int64)) {
	o := newOdometer(doms, fixed, has)
	if !s.affordable(o) {
		return
	}
	for {
		vals, ok := o.next()
		if !ok || !s.tick(1) {
			return
		}
		f(vals)
		if s.stop != nil {
			return
		}
	}
}

// affordable reports whether the search may enumerate o: its size fits in
// the remaining work budget. Otherwise s.stop says why not.
func (s *search) affordable(o *odometer) bool {
	if s.maxWork <= 0 {
		return true
	}
	if n := o.size(); n > s.maxWork-s.work {
		var free []span
		for i, d := range o.spans {
			if !o.has[i] {
				free = append(free, d)
			}
		}
		if s.stop == nil {
			s.stop = &wideError{doms: free, n: n}
		}
		return false
	}
	return true
}

// pre computes the minimal constraints of the predecessors of c by
// transition ti of process p, and calls emit for each (before normalization).
func (s *search) pre(c *cons, p, ti int, emit func(*cons)) {
	q := s.prog.Procs[p]
	t := &q.Trans[ti]
	if c.locs[p] != t.To {
		return
	}
	op := t.Op
	info := s.info[p][ti]
	switch op.Kind {
	case model.Nop, model.Assign, model.Guard:
		s.preLocal(c, p, t, info, emit)
	case model.Read:
		s.preRead(c, p, t, info, emit)
	case model.Write:
		s.preWrite(c, p, t, info, emit)
	case model.Fence:
		if c.ptr[p] == c.last() {
			d := c.clone()
			d.locs[p] = t.From
			emit(d)
		}
	case model.Locked:
		s.preLocked(c, p, t, info, emit)
	}
}

// regSlots prepares the enumeration of the used registers of p: a used
// register that the operation does not define and that c knows is fixed.
func (s *search) regSlots(c *cons, p int, info opInfo) ([]span, []int64, []bool) {
	q := s.prog.Procs[p]
	doms := make([]span, len(info.usedRegs))
	fixed := make([]int64, len(info.usedRegs))
	has := make([]bool, len(info.usedRegs))
	for i, r := range info.usedRegs {
		doms[i] = regSpan(q.Regs[r])
		if !contains(info.defRegs, r) && c.regKnown(p, r) {
			fixed[i], has[i] = c.regs[p][r], true
		}
	}
	return doms, fixed, has
}

// postRegsMatch checks that the registers defined by the operation hold,
// after it, the values c requires.
func postRegsMatch(c *cons, p int, info opInfo, regs []int64) bool {
	for _, r := range info.defRegs {
		if c.regKnown(p, r) && c.regs[p][r] != regs[r] {
			return false
		}
	}
	return true
}

// preRegs writes the pre-state registers into d: defined registers become
// unknown, used ones take their enumerated values.
func preRegs(d *cons, p int, info opInfo, vals []int64) {
	for _, r := range info.defRegs {
		d.forgetReg(p, r)
	}
	for i, r := range info.usedRegs {
		d.setReg(p, r, vals[i])
	}
}

func (s *search) regEnv(p int, info opInfo, vals []int64) []int64 {
	regs := make([]int64, len(s.prog.Procs[p].Regs))
	for i, r := range info.usedRegs {
		regs[r] = vals[i]
	}
	return regs
}

func (s *search) preLocal(c *cons, p int, t *model.Transition, info opInfo, emit func(*cons)) {
	q := s.prog.Procs[p]
	doms, fixed, has := s.regSlots(c, p, info)
	s.enumerate(doms, fixed, has, func(vals []int64) {
		regs := s.regEnv(p, info, vals)
		env := model.Env{Regs: regs}
		switch t.Op.Kind {
		case model.Guard:
			v, err := model.Eval(t.Op.Expr, &env)
			if err != nil || v == 0 {
				return
			}
		case model.Assign:
			v, err := model.Eval(t.Op.Expr, &env)
			if err != nil || !q.Regs[t.Op.Reg].Dom.Contains(v) {
				return
			}
			regs[t.Op.Reg] = v
		}
		if !postRegsMatch(c, p, info, regs) {
			return
		}
		d := c.clone()
		d.locs[p] = t.From
		preRegs(d, p, info, vals)
		emit(d)
	})
}

func (s *search) preRead(c *cons, p int, t *model.Transition, info opInfo, emit func(*cons)) {
	q := s.prog.Procs[p]
	x := t.Op.Var
	i := c.lastWrite(p, x)
	m := &c.msgs[i]
	doms, fixed, has := s.regSlots(c, p, info)
	// The value read is a further slot.
	doms = append(doms, varSpan(s.prog.Vars[x]))
	fixed = append(fixed, 0)
	has = append(has, false)
	k := len(doms) - 1
	free := false
	switch {
	case m.isKnown(x):
		fixed[k], has[k] = m.mem[x], true
	case t.Op.Reg >= 0 && c.regKnown(p, t.Op.Reg):
		fixed[k], has[k] = c.regs[p][t.Op.Reg], true
	case t.Op.Expr == nil:
		// Neither the message nor the register constrains the value.
		free = true
		fixed[k], has[k] = 0, true
	}
	s.enumerate(doms, fixed, has, func(vals []int64) {
		v := vals[k]
		regs := s.regEnv(p, info, vals[:k])
		if t.Op.Expr != nil {
			want, err := model.Eval(t.Op.Expr, &model.Env{Regs: regs})
			if err != nil || want != v {
				return
			}
		}
		if t.Op.Reg >= 0 {
			if !free && !q.Regs[t.Op.Reg].Dom.Contains(v) {
				return
			}
			regs[t.Op.Reg] = v
		}
		if !free && !postRegsMatch(c, p, info, regs) {
			return
		}
		d := c.clone()
		d.locs[p] = t.From
		preRegs(d, p, info, vals[:k])
		if !free {
			d.msgs[i].set(x, v)
		}
		emit(d)
	})
}

// lastIsOwnWrite checks that c's newest message may be a write by p to x,
// and returns c with that identity fixed.
func lastIsOwnWrite(c *cons, p, x int, more uint64) bool {
	m := &c.msgs[c.last()]
	if m.writer >= 0 {
		return m.writer == p && m.v == x && m.more == more
	}
	return m.notBy&(1<<uint(p)) == 0
}

// preWrite computes the predecessors of c by a write of p.
func (s *search) preWrite(c *cons, p int, t *model.Transition, info opInfo, emit func(*cons)) {
	k := c.last()
	x := t.Op.Var
	pin := c.ptr[p] == pinned
	if c.pointedAt(k) || !lastIsOwnWrite(c, p, x, 0) {
		return
	}
	if k == 0 {
		// Only when every process is pinned: the newest message is the
		// active one; before the write, the previous newest was.
		s.preWriteActive(c, p, t, info, emit)
		return
	}
	mk := &c.msgs[k]
	doms, fixed, has := s.regSlots(c, p, info)
	s.enumerate(doms, fixed, has, func(vals []int64) {
		regs := s.regEnv(p, info, vals)
		w, err := model.Eval(t.Op.Expr, &model.Env{Regs: regs})
		if err != nil || !s.prog.Vars[x].Dom.Contains(w) {
			return
		}
		if mk.isKnown(x) && mk.mem[x] != w {
			return
		}
		// W1: the previous newest message is c's message k-1.
		if d := c.clone(); d != nil {
			ok := true
			prev := &d.msgs[k-1]
			for y := range mk.mem {
				if y == x || !mk.isKnown(y) {
					continue
				}
				if prev.isKnown(y) && prev.mem[y] != mk.mem[y] {
					ok = false
					break
				}
				prev.set(y, mk.mem[y])
			}
			if ok {
				d.msgs = d.msgs[:k]
				d.locs[p] = t.From
				preRegs(d, p, info, vals)
				// W3: as W1, and an earlier write of p to x that c does
				// not show (the new store hid it from the last-write
				// condition of the ordering) becomes p's last write to x:
				// it lies in a gap after p's last write to x that d shows
				// (or p's pointer) and before the newest message.
				var hidden []*cons
				for i := d.lastWrite(p, x); i < k-1; i++ {
					hidden = append(hidden, insertMsg(d, i+1, msg{mem: make([]int64, len(mk.mem)), writer: p, v: x}))
				}
				emit(d)
				for _, h := range hidden {
					emit(h)
				}
			}
		}
		// W2: the previous newest message is one c does not show; it can
		// only be an earlier write of p to x, or a write of a pinned
		// process (which no last-write condition constrains).
		d := c.clone()
		e := &d.msgs[k]
		e.known &^= 1 << uint(x)
		e.mem[x] = 0
		e.setWriter(p, x, 0)
		d.locs[p] = t.From
		preRegs(d, p, info, vals)
		if pm := pinnedMask(c); pm != 0 {
			o := d.clone()
			o.locs[p] = t.From
			m := &o.msgs[k]
			m.setUnknown(s.all &^ pm)
			var hidden []*cons
			if !pin {
				// As in W3, an earlier write of p to x that c does not
				// show becomes p's last write to x: in a gap after p's
				// last write to x that o shows (or p's pointer) and
				// before the newest message.
				for i := o.lastWrite(p, x); i < k; i++ {
					hidden = append(hidden, insertMsg(o, i+1, msg{mem: make([]int64, len(mk.mem)), writer: p, v: x}))
				}
			}
			// (emit may change o: the copies are made first.)
			emit(o)
			for _, h := range hidden {
				emit(h)
			}
		}
		if !pin {
			emit(d)
		}
	})
}

// preWriteActive is preWrite when c has one message and every pointer is
// pinned: the message is the new one, and before the write the newest
// (and active) message was one with the same snapshot but for x, written
// by anyone.
func (s *search) preWriteActive(c *cons, p int, t *model.Transition, info opInfo, emit func(*cons)) {
	x := t.Op.Var
	m0 := &c.msgs[0]
	doms, fixed, has := s.regSlots(c, p, info)
	s.enumerate(doms, fixed, has, func(vals []int64) {
		regs := s.regEnv(p, info, vals)
		w, err := model.Eval(t.Op.Expr, &model.Env{Regs: regs})
		if err != nil || !s.prog.Vars[x].Dom.Contains(w) {
			return
		}
		if m0.isKnown(x) && m0.mem[x] != w {
			return
		}
		d := c.clone()
		e := &d.msgs[0]
		e.known &^= 1 << uint(x)
		e.mem[x] = 0
		e.setUnknown(0)
		d.locs[p] = t.From
		preRegs(d, p, info, vals)
		emit(d)
	})
}

// insertMsg returns a copy of c with m inserted at index i; the pointers at
// or after i move with the messages.
func insertMsg(c *cons, i int, m msg) *cons {
	d := c.clone()
	d.msgs = slices.Insert(d.msgs, i, m)
	for r, z := range d.ptr {
		if z >= i {
			d.ptr[r] = z + 1
		}
	}
	return d
}

func (s *search) preLocked(c *cons, p int, t *model.Transition, info opInfo, emit func(*cons)) {
	q := s.prog.Procs[p]
	k := c.last()
	if c.ptr[p] != k {
		return
	}
	writes := len(info.wrVars) > 0
	if writes {
		// With k == 0, every other pointer is pinned (the others must not
		// point at k): only W2 below applies.
		if !lastIsOwnWrite(c, p, info.wrVars[0], info.wrMore) {
			return
		}
		for r, z := range c.ptr {
			if r != p && z == k {
				return
			}
		}
	}
	mk := &c.msgs[k]
	doms, fixed, has := s.regSlots(c, p, info)
	nr := len(doms)
	for _, x := range info.readVars {
		doms = append(doms, varSpan(s.prog.Vars[x]))
		if !writes && mk.isKnown(x) {
			fixed = append(fixed, mk.mem[x])
			has = append(has, true)
		} else if writes && !contains(info.wrVars, x) && mk.isKnown(x) {
			fixed = append(fixed, mk.mem[x])
			has = append(has, true)
		} else {
			fixed = append(fixed, 0)
			has = append(has, false)
		}
	}
	s.enumerate(doms, fixed, has, func(vals []int64) {
		regs := s.regEnv(p, info, vals[:nr])
		mem := make([]int64, len(s.prog.Vars))
		for i, x := range info.readVars {
			mem[x] = vals[nr+i]
		}
		if !runBody(s.prog, q, t.Op.Body, regs, mem) {
			return
		}
		if !postRegsMatch(c, p, info, regs) {
			return
		}
		for _, x := range info.wrVars {
			if mk.isKnown(x) && mk.mem[x] != mem[x] {
				return
			}
		}
		if !writes {
			d := c.clone()
			d.locs[p] = t.From
			preRegs(d, p, info, vals[:nr])
			for i, x := range info.readVars {
				d.msgs[k].set(x, vals[nr+i])
			}
			emit(d)
			return
		}
		// The pre-state's newest message: unwritten variables as in message k,
		// read variables as enumerated.
		fill := func(m *msg) bool {
			for y := range mk.mem {
				if contains(info.wrVars, y) || !mk.isKnown(y) {
					continue
				}
				if m.isKnown(y) && m.mem[y] != mk.mem[y] {
					return false
				}
				m.set(y, mk.mem[y])
			}
			for i, x := range info.readVars {
				if m.isKnown(x) && m.mem[x] != vals[nr+i] {
					return false
				}
				m.set(x, vals[nr+i])
			}
			return true
		}
		// W1: message k-1 was the newest, and p pointed at it.
		if d := c.clone(); k >= 1 && fill(&d.msgs[k-1]) {
			d.msgs = d.msgs[:k]
			d.ptr[p] = k - 1
			d.locs[p] = t.From
			preRegs(d, p, info, vals[:nr])
			emit(d)
		}
		// W2: an unseen message was the newest, with p pointing at it; it
		// can be written only by p.
		d := c.clone()
		e := &d.msgs[k]
		e.known = 0
		e.setUnknown(0)
		for y := range e.mem {
			e.mem[y] = 0
		}
		e.notBy = s.all &^ (1 << uint(p)) &^ pinnedMask(c)
		if fill(e) {
			d.locs[p] = t.From
			preRegs(d, p, info, vals[:nr])
			emit(d)
		}
	})
}

// runBody executes a locked body on regs and mem in place; it reports
// whether the body is enabled and does not fault.
func runBody(p *model.Program, q *model.Process, body []model.Op, regs, mem []int64) bool {
	env := model.Env{Regs: regs, Mem: mem}
	for _, b := range body {
		switch b.Kind {
		case model.Nop:
		case model.Assign:
			v, err := model.Eval(b.Expr, &env)
			if err != nil || !q.Regs[b.Reg].Dom.Contains(v) {
				return false
			}
			regs[b.Reg] = v
		case model.Guard:
			v, err := model.Eval(b.Expr, &env)
			if err != nil || v == 0 {
				return false
			}
		case model.Read:
			v := mem[b.Var]
			if b.Expr != nil {
				want, err := model.Eval(b.Expr, &env)
				if err != nil || want != v {
					return false
				}
			}
			if b.Reg >= 0 {
				if !q.Regs[b.Reg].Dom.Contains(v) {
					return false
				}
				regs[b.Reg] = v
			}
		case model.Write:
			v, err := model.Eval(b.Expr, &env)
			if err != nil || !p.Vars[b.Var].Dom.Contains(v) {
				return false
			}
			mem[b.Var] = v
		default:
			return false
		}
	}
	return true
}

// preFlush computes the predecessors of c by a flush of p: p's pointer was
// at the message just before message j = c.ptr[p]. That message's snapshot
// equals message j's except for the variables j wrote, so the writer of
// message j is first made known (one case per possible writer and variable:
// a process that may have written it, see pending; and one per locked
// operation of another process that writes several variables, whose
// pointer is at or after message j: it was there after the operation).
func (s *search) preFlush(c *cons, p int, emit func(*cons)) {
	j := c.ptr[p]
	mj := &c.msgs[j]
	if mj.writer >= 0 {
		s.preFlushKnown(c, p, emit)
		return
	}
	for w := range s.prog.Procs {
		if mj.notBy&(1<<uint(w)) != 0 {
			continue
		}
		for x := range s.prog.Vars {
			if !s.pend.mayWrite(c, j, w, x) {
				continue
			}
			d := c.clone()
			d.msgs[j].setWriter(w, x, 0)
			s.preFlushKnown(d, p, emit)
		}
		if z := c.ptr[w]; w == p || z != pinned && z < j {
			continue
		}
		for _, h := range s.lockedHeads[w] {
			d := c.clone()
			d.msgs[j].setWriter(w, h.v, h.more)
			s.preFlushKnown(d, p, emit)
		}
	}
}

// lockedHead is the header of the message of a locked operation that
// writes several variables: its first variable and the others.
type lockedHead struct {
	v    int
	more uint64
}

// lockedHeads returns, per process, the distinct headers of its locked
// operations that write several variables, from the analyses of its
// transitions.
func lockedHeads(info [][]opInfo) [][]lockedHead {
	out := make([][]lockedHead, len(info))
	for i, ops := range info {
		for _, op := range ops {
			if op.wrMore == 0 {
				continue
			}
			if h := (lockedHead{op.wrVars[0], op.wrMore}); !slices.Contains(out[i], h) {
				out[i] = append(out[i], h)
			}
		}
	}
	return out
}

func (s *search) preFlushKnown(c *cons, p int, emit func(*cons)) {
	j := c.ptr[p]
	mj := &c.msgs[j]
	// before returns a message whose snapshot agrees with message j except on
	// the variable j wrote, refining m; false on a conflict.
	before := func(m *msg) bool {
		for y := range mj.mem {
			if mj.wrote(y) || !mj.isKnown(y) {
				continue
			}
			if m.isKnown(y) && m.mem[y] != mj.mem[y] {
				return false
			}
			m.set(y, mj.mem[y])
		}
		return true
	}
	// U1: the message before is c's message j-1.
	if j >= 1 {
		d := c.clone()
		if before(&d.msgs[j-1]) {
			d.ptr[p] = j - 1
			emit(d)
		}
	}
	// U2: the message before is one c does not show.
	e := msg{mem: make([]int64, len(s.prog.Vars)), writer: -1}
	before(&e)
	alts := []msg{}
	for r, z := range c.ptr {
		if z < j && z != pinned {
			e.notBy |= 1 << uint(r)
			// r may have written it, if r has a later write to the same variable.
			for x := range s.prog.Vars {
				if lw := c.lastWrite(r, x); lw >= j && c.msgs[lw].writer == r {
					a := e.clone()
					a.setWriter(r, x, 0)
					alts = append(alts, a)
				}
			}
		}
	}
	insert := func(e msg) {
		d := c.clone()
		d.msgs = append(d.msgs, msg{})
		copy(d.msgs[j+1:], d.msgs[j:])
		d.msgs[j] = e
		for r := range d.ptr {
			if d.ptr[r] >= j && r != p {
				d.ptr[r]++
			}
		}
		d.ptr[p] = j
		emit(d)
	}
	insert(e)
	for _, a := range alts {
		insert(a)
	}
}
