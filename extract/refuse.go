package extract

import (
	"cmp"
	"fmt"
	"go/token"
	"go/types"
	"maps"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/fencecheck/fencecheck/model"
)

// Run-time refusals.
//
// Some constructs the model cannot lower are reached by the code of a
// goroutine only on a path that a run may never take: a library's queue
// grows its buffer with make([]T, 2*n) only once it is full. Refusing the
// whole system where the lowering meets the construct would refuse code
// whose runs never execute it. Instead the construct becomes a run-time
// refusal: a transition that sets a register whose domain is {0} to 1, so
// that an engine that reaches it answers inconclusive, naming the
// construct and its position, and the path ends there. A system whose
// runs never reach it is decided as usual.

// refuseAt emits from cur the run-time refusal of what (a description of
// the construct, at pos) and returns -1: nothing follows it.
func (p *proc) refuseAt(cur int, what string, pos token.Pos) int {
	p.emit(cur, model.AssignOp(p.refusalReg(what, pos), model.C(1)), pos, Origin{})
	return -1
}

// refusalReg returns a new register whose setting to 1 is the run-time
// refusal of what, at pos.
func (p *proc) refusalReg(what string, pos token.Pos) int {
	r := p.newReg("unsupported", types.Typ[types.Int])
	if p.limits == nil {
		p.limits = map[int][2]int64{}
	}
	p.limits[r] = [2]int64{0, 0}
	if p.sources == nil {
		p.sources = map[int]source{}
	}
	if p.modelCall.IsValid() && p.s.x.inModelSource(pos) {
		pos = p.modelCall // a refusal in the model's own source: at the user's call
	}
	p.sources[r] = source{what, pos}
	if p.refusals == nil {
		p.refusals = map[int]bool{}
	}
	p.refusals[r] = true
	return r
}

// refuseTransition makes transition ti of the process the run-time refusal
// of what, at pos: the transition now leads to the refusal, and nothing
// follows.
func (p *proc) refuseTransition(ti int, what string, pos token.Pos) {
	r := p.refusalReg(what, pos)
	p.q.Trans[ti].Op = model.AssignOp(r, model.C(1))
	p.q.Trans[ti].To = p.newLoc(pos)
}

// uncomputedOperand describes x op y when an operand is the result of a
// call the model does not run (time.Now().UnixNano(), say) and the other
// is not nil. A comparison is either answer (Go's is one of the two, so
// this only adds behaviours); any other operator is a run-time refusal
// where a goroutine reaches it, so that a library's path that a system
// never takes does not refuse the system.
func (s *system) uncomputedOperand(fr *frame, in *ssa.BinOp) (string, bool) {
	x, y := s.get(fr, in.X), s.get(fr, in.Y)
	if y.kind == vOpaque && y.uncomputed {
		x, y = y, x
	}
	if x.kind != vOpaque || !x.uncomputed || y.kind == vNil {
		return "", false
	}
	return fmt.Sprintf("the operator %s on %s", in.Op, strings.TrimSuffix(x.why, ", which fencecheck does not compute")), true
}

// uncomputedOf says what operand of the comparison in fencecheck does not
// compute.
func (s *system) uncomputedOf(fr *frame, in *ssa.BinOp) string {
	x := s.get(fr, in.X)
	if !(x.kind == vOpaque && x.uncomputed) {
		x = s.get(fr, in.Y)
	}
	return strings.TrimSuffix(x.why, ", which fencecheck does not compute")
}

// uncomputedPositive reports whether an operand of the comparison in is a
// value the run time may give as any positive number (NumGoroutine): its
// answers are runs of the program, not guesses.
func (s *system) uncomputedPositive(fr *frame, in *ssa.BinOp) bool {
	return s.get(fr, in.X).positive || s.get(fr, in.Y).positive
}

