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

// Go statements executed by processes.
//
// A goroutine that a process starts becomes a process of its own, waiting
// at its initial location for a variable that the parent sets in a locked
// step when it executes the go statement (a go statement happens before
// the goroutine starts). Values known only at run time that the goroutine
// gets (its integer arguments, the integers its closure captures, pointers
// chosen at run time) are written by the parent, in the same locked step,
// to variables of their own, which the child reads into registers in its
// first, locked, step.
//
// A go statement in a loop of a process starts one goroutine per
// iteration. When the loop counts a variable from a constant to a constant
// bound (for i := 0; i < 3; i++, for i := range 3), the number of its
// iterations is known, and the go statement gets one slot per iteration: a
// process of its own, with its own start variable and argument variables.
// A register of the parent counts the goroutines started; the statement's
// j-th execution, when the count is j, starts the j-th process. The count's
// domain ends at the number of slots, so that an execution past the last
// slot, which the loop's bound rules out, would leave it, which the
// analysis reports as inconclusive: no goroutine is ever lost.
//
// A loop variable that the goroutine's closure captures, its own copy per
// iteration since Go 1.22, counts the same way (cellCounter), and the
// goroutine gets its value like an argument's (captures.go).

// maxFanOut bounds the goroutines one go statement in a loop of a process
// may start: each is a process of the model, which multiplies its states,
// and a fan-out of a few goroutines shows the orderings among them that
// matter (two that race, one that waits for another).
const maxFanOut = 8

// A go statement in a loop whose iterations cannot be counted (a
// dispatcher's for { select { ... } } that starts a worker while fewer
// than its maximum run, as gammazero/workerpool's does) gets
// maxUncountedGo slots the same way: the count leaving its domain at the
// next execution makes the answer inconclusive, naming the count.
const maxUncountedGo = 3

// maxTrips bounds the iterations countLoop follows to find when a loop
// ends.
const maxTrips = 1 << 16

// fanOut is the goroutines a go statement in a counted loop of a process
// may start.
type fanOut struct {
	n    int     // at most this many: one per iteration that runs the statement
	name string  // the loop variable, "" when it has no Go name
	vals []int64 // its value in each of those iterations
	// cell is, for a loop variable kept in cells (cellCounter), the one
	// allocated before the loop, which the process keeps as the only one;
	// lo and hi bound the values it holds from the loop's start to its end.
	cell   *ssa.Alloc
	lo, hi int64
	// each says that the statement runs in every iteration but the last:
	// its j-th execution is in iteration j.
	each bool
}

// countLoop finds how many times the go statement in, which lies in a loop
// of fr's function or in a function called in a loop (errgroup's Go, a
// pool's), may run: the loop must be the only one around it and count an
// integer variable with a constant step from a constant start to a
// constant bound. ok is false when it is not such a loop; n is then how
// many times the loop's bound lets it run, or -1 when that is unknown.
func (s *system) countLoop(fr *frame, in *ssa.Go) (f fanOut, ok bool) {
	lf, b := fr, in.Block()
	if !inCycle(b) {
		lf = nil
	}
	for g := fr; g != nil; g = g.parent {
		if g.site == nil || !inCycle(g.site) {
			continue
		}
		if lf != nil {
			return fanOut{n: -1}, false // two loops around it
		}
		// The call runs once per iteration of the loop around its site,
		// and the go statement at most once per call.
		lf, b = g.parent, g.site
	}
	if lf == nil {
		return fanOut{n: -1}, false
	}
	return s.countLoopAt(lf, b, lf == fr)
}

