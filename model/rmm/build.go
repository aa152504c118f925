package rmm

import (
	"fmt"
	"math"
	"strings"

	"github.com/fencecheck/fencecheck/model"
)

// Limits on the size of what one file may expand to.
const (
	maxAlternatives = 4096   // paths one statement may expand to
	maxReadValues   = 64     // values a domain-checked read is split into
	maxSize         = 500000 // locations, transitions and locked operations in all
)

type builder struct {
	prog *model.Program
	size int

	globals map[string]int   // global variable → index in prog.Vars
	locals  []map[string]int // per process: local variable → index in prog.Vars
	owner   map[string]bool  // names declared as local variables by some process

	// The process being built.
	pid    int
	decl   *procDecl
	q      *model.Process
	regs   map[string]int
	labels map[string]int // label → location
	lpos   map[string]model.Pos
	gotos  []pendingGoto
	alias  []int // location → the labelled location it was merged into, or -1

	procLabels []map[string]int // per process, after compaction
}

type pendingGoto struct {
	from  int
	label labelRef
	trans int // the nop transition whose target is the label, or -1 to merge
}

func (b *builder) fail(pos model.Pos, format string, args ...any) {
	panic(bailout{errorf(pos, format, args...)})
}

// build translates a parsed file into a program.
func (b *builder) build(f *fileAST) {
	b.globals = map[string]int{}
	b.owner = map[string]bool{}
	for _, d := range f.globals {
		b.globals[d.name] = len(b.prog.Vars)
		b.prog.Vars = append(b.prog.Vars, model.Var{Name: d.name, Dom: d.dom, Init: d.init, Pos: d.pos})
	}

	// Expand process(N) and lay out the per-process variables.
	var decls []*procDecl
	for _, pd := range f.procs {
		if len(decls)+pd.count > maxProcesses {
			b.fail(pd.pos, "more than %d processes", maxProcesses)
		}
		for range pd.count {
			decls = append(decls, pd)
		}
	}
	for pid, pd := range decls {
		m := map[string]int{}
		for _, d := range pd.data {
			b.owner[d.name] = true
			m[d.name] = len(b.prog.Vars)
			b.prog.Vars = append(b.prog.Vars, model.Var{
				Name: fmt.Sprintf("%s[P%d]", d.name, pid), Dom: d.dom, Init: d.init, Pos: d.pos,
			})
		}
		b.locals = append(b.locals, m)
	}

	for _, t := range f.forbidden {
		if len(t.entries) != len(decls) {
			b.fail(t.pos, "forbidden state has %d labels, but the program has %d processes (give one label or * per process)", len(t.entries), len(decls))
		}
	}

	for pid, pd := range decls {
		b.buildProcess(pid, pd)
	}

	for _, t := range f.forbidden {
		bs := model.BadState{Pos: t.pos}
		var names []string
		for j, e := range t.entries {
			if e.label == "" {
				names = append(names, "*")
				continue
			}
			names = append(names, e.label)
			l, ok := b.procLabels[j][e.label]
			if !ok {
				b.fail(e.pos, "process %s has no label %s", b.prog.Procs[j].Name, e.label)
			}
			bs.Locs = append(bs.Locs, model.ProcLoc{Proc: j, Loc: l})
		}
		bs.Name = strings.Join(names, " ")
		b.prog.Bad = append(b.prog.Bad, bs)
	}
}

func (b *builder) buildProcess(pid int, pd *procDecl) {
	b.pid, b.decl = pid, pd
	b.q = &model.Process{Name: fmt.Sprintf("P%d", pid)}
	b.regs = map[string]int{}
	b.labels = map[string]int{}
	b.lpos = map[string]model.Pos{}
	b.gotos = nil
	b.alias = nil
	for _, d := range pd.regs {
		b.regs[d.name] = len(b.q.Regs)
		b.q.Regs = append(b.q.Regs, model.Reg{Name: d.name, Dom: d.dom, Init: d.init, Pos: d.pos})
	}
	start := b.newLoc(pd.text[0].pos())
	end := b.newLoc(pd.text[len(pd.text)-1].s.pos)
	b.q.Init = start
	b.seq(pd.text, start, end, false)

	for _, g := range b.gotos {
		target, ok := b.labels[g.label.name]
		if !ok {
			b.fail(g.label.pos, "goto %s: process %s has no label %s", g.label.name, b.q.Name, g.label.name)
		}
		if g.trans < 0 {
			b.alias[g.from] = target
		} else {
			b.q.Trans[g.trans].To = target
		}
	}
	b.compact()
	b.prog.Procs = append(b.prog.Procs, b.q)
}

