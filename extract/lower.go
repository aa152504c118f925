package extract

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"math"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/fencecheck/fencecheck/model"
)

// proc is a process being lowered.
type proc struct {
	s        *system
	idx      int
	q        *model.Process
	origins  []Origin
	regType  []types.Type
	regNames map[string]int
	// transReads lists, per transition, the variables it reads (readsAny).
	transReads [][]int
	critical   map[int]token.Pos // locations at a //fencecheck:critical point
	nofence    map[int]bool
	panics     []panicSite
	exits      map[int]bool // locations where os.Exit(0) ends the program
	// spawnWait: the process starts by waiting for the go statement of the
	// goroutine that spawns it (lowerNested); at its initial location it has
	// not started, rather than waits.
	spawnWait bool
	private   map[string]int       // cells of private objects -> registers
	ranged    map[int]model.Domain // registers of variables with a //fencecheck:range
	limits    map[int][2]int64     // registers whose range is narrower than their type's (pointers.go)
	thresh    []int64              // the widening thresholds of the domain inference (domain.go)
	ptrCells  map[string]string    // private pointer cells: "" read as a pointer, else why they cannot be
	// mapMakes counts the runs of each make of a map the process has
	// lowered (escapeID).
	mapMakes map[*ssa.MakeMap]int
	// kept are the slices grown by append kept in a cell of the process's
	// own written once (keepGrown), by the cell's key.
	kept map[string]keptSlice
	// unkept are the goroutine-local cells some store gave a value the
	// model does not keep there, by key: why a load of one is refused
	// (whichever store it follows: the lowering does not follow paths).
	unkept map[string]string
	// noiseAt are the unkept cells that every store gave a random number
	// (noise): their loads give it.
	noiseAt map[string]value
	// privLoads are the loads of goroutine-local cells made before every
	// store was lowered: one that an unkept store reaches is refused
	// once the process is lowered (checkPrivateLoads).
	privLoads []privLoad
	sources   map[int]source // what registers hold, in the source (entities.go)
	refusals  map[int]bool   // the registers of run-time refusals (refuse.go)
	// wrapperPos is, while an SSA wrapper without positions ((*T).M of a
	// method of T) is inlined, the call that reaches it: its steps and
	// panics are reported there.
	wrapperPos token.Pos
	// modelCall is, while code of the model's own source is inlined, the
	// user's call that reached it (Origin.At).
	modelCall token.Pos
	grow      *growState // the slices the process grows by append (slices.go)
	// goexits are the locations where runtime.Goexit ends the goroutine
	// (runtime.go).
	goexits []int
	// at is where the instruction being lowered stands; snapOf describes
	// the frames that bind the deferred calls being lowered; panicking are
	// 1 + the registers that are set while a panic is in progress, by
	// depth (panicReg), and
	// unwinding the panic whose deferred calls are being lowered
	// (recover.go).
	at        unwindCtx
	snapOf    map[*frame]snapInfo
	panicking []int
	unwinding *unwinding
	// unwound holds the unwindings lowered so far, by the chain they run
	// from (unwindKey), and panicSiteRegs are 1 + the registers naming the
	// panic that a shared unwinding runs for (recover.go).
	unwound       map[string]*unwoundAt
	panicSiteRegs []int
	panicSites    int
	// clockReadAt holds the positions of the process's readings of the
	// clock, by the location each leads to (clock.go).
	clockReadAt map[int]token.Pos
	// late is set while a call through a function table is lowered after
	// the rest of the process (lowerFuncCalls): its frame, and the chain of
	// deferred calls as it stood at the call.
	late *lateCall
	// privCtx lists, by cell, the contexts the goroutine's own cells of
	// type context.Context hold (a function's result slot), and
	// privCtxRead the cells a load has read (ctxcells.go).
	privCtx     map[string][]value
	privCtxRead map[string]bool

	noFence bool // the instruction being lowered is in a //fencecheck:nofence statement
}

type panicSite struct {
	loc  int
	name string
	pos  token.Pos
	val  ssa.Value // the value of an explicit panic; nil for the run time's
	// id, when not 0, is the value the register panicSiteRegs[depth]
	// holds when this panic, and not another whose unwinding ends at loc
	// too, is the one that reached it.
	id    int64
	depth int
}

func (s *system) newProc(name string) *proc {
	base, n := name, 2
	for s.prog.ProcIndex(name) >= 0 {
		name = fmt.Sprintf("%s#%d", base, n)
		n++
	}
	q := &model.Process{Name: name}
	s.prog.Procs = append(s.prog.Procs, q)
	p := &proc{s: s, idx: len(s.procs), q: q, regNames: map[string]int{}, critical: map[int]token.Pos{},
		nofence: map[int]bool{}, private: map[string]int{}, exits: map[int]bool{}}
	s.procs = append(s.procs, p)
	return p
}

func (s *system) mpos(pos token.Pos) model.Pos {
	if !pos.IsValid() {
		return model.Pos{}
	}
	p := s.x.fset.Position(pos)
	return model.Pos{File: p.Filename, Line: p.Line, Col: p.Column}
}

func (p *proc) newLoc(pos token.Pos) int {
	if !pos.IsValid() {
		pos = p.wrapperPos
	}
	return p.q.AddLoc(fmt.Sprintf("L%d", len(p.q.Locs)), p.s.mpos(pos))
}

func (p *proc) emitTo(from int, op model.Op, to int, pos token.Pos, o Origin) {
	if !pos.IsValid() {
		pos = p.wrapperPos
	}
	if p.modelCall.IsValid() && !o.At.IsValid() {
		o.At = p.modelCall
	}
	p.q.AddTrans(from, op, to, p.s.mpos(pos))
	p.origins = append(p.origins, o)
	if p.noFence {
		p.nofence[to] = true
	}
}

func (p *proc) emit(from int, op model.Op, pos token.Pos, o Origin) int {
	to := p.newLoc(pos)
	p.emitTo(from, op, to, pos, o)
	return to
}

func (p *proc) newReg(name string, t types.Type) int {
	if name == "" {
		name = "r"
	}
	base, n := name, p.regNames[name]
	if n > 0 {
		name = fmt.Sprintf("%s_%d", base, n+1)
	}
	p.regNames[base] = n + 1
	for p.q.RegIndex(name) >= 0 {
		n++
		name = fmt.Sprintf("%s_%d", base, n+1)
	}
	p.q.Regs = append(p.q.Regs, model.Reg{Name: name})
	p.regType = append(p.regType, t)
	return len(p.q.Regs) - 1
}

// regName names the register of an SSA value: the Go variable it holds
// when there is one, else the SSA name.
func (p *proc) regName(fr *frame, v ssa.Value) string {
	name := v.Name()
	if e, ok := p.s.x.debugOf(fr.fn).expr[v]; ok {
		if id, ok := ast.Unparen(e).(*ast.Ident); ok {
			if _, isPhi := v.(*ssa.Phi); isPhi {
				name = id.Name
			}
		}
	} else if phi, ok := v.(*ssa.Phi); ok && p.s.x.defs[phi.Pos()] != nil && p.s.x.defs[phi.Pos()].Name() == phi.Comment {
		// A phi of a local variable that no expression reads as such (n
		// in a loop that only does n++).
		name = phi.Comment
	}
	return name
}

// rpo returns the blocks reachable from start in reverse postorder.
func rpo(start *ssa.BasicBlock) []*ssa.BasicBlock {
	seen := map[*ssa.BasicBlock]bool{}
	var post []*ssa.BasicBlock
	var visit func(*ssa.BasicBlock)
	visit = func(b *ssa.BasicBlock) {
		seen[b] = true
		for _, s := range b.Succs {
			if !seen[s] {
				visit(s)
			}
		}
		post = append(post, b)
	}
	visit(start)
	for i, j := 0, len(post)-1; i < j; i, j = i+1, j-1 {
		post[i], post[j] = post[j], post[i]
	}
	return post
}

func (fr *frame) state(b *ssa.BasicBlock) *blockState {
	st := fr.blocks[b]
	if st == nil {
		st = &blockState{entry: -1}
		fr.blocks[b] = st
	}
	return st
}

// lowerBody lowers fr's function from instruction startIdx of block start,
// at location startLoc (or, with startPred >= 0, from the edge
// start.Preds[startPred], leaving startLoc). Returns are collected in
// fr.returns.
func (p *proc) lowerBody(fr *frame, start *ssa.BasicBlock, startIdx, startPred, startLoc int) {
	visited := map[*ssa.BasicBlock]bool{}
	for _, b := range rpo(start) {
		visited[b] = true
		st := fr.state(b)
		var cur, from int
		switch {
		case b == start && startPred < 0:
			cur, from = startLoc, startIdx
			st.lowered = true
			if startIdx == 0 {
				st.entry = startLoc
			}
		default:
			if b == start {
				st.pending = append(st.pending, edge{loc: startLoc, pred: startPred})
			}
			if len(st.pending) == 0 {
				continue // not reachable with the constants of this process
			}
			cur = p.enterBlock(fr, b, st, visited)
			from = 0
			for from < len(b.Instrs) {
				if _, ok := b.Instrs[from].(*ssa.Phi); !ok {
					break
				}
				from++
			}
		}
		p.lowerInstrs(fr, b, from, cur)
	}
}