// countLoopAt finds how many times block b of fr's function, which lies in
// a loop, may run (countLoop); direct says b holds the go statement itself
// rather than a call of the function that does.
func (s *system) countLoopAt(fr *frame, b *ssa.BasicBlock, direct bool) (f fanOut, ok bool) {
	scc := cycleOf(b)
	var head *ssa.BasicBlock
	for _, h := range b.Parent().Blocks {
		if scc[h] && dominatesAll(h, scc) {
			head = h
			break
		}
	}
	if head == nil || reenters(b, head, scc) {
		return fanOut{n: -1}, false
	}
	var latches []*ssa.BasicBlock
	for _, pr := range head.Preds {
		if scc[pr] {
			latches = append(latches, pr)
		}
	}
	if n, ok := mapRangeTrips(fr, head); ok {
		// A range over a map visits each of its keys at most once. A go
		// statement in a function the range calls (WaitGroup.Go) is not
		// counted: its goroutines would get values of the range's
		// registers the model does not pass.
		return fanOut{n: n}, direct
	}
	best := fanOut{n: -1}
	for _, instr := range head.Instrs {
		phi, isPhi := instr.(*ssa.Phi)
		if !isPhi {
			break
		}
		init, step, next, isCounter := s.counter(fr, phi, scc)
		var cell *ssa.Alloc
		if !isCounter {
			init, step, isCounter = s.cellCounter(fr, phi)
			cell, _, _ = loopFamily(phi)
		}
		if !isCounter {
			continue
		}
		for c := range scc {
			n, trips, found := s.exitTest(fr, c, phi, next, init, step, b, head, scc, latches)
			if found && (best.n < 0 || n < best.n) {
				best = fanOut{n: n, each: true}
				for _, l := range latches {
					best.each = best.each && b.Dominates(l)
				}
				if cell != nil {
					last := init + int64(trips)*step
					best.cell, best.lo, best.hi = cell, min(init, last), max(init, last)
				}
				if name := s.loopVarName(fr, phi); token.IsIdentifier(name) {
					best.name = name
				}
				best.vals = nil
				for j := range n {
					best.vals = append(best.vals, init+int64(j)*step)
				}
			}
		}
	}
	return best, best.n >= 0
}

// mapRangeTrips returns, when head is the head of a range over a map a
// process lowers, the most iterations the range may run: the keys of the
// largest map it may visit (mapRange).
func mapRangeTrips(fr *frame, head *ssa.BasicBlock) (int, bool) {
	for _, instr := range head.Instrs {
		next, ok := instr.(*ssa.Next)
		if !ok || next.IsString {
			continue
		}
		it := fr.vals[next.Iter].it
		if it == nil || it.m != nil || len(it.order) > 0 {
			return 0, false // not a process's range
		}
		n := 0
		for _, a := range it.alts {
			n = max(n, len(a.state))
		}
		return n, true
	}
	return 0, false
}

// loopVarName returns the Go variable that phi, a loop's counter, holds,
// or "" when it is none (the hidden counter of a range over an integer
// whose variable the body does not use).
func (s *system) loopVarName(fr *frame, phi *ssa.Phi) string {
	if id, ok := s.x.debugOf(fr.fn).ident[phi]; ok && id != nil {
		return id.Name
	}
	if e, ok := s.x.debugOf(fr.fn).expr[phi]; ok {
		if id, ok := ast.Unparen(e).(*ast.Ident); ok {
			return id.Name
		}
	}
	if obj := s.x.defs[phi.Pos()]; obj != nil && obj.Name() == phi.Comment {
		return phi.Comment
	}
	if token.IsIdentifier(phi.Comment) {
		return phi.Comment
	}
	return ""
}

// cycleOf returns the blocks on a cycle through b: those b reaches that
// reach b.
func cycleOf(b *ssa.BasicBlock) map[*ssa.BasicBlock]bool {
	reach := func(start *ssa.BasicBlock, next func(*ssa.BasicBlock) []*ssa.BasicBlock) map[*ssa.BasicBlock]bool {
		seen := map[*ssa.BasicBlock]bool{start: true}
		stack := []*ssa.BasicBlock{start}
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, y := range next(x) {
				if !seen[y] {
					seen[y] = true
					stack = append(stack, y)
				}
			}
		}
		return seen
	}
	fwd := reach(b, func(x *ssa.BasicBlock) []*ssa.BasicBlock { return x.Succs })
	bwd := reach(b, func(x *ssa.BasicBlock) []*ssa.BasicBlock { return x.Preds })
	scc := map[*ssa.BasicBlock]bool{}
	for x := range fwd {
		if bwd[x] {
			scc[x] = true
		}
	}
	return scc
}