// uncomputedAnswers returns the answers of the comparison in, of a value
// the model does not compute: both, or for a positive one compared with a
// constant those that values from 1 up give (NumGoroutine() < 1 is false).
func (s *system) uncomputedAnswers(fr *frame, in *ssa.BinOp) []int64 {
	x, y := s.get(fr, in.X), s.get(fr, in.Y)
	op := in.Op
	if y.positive {
		x, y = y, x
		op = map[token.Token]token.Token{token.LSS: token.GTR, token.GTR: token.LSS, token.LEQ: token.GEQ,
			token.GEQ: token.LEQ, token.EQL: token.EQL, token.NEQ: token.NEQ}[op]
	}
	c, isConst := y.constant()
	if !x.positive || !isConst {
		return []int64{0, 1}
	}
	seen := map[bool]bool{}
	var out []int64
	for _, v := range []int64{1, c - 1, c, c + 1} {
		if v < 1 {
			continue
		}
		if r, _ := compare(op, v, c); !seen[r] {
			seen[r] = true
			out = append(out, b2i(r))
		}
	}
	slices.Sort(out)
	return out
}

// isComparison reports whether op is one of Go's comparison operators,
// whose answer on a value the model does not compute is either boolean.
func isComparison(op token.Token) bool {
	switch op {
	case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
		return true
	}
	return false
}

// makeSliceProc lowers make([]T, n[, c]) in a goroutine. A length or a
// capacity known only at run time is a run-time refusal, until the domain
// inference finds that it takes one value there (len of a map of known
// keys, a parameter): the next round then allocates that size, as for a
// constant, where the values are the ones found, and refuses where they
// are not (which no run reaches, unless x86-TSO makes another length).
func (p *proc) makeSliceProc(fr *frame, in *ssa.MakeSlice, cur int) (value, int) {
	s := p.s
	_, lenOK := s.get(fr, in.Len).constant()
	capOK := true
	if in.Cap != nil {
		_, capOK = s.get(fr, in.Cap).constant()
	}
	if lenOK && capOK {
		return s.makeSlice(fr, in, p.idx), cur
	}
	what := "make(" + types.TypeString(in.Type(), types.RelativeTo(s.x.pkg)) + ", n) with a length known only at run time"
	if lenOK {
		what = "make(" + types.TypeString(in.Type(), types.RelativeTo(s.x.pkg)) + ", n, c) with a capacity known only at run time"
	}
	n, c := s.get(fr, in.Len), s.get(fr, in.Len)
	if in.Cap != nil {
		c = s.get(fr, in.Cap)
	}
	if why, ok := s.heap.hint.sizedRefused[makeSite{p.idx, in.Pos()}]; ok {
		what += ", whose size fencecheck finds but after which it refuses " + why
	}
	if n.kind != vInt || c.kind != vInt {
		return value{}, p.refuseAt(cur, what, in.Pos())
	}
	pr := makeProbe{p: p, site: makeSite{p.idx, in.Pos()}, n: n.e, c: c.e, loc: cur, sameCap: in.Cap == nil || in.Cap == in.Len}
	sizes, known := s.heap.makeLens[pr.site]
	// Probed in every round: a size found lets runs go further, which may
	// reach the make with other sizes (a loop's next rounds).
	s.makeProbes = append(s.makeProbes, pr)
	if !known {
		return value{}, p.refuseAt(cur, what, in.Pos())
	}
	var is model.Expr
	for _, k := range sizes {
		is = orElse(is, model.Bin(model.OpAnd, model.Bin(model.OpEq, pr.n, model.C(k[0])), model.Bin(model.OpEq, pr.c, model.C(k[1]))))
	}
	found := " other than the one found"
	if len(sizes) > 1 {
		found = " other than the ones found"
	}
	p.refuseAt(p.emit(cur, model.GuardOp(model.Unary{Op: model.OpNot, X: is}), in.Pos(), Origin{}), what+found, in.Pos())
	at := p.emit(cur, model.GuardOp(is), in.Pos(), Origin{})
	if len(sizes) == 1 {
		return s.makeSliceOf(in, sizes[0][0], sizes[0][1], p.idx), at
	}
	return p.makeSized(fr, in, pr, sizes, at)
}