// enterBlock decides how b's phis are represented, creates b's entry
// location and connects the edges that reached b so far.
func (p *proc) enterBlock(fr *frame, b *ssa.BasicBlock, st *blockState, visited map[*ssa.BasicBlock]bool) int {
	st.phiReg = map[*ssa.Phi]int{}
	var pos token.Pos
	for _, in := range b.Instrs {
		if in.Pos().IsValid() {
			pos = in.Pos()
			break
		}
	}
	st.deadLoop = p.deadRangeLoop(fr, b, st)
	for _, in := range b.Instrs {
		phi, ok := in.(*ssa.Phi)
		if !ok {
			break
		}
		if p.loopCellPhi(fr, phi) {
			continue
		}
		var known []value
		back := false
		for _, e := range st.pending {
			known = append(known, p.s.get(fr, phi.Edges[e.pred]))
			if isChanCell(phi.Type()) {
				p.s.noteEdgeTimers(phi, known[len(known)-1])
			}
		}
		for i, pred := range b.Preds {
			// An edge from a block not lowered yet, or from b itself (a
			// loop of one block, as go/ssa builds range-over-int), comes
			// later: its value is not known now. b is already marked
			// visited, so a self-loop must be checked for explicitly.
			if (!visited[pred] || pred == b) && phi.Edges[i] != phi && !st.deadLoop {
				back = true
			}
		}
		allSame := !back && len(known) > 0
		allInt, allRef := true, true
		for i, v := range known {
			if i > 0 && !same(v, known[0]) {
				allSame = false
			}
			if v.kind != vInt {
				allInt = false
			}
			if !isRefLike(v) {
				allRef = false
			}
		}
		switch {
		case allSame:
			fr.vals[phi] = known[0]
		case !back && noiseJoin(known) && !slices.ContainsFunc(known, isInt):
			fr.vals[phi] = noiseOf(known)
		case !back && noiseJoin(known):
			// Integers on some edges (backoff's interval when the
			// randomization factor is 0): a register and its taint.
			r := p.newReg(p.regName(fr, phi), phi.Type())
			p.holds(r, fr, phi)
			st.phiReg[phi] = r
			fr.vals[phi] = p.noisyValue(r, p.regName(fr, phi), phi.Type(), noiseOf(known))
		case allRef && isPtrCell(phi.Type()):
			r := p.newReg(p.regName(fr, phi), phi.Type())
			p.holds(r, fr, phi)
			st.phiReg[phi] = r
			objs, guessed := p.s.phiObjs(phi, known, back)
			fr.vals[phi] = value{kind: vRef, e: model.R(r), objs: objs, typ: phi.Type(), guessed: guessed}
		case !back && allFuncs(known):
			fr.vals[phi] = p.funcPhi(fr, phi, st, known)
		case isFuncCell(phi.Type()) && tableFuncs(known):
			// A loop over the function values of a channel (a worker's
			// for task != nil { task(); task = <-work }): an index into
			// the signature's table, as a received value is.
			r := p.phiIndexReg(fr, phi, st, maxCases)
			fr.vals[phi] = value{kind: vFuncRef, e: model.R(r), ftab: p.s.funcTableOf(phi.Type())}
		case p.chanPhi(fr, phi, st, known):
		case p.growPhi(fr, phi, st, known):
		case p.mapPhi(fr, phi, st, known):
		case p.nanosPhi(fr, phi, st, known):
		case isTime(phi.Type()) && p.s.allTimeWords(known, phi.Pos()):
			// Times joined (a loop's previous reading, the zero Time
			// before the first): a register holding the word memory
			// would keep (joinTimeWord), which clockOf reads back.
			r := p.newReg(p.regName(fr, phi), types.Typ[types.Int64])
			p.holds(r, fr, phi)
			st.phiReg[phi] = r
			fr.vals[phi] = intVal(model.R(r))
		case allInt && isScalarPayload(phi.Type()):
			r := p.newReg(p.regName(fr, phi), phi.Type())
			p.holds(r, fr, phi)
			st.phiReg[phi] = r
			p.rangePhi(fr.fn, phi, r)
			fr.vals[phi] = intVal(model.R(r))
		case !back && p.taintedPhi(fr, phi, st, known):
		case slices.ContainsFunc(known, isNanos):
			fr.vals[phi] = opaque("nanoseconds of times joined at run time where one is a time loaded from memory and moved again, which memory cannot keep")
		case back && isChanCell(phi.Type()) && !slices.ContainsFunc(known, func(v value) bool { return v.kind != vNil }):
			// Its channels come on the back edge only, from a make or
			// a timer of the loop, which the header cannot name yet.
			fr.vals[phi] = opaque("a channel variable nil before a loop that sets it to a channel the loop makes (a timer's kept for the next round)")
		default:
			what := describe(firstNonInt(known))
			if x := firstNonInt(known); x.kind == vOpaque && x.uncomputed {
				what = strings.TrimSuffix(what, ", which fencecheck does not compute")
				fr.vals[phi] = opaque(fmt.Sprintf("%s (or another value on another path), which fencecheck does not compute", what))
				break
			}
			if !strings.HasSuffix(what, " chosen at run time") {
				what += " chosen at run time" // a phi of phis says it once
			}
			fr.vals[phi] = opaque(what)
		}
	}
	st.entry = p.newLoc(pos)
	st.lowered = true
	for _, e := range st.pending {
		p.moves(fr, b, st, e)
	}
	st.pending = nil
	return st.entry
}

func firstNonInt(vs []value) value {
	for _, v := range vs {
		if v.kind != vInt {
			return v
		}
	}
	return opaque("a value")
}

// deadRangeLoop reports whether b, entered by the edges st holds so far,
// is the header of a range loop over a slice of constant length 0 (a
// variadic parameter given no values: applyOptions(v, opts...) of a call
// without options): go/ssa's index starts at -1 and the header goes on
// only while index+1 < len, so the body never runs and the header's phis
// hold the values the loop's entry brings, whatever the body would make
// of them (a struct an option returns).
func (p *proc) deadRangeLoop(fr *frame, b *ssa.BasicBlock, st *blockState) bool {
	if len(st.pending) == 0 || len(b.Instrs) == 0 {
		return false
	}
	ifIn, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	if !ok {
		return false
	}
	cmp, ok := ifIn.Cond.(*ssa.BinOp)
	if !ok || cmp.Op != token.LSS || cmp.Block() != b {
		return false
	}
	inc, ok := cmp.X.(*ssa.BinOp)
	if !ok || inc.Op != token.ADD || inc.Block() != b {
		return false
	}
	idx, ok := inc.X.(*ssa.Phi)
	if !ok || idx.Block() != b || idx.Comment != "rangeindex" {
		return false
	}
	if one, ok := inc.Y.(*ssa.Const); !ok || one.Int64() != 1 {
		return false
	}
	if in, ok := cmp.Y.(ssa.Instruction); ok && in.Block() == b {
		return false // the length is computed in the header: not known yet
	}
	if n, ok := p.s.get(fr, cmp.Y).constant(); !ok || n > 0 {
		return false
	}
	for _, e := range st.pending {
		if c, ok := p.s.get(fr, idx.Edges[e.pred]).constant(); !ok || c != -1 {
			return false
		}
	}
	return true
}

// moves connects edge e to b's entry, assigning b's phi registers.
func (p *proc) moves(fr *frame, b *ssa.BasicBlock, st *blockState, e edge) {
	type move struct {
		reg int
		e   model.Expr
	}
	var ms []move
	for _, in := range b.Instrs {
		phi, ok := in.(*ssa.Phi)
		if !ok {
			break
		}
		r, ok := st.phiReg[phi]
		if !ok {
			continue
		}
		v := p.s.get(fr, phi.Edges[e.pred])
		if isChanCell(phi.Type()) {
			p.s.noteEdgeTimers(phi, v) // a back edge
		}
		var x model.Expr
		if fv := fr.vals[phi]; fv.taint != nil {
			// A tainted phi (taintedPhi): its integer, and whether the
			// edge gives the value the model does not compute.
			tr := fv.taint.(model.RegRef).Reg
			x, ms = model.C(0), append(ms, move{tr, model.C(1)})
			switch {
			case v.kind == vInt:
				x, ms[len(ms)-1].e = v.e, model.C(0)
			case v.noise && v.taint != nil:
				x, ms[len(ms)-1].e = v.e, v.taint
			}
		} else if fv.kind == vFuncRef {
			x = p.s.funcIndex(fv, v, phi.Pos())
		} else if fv.kind == vChanRef {
			x = p.s.chanIndex(fv, v, edgePos(phi, e.pred))
		} else if fv.kind == vMapRef {
			x = p.s.mapRefExpr(v, phi.Pos())
		} else if fv.kind == vSlice {
			var copies [][2]int
			x, copies = p.growEdge(fr, b, phi, fv, v)
			for _, c := range copies {
				ms = append(ms, move{c[0], model.R(c[1])})
			}
		} else if isPtrCell(phi.Type()) {
			x = p.s.refExpr(v, phi.Pos())
			p.s.noteValue([]string{phiFlowKey(phi)}, v, x) // chanflow.go
		} else {
			if isNanos(fv) && !isNanos(v) {
				if c, ok := v.constant(); !ok || c != 0 {
					p.s.unsupported(phi.Pos(), "a join of nanoseconds of a time (t.UnixNano()) with %s", describe(v))
				}
			}
			if isNanos(fv) {
				x = p.s.storedWord(v, phi.Pos())
			} else if isTime(phi.Type()) {
				w, ok := p.s.joinTimeWord(v, phi.Pos())
				if !ok {
					p.s.unsupported(phi.Pos(), "a join of times with %s", describe(v))
				}
				x = w
			} else {
				x = p.s.asInt(v, phi.Pos())
			}
		}
		if rr, ok := x.(model.RegRef); ok && rr.Reg == r {
			continue // the phi keeps its value
		}
		ms = append(ms, move{r, x})
	}
	// Parallel assignment: if a move reads a register an earlier move
	// writes, go through temporaries.
	conflict := false
	for i := range ms {
		for j := i + 1; j < len(ms); j++ {
			if mentionsReg(ms[j].e, ms[i].reg) {
				conflict = true
			}
		}
	}
	if conflict {
		var tmps []move
		for i := range ms {
			t := p.newReg(p.q.Regs[ms[i].reg].Name+"_tmp", p.regType[ms[i].reg])
			tmps = append(tmps, move{t, ms[i].e})
			ms[i].e = model.R(t)
		}
		ms = append(tmps, ms...)
	}
	loc := e.loc
	for i, m := range ms {
		if i == len(ms)-1 {
			p.emitTo(loc, model.AssignOp(m.reg, m.e), st.entry, e.pos, Origin{})
			return
		}
		loc = p.emit(loc, model.AssignOp(m.reg, m.e), e.pos, Origin{})
	}
	p.emitTo(loc, model.NopOp(), st.entry, e.pos, Origin{})
}