// compact removes the locations that gotos were merged into their targets,
// and unlabelled locations that no transition touches; then it numbers the
// locations in the order the transitions first mention them (which follows
// the text) and names the unlabelled ones.
func (b *builder) compact() {
	q := b.q
	res := func(l int) int {
		if b.alias[l] >= 0 {
			return b.alias[l]
		}
		return l
	}
	index := make([]int, len(q.Locs))
	for i := range index {
		index[i] = -1
	}
	var locs []model.Loc
	use := func(l int) {
		if index[l] < 0 {
			index[l] = len(locs)
			locs = append(locs, q.Locs[l])
		}
	}
	use(q.Init)
	for i := range q.Trans {
		t := &q.Trans[i]
		t.From, t.To = res(t.From), res(t.To)
		use(t.From)
		use(t.To)
	}
	for l := range q.Locs {
		if q.Locs[l].Name != "" {
			use(l) // a label that no transition reaches: keep it for forbidden
		}
	}
	for i := range q.Trans {
		t := &q.Trans[i]
		t.From, t.To = index[t.From], index[t.To]
	}
	q.Init = index[q.Init]
	q.Locs = locs
	labels := map[string]int{}
	for name, l := range b.labels {
		labels[name] = index[l]
	}
	for i := range q.Locs {
		if q.Locs[i].Name != "" {
			continue
		}
		name := fmt.Sprintf("q%d", i)
		for _, taken := labels[name]; taken; _, taken = labels[name] {
			name = "_" + name
		}
		q.Locs[i].Name = name
	}
	b.procLabels = append(b.procLabels, labels)
}

func (b *builder) grow(n int) {
	b.size += n
	if b.size > maxSize {
		b.fail(b.decl.pos, "the program expands to more than %d locations and transitions", maxSize)
	}
}

func (b *builder) newLoc(pos model.Pos) int {
	b.grow(1)
	b.q.Locs = append(b.q.Locs, model.Loc{Pos: pos})
	b.alias = append(b.alias, -1)
	return len(b.q.Locs) - 1
}

func (b *builder) addTrans(from int, op model.Op, to int, pos model.Pos) {
	b.grow(1 + len(op.Body))
	b.q.Trans = append(b.q.Trans, model.Transition{From: from, To: to, Op: op, Pos: pos})
}

func (ls lstmt) pos() model.Pos {
	if len(ls.labels) > 0 {
		return ls.labels[0].pos
	}
	return ls.s.pos
}

// Control flow. Every statement is translated between two given locations,
// from and to. shared reports that from is also where other statements
// start (the branches of an either): a label or a loop head there then gets
// a location of its own, entered by a nop.

func (b *builder) seq(list []lstmt, from, to int, shared bool) {
	for i, ls := range list {
		next := to
		if i < len(list)-1 {
			next = b.newLoc(list[i+1].pos())
		}
		b.lstmt(ls, from, next, shared)
		from, shared = next, false
	}
}

func (b *builder) lstmt(ls lstmt, from, to int, shared bool) {
	if len(ls.labels) > 0 && shared {
		n := b.newLoc(ls.labels[0].pos)
		b.addTrans(from, model.NopOp(), n, ls.labels[0].pos)
		from, shared = n, false
	}
	for _, l := range ls.labels {
		if first, dup := b.lpos[l.name]; dup {
			b.fail(l.pos, "label %s defined twice in process %s (first at %d:%d)", l.name, b.q.Name, first.Line, first.Col)
		}
		b.labels[l.name], b.lpos[l.name] = from, l.pos
		if b.q.Locs[from].Name == "" {
			b.q.Locs[from].Name = l.name
			b.q.Locs[from].Pos = l.pos
		}
	}
	b.stmt(ls.s, from, to, shared)
}

