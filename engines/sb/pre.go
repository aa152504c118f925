package sb

import (
	"slices"

	"github.com/fencecheck/fencecheck/model"
)

// opInfo summarises what an operation reads and writes, for enumeration.
type opInfo struct {
	usedRegs []int // registers whose pre-values the operation reads
	defRegs  []int // registers it assigns
	readVars []int // (locked) shared variables whose memory values it reads
	wrVars   []int // (locked) shared variables it writes, in order
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

// enumerate calls f with every combination of values for slots, where slot i
// ranges over the single value fixed[i] when has[i], else over doms[i].
func enumerate(doms []model.Domain, fixed []int64, has []bool, f func(vals []int64)) {
	vals := make([]int64, len(doms))
	var rec func(i int)
	rec = func(i int) {
		if i == len(doms) {
			f(vals)
			return
		}
		if has[i] {
			vals[i] = fixed[i]
			rec(i + 1)
			return
		}
		for v := doms[i].Lo; ; v++ {
			vals[i] = v
			rec(i + 1)
			if v == doms[i].Hi {
				break
			}
		}
	}
	rec(0)
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
func (s *search) regSlots(c *cons, p int, info opInfo) ([]model.Domain, []int64, []bool) {
	q := s.prog.Procs[p]
	doms := make([]model.Domain, len(info.usedRegs))
	fixed := make([]int64, len(info.usedRegs))
	has := make([]bool, len(info.usedRegs))
	for i, r := range info.usedRegs {
		doms[i] = q.Regs[r].Dom
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
	enumerate(doms, fixed, has, func(vals []int64) {
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
	doms = append(doms, s.prog.Vars[x].Dom)
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
	enumerate(doms, fixed, has, func(vals []int64) {
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
func lastIsOwnWrite(c *cons, p, x int) bool {
	m := &c.msgs[c.last()]
	if m.writer >= 0 {
		return m.writer == p && m.v == x
	}
	return m.notBy&(1<<uint(p)) == 0
}

func (s *search) preWrite(c *cons, p int, t *model.Transition, info opInfo, emit func(*cons)) {
	k := c.last()
	x := t.Op.Var
	if k == 0 || c.pointedAt(k) || !lastIsOwnWrite(c, p, x) {
		return
	}
	mk := &c.msgs[k]
	doms, fixed, has := s.regSlots(c, p, info)
	enumerate(doms, fixed, has, func(vals []int64) {
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
		// only be an earlier write of p to x.
		d := c.clone()
		e := &d.msgs[k]
		e.known &^= 1 << uint(x)
		e.mem[x] = 0
		e.writer, e.v, e.notBy = p, x, 0
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
		if k == 0 || !lastIsOwnWrite(c, p, info.wrVars[0]) {
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
		doms = append(doms, s.prog.Vars[x].Dom)
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
	enumerate(doms, fixed, has, func(vals []int64) {
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
		if d := c.clone(); fill(&d.msgs[k-1]) {
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
		e.known, e.writer, e.v = 0, -1, 0
		for y := range e.mem {
			e.mem[y] = 0
		}
		e.notBy = (uint64(1)<<uint(len(s.prog.Procs)) - 1) &^ (1 << uint(p))
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
// equals message j's except for the variable j wrote, so the writer of
// message j is first made known (one case per possible writer and variable).
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
			d := c.clone()
			d.msgs[j].writer, d.msgs[j].v, d.msgs[j].notBy = w, x, 0
			s.preFlushKnown(d, p, emit)
		}
	}
}

func (s *search) preFlushKnown(c *cons, p int, emit func(*cons)) {
	j := c.ptr[p]
	mj := &c.msgs[j]
	// before returns a message whose snapshot agrees with message j except on
	// the variable j wrote, refining m; false on a conflict.
	before := func(m *msg) bool {
		for y := range mj.mem {
			if y == mj.v || !mj.isKnown(y) {
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
		if z < j {
			e.notBy |= 1 << uint(r)
			// r may have written it, if r has a later write to the same variable.
			for x := range s.prog.Vars {
				if lw := c.lastWrite(r, x); lw >= j && c.msgs[lw].writer == r {
					a := e.clone()
					a.writer, a.v, a.notBy = r, x, 0
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