func mentionsReg(e model.Expr, r int) bool {
	found := false
	model.WalkExpr(e, func(e model.Expr) {
		if rr, ok := e.(model.RegRef); ok && rr.Proc < 0 && rr.Reg == r {
			found = true
		}
	})
	return found
}

// edgeTo follows the control-flow edge from block b (at location loc) to succ.
func (p *proc) edgeTo(fr *frame, b *ssa.BasicBlock, loc int, succ *ssa.BasicBlock, pos token.Pos) {
	pred := -1
	for i, q := range succ.Preds {
		if q == b {
			pred = i
			break
		}
	}
	st := fr.state(succ)
	e := edge{loc: loc, pred: pred, pos: pos}
	if st.lowered {
		if st.entry < 0 {
			p.s.unsupported(pos, "a loop back into the code that follows the last go statement")
		}
		if st.deadLoop {
			p.s.fail(pos, "internal error: an edge back into the header of a range loop over nothing (%s)", succ)
		}
		p.moves(fr, succ, st, e)
		return
	}
	st.pending = append(st.pending, e)
}

func (p *proc) lowerInstrs(fr *frame, b *ssa.BasicBlock, from, cur int) {
	var inCrit ast.Stmt
	for _, in := range b.Instrs[from:] {
		pos := in.Pos()
		if pos.IsValid() {
			p.s.curPos = pos
			crit := p.s.x.stmtIn(p.s.x.dirs.Critical, pos)
			if crit != nil && crit != inCrit {
				p.critical[cur] = crit.Pos()
			}
			inCrit = crit
			p.noFence = p.s.x.stmtIn(p.s.x.dirs.Nofence, pos) != nil
			p.s.x.dirs.Reached(pos)
		}
		prev, prevProc := p.at, p.s.curProc
		p.at, p.s.curProc = unwindCtx{fr: fr, b: b}, p
		cur = p.instrOrRefuse(fr, b, in, cur)
		p.at, p.s.curProc = prev, prevProc
		if cur < 0 {
			break
		}
	}
	p.noFence = false
}

// stmtIn returns the statement of list that contains pos, or nil.
func (x *extractor) stmtIn(list []ast.Stmt, pos token.Pos) ast.Stmt {
	for _, s := range list {
		if s.Pos() <= pos && pos < s.End() {
			return s
		}
	}
	return nil
}

// used reports whether an instruction's value is used by a real instruction.
func used(v ssa.Value) bool {
	refs := v.Referrers()
	if refs == nil {
		return false
	}
	for _, r := range *refs {
		if _, ok := r.(*ssa.DebugRef); !ok {
			return true
		}
	}
	return false
}

// instr lowers one instruction at location cur and returns the location
// after it, or -1 when control does not continue.
func (p *proc) instr(fr *frame, b *ssa.BasicBlock, in ssa.Instruction, cur int) int {
	s := p.s
	if dr, ok := in.(*ssa.DebugRef); ok {
		s.nameObject(fr, dr)
		return p.rangeLocal(fr, dr, cur)
	}
	if bo, ok := in.(*ssa.BinOp); ok {
		if next, ok := p.concatKnown(fr, bo, cur); ok {
			return next
		}
		if next, ok := p.stringCompare(fr, bo, cur); ok {
			return next
		}
		if what, ok := s.uncomputedOperand(fr, bo); ok {
			if isComparison(bo.Op) {
				if s.uncomputedPositive(fr, bo) {
					// Any positive value is one the run time may
					// give: the answers of those values.
					return p.choice(fr, bo, s.uncomputedAnswers(fr, bo), cur)
				}
				// Go's answer is one of the two.
				return p.guessCompare(fr, bo, cur, s.uncomputedOf(fr, bo))
			}
			if v, ok := noiseArith(bo.Op, s.get(fr, bo.X), s.get(fr, bo.Y), bo.Type()); ok {
				fr.vals[bo] = v
				return cur
			}
			return p.refuseAt(cur, what, bo.Pos())
		}
		if v, ok := anyArith(s.get(fr, bo.X), s.get(fr, bo.Y), bo); ok {
			fr.vals[bo] = v
			return cur
		}
		if next, ok := p.anyByRegister(fr, bo, cur); ok {
			return next
		}
		if vals, ok := s.anyValues(fr, bo); ok {
			return p.choice(fr, bo, vals, cur)
		}
		if v, cmp, ok := s.nanosBinop(fr, bo); ok {
			if cmp != nil {
				return p.clockCompare(fr, bo, *cmp, cur)
			}
			fr.vals[bo] = v
			return cur
		}
		if c, ok := s.clockBinop(fr, bo); ok {
			return p.clockCompare(fr, bo, c, cur)
		}
		if cur = p.guardBinOp(fr, bo, cur); cur < 0 {
			return -1
		}
	}
	if ta, ok := in.(*ssa.TypeAssert); ok {
		if next, failed := p.failedAssert(fr, ta, cur); failed {
			return next
		}
		if x := s.get(fr, ta.X); x.kind == vRef {
			if byValueType(ta.AssertedType) {
				return p.typeAssertBox(fr, ta, x, cur)
			}
			if isSliceType(ta.AssertedType) {
				return p.typeAssertSlice(fr, ta, x, cur)
			}
			return p.typeAssertRef(fr, ta, x, cur)
		}
	}
	if mi, ok := in.(*ssa.MakeInterface); ok && s.valueBoxed(fr, mi) {
		return p.makeValueBox(fr, b, mi, cur)
	}
	if next, ok := p.capturedCell(fr, in, cur); ok {
		return next
	}
	if next, ok := p.stringLen(fr, in, cur); ok {
		return next
	}
	if next, ok := p.constStringIndex(fr, in, cur); ok {
		return next
	}
	if next, ok := p.runtimeStringIndex(fr, in, cur); ok {
		return next
	}
	if what, ok := s.unknownStringUse(fr, in); ok {
		s.requestReadOnlyString(fr, in)
		return p.refuseAt(cur, what, in.Pos())
	}
	if next, ok := p.uncomputedSliceUse(fr, in, cur); ok {
		return next
	}
	if next, ok := p.sliceArrayRef(fr, in, cur); ok {
		return next
	}
	if next, ok := p.arrayValueIndex(fr, in, cur); ok {
		return next
	}
	if sl, ok := in.(*ssa.Slice); ok && isSliceType(sl.X.Type()) {
		if x := s.get(fr, sl.X); x.kind == vSlice && x.sl.grown {
			if x.sl.fromMem && x.sl.dlen != nil {
				return p.sliceLoadedGrown(fr, sl, x, cur)
			}
			if setupGrown(x) {
				x.sl.fromMem, x.sl.dlen = true, model.C(x.sl.len)
				return p.sliceLoadedGrown(fr, sl, x, cur)
			}
			// Refused where a run reaches it: perks' compress slices
			// its grown samples only once a buffer of 500 is full.
			return p.refuseAt(cur, slicingGrown, in.Pos())
		}
		if next, ok := p.sliceToRunTime(fr, sl, cur); ok {
			return next
		}
	}
	if s.pure(fr, in) {
		return cur
	}
	switch in := in.(type) {
	case *ssa.Alloc:
		o := s.alloc(in, p.idx)
		o.alloc = in
		fr.vals[in] = value{kind: vPtr, ptr: pointer{obj: o}}
		loop := inLoop(fr, b)
		if loop {
			if next, ok := p.allocPool(fr, in, o, cur); ok {
				return next
			}
		}
		if loop {
			// A fresh object on every execution: zero its cells.
			for _, ptr := range leaves(pointer{obj: o}, o.typ, 32) {
				cur = p.emit(cur, model.AssignOp(p.privateReg(ptr), model.C(0)), in.Pos(), Origin{})
			}
		}
		return cur
	case *ssa.MakeSlice:
		v, next := p.makeSliceProc(fr, in, cur)
		if next < 0 {
			return next
		}
		cur = next
		fr.vals[in] = v
		if inLoop(fr, b) && v.kind == vSlice && v.ptr.obj.owner < 0 && v.ptr.ref == nil {
			// Shared from its make (a slice of it is stored): a new array
			// each time, one of maxPool, as an allocation in a loop.
			objs := s.poolObjects(v.ptr.obj, p.idx, in.Pos())
			r := p.newReg(p.regName(fr, in)+".array", types.Typ[types.Int])
			expr, ok := exprText(s, fr, in)
			if !ok {
				expr = "make"
			}
			cur = p.pickFromPool(objs, r, expr, in.Pos(), cur, nil)
			v.ptr = pointer{obj: objs[0], ref: &dynObj{e: model.R(r), objs: objs, typ: objs[0].typ}}
			fr.vals[in] = v
			return cur
		}
		v.ptr.obj.loopMade = inLoop(fr, b)
		if inCycle(b) {
			// A fresh array on every execution: zero its cells.
			for _, ptr := range leaves(v.ptr, v.ptr.obj.typ, 32) {
				cur = p.emit(cur, model.AssignOp(p.privateReg(ptr), model.C(0)), in.Pos(), Origin{})
			}
		}
		return cur
	case *ssa.IndexAddr, *ssa.Slice, *ssa.FieldAddr:
		// pure declined it: constant bounds out of range, or the address
		// of a field or element of a nil pointer, a run-time panic.
		if fa, ok := in.(*ssa.FieldAddr); ok && s.x.onlyUnevaluated(fa) {
			return cur // for i := range p.arr does not evaluate p.arr
		}
		p.panicAt(panicSite{loc: cur, name: outOfRange(in), pos: in.Pos()})
		return -1
	case *ssa.Store:
		return p.store(fr, in, cur)
	case *ssa.UnOp:
		if in.Op == token.ARROW {
			return p.recv(fr, in, cur)
		}
		if in.Op != token.MUL {
			s.unsupportedInstr(in)
		}
		return p.load(fr, in, cur)
	case *ssa.Send:
		return p.send(fr, in, cur)
	case *ssa.MakeMap, *ssa.MapUpdate, *ssa.Lookup, *ssa.Range, *ssa.Next:
		return p.mapInstr(fr, b, in, cur)
	case *ssa.Select:
		return p.selectStmt(fr, in, cur)
	case *ssa.MakeChan:
		if inLoop(fr, b) {
			return p.chanPool(fr, in, cur)
		}
		// Made once: a channel like the setup's, empty at the start.
		fr.vals[in] = s.makeChan(fr, in)
		return cur
	case *ssa.Call:
		return p.call(fr, in, cur)
	case *ssa.If:
		cv := s.get(fr, in.Cond)
		if c, ok := cv.constant(); ok {
			succ := b.Succs[1]
			if c != 0 {
				succ = b.Succs[0]
			}
			p.edgeTo(fr, b, cur, succ, in.Pos())
			return -1
		}
		e := s.asInt(cv, in.Pos())
		pos := in.Cond.Pos()
		var node ast.Node
		if x, ok := s.x.debugOf(fr.fn).expr[in.Cond]; ok {
			pos, node = x.Pos(), x
		}
		t := p.emit(cur, model.GuardOp(e), pos, Origin{Node: node})
		p.edgeTo(fr, b, t, b.Succs[0], pos)
		f := p.emit(cur, model.GuardOp(negate(e)), pos, Origin{Node: node})
		p.edgeTo(fr, b, f, b.Succs[1], pos)
		return -1
	case *ssa.Jump:
		p.edgeTo(fr, b, cur, b.Succs[0], in.Pos())
		return -1
	case *ssa.Return:
		var vals []value
		for _, r := range in.Results {
			vals = append(vals, s.get(fr, r))
		}
		fr.returns = append(fr.returns, retSite{loc: cur, vals: vals})
		return -1
	case *ssa.Panic:
		name, pos := panicName(s.x, in)
		p.panicAt(panicSite{loc: cur, name: name, pos: pos, val: in.X})
		return -1
	case *ssa.Defer:
		return p.deferInstr(fr, b, in, cur)
	case *ssa.RunDefers:
		return p.runDefers(fr, in, cur)
	case *ssa.Go:
		return p.goInProc(fr, in, cur)
	}
	s.unsupportedInstr(in)
	return -1
}