// makeSized allocates, at cur, the array of make([]T, n, c) whose length
// and capacity take the few values sizes: its cells are those of the
// largest capacity, and its length (and capacity, when it varies) are
// registers set to n and c, as for a window loaded from memory
// (headers.go).
func (p *proc) makeSized(fr *frame, in *ssa.MakeSlice, pr makeProbe, sizes [][2]int64, cur int) (value, int) {
	var maxC int64
	lens, caps := map[int64]bool{}, map[int64]bool{}
	for _, k := range sizes {
		maxC = max(maxC, k[1])
		lens[k[0]], caps[k[1]] = true, true
	}
	v := p.s.makeSliceOf(in, 0, maxC, p.idx)
	name := p.regName(fr, in)
	if len(lens) == 1 {
		v.sl.len = sizes[0][0]
	} else {
		r := p.newReg("len("+name+")", types.Typ[types.Int])
		cur = p.emit(cur, model.AssignOp(r, pr.n), in.Pos(), Origin{})
		v.sl.dlen = model.R(r)
	}
	switch {
	case len(caps) == 1:
		v.sl.cap = sizes[0][1]
	case pr.sameCap:
		v.sl.dcap = v.sl.dlen
	default:
		r := p.newReg("cap("+name+")", types.Typ[types.Int])
		cur = p.emit(cur, model.AssignOp(r, pr.c), in.Pos(), Origin{})
		v.sl.dcap = model.R(r)
	}
	if v.sl.dlen == nil {
		v.sl.dlen = model.C(v.sl.len)
	}
	if v.sl.dcap != nil {
		all := slices.Sorted(maps.Keys(caps))
		v.sl.caps = &all
	}
	return v, cur
}

// makeProbe is a make in process p at location loc whose length n or
// capacity c is known only at run time.
type makeProbe struct {
	p    *proc
	site makeSite
	n, c model.Expr
	loc  int
	// sameCap: the make has no capacity, which is its length.
	sameCap bool
}

// probesOf returns the indices in s.makeProbes of the probes of p.
func (s *system) probesOf(p *proc) []int {
	var out []int
	for k, pr := range s.makeProbes {
		if pr.p == p {
			out = append(out, k)
		}
	}
	return out
}

// makeSite is a make of run-time size in a process: its position and the
// process's index.
type makeSite struct {
	proc int
	pos  token.Pos
}

// noteMakeProbes looks, after the domain inference, at the makes of run-time
// size of p (states are its abstract registers at each location, vars the
// shared variables'): a make whose length and capacity take one value each
// at every probe of its position in p asks for another round that allocates it.
func (s *system) noteMakeProbes(p *proc, states [][]abs, vars []abs) {
	if s.heap.hint.noMakeLens {
		return
	}
	for _, pr := range s.makeProbes {
		if pr.p != p || states[pr.loc] == nil {
			continue
		}
		env := &absEnv{regs: states[pr.loc], vars: vars}
		n, okn := env.eval(pr.n).values()
		c, okc := env.eval(pr.c).values()
		sizes, ok := makePairs(n, c, okn && okc, pr.sameCap)
		if !ok {
			s.makeUnknown = append(s.makeUnknown, pr.site)
			continue
		}
		for _, k := range s.heap.makeLens[pr.site] {
			if !slices.Contains(sizes, k) {
				sizes = append(sizes, k)
			}
		}
		if len(sizes) > maxMakeSizes {
			s.makeUnknown = append(s.makeUnknown, pr.site)
			continue
		}
		slices.SortFunc(sizes, func(a, b [2]int64) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1])) })
		if s.heap.makeLens == nil {
			s.heap.makeLens = map[makeSite][][2]int64{}
		}
		s.heap.makeLens[pr.site] = sizes
	}
}

// maxMakeSizes bounds the pairs of length and capacity a make of run-time
// size may take: every length of a slice grown by append (a snapshot's
// make([]T, len(s)) of a slice in memory).
const maxMakeSizes = growBound + 1