// dominatesAll reports whether h dominates every block of set.
func dominatesAll(h *ssa.BasicBlock, set map[*ssa.BasicBlock]bool) bool {
	for x := range set {
		if !h.Dominates(x) {
			return false
		}
	}
	return true
}

// reenters reports whether b lies on a cycle of scc that avoids head: a
// loop inside the counted one, which may run b more than once per
// iteration.
func reenters(b, head *ssa.BasicBlock, scc map[*ssa.BasicBlock]bool) bool {
	if b == head {
		return false
	}
	return searchSuccs(b, func(x *ssa.BasicBlock) (found, goOn bool) { return x == b, scc[x] && x != head })
}

// counter reports whether phi, in the head of the loop scc, counts: it
// enters the loop with the constant init and every iteration sets it to
// next, phi plus the constant step.
func (s *system) counter(fr *frame, phi *ssa.Phi, scc map[*ssa.BasicBlock]bool) (init, step int64, next ssa.Value, ok bool) {
	if !isIntegral(phi.Type()) {
		return 0, 0, nil, false
	}
	haveInit := false
	for k, e := range phi.Edges {
		if !scc[phi.Block().Preds[k]] {
			c, isConst := s.get(fr, e).constant()
			if !isConst || haveInit && c != init {
				return 0, 0, nil, false
			}
			init, haveInit = c, true
			continue
		}
		bo, isBin := e.(*ssa.BinOp)
		if !isBin || bo.X != phi || bo.Op != token.ADD && bo.Op != token.SUB || next != nil && e != next {
			return 0, 0, nil, false
		}
		c, isConst := s.get(fr, bo.Y).constant()
		if !isConst {
			return 0, 0, nil, false
		}
		if bo.Op == token.SUB {
			c = -c
		}
		next, step = e, c
	}
	return init, step, next, haveInit && next != nil
}

// cellCounter reports whether phi, in the head of a loop, chooses the
// cells of a three-clause for loop's variable that closures capture
// (loopFamily), and that variable counts: the loop starts it at the
// constant init, and every post statement adds the constant step to it
// (i++, i -= 2) in the cell it has just filled from the iteration's.
func (s *system) cellCounter(fr *frame, phi *ssa.Phi) (init, step int64, ok bool) {
	outer, next, ok := loopFamily(phi)
	if !ok || !isIntegral(deref(phi.Type())) {
		return 0, 0, false
	}
	var initStore *ssa.Store
	var nextStores []*ssa.Store
	for _, r := range *outer.Referrers() {
		if st, isStore := r.(*ssa.Store); isStore {
			if initStore != nil {
				return 0, 0, false
			}
			initStore = st
		}
	}
	for _, r := range *next.Referrers() {
		if st, isStore := r.(*ssa.Store); isStore {
			nextStores = append(nextStores, st)
		}
	}
	if initStore == nil || len(nextStores) != 2 {
		return 0, 0, false
	}
	init, ok = s.get(fr, initStore.Val).constant()
	if !ok {
		return 0, 0, false
	}
	// loopFamily checked that the first store copies the iteration's
	// value; the second is the post statement's.
	post := nextStores[1]
	if indexOf(nextStores[0]) > indexOf(post) {
		post = nextStores[0]
	}
	if post.Block() != next.Block() {
		return 0, 0, false
	}
	bo, isBin := post.Val.(*ssa.BinOp)
	if !isBin || bo.Op != token.ADD && bo.Op != token.SUB {
		return 0, 0, false
	}
	if ld, isLoad := bo.X.(*ssa.UnOp); !isLoad || ld.Op != token.MUL || ld.X != next {
		return 0, 0, false
	}
	step, ok = s.get(fr, bo.Y).constant()
	if !ok {
		return 0, 0, false
	}
	if bo.Op == token.SUB {
		step = -step
	}
	return init, step, true
}