// panicName returns the source of a panic's call (panic("both loads saw
// 0")) and its position, or "panic" and the instruction's.
func panicName(x *extractor, in *ssa.Panic) (string, token.Pos) {
	if st := x.stmtAt(in.Pos(), in.Pos()); st != nil {
		if es, ok := st.(*ast.ExprStmt); ok {
			return types.ExprString(es.X), es.X.Pos()
		}
	}
	return "panic", in.Pos()
}

func negate(e model.Expr) model.Expr {
	if b, ok := e.(model.Binary); ok && b.Op.Negated() != b.Op {
		return model.Bin(b.Op.Negated(), b.X, b.Y)
	}
	if u, ok := e.(model.Unary); ok && u.Op == model.OpNot {
		return model.Bin(model.OpNe, u.X, model.C(0))
	}
	return model.Not(e)
}

// inCycle reports whether b can reach itself.
func inCycle(b *ssa.BasicBlock) bool {
	return searchSuccs(b, func(x *ssa.BasicBlock) (found, goOn bool) { return x == b, true })
}

// searchSuccs visits, depth first and each once, the blocks reachable
// from b's successors: visit says whether the search has found what it
// looks for, and whether to go on past the block. It reports whether
// some visit found it.
func searchSuccs(b *ssa.BasicBlock, visit func(x *ssa.BasicBlock) (found, goOn bool)) bool {
	seen := map[*ssa.BasicBlock]bool{}
	stack := append([]*ssa.BasicBlock(nil), b.Succs...)
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[x] {
			continue
		}
		seen[x] = true
		found, goOn := visit(x)
		if found {
			return true
		}
		if goOn {
			stack = append(stack, x.Succs...)
		}
	}
	return false
}

// leaves lists the integer cells of an object of type t, at most limit.
func leaves(p pointer, t types.Type, limit int) []pointer {
	var out []pointer
	var walk func(p pointer, t types.Type)
	walk = func(p pointer, t types.Type) {
		if len(out) > limit {
			return
		}
		switch u := t.Underlying().(type) {
		case *types.Struct:
			if classify(t) != leafOther {
				out = append(out, p)
				return
			}
			for i := 0; i < u.NumFields(); i++ {
				walk(p.with(step{field: i}), u.Field(i).Type())
			}
		case *types.Array:
			for i := int64(0); i < u.Len(); i++ {
				walk(p.with(step{field: -1, index: int(i)}), u.Elem())
			}
		case *types.Basic, *types.Pointer, *types.Interface:
			out = append(out, p)
		}
	}
	walk(p, t)
	return out
}

func (p *proc) privateReg(ptr pointer) int {
	k := ptr.key()
	if r, ok := p.private[k]; ok {
		return r
	}
	p.s.display(ptr.obj)
	t, decl := ptr.target()
	r := p.newReg(ptr.name(), t)
	p.rangeReg(r, decl)
	p.private[k] = r
	return r
}

// varFor returns the shared variable of a static pointer to an integer cell.
func (s *system) varFor(ptr pointer) int {
	k := ptr.key()
	if x, ok := s.vars[k]; ok {
		return x
	}
	s.display(ptr.obj)
	t, decl := ptr.target()
	init := int64(0)
	if v, ok := s.mem[k]; ok && isPtrCell(t) {
		init = s.refExpr(v, token.NoPos).(model.Const).Value
	} else if ok && isFuncCell(t) {
		init = s.funcID(t, v, token.NoPos).(model.Const).Value
	} else if ok && isMap(t) {
		init = s.mapInit(v)
	} else if ok && isChanCell(t) {
		init = s.chanID(v, token.NoPos).(model.Const).Value
	} else if ok && isSliceType(t) {
		init = s.sliceInit(v, t, k)
	} else if ok {
		c, ok := v.constant()
		if w, isTime := s.timeWord(v, token.NoPos); !ok && isTime {
			// A deadline the set-up kept: its word.
			wc, isConst := w.(model.Const)
			c, ok = wc.Value, isConst
		}
		if !ok {
			s.unsupported(token.NoPos, "a non-integer value in %s", ptr.name())
		}
		if c != 0 && !isNanos(v) && decl != nil && s.heap.hint.nanosCells[s.clockKey(ptr)] {
			s.unsupported(decl.Pos(), "%s holds nanoseconds of times (t.UnixNano()), but the set-up leaves %d there: only those and 0 are modelled there", ptr.name(), c)
		}
		init = c
	}
	var pos token.Pos
	if decl != nil {
		pos = decl.Pos()
	}
	s.prog.Vars = append(s.prog.Vars, model.Var{Name: ptr.name(), Init: model.Init{Value: init}, Pos: s.mpos(pos)})
	s.varType = append(s.varType, t)
	s.varDecl = append(s.varDecl, decl)
	s.vars[k] = len(s.prog.Vars) - 1
	if ptr.obj.byValue {
		if s.boxVars == nil {
			s.boxVars = map[int]bool{}
		}
		s.boxVars[s.vars[k]] = true
	}
	return s.vars[k]
}

// access emits, from cur, the alternatives ops(q) for every static pointer q
// ptr may name (a case split over run-time indexes), all joining at one new
// location, which it returns.
func (p *proc) access(cur int, ptr pointer, pos token.Pos, o Origin, ops func(q pointer) []model.Op) int {
	join := p.newLoc(pos)
	p.eachCase(cur, ptr, pos, func(q pointer, from int) {
		for _, op := range ops(q) {
			p.emitTo(from, op, join, pos, o)
		}
	})
	return join
}

// eachCase calls body for each static pointer q that ptr may be, with the
// location from which q is the case (cur itself for a static ptr), and
// adds the panics of the cases that name no cell: nil, an object of another
// type, an index out of range; an index past the cases is a run-time
// refusal.
func (p *proc) eachCase(cur int, ptr pointer, pos token.Pos, body func(q pointer, from int)) {
	if !ptr.dynamic() {
		body(ptr, cur)
		return
	}
	bases, bconds, isNil := p.s.objCases(ptr, maxCases, pos)
	var oor model.Expr
	for bi, base := range bases {
		ptrs, conds, out, ok := pointer{obj: base.obj, path: append(slices.Clone(base.path), ptr.path...)}.cases(maxIndexCases)
		if !ok || len(ptrs)*len(bases) > maxIndexCases*4 {
			p.s.unsupported(pos, "indexing with more than %d cases", maxIndexCases)
		}
		oor = out
		for i, q := range ptrs {
			c := andBoth(bconds[bi], conds[i])
			var g int
			if c == nil {
				g = cur
			} else {
				g = p.emit(cur, model.GuardOp(c), pos, Origin{})
			}
			body(q, g)
		}
	}
	if isNil != nil {
		g := p.emit(cur, model.GuardOp(isNil), pos, Origin{})
		p.panicAt(panicSite{loc: g, name: "nil pointer dereference", pos: pos})
	}
	if wrong, name := p.s.wrongType(ptr, pos); wrong != nil {
		g := p.emit(cur, model.GuardOp(wrong), pos, Origin{})
		p.panicAt(panicSite{loc: g, name: name, pos: pos})
	}
	if oor != nil {
		g := p.emit(cur, model.GuardOp(oor), pos, Origin{})
		p.panicAt(panicSite{loc: g, name: "index out of range", pos: pos})
	}
	if far := ptr.beyondCases(); far != nil {
		g := p.emit(cur, model.GuardOp(far), pos, Origin{})
		p.refuseAt(g, fmt.Sprintf("an index past the first %d elements of a slice whose length is known only at run time (fencecheck splits over those)", windowCases), pos)
	}
}