func (b *builder) stmt(s *stmt, from, to int, shared bool) {
	switch s.kind {
	case sSeq:
		b.seq(s.body, from, to, shared)
	case sIf:
		cond := b.expr(s.e)
		thenLoc := b.newLoc(s.body[0].pos())
		b.addTrans(from, model.GuardOp(cond), thenLoc, s.pos)
		b.lstmt(s.body[0], thenLoc, to, false)
		if s.els != nil {
			elseLoc := b.newLoc(s.els.pos())
			b.addTrans(from, model.GuardOp(negate(cond)), elseLoc, s.pos)
			b.lstmt(*s.els, elseLoc, to, false)
		} else {
			b.addTrans(from, model.GuardOp(negate(cond)), to, s.pos)
		}
	case sWhile:
		cond := b.expr(s.e)
		head := from
		if shared {
			head = b.newLoc(s.pos)
			b.addTrans(from, model.NopOp(), head, s.pos)
		}
		body := b.newLoc(s.body[0].pos())
		b.addTrans(head, model.GuardOp(cond), body, s.pos)
		b.lstmt(s.body[0], body, head, false)
		b.addTrans(head, model.GuardOp(negate(cond)), to, s.pos)
	case sEither:
		for _, alt := range s.alts {
			b.seq(alt, from, to, true)
		}
	case sGoto:
		// A goto from a location that nothing else starts from is merged
		// into its target (no transition); otherwise it is a nop.
		g := pendingGoto{from: from, label: s.label, trans: -1}
		if shared || from == b.q.Init || b.q.Locs[from].Name != "" {
			g.trans = len(b.q.Trans)
			b.addTrans(from, model.NopOp(), from, s.pos) // target set later
		}
		b.gotos = append(b.gotos, g)
	case sFence:
		op := model.FenceOp()
		switch s.flavor {
		case ssFence:
			// Orders stores among themselves: a barrier under PSO,
			// nothing under TSO, which keeps them in order.
			op = model.SSFenceOp()
		case llFence:
			// Orders loads among themselves, as TSO and PSO always do.
			op = model.NopOp()
		}
		b.addTrans(from, op, to, s.pos)
	default:
		b.emit(b.instr(s), from, to, s.pos)
	}
}

// emit adds one chain of transitions from → to per path.
func (b *builder) emit(paths [][]model.Op, from, to int, pos model.Pos) {
	for _, path := range paths {
		if len(path) == 0 {
			path = []model.Op{model.NopOp()}
		}
		cur := from
		for i, op := range path {
			next := to
			if i < len(path)-1 {
				next = b.newLoc(pos)
			}
			b.addTrans(cur, op, next, pos)
			cur = next
		}
	}
}

// Instructions are first translated to micro-operations that keep the
// meaning of the .rmm instruction (in particular, that a value outside a
// domain blocks the step), then to model operations, either as plain
// transitions or inside one locked transition.

type microKind uint8

const (
	mAssign  microKind = iota // reg := e
	mGuard                    // assume e
	mReadEq                   // read v = e
	mReadReg                  // read reg := v
	mWrite                    // write v := e
)

type micro struct {
	kind microKind
	v    int
	reg  int
	e    model.Expr
}

// instr translates one instruction into paths of model operations.
func (b *builder) instr(s *stmt) [][]model.Op {
	alts, atomic := b.micros(s, false)
	if atomic {
		paths := make([][]model.Op, 0, len(alts))
		for _, alt := range alts {
			var body []model.Op
			for _, m := range alt {
				body = append(body, b.lockedOps(m)...)
			}
			paths = append(paths, []model.Op{model.LockedOp(body...)})
		}
		return paths
	}
	var paths [][]model.Op
	for _, alt := range alts {
		reads := 0
		for _, m := range alt {
			if m.kind == mReadEq || m.kind == mReadReg {
				reads++
			}
		}
		if reads > 1 {
			b.fail(s.pos, "a locked block that writes nothing may read only one shared variable in each alternative (its reads could not be made atomic)")
		}
		acc := [][]model.Op{nil}
		for _, m := range alt {
			acc = b.product(acc, b.plainOps(m), s.pos)
		}
		paths = append(paths, acc...)
		if len(paths) > maxAlternatives {
			b.fail(s.pos, "statement expands to more than %d alternatives", maxAlternatives)
		}
	}
	return paths
}

// product appends each of tails to each of heads.
func (b *builder) product(heads, tails [][]model.Op, pos model.Pos) [][]model.Op {
	if len(heads)*len(tails) > maxAlternatives {
		b.fail(pos, "statement expands to more than %d alternatives", maxAlternatives)
	}
	out := make([][]model.Op, 0, len(heads)*len(tails))
	for _, h := range heads {
		for _, t := range tails {
			out = append(out, append(append([]model.Op(nil), h...), t...))
		}
	}
	return out
}