// loaded returns phi when x loads the cell that phi, the cells of a loop
// variable (cellCounter), chooses; else x.
func loaded(x ssa.Value, phi *ssa.Phi) ssa.Value {
	if ld, ok := x.(*ssa.UnOp); ok && ld.Op == token.MUL && ld.X == phi {
		return phi
	}
	return x
}

// exitTest reports whether block c ends the loop scc (with head head and
// latches latches) by a test of phi (or of next, phi's value in the next
// iteration, which starts at init and changes by step) against a constant,
// that every iteration must pass to go on. n is then the most times b, a
// block of the loop that runs at most once per iteration, may run, and
// trips the most iterations that pass the test.
func (s *system) exitTest(fr *frame, c *ssa.BasicBlock, phi *ssa.Phi, next ssa.Value, init, step int64,
	b, head *ssa.BasicBlock, scc map[*ssa.BasicBlock]bool, latches []*ssa.BasicBlock) (n, trips int, ok bool) {
	if len(c.Instrs) == 0 {
		return 0, 0, false
	}
	test, isIf := c.Instrs[len(c.Instrs)-1].(*ssa.If)
	if !isIf {
		return 0, 0, false
	}
	stay, exit, stayTrue := c.Succs[0], c.Succs[1], true
	if !scc[stay] {
		stay, exit, stayTrue = exit, stay, false
	}
	if !scc[stay] || scc[exit] {
		return 0, 0, false
	}
	for _, l := range latches {
		if !c.Dominates(l) {
			return 0, 0, false
		}
	}
	cmp, isBin := test.Cond.(*ssa.BinOp)
	if !isBin {
		return 0, 0, false
	}
	op, x, y := cmp.Op, cmp.X, cmp.Y
	if x = loaded(x, phi); x != phi && x != next {
		op, x, y = mirror(op), loaded(y, phi), x
	}
	if x != phi && x != next {
		return 0, 0, false
	}
	bound, isConst := s.get(fr, y).constant()
	if !isConst {
		return 0, 0, false
	}
	off := int64(0)
	if x == next {
		off = step
	}
	lo, hi, ranged := typeRange(deref(phi.Type()))
	trips = -1
	for k := int64(0); k <= maxTrips; k++ {
		v := init + k*step + off
		if ranged && (v < lo || v > hi) {
			return 0, 0, false // it wraps around
		}
		if holds(op, v, bound) != stayTrue {
			trips = int(k)
			break
		}
	}
	if trips < 0 {
		return 0, 0, false
	}
	// The test runs in every iteration, the last one too; b runs in that
	// last iteration unless only passing the test leads to it: it lies
	// after the branch that stays in the loop, in the same iteration.
	n = trips + 1
	if c != b && len(stay.Preds) == 1 && stay.Dominates(b) {
		n = trips
	}
	return n, trips, true
}

// mirror returns the comparison that holds of y and x when op holds of x
// and y.
func mirror(op token.Token) token.Token {
	switch op {
	case token.LSS:
		return token.GTR
	case token.GTR:
		return token.LSS
	case token.LEQ:
		return token.GEQ
	case token.GEQ:
		return token.LEQ
	}
	return op
}

// holds evaluates the comparison op of x and y.
func holds(op token.Token, x, y int64) bool {
	switch op {
	case token.LSS:
		return x < y
	case token.LEQ:
		return x <= y
	case token.GTR:
		return x > y
	case token.GEQ:
		return x >= y
	case token.EQL:
		return x == y
	case token.NEQ:
		return x != y
	}
	return false
}