func (p *proc) pointerArg(v value, pos token.Pos) pointer {
	v = p.s.deref(v, pos)
	switch v.kind {
	case vPtr:
		p.s.checkInitAt(v.ptr, pos)
		return v.ptr
	case vNil:
		p.s.goPanic(pos, "nil pointer dereference")
	}
	p.s.unsupported(pos, "memory reached through %s", describe(v))
	return pointer{}
}

func (p *proc) store(fr *frame, in *ssa.Store, cur int) int {
	s := p.s
	if p.nilDeref(s.get(fr, in.Addr), in.Pos(), cur) {
		return -1
	}
	ptr := p.pointerArg(s.get(fr, in.Addr), in.Pos())
	val := s.get(fr, in.Val)
	if p.keepGrown(fr, in, ptr, val) {
		return cur
	}
	pos := in.Pos()
	if !pos.IsValid() {
		// A parameter a closure captures, which go/ssa spills to the
		// heap at the function's entry: where it is declared.
		if pos = in.Val.Pos(); !pos.IsValid() {
			pos = in.Addr.Pos()
		}
	}
	o := Origin{Instr: in}
	if lhs, ok := s.x.debugOf(fr.fn).storeLHS[in]; ok {
		lhs = s.x.fullExpr(lhs)
		o.Target, o.Type = lhs, s.x.info.TypeOf(lhs)
		if st := s.x.stmtAt(lhs.Pos(), lhs.End()); st != nil {
			switch st.(type) {
			case *ast.AssignStmt, *ast.IncDecStmt:
				o.Node, pos = st, st.Pos()
			}
		}
		if o.Node == nil {
			o.Node, pos = lhs, lhs.Pos()
		}
	}
	return p.storeTo(ptr, val, in.Val, pos, o, cur)
}

// storeTo lowers a store of val (the value of the SSA value src, if any)
// into the cell ptr.
func (p *proc) storeTo(ptr pointer, val value, src ssa.Value, pos token.Pos, o Origin, cur int) int {
	s := p.s
	t, _ := ptr.target()
	if p.grownPrivate(val) && !(isSliceType(t) && ptr.obj.owner < 0) {
		s.unsupported(pos, "storing a slice grown by append in memory (append may or may not move its elements: keep it in a local variable)")
	}
	if isAggregate(t) {
		return p.storeAgg(ptr, val, t, cur, pos, o)
	}
	if _, isSlice := t.Underlying().(*types.Slice); isSlice && ptr.obj.owner < 0 {
		return p.storeSliceCell(ptr, val, src, t, pos, o, cur)
	}
	if isMap(t) && ptr.obj.owner < 0 {
		return p.storeMapCell(ptr, val, pos, o, cur)
	}
	if isMap(t) && !ptr.dynamic() && (val.kind == vMap || val.kind == vNil || val.kind == vMapRef) {
		// A cell of the goroutine's own: a register holding the map's
		// identity (a goroutine's own map stored there is shared from
		// its make, another round).
		e := s.mapRefExpr(val, pos)
		return p.access(cur, ptr, pos, o, func(q pointer) []model.Op {
			return []model.Op{model.AssignOp(p.privateReg(q), e)}
		})
	}
	if next, ok := p.storeSharedCtx(ptr, val, t, pos, o, cur); ok {
		return next
	}
	if next, ok := p.storePrivateCtx(ptr, val, t, pos, o, cur); ok {
		return next
	}
	if isPtrCell(t) {
		return p.storePtr(ptr, val, pos, o, cur)
	}
	if isFuncCell(t) && ptr.obj.owner >= 0 && isHandle(val) && s.noteSpilled(ptr, val, p.idx) {
		// A cancel function kept in a spilled variable written once: its
		// loads give it (loadFuncCell).
		return cur
	}
	if (isChanCell(t) || isFuncCell(t)) && ptr.obj.owner >= 0 {
		if e, ok := p.privateCellExpr(t, val, pos); ok {
			return p.access(cur, ptr, pos, o, func(q pointer) []model.Op {
				return []model.Op{model.AssignOp(p.privateReg(q), e)}
			})
		}
	}
	if ptr.obj.owner >= 0 && val.noise {
		// A random number in a goroutine's own variable (a result slot
		// kept across defers): its loads give it again.
		p.noteUnkept(ptr, t, val)
		return cur
	}
	if classify(t) != leafInt && ptr.obj.owner >= 0 && val.kind != vInt {
		// Goroutine-local memory of a type the model does not keep (the
		// arguments of a variadic call, say): an error only where it is used.
		p.noteUnkept(ptr, t, val)
		return cur
	}
	if next, ok := p.storeChanCell(ptr, val, pos, o, cur); ok {
		return next
	}
	if isChanCell(t) && ptr.obj.owner < 0 {
		return p.storeSharedChan(ptr, val, pos, o, cur)
	}
	if isFuncCell(t) && ptr.obj.owner < 0 && val.kind == vFunc && s.noteSpilled(ptr, val, p.idx) {
		// A spilled variable written once (spilled.go): its loads give
		// this function, and no function table holds it.
		return cur
	}
	if isFuncCell(t) && ptr.obj.owner < 0 {
		// Loads of the cell, or of each cell ptr may point to, read a shared
		// variable from the next round on.
		e := s.funcID(t, val, pos)
		return p.access(cur, ptr, pos, o, func(q pointer) []model.Op {
			s.wrotePtrCell(q)
			return []model.Op{model.WriteOp(s.varFor(q), e)}
		})
	}
	if classify(t) != leafInt {
		if c, ok := src.(*ssa.Const); ok && c.Value == nil && ptr.obj.owner >= 0 {
			// Zeroing a private aggregate.
			for _, q := range leaves(ptr, t, 32) {
				cur = p.emit(cur, model.AssignOp(p.privateReg(q), model.C(0)), pos, Origin{})
			}
			return cur
		}
		s.unsupported(pos, "storing a value of type %s after the spawns (only integers, booleans, strings, pointers and interface values are modelled)", t)
	}
	e, random := p.storeRandom(ptr, val, t, pos)
	if !random {
		s.noteClockCell(ptr, val, src != nil && s.heap.hint.nanosCells[loadedField(src)], pos)
		e = s.storedWord(val, pos)
	}
	if ptr.obj.owner >= 0 {
		return p.access(cur, ptr, pos, o, func(q pointer) []model.Op {
			return []model.Op{model.AssignOp(p.privateReg(q), e)}
		})
	}
	return p.access(cur, ptr, pos, o, func(q pointer) []model.Op {
		return []model.Op{model.WriteOp(s.varFor(q), e)}
	})
}