// micros translates an instruction into alternatives of micro-operation
// sequences, and reports whether they execute atomically as a locked
// transition. inLocked is set inside a locked block.
func (b *builder) micros(s *stmt, inLocked bool) (alts [][]micro, atomic bool) {
	one := func(ms ...micro) [][]micro { return [][]micro{ms} }
	switch s.kind {
	case sNop:
		return one(), false
	case sAssign:
		return one(micro{kind: mAssign, reg: b.reg(s.reg, s.regPos), e: b.expr(s.e)}), false
	case sAssume:
		return one(micro{kind: mGuard, e: b.expr(s.e)}), false
	case sReadEq, sReadReg, sWrite, sCas:
		if inLocked && s.flavor == sync {
			b.fail(s.pos, "a synchronising read or write inside a locked block")
		}
		var e, e2 model.Expr
		if s.e != nil {
			e = b.expr(s.e)
		}
		if s.e2 != nil {
			e2 = b.expr(s.e2)
		}
		reg := -1
		if s.kind == sReadReg {
			reg = b.reg(s.reg, s.regPos)
		}
		for _, t := range b.targets(s.loc) {
			var ms []micro
			if t.guard != nil {
				ms = append(ms, micro{kind: mGuard, e: t.guard})
			}
			switch s.kind {
			case sReadEq:
				ms = append(ms, micro{kind: mReadEq, v: t.v, e: e})
			case sReadReg:
				ms = append(ms, micro{kind: mReadReg, v: t.v, reg: reg})
			case sWrite:
				ms = append(ms, micro{kind: mWrite, v: t.v, e: e})
			case sCas:
				ms = append(ms, micro{kind: mReadEq, v: t.v, e: e}, micro{kind: mWrite, v: t.v, e: e2})
			}
			alts = append(alts, ms)
		}
		// cas and locked write are locked; syncwr and syncrd (VIPS-M)
		// reach memory directly, which under TSO is a locked access; an
		// slocked write (PSO) is a plain write under TSO.
		return alts, s.kind == sCas || s.flavor == locked || s.flavor == sync
	case sLocked:
		var writes bool
		for _, alt := range s.alts {
			acc := b.seqMicros(alt, s.pos)
			for _, ms := range acc {
				for _, m := range ms {
					writes = writes || m.kind == mWrite
				}
			}
			alts = append(alts, acc...)
			if len(alts) > maxAlternatives {
				b.fail(s.pos, "locked block expands to more than %d alternatives", maxAlternatives)
			}
		}
		// Memorax executes a locked block as a fence only if it writes.
		return alts, writes
	case sSeq:
		if inLocked {
			return b.seqMicros(s.body, s.pos), false
		}
	}
	b.fail(s.pos, "%s inside a locked block", stmtName(s))
	return nil, false
}

// seqMicros translates the statements of a locked block, in sequence.
func (b *builder) seqMicros(list []lstmt, pos model.Pos) [][]micro {
	acc := [][]micro{nil}
	for _, ls := range list {
		if len(ls.labels) > 0 {
			b.fail(ls.labels[0].pos, "a label inside a locked block")
		}
		sub, _ := b.micros(ls.s, true)
		if len(acc)*len(sub) > maxAlternatives {
			b.fail(pos, "locked block expands to more than %d alternatives", maxAlternatives)
		}
		next := make([][]micro, 0, len(acc)*len(sub))
		for _, h := range acc {
			for _, t := range sub {
				next = append(next, append(append([]micro(nil), h...), t...))
			}
		}
		acc = next
	}
	return acc
}

func stmtName(s *stmt) string {
	switch s.kind {
	case sFence:
		return "a fence"
	case sIf:
		return "an if statement"
	case sWhile:
		return "a while loop"
	case sGoto:
		return "a goto"
	case sEither:
		return "an either statement"
	case sSeq:
		return "a nested block"
	}
	return "this statement"
}

// lockedOps translates a micro-operation into operations of a locked body.
func (b *builder) lockedOps(m micro) []model.Op {
	switch m.kind {
	case mAssign:
		return append(b.domainGuard(m.e, b.q.Regs[m.reg].Dom), model.AssignOp(m.reg, m.e))
	case mGuard:
		return []model.Op{model.GuardOp(m.e)}
	case mReadEq:
		return []model.Op{model.ReadEqOp(m.v, m.e)}
	case mReadReg:
		// Inside a locked body, memory may be named: check the value
		// before it is loaded.
		return append(b.domainGuard(model.V(m.v), b.q.Regs[m.reg].Dom), model.ReadOp(m.v, m.reg))
	default: // mWrite
		return append(b.domainGuard(m.e, b.prog.Vars[m.v].Dom), model.WriteOp(m.v, m.e))
	}
}