// passed is a value known only at run time that a process gives a
// goroutine it starts: written by the parent to a variable of each slot,
// read by the child into a register.
type passed struct {
	e    model.Expr // the parent's value
	name string     // the parameter or captured variable it is bound to
	typ  types.Type
	ref  value // for a pointer chosen at run time, the pointer (objs, typ)
	// cell is, for a captured variable the goroutine gets a copy of
	// (frozenCapture), the parent's cell: e is what it holds.
	cell *pointer
}

// spawnValues walks the arguments and captured values of a go statement
// that a process executes, refusing what a goroutine cannot be given, and
// returns them with each value known only at run time replaced by what
// give returns for it. A local variable of the parent that the goroutine
// shares escapes: it becomes shared memory from its allocation on, unless
// frozen says the goroutine may have a copy of it (frozenCapture) and it is
// private to the parent, owner; a channel variable that holds one channel
// (fixedChanCell) stays the parent's. child is the started process, or -1
// when the parent walks the values to pass.
func (s *system) spawnValues(pos token.Pos, sw spawn, frozen []bool, owner, child int, give func(passed) value) (args, env []value) {
	var walk func(v value, name string, t types.Type) value
	walk = func(v value, name string, t types.Type) value {
		if sv, o, ok := s.spilledRunTime(v); ok {
			// The cell of a function's variable that a closure captures,
			// written once, with a value holding the parent's values known
			// only at run time (a closure over its loop's variable, handed
			// to WaitGroup.Go): the child gets a cell of its own, written
			// once with that value, those values passed.
			inner := walk(sv, name, o.typ)
			if child < 0 {
				return v
			}
			c := s.newObject(o.name, o.typ, o.decl, -1)
			c.alloc = o.alloc
			s.spilled[c], s.spilledBy[c] = inner, child
			return value{kind: vPtr, ptr: pointer{obj: c}}
		}
		switch v.kind {
		case vInt:
			if _, ok := v.constant(); ok {
				return v
			}
			return give(passed{e: v.e, name: name, typ: t})
		case vRef:
			return give(passed{e: v.e, name: name, typ: v.typ, ref: v})
		case vFuncRef, vChanRef:
			// A function or channel chosen at run time (a task received
			// from a channel, handed to the worker it starts): its index
			// among alternatives that capture nothing known only at run
			// time.
			for _, alt := range v.alts {
				for _, e := range alt.env {
					if e.kind == vInt {
						if _, ok := e.constant(); ok {
							continue
						}
					}
					if e.kind == vInt || e.kind == vRef || e.kind == vFuncRef || e.kind == vChanRef || e.kind == vPtr && e.ptr.dynamic() {
						s.unsupported(pos, "a go statement inside a goroutine with %s whose closures capture values known only at run time", describe(v))
					}
				}
			}
			return give(passed{e: v.e, name: name, typ: t, ref: v})
		case vPtr:
			if v.ptr.dynamic() {
				s.unsupported(pos, "a go statement inside a goroutine with a pointer chosen at run time")
			}
			if _, fixed := s.calls.fixedChans[v.ptr.obj]; fixed {
				return v
			}
			if v.ptr.obj.owner >= 0 {
				// Another round lowers the system with the object
				// shared.
				s.idOf(v.ptr.obj, pos)
			}
			return v
		case vFunc:
			out := v
			out.env = make([]value, len(v.env))
			for i, e := range v.env {
				fname, ft := name, types.Type(types.Typ[types.Int])
				if i < len(v.fn.FreeVars) {
					fname, ft = v.fn.FreeVars[i].Name(), v.fn.FreeVars[i].Type()
				}
				out.env[i] = walk(e, fname, ft)
			}
			return out
		case vNil, vChan, vCond, vCtx, vCancel, vTimer, vTicker, vStop:
			return v
		}
		s.unsupported(pos, "a go statement inside a goroutine with %s", describe(v))
		return v
	}
	for i, a := range sw.args {
		name, t := fmt.Sprint(i), types.Type(types.Typ[types.Int])
		if i < len(sw.fn.Params) {
			name, t = sw.fn.Params[i].Name(), sw.fn.Params[i].Type()
		}
		args = append(args, walk(a, name, t))
	}
	for i, e := range sw.env {
		name, t := fmt.Sprint(i), types.Type(types.Typ[types.Int])
		if i < len(sw.fn.FreeVars) {
			name, t = sw.fn.FreeVars[i].Name(), sw.fn.FreeVars[i].Type()
		}
		if i < len(frozen) && frozen[i] && e.kind == vPtr && !e.ptr.dynamic() && len(e.ptr.path) == 0 && e.ptr.obj.owner == owner {
			cell := e.ptr
			env = append(env, give(passed{name: name, typ: deref(t), cell: &cell}))
			continue
		}
		env = append(env, walk(e, name, t))
	}
	return args, env
}