func (p *proc) load(fr *frame, in *ssa.UnOp, cur int) int {
	s := p.s
	if x := s.get(fr, in.X); x.kind == vCondL {
		fr.vals[in] = x.cond.locker
		return cur
	} else if x.kind == vTickerC && x.tick == nil {
		return p.timerRefLoad(fr, in, x, cur)
	} else if x.kind == vTickerC {
		fr.vals[in] = value{kind: vTimer, tick: x.tick}
		return cur
	}
	if s.x.rangeUnevaluated(in) {
		return cur
	}
	if p.nilDeref(s.get(fr, in.X), in.Pos(), cur) {
		return -1
	}
	ptr := p.pointerArg(s.get(fr, in.X), in.Pos())
	t, _ := ptr.target()
	pos := in.Pos()
	o := Origin{Type: in.Type(), Instr: in}
	if x, ok := s.x.debugOf(fr.fn).expr[in]; ok {
		x = s.x.fullExpr(x)
		o.Node, o.Target, pos = x, x, x.Pos()
	}
	switch classify(t) {
	case leafInt:
	case leafPointer:
		if next, ok := p.loadSharedCtx(fr, in, ptr, t, pos, o, cur); ok {
			return next
		}
		if next, ok := p.loadPrivateCtx(fr, in, ptr, t, pos, o, cur); ok {
			return next
		}
		if next, ok := p.loadCondCell(fr, in, ptr, t, pos, cur); ok {
			return next
		}
		if ptr.dynamic() || ptr.obj.owner >= 0 || s.ptrCellShared(ptr, pos) {
			return p.loadPtr(fr, in, ptr, t, pos, o, cur)
		}
		v, ok := s.mem[ptr.key()]
		if !ok {
			v = value{kind: vNil}
		}
		fr.vals[in] = v
		return cur
	default:
		if isAggregate(t) && !used(in) {
			return p.checkOnly(cur, ptr, pos, o) // _ = *p: Go checks the pointer
		}
		if isAggregate(t) {
			return p.loadAgg(fr, in, ptr, cur, pos, o)
		}
		if _, isSlice := t.Underlying().(*types.Slice); isSlice {
			if v, ok := p.keptGrown(ptr, in); ok {
				fr.vals[in] = v
				return cur
			}
			fr.vals[in], cur = p.loadSliceCell(ptr, t, p.regName(fr, in), pos, o, cur)
			return cur
		}
		if isMap(t) {
			fr.vals[in], cur = p.loadMapCell(ptr, t, p.regName(fr, in), pos, o, cur)
			return cur
		}
		if _, isChan := t.Underlying().(*types.Chan); isChan {
			if ptr.obj.owner >= 0 {
				fr.vals[in], cur = p.loadPrivateRef(ptr, t, pos, cur)
				return cur
			}
			if next, ok := p.loadChanCell(fr, in, ptr, pos, o, cur); ok {
				return next
			}
			if next, ok := p.loadSharedChan(fr, in, ptr, pos, o, cur); ok {
				return next
			}
			// Goroutines do not store other channels in shared memory
			// (store refuses it): the cell holds what the setup left.
			fr.vals[in] = p.scalarFromSetup(ptr, "a channel")
			return cur
		}
		if _, isFunc := t.Underlying().(*types.Signature); isFunc {
			fr.vals[in], cur = p.loadFuncCell(ptr, t, p.regName(fr, in), pos, o, cur)
			return cur
		}
		fr.vals[in] = opaque("a value of type " + t.String())
		return cur
	}
	if next, ok := p.loadRandom(fr, in, ptr, pos, o, cur); ok {
		return next
	}
	if ptr.obj.owner >= 0 {
		if why := p.unkeptAt(ptr); why != "" {
			fr.vals[in] = opaque(why)
			if v, ok := p.noiseAt[ptr.key()]; ok {
				fr.vals[in] = v
			}
			return cur
		}
		p.notePrivateLoad(ptr, pos)
	}
	reg := -1
	if used(in) {
		reg = p.newReg(p.regName(fr, in), in.Type())
		p.holds(reg, fr, in)
		fr.vals[in] = s.loadedWord(ptr, model.R(reg))
		if c, ok := s.readOnlyValue(ptr); ok {
			fr.vals[in] = c // the read stays, for the race check
		} else if _, decl := ptr.target(); isString(in.Type()) && decl != nil && ptr.obj.owner < 0 && !ptr.dynamic() {
			v := fr.vals[in]
			v.strCell = decl.Origin()
			fr.vals[in] = v
		}
	}
	if ptr.obj.owner >= 0 {
		if reg < 0 {
			// Nothing uses the value (_ = a[i], a bounds-check hint).
			return p.checkOnly(cur, ptr, pos, o)
		}
		return p.access(cur, ptr, pos, o, func(q pointer) []model.Op {
			return []model.Op{model.AssignOp(reg, model.R(p.privateReg(q)))}
		})
	}
	return p.access(cur, ptr, pos, o, func(q pointer) []model.Op {
		return []model.Op{model.ReadOp(s.varFor(q), reg)}
	})
}

// checkOnly lowers a load of ptr whose value nothing uses: Go still
// checks the index and the pointer of a location chosen at run time (the
// cases' panics stay); a static location needs nothing.
func (p *proc) checkOnly(cur int, ptr pointer, pos token.Pos, o Origin) int {
	if !ptr.dynamic() {
		return cur
	}
	return p.access(cur, ptr, pos, o, func(pointer) []model.Op { return []model.Op{model.NopOp()} })
}

// loadFuncCell lowers the load of the function cell ptr of type t into a
// value (name names its register, if it needs one).
func (p *proc) loadFuncCell(ptr pointer, t types.Type, name string, pos token.Pos, o Origin, cur int) (value, int) {
	s := p.s
	if v, ok := s.spilledAt(ptr, p.idx); ok {
		return v, cur
	}
	if ptr.obj.owner >= 0 {
		// A cell of the goroutine's own (a variable a closure captures,
		// an element of its slice): a register, as storeTo keeps it.
		return p.loadPrivateRef(ptr, t, pos, cur)
	}
	if ptr.obj.owner < 0 && s.cellsShared(ptr, pos) {
		// A goroutine stores function values in it: a shared variable
		// holding a funcTable index.
		r := p.newReg(name, t)
		cur = p.access(cur, ptr, pos, o, func(q pointer) []model.Op { return []model.Op{model.ReadOp(s.varFor(q), r)} })
		return s.funcFromID(t, model.R(r)), cur
	}
	// The cell holds what the setup left.
	return p.scalarFromSetup(ptr, "a function value"), cur
}

func (p *proc) call(fr *frame, in *ssa.Call, cur int) int {
	s := p.s
	c := in.Common()
	pos := in.Pos()
	if b, ok := c.Value.(*ssa.Builtin); ok && !c.IsInvoke() {
		if b.Name() == "append" {
			return p.appendProc(fr, in, cur)
		}
		if b.Name() == "copy" {
			return p.copyProc(fr, in, cur)
		}
		if len(c.Args) > 0 && isMap(c.Args[0].Type()) {
			return p.mapBuiltin(fr, in, b.Name(), cur)
		}
		if len(c.Args) == 1 && s.isChan(c.Args[0]) {
			switch b.Name() {
			case "close":
				return p.closeChan(fr, in, cur)
			case "len", "cap":
				return p.chanLen(fr, in, b.Name(), cur)
			}
		}
		if b.Name() == "recover" {
			return p.recoverCall(fr, in, cur)
		}
		if v := s.builtin(fr, b, c.Args, pos); v.kind != vOpaque || v.why != "" {
			fr.vals[in] = v
		}
		return cur
	}
	if next, ok := p.errorCall(fr, in, cur); ok {
		return next
	}
	if c.IsInvoke() {
		if recv := s.get(fr, c.Value); recv.kind == vRef {
			return p.invokeRef(fr, in, recv, cur)
		} else if recv.kind == vCtxRef {
			return p.ctxRefMethod(fr, in, recv, c.Method.Name(), cur)
		} else if recv.kind == vCtx {
			if c.Method.Name() == "Err" {
				return p.ctxErr(fr, in, recv.ctx, cur)
			}
			fr.vals[in] = s.ctxMethod(recv, c.Method.Name(), s.argValues(fr, c), pos)
			return cur
		}
	}
	f, args := s.callee(fr, c, pos)
	if f.kind == vCancel {
		return p.cancelProc(f.ctx, pos, cur)
	}
	if f.kind == vStop {
		return p.tickerCall(fr, in, "Stop", f.tick, pos, cur)
	}
	if f.kind == vNil {
		// Go panics (a nil pointer dereference). A function cell read
		// as what the set-up left while a goroutine writes it gets its
		// variable in the next round (staleStatics).
		p.panicAt(panicSite{loc: cur, name: "nil pointer dereference", pos: pos})
		return -1
	}
	if f.kind == vFuncRef && f.ftab != nil {
		return p.deferFuncCall(fr, in, f, args, cur)
	}
	if f.kind == vFuncRef {
		return p.callFuncRef(fr, in, f, args, cur)
	}
	if f.kind != vFunc {
		s.unsupported(pos, "a call of %s", describeCallee(f))
	}
	if v, ok := s.mathCall(f.fn, args, pos); ok {
		if used(in) {
			fr.vals[in] = v
		}
		return cur
	}
	if isSyncMapOp(f.fn) {
		return p.syncMapOp(fr, in, f.fn, args, cur)
	}
	callPos := token.NoPos
	if isWaitGroupGo(f.fn) {
		sh, err := s.x.wgGoShim(f.fn)
		if err != nil {
			s.unsupported(pos, "%v", err)
		}
		f.fn, callPos = sh, pos // wggo.go
	}
	if !s.x.local(f.fn) {
		return p.extern(fr, in, f.fn, args, cur)
	}
	s.checkCgo(fr, c, f.fn, pos)
	if why := fr.recursionRefused(f.fn); why != "" {
		// Refused where a run reaches it: a library's recursion that a
		// run never takes (sort's pdqsort on fewer than 13 elements
		// sorts by insertion) does not refuse the system.
		return p.refuseAt(cur, why, pos)
	}
	child := s.bindCall(f.fn, f.env, args, fr)
	child.site, child.onceVar, child.callPos = s.callBlock(in), s.onceCalls[in], callPos
	child.once = child.onceVar > 0
	p.lowerCallee(child, pos, cur)
	join := p.joinReturns(fr, in, f.fn, child.returns, pos)
	child.noteJoin(in, join)
	return join
}

// lowerSpawned lowers the body of the function a goroutine runs, started
// by the go statement at pos: a goroutine that runs the model's own source
// (go cancel()) has its steps shown at the go statement.
func (p *proc) lowerSpawned(child *frame, pos token.Pos, start int) {
	if p.s.x.inModelSource(child.fn.Pos()) && !p.s.x.inModelSource(pos) {
		p.modelCall = pos
	}
	p.lowerBody(child, child.fn.Blocks[0], 0, -1, start)
	p.modelCall = token.NoPos
}

// lowerCallee lowers the body of the function child calls from start, for
// a call at pos: a wrapper the SSA builder made, whose instructions have no
// positions, has its steps and panics reported at the call.
func (p *proc) lowerCallee(child *frame, pos token.Pos, start int) {
	outer, outerModel := p.wrapperPos, p.modelCall
	if child.fn.Synthetic != "" {
		p.wrapperPos = pos
	}
	if !p.modelCall.IsValid() && p.s.x.inModelSource(child.fn.Pos()) && !p.s.x.inModelSource(pos) {
		p.modelCall = pos
	}
	p.lowerBody(child, child.fn.Blocks[0], 0, -1, start)
	p.wrapperPos, p.modelCall = outer, outerModel
}