// makePairs returns the pairs of length and capacity of a make whose length
// takes the values n and capacity the values c (the length's own when
// sameCap): every pair when one of them takes a single value. ok is false
// when they cannot be paired (both vary, or a value is out of range).
func makePairs(n, c []int64, ok, sameCap bool) ([][2]int64, bool) {
	if !ok {
		return nil, false
	}
	var out [][2]int64
	switch {
	case sameCap:
		for _, v := range n {
			out = append(out, [2]int64{v, v})
		}
	case len(c) == 1:
		for _, v := range n {
			out = append(out, [2]int64{v, c[0]})
		}
	case len(n) == 1:
		for _, v := range c {
			out = append(out, [2]int64{n[0], v})
		}
	default:
		return nil, false
	}
	for _, k := range out {
		if k[0] < 0 || k[1] < k[0] || k[1] > maxSliceCap {
			return nil, false
		}
	}
	return out, len(out) > 0 && len(out) <= maxMakeSizes
}

// settleMakeProbes drops the sizes of makes that some probe found more than
// one value for, and asks for another round when a size is new.
func (s *system) settleMakeProbes() {
	for _, site := range s.makeUnknown {
		delete(s.heap.makeLens, site)
	}
	for site, sizes := range s.heap.makeLens {
		if !slices.Equal(sizes, s.heap.hint.makeLens[site]) {
			s.heapChange("a make of run-time length gets its length")
			return
		}
	}
}

// unsupportedPrefix starts the message of every construct the model
// cannot lower (system.unsupported).
const unsupportedPrefix = "unsupported in a fencecheck system: "

// procState is what lowering one instruction of a process may change that
// instrOrRefuse puts back when the instruction turns out to be refused.
type procState struct {
	trans, panics, goexits, procs, progProcs int
	at                                       unwindCtx
	wrapperPos, modelCall                    token.Pos
	panicking                                []int
	unwinding                                *unwinding
	noFence                                  bool
	curProc                                  *proc
}

func (p *proc) state() procState {
	return procState{trans: len(p.q.Trans), panics: len(p.panics), goexits: len(p.goexits),
		procs: len(p.s.procs), progProcs: len(p.s.prog.Procs), at: p.at, wrapperPos: p.wrapperPos,
		modelCall: p.modelCall, panicking: slices.Clone(p.panicking), unwinding: p.unwinding, noFence: p.noFence,
		curProc: p.s.curProc}
}

// restore undoes what lowering an instruction did since st: the
// transitions it emitted (their locations stay, unreachable), the panics,
// Goexits and processes it added, and the context it set.
func (p *proc) restore(st procState) {
	p.q.Trans, p.origins = p.q.Trans[:st.trans], p.origins[:st.trans]
	p.panics, p.goexits = p.panics[:st.panics], p.goexits[:st.goexits]
	p.s.procs, p.s.prog.Procs = p.s.procs[:st.procs], p.s.prog.Procs[:st.progProcs]
	p.at, p.wrapperPos, p.modelCall = st.at, st.wrapperPos, st.modelCall
	p.panicking, p.unwinding, p.noFence = st.panicking, st.unwinding, st.noFence
	p.s.curProc = st.curProc
	for k, u := range p.unwound {
		if u.trans >= st.trans {
			delete(p.unwound, k) // its steps are gone
		}
	}
}

// refusalOf returns the refusal that r, a value recovered from a panic of
// the lowering, carries: an unsupported construct, or, when goPanics is
// set, a run-time panic the lowering found certain. Anything else (an
// internal error) panics again.
func refusalOf(r any, goPanics bool) unsupported {
	u, ok := r.(unsupported)
	if !ok || !strings.HasPrefix(u.msg, unsupportedPrefix) && !(goPanics && u.goPanic) {
		panic(r)
	}
	return u
}