// slot is one goroutine that a go statement executed by a process may
// start.
type slot struct {
	name string // the process's name
	flag int    // the variable the parent sets when it starts it
	args []int  // the variables holding the values passed, in the order of nestedSpawn.passed
}

// StartFlagPrefix begins the name of the variable that the parent of a
// goroutine started inside a goroutine sets when its go statement runs: the
// rest of the name is the started goroutine's (messages show the step as
// "starts NAME").
const StartFlagPrefix = "go "

// newSlot makes the variables of a slot of a go statement, for the
// goroutine named name, that is passed the values ps.
func (s *system) newSlot(name string, ps []passed) slot {
	o := s.newObject(StartFlagPrefix+name, types.Typ[types.Bool], nil, -1)
	sl := slot{name: name, flag: s.varFor(pointer{obj: o})}
	for _, p := range ps {
		a := s.newObject(name+"."+p.name, p.typ, nil, -1)
		sl.args = append(sl.args, s.varFor(pointer{obj: a}))
	}
	return sl
}

// startOp is the locked step in which the parent starts the goroutine of
// sl, passing it the values ps.
func startOp(sl slot, ps []passed, extra ...model.Op) model.Op {
	body := append([]model.Op(nil), extra...)
	body = append(body, model.WriteOp(sl.flag, model.C(1)))
	for k, p := range ps {
		body = append(body, model.WriteOp(sl.args[k], p.e))
	}
	return model.LockedOp(body...)
}