// joinReturns joins the returns rets of fn, inlined for the call in, at one
// location, which it returns (-1 when fn never returns), and binds the
// call's results.
func (p *proc) joinReturns(fr *frame, in *ssa.Call, fn *ssa.Function, rets []retSite, pos token.Pos) int {
	s := p.s
	if len(rets) == 0 {
		return -1 // the callee never returns
	}
	n := fn.Signature.Results().Len()
	res := make([]value, n)
	var slots []joinSlot
	for k := 0; k < n; k++ {
		res[k] = rets[0].vals[k]
		if !used(in) {
			continue
		}
		vals := make([]value, len(rets))
		for i, r := range rets {
			vals[i] = r.vals[k]
		}
		if allSame(vals) {
			continue
		}
		t := fn.Signature.Results().At(k).Type()
		name := fmt.Sprintf("%s.result%d", spawnName(fn, nil), k)
		if noiseJoin(vals) && !slices.ContainsFunc(vals, isInt) {
			res[k] = noiseOf(vals)
			continue
		}
		if noiseJoin(vals) {
			r := p.newReg(name, t)
			p.holdsResult(r, fr, in, k)
			res[k] = p.noisyValue(r, name, t, noiseOf(vals))
			slots = append(slots, joinSlot{k: k, reg: r, noisy: true, taint: res[k].taint.(model.RegRef).Reg, get: func(v value) value { return v }})
			continue
		}
		if !isAggregate(t) || !allAgg(vals) {
			var sl joinSlot
			res[k], sl = p.joinLeaf(fr, in, k, vals, t, name, rets, pos, func(v value) value { return v })
			slots = append(slots, sl)
			continue
		}
		// A struct or array: a register per cell that differs.
		agg := map[string]value{}
		for _, c := range s.aggCells(t, pos) {
			cellVals := make([]value, len(vals))
			for i, v := range vals {
				cellVals[i] = cellOf(v, c)
			}
			if allSame(cellVals) {
				agg[c.key] = cellVals[0]
				continue
			}
			var sl joinSlot
			agg[c.key], sl = p.joinLeaf(fr, in, k, cellVals, c.typ, name+c.name, rets, pos, func(v value) value { return cellOf(v, c) })
			slots = append(slots, sl)
		}
		res[k] = value{kind: vAgg, agg: agg}
	}
	join := rets[0].loc
	if len(rets) > 1 {
		join = p.newLoc(pos)
		for _, r := range rets {
			loc := r.loc
			var ms []model.Op
			for _, sl := range slots {
				x := sl.get(r.vals[sl.k])
				if sl.noisy {
					e, taint := noisyParts(x)
					ms = append(ms, model.AssignOp(sl.reg, e), model.AssignOp(sl.taint, taint))
				} else if sl.ptr {
					ms = append(ms, model.AssignOp(sl.reg, s.refExpr(x, pos)))
				} else if sl.time {
					w, _ := s.joinTimeWord(x, pos)
					ms = append(ms, model.AssignOp(sl.reg, w))
				} else {
					ms = append(ms, model.AssignOp(sl.reg, s.asInt(x, pos)))
				}
			}
			if len(ms) == 0 {
				p.emitTo(loc, model.NopOp(), join, pos, Origin{})
				continue
			}
			for i, m := range ms {
				if i == len(ms)-1 {
					p.emitTo(loc, m, join, pos, Origin{})
				} else {
					loc = p.emit(loc, m, pos, Origin{})
				}
			}
		}
	}
	switch n {
	case 0:
	case 1:
		fr.vals[in] = res[0]
	default:
		fr.vals[in] = value{kind: vTuple, tup: res}
	}
	return join
}

// joinSlot is a register that joins a result, or a cell of one, over the
// returns of a call: the value get takes from result k of each return.
type joinSlot struct {
	k         int
	reg       int
	ptr, time bool // the register holds a heap id, a time.Time's word
	// noisy marks a join of integers and random numbers the model does
	// not compute (noisyValue): taint is the register that is 1 where
	// the result is one of the latter, reg holds the integers.
	noisy bool
	taint int
	get   func(value) value
}

// joinLeaf makes the register that joins vals, the values of type t that
// the returns give to result k (or to a cell of it, which get takes), and
// returns the joined value.
func (p *proc) joinLeaf(fr *frame, in *ssa.Call, k int, vals []value, t types.Type, name string, rets []retSite, pos token.Pos, get func(value) value) (value, joinSlot) {
	s := p.s
	if all, ok := ctxAlternatives(vals); ok {
		// Contexts: a register holding which of them all (ctxcells.go).
		r := p.newReg(name, types.Typ[types.Int])
		p.holdsResult(r, fr, in, k)
		if p.limits == nil {
			p.limits = map[int][2]int64{}
		}
		p.limits[r] = [2]int64{0, int64(len(all))}
		index := func(v value) value { return intVal(s.ctxIndex(all, get(v), pos)) }
		return value{kind: vCtxRef, e: model.R(r), alts: all}, joinSlot{k: k, reg: r, get: index}
	}
	if alts, ok := chanJoinAlts(vals); ok && isChanCell(t) {
		// Channels, timers' among them (a timer's C returned through an
		// interface with several implementations): a register holding
		// which of them all, as a channel variable set on several paths.
		r := p.newReg(name, types.Typ[types.Int])
		p.holdsResult(r, fr, in, k)
		timers := slices.ContainsFunc(alts, func(a value) bool { return a.kind == vTimer })
		ref := value{kind: vChanRef, e: model.R(r), alts: alts, typ: t, timers: timers}
		index := func(v value) value { return intVal(s.chanIndex(ref, get(v), pos)) }
		return ref, joinSlot{k: k, reg: r, get: index}
	}
	ptrRes := isPtrCell(t) && allRefLikeVals(vals)
	timeRes := isTime(t)
	for _, v := range vals {
		if isNanos(v) {
			s.unsupported(pos, "nanoseconds of a time (t.UnixNano()) returned on one of several paths")
		}
		if _, ok := s.joinTimeWord(v, pos); !ok {
			timeRes = false
		}
	}
	if !isScalarPayload(t) && !ptrRes && !timeRes {
		s.unsupported(pos, "a %s result that depends on the path taken", t)
	}
	r := p.newReg(name, t)
	p.holdsResult(r, fr, in, k)
	sl := joinSlot{k: k, reg: r, ptr: ptrRes, time: timeRes, get: get}
	if !ptrRes {
		return intVal(model.R(r)), sl
	}
	objs, ok := s.madeErrors(rets, k)
	if !ok {
		objs = s.candidates(t)
	}
	return value{kind: vRef, e: model.R(r), objs: objs, typ: t}, sl
}

// allTimeWords reports whether every value of vals is a time.Time that a
// word holds (joinTimeWord).
func (s *system) allTimeWords(vals []value, pos token.Pos) bool {
	for _, v := range vals {
		if _, ok := s.joinTimeWord(v, pos); !ok {
			return false
		}
	}
	return len(vals) > 0
}

// joinTimeWord returns the word memory would keep for v, a time.Time a
// return gives (timeWord; the zero Time is 0): a join of times holds it,
// and clockOf reads the joined value back.
func (s *system) joinTimeWord(v value, pos token.Pos) (model.Expr, bool) {
	switch {
	case v.kind == vAgg && len(v.agg) == 0:
		return model.C(0), true
	case v.kind == vInt && v.clock == nil:
		return v.e, true // a reading, or a word loaded from memory
	}
	return s.timeWord(v, pos)
}

// allSame reports whether every value of vals is the same.
func allSame(vals []value) bool {
	for _, v := range vals[1:] {
		if !same(v, vals[0]) {
			return false
		}
	}
	return true
}

// allAgg reports whether every value of vals is a struct or array value.
func allAgg(vals []value) bool {
	for _, v := range vals {
		if v.kind != vAgg {
			return false
		}
	}
	return true
}

// allRefLikeVals reports whether every value of vals is a heap id.
func allRefLikeVals(vals []value) bool {
	for _, v := range vals {
		if !isRefLike(v) {
			return false
		}
	}
	return true
}