// plainOps translates a micro-operation into alternatives of chains of
// plain transitions.
func (b *builder) plainOps(m micro) [][]model.Op {
	switch m.kind {
	case mAssign:
		return [][]model.Op{append(b.domainGuard(m.e, b.q.Regs[m.reg].Dom), model.AssignOp(m.reg, m.e))}
	case mGuard:
		return [][]model.Op{{model.GuardOp(m.e)}}
	case mReadEq:
		return [][]model.Op{{model.ReadEqOp(m.v, m.e)}}
	case mReadReg:
		return b.readInto(m.v, m.reg)
	default: // mWrite
		return [][]model.Op{append(b.domainGuard(m.e, b.prog.Vars[m.v].Dom), model.WriteOp(m.v, m.e))}
	}
}

// readInto reads shared variable v into register reg. In .rmm such a read
// is enabled only when the value is in the register's domain. When the
// variable's domain is not inside the register's, the read is split into
// one read per value the register can hold (each enabled only when memory
// holds that value); past maxReadValues values it stays one read, and a
// value outside the register's domain then faults.
func (b *builder) readInto(v, reg int) [][]model.Op {
	rd, vd := b.q.Regs[reg].Dom, b.prog.Vars[v].Dom
	if rd.Unbounded || !vd.Unbounded && rd.Lo <= vd.Lo && vd.Hi <= rd.Hi {
		return [][]model.Op{{model.ReadOp(v, reg)}}
	}
	lo, hi := rd.Lo, rd.Hi
	if !vd.Unbounded {
		lo, hi = max(lo, vd.Lo), min(hi, vd.Hi)
	}
	if lo > hi {
		return [][]model.Op{{model.GuardOp(model.C(0))}}
	}
	if uint64(hi-lo) >= maxReadValues {
		return [][]model.Op{{model.ReadOp(v, reg)}}
	}
	var alts [][]model.Op
	for x := lo; ; x++ {
		op := model.ReadOp(v, reg)
		op.Expr = model.C(x)
		alts = append(alts, []model.Op{op})
		if x == hi {
			break
		}
	}
	return alts
}

// domainGuard returns a guard that holds exactly when e is in d, or nothing
// when e is always in d.
func (b *builder) domainGuard(e model.Expr, d model.Domain) []model.Op {
	if d.Unbounded {
		return nil
	}
	iv := b.interval(e)
	var cond model.Expr
	if !iv.bounded || iv.lo < d.Lo {
		cond = model.Bin(model.OpGe, e, model.C(d.Lo))
	}
	if !iv.bounded || iv.hi > d.Hi {
		c := model.Bin(model.OpLe, e, model.C(d.Hi))
		if cond == nil {
			cond = c
		} else {
			cond = model.Bin(model.OpAnd, cond, c)
		}
	}
	if cond == nil {
		return nil
	}
	return []model.Op{model.GuardOp(cond)}
}

// target is one shared variable a memory reference may denote, with the
// guard under which it does (for pointers).
type target struct {
	v     int
	guard model.Expr
}

// targets resolves a memory reference for the current process.
func (b *builder) targets(m *memloc) []target {
	switch m.kind {
	case mlGlobal:
		if v, ok := b.globals[m.name]; ok {
			return []target{{v: v}}
		}
		if b.owner[m.name] {
			b.fail(m.pos, "%s is declared per process: write %s[my] for this process's copy, %s[N] for another's", m.name, m.name, m.name)
		}
		b.fail(m.pos, "undeclared shared variable %s", m.name)
	case mlMy:
		if v, ok := b.locals[b.pid][m.name]; ok {
			return []target{{v: v}}
		}
		if _, ok := b.globals[m.name]; ok {
			b.fail(m.pos, "%s is a global variable: write %s, not %s[my]", m.name, m.name, m.name)
		}
		b.fail(m.pos, "%s[my]: this process declares no variable %s", m.name, m.name)
	case mlOther:
		// Process p names the variables of the other processes 0, 1, ...
		// skipping itself: x[i] is process i's if i < p, else process i+1's.
		if m.idx < 0 || m.idx >= int64(len(b.locals)-1) {
			b.fail(m.pos, "%s: process %s sees only %d other processes, numbered from 0", m, b.q.Name, len(b.locals)-1)
		}
		owner := int(m.idx)
		if owner >= b.pid {
			owner++
		}
		if v, ok := b.locals[owner][m.name]; ok {
			return []target{{v: v}}
		}
		b.fail(m.pos, "%s: process P%d declares no variable %s", m, owner, m.name)
	case mlPtr:
		// [e] denotes the global variable whose index (in declaration
		// order) is the value of e.
		e := b.expr(m.ptr)
		if c, ok := e.(model.Const); ok {
			if c.Value < 0 || c.Value >= int64(len(b.globals)) {
				b.fail(m.pos, "pointer value %d: there are %d global variables", c.Value, len(b.globals))
			}
			return []target{{v: int(c.Value)}}
		}
		iv := b.interval(e)
		var ts []target
		for i := range len(b.globals) {
			if iv.bounded && (int64(i) < iv.lo || int64(i) > iv.hi) {
				continue
			}
			ts = append(ts, target{v: i, guard: model.Bin(model.OpEq, e, model.C(int64(i)))})
		}
		if len(ts) == 0 {
			b.fail(m.pos, "pointer cannot denote any global variable (there are %d)", len(b.globals))
		}
		return ts
	}
	return nil
}