// instrOrRefuse lowers the instruction in of a goroutine as instr does,
// and makes a construct the lowering refuses there a run-time refusal at
// cur instead: the goroutine's path ends there, and a system whose runs
// never reach it is decided (a library's branch that the system's options
// turn off, a buffer that grows only once full). What the instruction had
// lowered before the refusal is undone. Other failures (internal errors,
// a panic the lowering finds certain) go on as before.
func (p *proc) instrOrRefuse(fr *frame, b *ssa.BasicBlock, in ssa.Instruction, cur int) (next int) {
	if next, ok := p.noiseSplit(fr, b, in, cur); ok {
		return next
	}
	cur, restore := p.untaint(fr, in, cur)
	defer restore()
	st := p.state()
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		u := refusalOf(r, true)
		p.restore(st)
		pos := u.pos
		if !pos.IsValid() {
			pos = in.Pos()
		}
		if u.goPanic {
			// A panic the lowering finds certain on this path, which a
			// run may or may not take: a bad state where it is reached.
			p.panicAt(panicSite{loc: cur, name: u.msg, pos: pos})
			next = -1
			return
		}
		next = p.refuseAt(cur, strings.TrimPrefix(u.msg, unsupportedPrefix), pos)
	}()
	return p.instr(fr, b, in, cur)
}

// Tainted phis.
//
// A phi that joins integers on some edges with a value the model does not
// compute on others (go-cache's expiry, time.Now().Add(d).UnixNano() when
// d > 0 and 0 otherwise, where the system's d is never positive) is a
// register holding the integers and a taint register that the latter
// edges set. An instruction that uses it splits: a run that came through
// a tainted edge is refused there (a run-time refusal, as for the value
// itself), and the others go on with the integer, so that a system whose
// runs never take those edges is decided.

// taintedPhi makes phi, whose incoming values known are integers and
// values the model does not compute (at least one of each), a tainted
// phi; it reports false for other phis.
func (p *proc) taintedPhi(fr *frame, phi *ssa.Phi, st *blockState, known []value) bool {
	if !isScalarPayload(phi.Type()) {
		return false
	}
	var why string
	ints := 0
	for _, v := range known {
		switch {
		case v.kind == vInt:
			ints++
		case v.kind == vOpaque && v.uncomputed && v.taint == nil && v.clock == nil && why == "":
			why = describe(v)
		case v.kind == vOpaque && v.uncomputed && v.taint == nil && v.clock == nil:
		default:
			return false
		}
	}
	if ints == 0 || why == "" {
		return false
	}
	r := p.newReg(p.regName(fr, phi), phi.Type())
	p.holds(r, fr, phi)
	t := p.newReg(p.regName(fr, phi)+".uncomputed", types.Typ[types.Bool])
	st.phiReg[phi] = r
	v := opaque(strings.TrimSuffix(why, ", which fencecheck does not compute") + " (or another value on another path), which fencecheck does not compute")
	v.e, v.taint = model.R(r), model.R(t)
	fr.vals[phi] = v
	return true
}

// untaint splits, before in, the runs that reach it with a tainted phi
// among its operands: those through a tainted edge are refused, and in is
// lowered for the others with the phi's integer, which restore puts back
// afterwards.
func (p *proc) untaint(fr *frame, in ssa.Instruction, cur int) (int, func()) {
	if _, isPhi := in.(*ssa.Phi); isPhi || cur < 0 {
		return cur, func() {}
	}
	var saved []ssa.Value
	var olds []value
	for _, op := range in.Operands(nil) {
		if op == nil || *op == nil {
			continue
		}
		v, ok := fr.vals[*op]
		if !ok || v.taint == nil || slices.Contains(saved, *op) {
			continue
		}
		if isNoisy(v) {
			// Random numbers joined with integers: a call in the same
			// goroutine and a return take the join as it is; any other
			// use takes a random number (noiseSplit has taken the
			// operators).
			switch in.(type) {
			case *ssa.Call, *ssa.Return:
			default:
				saved, olds = append(saved, *op), append(olds, v)
				fr.vals[*op] = plainNoise(v)
			}
			continue
		}
		pos := in.Pos()
		if !pos.IsValid() {
			pos = (*op).Pos()
		}
		p.refuseAt(p.emit(cur, model.GuardOp(v.taint), pos, Origin{}), strings.TrimSuffix(v.why, ", which fencecheck does not compute")+", which fencecheck does not compute", pos)
		cur = p.emit(cur, model.GuardOp(negate(v.taint)), pos, Origin{})
		saved, olds = append(saved, *op), append(olds, v)
		fr.vals[*op] = intVal(v.e)
	}
	return cur, func() {
		for i, op := range saved {
			fr.vals[op] = olds[i]
		}
	}
}