// extern lowers a call of sync/atomic, sync or runtime.
func (p *proc) extern(fr *frame, in *ssa.Call, fn *ssa.Function, args []value, cur int) int {
	s := p.s
	pos := in.Pos()
	if n, ok := noiseArg(args); ok && !noiseSink(fn) {
		// A jitter only sets durations: any other call may depend on
		// its value (a ticker's, a Repeat's count).
		what, _, _ := strings.Cut(n.why, ", a random number")
		return p.refuseAt(cur, fmt.Sprintf("passing %s (a random number fencecheck does not compute) to %s", what, fn.String()), pos)
	}
	if op, ok := isCondMethod(fn); ok {
		return p.condCall(fr, in, op, args[0], cur)
	}
	if isRandMethod(fn) && len(args) > 0 {
		cur = p.randState(fn, args[0], pos, cur)
	}
	if p.randFloatCall(fr, in, fn) {
		return cur
	}
	if randBounded(fn) {
		return p.randCall(fr, in, args, cur)
	}
	if next, ok := p.runtimeCall(fr, in, fn, args, cur); ok {
		return next
	}
	if next, ok := p.timeCall(fr, in, fn, args, cur); ok {
		return next
	}
	if next, ok := p.poolCall(fr, in, fn, args, cur); ok {
		return next
	}
	if isTimeFunc(fn, "AfterFunc") && len(args) == 2 {
		return p.afterFuncInProc(fr, in, args[1], cur)
	}
	if isTimeFunc(fn, "After") || isTimeFunc(fn, "Tick") {
		// A fresh timer for each call: a channel a receive from is ready at
		// a moment that may be any. time.Tick of a duration not above 0
		// is nil.
		fr.vals[in] = value{kind: vTimer}
		if d, ok := args[0].constant(); ok && d <= 0 && isTimeFunc(fn, "Tick") {
			fr.vals[in] = value{kind: vNil}
		}
		return cur
	}
	if isTimeFunc(fn, "NewTicker") {
		// Go panics on an interval not above 0.
		if cur = p.positiveInterval(args[0], "NewTicker", in.Pos(), cur); cur < 0 {
			return cur
		}
	}
	if isTimeFunc(fn, "NewTimer") || isTimeFunc(fn, "NewTicker") {
		// Made once, like a channel: armed from its creation, which is the
		// first moment anything can reach it (a janitor's ticker).
		again := inLoop(fr, in.Block())
		if again && !timerDiesInIteration(in) {
			return p.pooledTimer(fr, in, fn, cur)
		}
		if !again {
			fr.vals[in] = value{kind: vTicker, tick: s.madeTimer(in.Type(), in.Pos())}
			return cur
		}
		t := &ticker{name: "timer", once: true, stopped: -1, turn: -1, pos: in.Pos()}
		if fn.Name() == "NewTicker" {
			t.name, t.once = "ticker", false
		}
		s.tickers = append(s.tickers, t)
		fr.vals[in] = value{kind: vTicker, tick: t}
		if again {
			// Each iteration's timer is gone by the next one's creation
			// (nothing keeps it or its channel): one timer, armed
			// again where the next is made, as Reset arms it.
			ts := tickStop{p: p, from: cur, to: p.newLoc(in.Pos()), tick: t, pos: in.Pos(), reg: -1,
				origin: Origin{Node: s.chanNode(fr, in, in.Pos())}}
			s.tickStops = append(s.tickStops, ts)
			return ts.to
		}
		return cur
	}
	if len(args) > 0 && (args[0].kind == vCtxRef || args[0].kind == vNil) {
		if next, ok := p.deriveFromRef(fr, in, fn, args, cur); ok {
			return next
		}
	}
	if v, ok := s.contextCall(fn, args, in.Pos()); ok {
		if v.ctxVals != nil {
			// context.WithValue: the parent's cancellation, with a value.
			fr.vals[in] = v
			return cur
		}
		if v.kind == vCtx && v.ctx.parent == nil {
			// context.Background or TODO: never cancelled, no variable of
			// its own, the same wherever it is made.
			fr.vals[in] = v
			return cur
		}
		if inLoop(fr, in.Block()) {
			s.unsupported(in.Pos(), "a context.%s in a loop of a goroutine (each iteration would make a new one)", fn.Name())
		}
		// A goroutine's own context, made once: a node of the tree like
		// the set-up's, which nothing can reach before it is made.
		fr.vals[in] = v
		cur = p.madeStep([]*ctxNode{v.tup[0].ctx}, nil, in.Pos(), cur)
		if n := v.tup[0].ctx; n.past {
			// Go cancels it, as expired, before WithTimeout returns.
			c := &chanClose{p: p, from: cur, to: p.newLoc(in.Pos()), cancel: n, expire: true, pos: in.Pos()}
			s.chanCloses = append(s.chanCloses, c)
			return c.to
		}
		return cur
	}
	if len(args) > 0 && args[0].kind == vTicker {
		return p.tickerCall(fr, in, fn.Name(), args[0].tick, in.Pos(), cur)
	}
	if len(args) > 0 && s.timerRef(args[0]) && fn.Signature.Recv() != nil {
		return p.timerRefCall(fr, in, fn.Name(), args[0], cur)
	}
	if next, ok := p.externCall(fr, in, fn, args, cur); ok {
		return next
	}
	k, vt := classifyExtern(fn)
	switch k {
	case extNone:
		s.unsupported(pos, "a call of %s (not modelled)", fn.String())
	case extGosched:
		return cur
	case extWGGo:
		s.unsupported(pos, "WaitGroup.Go run by a goroutine or by the system function after the set-up (the set-up's are modelled; write wg.Add(1) and a go statement that defers wg.Done() here)")
	}
	o := Origin{}
	if x, ok := s.x.debugOf(fr.fn).expr[in]; ok {
		o.Node, pos = x, x.Pos()
		if call, ok := ast.Unparen(x).(*ast.CallExpr); ok {
			s.setCallTarget(&o, fn, call)
		}
	}
	if p.nilDeref(args[0], pos, cur) {
		return -1
	}
	ptr := p.pointerArg(args[0], pos)
	if ptr.obj.owner >= 0 && !ptr.dynamic() {
		// Synchronisation on an object of the goroutine: make it shared
		// (another round lowers it so from its allocation on).
		s.idOf(ptr.obj, pos)
	}
	t, _ := ptr.target()
	if isPtrCell(vt) {
		if classify(t) != leafPointer {
			s.unsupported(pos, "%s on a %s", fn.Name(), t)
		}
		if o.Type == nil {
			o.Type = t
		}
		return p.externPtr(fr, in, k, vt, ptr, args, pos, o, cur)
	}
	switch lk := classify(t); {
	case k >= extWGAdd && k <= extWGWait && lk != leafWaitGroup,
		k >= extLock && lk != leafMutex,
		k < extWGAdd && lk != leafInt && lk != leafAtomic:
		s.unsupported(pos, "%s on a %s", fn.Name(), t)
	}
	arg := func(i int) model.Expr { return s.storedWord(args[i], pos) }
	if decl := s.clockKey(ptr); decl != nil && s.heap.hint.nanosCells[decl] && (k == extAdd || k == extAnd || k == extOr) {
		s.unsupported(pos, "%s on %s, which holds nanoseconds of times (t.UnixNano()): only Load, Store, Swap and CompareAndSwap are modelled there", fn.Name(), decl.Name())
	}
	var ops func(x int) []model.Op
	var res value
	switch k {
	case extLoad:
		r := p.resultReg(fr, in, vt)
		ops = func(x int) []model.Op { return []model.Op{model.AtomicReadOp(x, r)} }
		if r >= 0 {
			res = s.loadedWord(ptr, model.R(r))
		}
	case extStore:
		s.noteClockCell(ptr, args[1], false, pos)
		v := arg(1)
		ops = func(x int) []model.Op { return []model.Op{model.Exchange(x, -1, v)} }
	case extSwap:
		s.noteClockCell(ptr, args[1], false, pos)
		r, v := p.resultReg(fr, in, vt), arg(1)
		ops = func(x int) []model.Op { return []model.Op{model.Exchange(x, r, v)} }
		if r >= 0 {
			res = s.loadedWord(ptr, model.R(r))
		}
	case extAdd, extWGAdd:
		d := arg(1)
		if c, ok := d.(model.Const); ok && isUnsigned(vt) {
			// ^uint32(0) and friends decrement.
			if lo, hi, _ := typeRange(vt); lo == 0 && hi < math.MaxInt64 && c.Value > hi/2 {
				d = model.C(c.Value - hi - 1)
			}
		}
		r := -1
		if k == extAdd {
			r = p.resultReg(fr, in, vt)
		}
		ops = func(x int) []model.Op { return []model.Op{fetchAdd(x, r, d, vt)} }
		if k == extWGAdd {
			// A counter below zero faults: Go panics (see Entity.Panic).
			ops = func(x int) []model.Op { return []model.Op{model.FetchAdd(x, r, d)} }
		}
		if r >= 0 {
			res = intVal(wrapTo(model.Bin(model.OpAdd, model.R(r), d), vt))
		}
	case extAnd, extOr:
		// Go 1.23's atomic And and Or return the old value.
		d, op := arg(1), model.OpBitAnd
		if k == extOr {
			op = model.OpBitOr
		}
		r := p.resultReg(fr, in, vt)
		ops = func(x int) []model.Op {
			return []model.Op{model.LockedOp(model.ReadOp(x, r), model.WriteOp(x, model.Bin(op, model.V(x), d)))}
		}
		if r >= 0 {
			res = intVal(model.R(r))
		}
	case extCAS, extTryLock:
		r := p.resultReg(fr, in, vt)
		old, nw := model.C(0), model.C(1)
		if k == extCAS {
			s.noteClockCell(ptr, args[2], false, pos)
			old, nw = arg(1), arg(2)
		}
		ops = func(x int) []model.Op { return casOps(x, old, nw, r) }
		if r >= 0 {
			res = intVal(model.R(r))
		}
	case extWGDone:
		ops = func(x int) []model.Op { return []model.Op{model.FetchAdd(x, -1, model.C(-1))} }
	case extWGWait:
		ops = func(x int) []model.Op {
			return []model.Op{{Kind: model.Read, Var: x, Reg: -1, Expr: model.C(0), Atomic: true}}
		}
	case extLock:
		ops = func(x int) []model.Op { return []model.Op{model.CASSuccess(x, -1, model.C(0), model.C(1))} }
	case extUnlock:
		// Unlocking an unlocked mutex is Go's fatal error, which no
		// recover stops.
		// The fatal step leaves from where the unlock does, after the
		// choice of the mutex a run-time pointer names.
		if o.Type == nil {
			o.Type = t
		}
		join := p.newLoc(pos)
		p.eachCase(cur, ptr, pos, func(q pointer, from int) {
			x := s.varFor(q)
			p.emitTo(from, model.LockedOp(model.ReadEqOp(x, model.C(1)), model.WriteOp(x, model.C(0))), join, pos, o)
			p.fatal(from, model.LockedOp(model.GuardOp(model.Bin(model.OpNe, model.V(x), model.C(1))), model.ReadOp(x, -1)),
				"sync: unlock of unlocked mutex", pos, o)
		})
		return join
	}
	if o.Type == nil {
		o.Type = t
	}
	cur = p.access(cur, ptr, pos, o, func(q pointer) []model.Op { return ops(s.varFor(q)) })
	if res.kind == vInt || isNanos(res) {
		fr.vals[in] = res
	}
	return cur
}

// casOps are the two outcomes of a compare-and-swap of x from old to nw,
// each setting register r (when r >= 0) to whether it swapped.
func casOps(x int, old, nw model.Expr, r int) []model.Op {
	succ, fail := model.CASSuccess(x, -1, old, nw), model.CASFailure(x, -1, old)
	if r >= 0 {
		succ.Body = append(succ.Body, model.AssignOp(r, model.C(1)))
		fail.Body = append(fail.Body, model.AssignOp(r, model.C(0)))
	}
	return []model.Op{succ, fail}
}