// goInLoop lowers a go statement in a counted loop of a process (see the
// comment at the top of this file) at cur, and returns the location after
// it.
func (p *proc) goInLoop(fr *frame, in *ssa.Go, sw spawn, f fanOut, ps []passed, o Origin, cur int) int {
	s := p.s
	pos := in.Pos()
	line := s.x.fset.Position(pos).Line
	base := s.procNames([]spawn{sw})[0]
	n := nestedSpawn{sw: sw, parent: p, passed: ps, frozen: frozenCaptures(in), loop: true}
	for j := range f.n {
		suffix := fmt.Sprintf("(#%d)", j)
		if f.name != "" {
			suffix = fmt.Sprintf("(%s=%d)", f.name, f.vals[j])
		}
		name := base + suffix
		if len(base) > 0 && base[len(base)-1] == ')' {
			name = base[:len(base)-1] + ", " + suffix[1:]
		}
		n.slots = append(n.slots, s.newSlot(name, ps))
	}
	cnt := p.newReg(fmt.Sprintf("go@%d.started", line), types.Typ[types.Int])
	if p.limits == nil {
		p.limits = map[int][2]int64{}
	}
	p.limits[cnt] = [2]int64{0, int64(f.n)}
	if p.sources == nil {
		p.sources = map[int]source{}
	}
	p.sources[cnt] = source{fmt.Sprintf("the number of goroutines the go statement at line %d starts in a loop of goroutine %s (fencecheck models %d)", line, p.q.Name, f.n), pos}
	var cell *object
	if v, ok := fr.vals[f.cell]; ok && f.cell != nil && v.kind == vPtr && !v.ptr.dynamic() && v.ptr.obj.owner == p.idx {
		// The loop variable's cell: its values lie between its first and
		// its last; in iteration j, it holds vals[j].
		cell = v.ptr.obj
		r := p.privateReg(v.ptr)
		p.limits[r] = [2]int64{min(f.lo, 0), max(f.hi, 0)} // 0 before the loop starts
		p.sources[r] = source{fmt.Sprintf("the loop variable %s of the loop around the go statement at line %d (fencecheck models the values %d to %d)", f.name, line, f.lo, f.hi), pos}
	}
	join := p.newLoc(pos)
	for j, sl := range n.slots {
		sps := ps
		if cell != nil && f.each {
			sps = slices.Clone(ps)
			for k := range sps {
				if sps[k].cell != nil && sps[k].cell.obj == cell {
					sps[k].e = model.C(f.vals[j])
				}
			}
		}
		op := startOp(sl, sps, model.GuardOp(model.Bin(model.OpEq, model.R(cnt), model.C(int64(j)))))
		op.Body = append(op.Body, model.AssignOp(cnt, model.C(int64(j+1))))
		p.emitTo(cur, op, join, pos, o)
	}
	g := p.emit(cur, model.GuardOp(model.Bin(model.OpGe, model.R(cnt), model.C(int64(f.n)))), pos, o)
	p.emitTo(g, model.AssignOp(cnt, model.Bin(model.OpAdd, model.R(cnt), model.C(1))), join, pos, o)
	s.calls.nested = append(s.calls.nested, n)
	return join
}

// startChild lowers the goroutine of the k-th slot of n as a process of
// its own.
func (s *system) startChild(n nestedSpawn, k int) {
	sl := n.slots[k]
	p := s.newProc(sl.name)
	p.q.Init = p.newLoc(n.sw.fn.Pos())
	p.spawnWait = true
	wait := p.q.Init
	if n.after != nil {
		wait = s.startWhenFired(p, n.after[k], n.sw.pos)
	}
	var start int
	var regs []int
	if len(n.passed) == 0 {
		start = p.emit(wait, model.Op{Kind: model.Read, Var: sl.flag, Reg: -1, Expr: model.C(1), Atomic: true}, n.sw.pos, Origin{})
	} else {
		body := []model.Op{model.ReadEqOp(sl.flag, model.C(1))}
		for k, ps := range n.passed {
			r := p.newReg(ps.name, ps.typ)
			regs = append(regs, r)
			body = append(body, model.ReadOp(sl.args[k], r))
		}
		start = p.emit(wait, model.LockedOp(body...), n.sw.pos, Origin{})
	}
	next := 0
	args, env := s.spawnValues(n.sw.pos, n.sw, n.frozen, n.parent.idx, p.idx, func(ps passed) value {
		r := regs[next]
		next++
		if ps.cell != nil {
			// The goroutine's copy of a captured variable: a cell of its
			// own, which the register holds.
			o := s.newObject(ps.cell.obj.name, ps.typ, ps.cell.obj.decl, p.idx)
			if o.owner != p.idx {
				s.unsupported(n.sw.pos, "a captured variable that the goroutine shares further")
			}
			cell := pointer{obj: o}
			p.private[cell.key()] = r
			return value{kind: vPtr, ptr: cell}
		}
		if ps.ref.kind == vRef || ps.ref.kind == vFuncRef || ps.ref.kind == vChanRef {
			v := ps.ref
			v.e = model.R(r)
			return v
		}
		return intVal(model.R(r))
	})
	child := s.bindCall(n.sw.fn, env, args, nil)
	p.lowerSpawned(child, n.sw.pos, start)
	if n.after != nil {
		n.after[k].firedEnds(p, child.returns)
	}
	s.spawns = append(s.spawns, n.sw.pos)
}