func (b *builder) reg(name string, pos model.Pos) int {
	r, ok := b.regs[name]
	if !ok {
		b.fail(pos, "undeclared register $%s", name)
	}
	return r
}

// expr translates an expression of the current process.
func (b *builder) expr(e *aexpr) model.Expr {
	switch e.kind {
	case eNum:
		return model.C(e.val)
	case eReg:
		return model.R(b.reg(e.name, e.pos))
	case eNeg:
		return model.Unary{Op: model.OpNeg, X: b.expr(e.x)}
	case eNot:
		return model.Not(b.expr(e.x))
	default:
		return model.Bin(e.op, b.expr(e.x), b.expr(e.y))
	}
}

// negate returns the negation of a condition (a comparison, conjunction,
// disjunction, negation or boolean constant).
func negate(e model.Expr) model.Expr {
	switch e := e.(type) {
	case model.Const:
		if e.Value == 0 {
			return model.C(1)
		}
		return model.C(0)
	case model.Unary:
		if e.Op == model.OpNot {
			return e.X
		}
	case model.Binary:
		flip := map[model.BinOp]model.BinOp{
			model.OpEq: model.OpNe, model.OpNe: model.OpEq,
			model.OpLt: model.OpGe, model.OpGe: model.OpLt,
			model.OpGt: model.OpLe, model.OpLe: model.OpGt,
		}
		if op, ok := flip[e.Op]; ok {
			return model.Bin(op, e.X, e.Y)
		}
	}
	return model.Not(e)
}

// ival is the set of values an expression may take: [lo, hi], or any
// integer when !bounded.
type ival struct {
	lo, hi  int64
	bounded bool
}

var anyInt = ival{}

func domIval(d model.Domain) ival {
	if d.Unbounded {
		return anyInt
	}
	return ival{d.Lo, d.Hi, true}
}

// interval over-approximates the values of e given the domains of the
// registers and variables it names. Any possible overflow gives anyInt.
func (b *builder) interval(e model.Expr) ival {
	switch e := e.(type) {
	case model.Const:
		return ival{e.Value, e.Value, true}
	case model.RegRef:
		return domIval(b.q.Regs[e.Reg].Dom)
	case model.VarRef:
		return domIval(b.prog.Vars[e.Var].Dom)
	case model.Unary:
		x := b.interval(e.X)
		if e.Op == model.OpNot {
			return ival{0, 1, true}
		}
		if !x.bounded || x.lo == math.MinInt64 {
			return anyInt
		}
		return ival{-x.hi, -x.lo, true}
	case model.Binary:
		x, y := b.interval(e.X), b.interval(e.Y)
		switch e.Op {
		case model.OpAdd, model.OpSub:
			if !x.bounded || !y.bounded {
				return anyInt
			}
			if e.Op == model.OpSub {
				if y.lo == math.MinInt64 {
					return anyInt
				}
				y = ival{-y.hi, -y.lo, true}
			}
			lo, ok1 := addOK(x.lo, y.lo)
			hi, ok2 := addOK(x.hi, y.hi)
			if !ok1 || !ok2 {
				return anyInt
			}
			return ival{lo, hi, true}
		case model.OpEq, model.OpNe, model.OpLt, model.OpLe, model.OpGt, model.OpGe, model.OpAnd, model.OpOr:
			return ival{0, 1, true}
		}
	}
	return anyInt
}

func addOK(a, b int64) (int64, bool) {
	s := a + b
	if (b > 0 && s < a) || (b < 0 && s > a) {
		return 0, false
	}
	return s, true
}
