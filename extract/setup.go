package extract

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/fencecheck/fencecheck/model"
	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/ssa"
)

// spawn is one go statement executed by the setup.
type spawn struct {
	fn   *ssa.Function
	env  []value
	args []value
	pos  token.Pos
	wg   *pointer // for WaitGroup.Go: the group whose Done ends the process
	// after is, for time.AfterFunc, the timer whose firing starts the
	// process.
	after *ticker
	// captured lists, for a closure, the integer values of its free
	// variables when it was spawned ("i=0", "" when unknown), to tell apart
	// the goroutines a loop spawns from one go statement.
	captured []string
}

// split is where the setup ends and the system function becomes a process:
// before instruction idx of block b, or, when idx is 0 and pred >= 0, on the
// edge from b.Preds[pred] (before b's phis).
type split struct {
	b    *ssa.BasicBlock
	idx  int
	pred int
	// inner is set when the split lies inside the function that the call
	// b.Instrs[idx] invoked, whose frame is innerFr (see execCall).
	inner   *split
	innerFr *frame
}

// runSetup executes the system function concretely from its entry until no
// go statement can be reached any more, and returns the goroutines it
// spawned and where the rest of the function starts.
func (s *system) runSetup(fn *ssa.Function) (*frame, split, []spawn) {
	s.runInit()
	var spawns []spawn
	fr := newFrame(fn, nil)
	_, sp := s.exec(fr, true, &spawns)
	return fr, sp, spawns
}

// exec runs fr's function concretely. In the system function (top) it stops
// where no go statement can be reached any more (possibly inside a function
// it calls, see execCall); in a callee it runs to the return and yields the
// results.
func (s *system) exec(fr *frame, top bool, spawns *[]spawn) (value, split) {
	b, idx, pred := fr.fn.Blocks[0], 0, -1
	for {
		if top && (!s.x.mayStillSpawn(b, idx) || idx < len(b.Instrs) && s.heap.hint.splitAt != nil && b.Instrs[idx] == s.heap.hint.splitAt) {
			return value{}, split{b: b, idx: idx, pred: pred}
		}
		if idx >= len(b.Instrs) {
			s.fail(token.NoPos, "internal error: block %d of %s has no terminator", b.Index, fr.fn.Name())
		}
		if idx == 0 && pred >= 0 {
			// Phis read their operands simultaneously.
			var phis []*ssa.Phi
			var vals []value
			for _, in := range b.Instrs {
				phi, ok := in.(*ssa.Phi)
				if !ok {
					break
				}
				phis = append(phis, phi)
				vals = append(vals, s.get(fr, phi.Edges[pred]))
			}
			for i, phi := range phis {
				fr.vals[phi] = vals[i]
			}
			idx = len(phis)
			pred = -1
			continue
		}
		in := b.Instrs[idx]
		if top && s.firstGo == nil {
			s.topInstr = in
		}
		s.steps++
		if s.steps > maxSetupSteps {
			if s.firstGo != nil && len(s.heap.setupLoads) > 0 && s.heap.hint.splitAt == nil && s.splitReq == nil {
				// It loads, after a go statement, memory a goroutine may
				// write: a spin waiting for the goroutine, which never
				// runs in the set-up. The next round ends the set-up
				// before the first go statement.
				s.splitReq = s.firstGo
				s.heapChange("the set-up waits after a go statement for what a goroutine does")
				s.unsupported(in.Pos(), "a loop of the system function after a go statement that waits for what the goroutines do (the setup of system %s did not finish within %d steps)", s.name, maxSetupSteps)
			}
			s.unsupported(in.Pos(), "go statements in a loop without a constant bound (the setup of system %s did not finish within %d steps)", s.name, maxSetupSteps)
		}
		if in.Pos().IsValid() {
			s.curPos = in.Pos()
		}
		if dr, ok := in.(*ssa.DebugRef); ok {
			s.nameObject(fr, dr)
			s.setupRange(fr, dr)
		}
		if s.init.running && (s.initMap(fr, in) || s.initInstr(fr, in)) {
			idx++
			continue
		}
		if s.pure(fr, in) || s.setupMap(fr, in, *spawns) {
			idx++
			continue
		}
		next := func(to *ssa.BasicBlock) {
			for i, p := range to.Preds {
				if p == b {
					pred = i
					break
				}
			}
			b, idx = to, 0
		}
		switch in := in.(type) {
		case *ssa.Alloc:
			fr.vals[in] = value{kind: vPtr, ptr: pointer{obj: s.alloc(in, -1)}}
		case *ssa.MakeSlice:
			fr.vals[in] = s.makeSlice(fr, in, -1)
		case *ssa.IndexAddr, *ssa.Slice, *ssa.FieldAddr:
			// pure declined it: constant bounds out of range, or a nil
			// pointer.
			s.fail(in.Pos(), "the setup of system %s panics: %s", s.name, outOfRange(in))
		case *ssa.Store:
			if s.x.varargsStore(in) {
				break
			}
			ptr := s.staticPtr(s.get(fr, in.Addr), in.Pos())
			if len(*spawns) > 0 && s.reachable(ptr.obj) && !unsharedCell(fr, in.Addr) {
				s.splitSetup(in.Pos(), "a store to "+ptr.name())
			}
			s.setupStore(ptr, s.get(fr, in.Val), in.Val, in.Pos())
		case *ssa.MakeChan:
			fr.vals[in] = s.makeChan(fr, in)
		case *ssa.Send:
			s.setupSend(fr, in)
		case *ssa.Select:
			s.setupSelect(fr, in)
		case *ssa.UnOp:
			if in.Op == token.ARROW {
				s.setupRecv(fr, in)
				break
			}
			if x := s.get(fr, in.X); x.kind == vCondL {
				fr.vals[in] = x.cond.locker
				break
			} else if x.kind == vCond {
				// *sync.NewCond(l): the Cond itself, which a store
				// keeps in a field of type sync.Cond (condAt).
				fr.vals[in] = x
				break
			} else if x.kind == vTickerC {
				fr.vals[in] = value{kind: vTimer, tick: x.tick}
				break
			}
			if s.x.rangeUnevaluated(in) {
				break
			}
			ptr := s.staticPtr(s.get(fr, in.X), in.Pos())
			if len(*spawns) > 0 && s.reachable(ptr.obj) {
				s.setupLoadAfterGo(ptr, in.Pos())
			}
			fr.vals[in] = s.setupLoad(ptr, in.Type())
		case *ssa.Call:
			if sp, ok := s.execCall(fr, top, b, idx, in, spawns); ok {
				return value{}, sp
			}
		case *ssa.Go:
			s.noteSpawn(*spawns)
			*spawns = append(*spawns, s.goStmt(fr, in))
		case *ssa.If:
			c, ok := s.get(fr, in.Cond).constant()
			if !ok {
				s.fail(in.Pos(), "the setup of system %s branches on a value it cannot compute", s.name)
			}
			if c != 0 {
				next(b.Succs[0])
			} else {
				next(b.Succs[1])
			}
			continue
		case *ssa.Jump:
			next(b.Succs[0])
			continue
		case *ssa.Return:
			var res []value
			for _, r := range in.Results {
				res = append(res, s.get(fr, r))
			}
			switch len(res) {
			case 0:
				return value{}, split{}
			case 1:
				return res[0], split{}
			}
			return value{kind: vTuple, tup: res}, split{}
		case *ssa.Panic:
			if s.setupRecoverable(fr) {
				s.unsupported(in.Pos(), "a panic of the set-up that a deferred call may recover")
			}
			s.fail(in.Pos(), "the setup of system %s panics", s.name)
		case *ssa.Defer:
			s.setupDefer(fr, in)
		case *ssa.RunDefers:
			s.setupRunDefers(fr, spawns)
		default:
			s.unsupportedInstr(in)
		}
		idx++
	}
}

// nameObject names an anonymous object after the variable it is bound to
// (l := &lock{} names the object l).
func (s *system) nameObject(fr *frame, dr *ssa.DebugRef) {
	id, ok := ast.Unparen(dr.Expr).(*ast.Ident)
	if !ok || dr.IsAddr {
		return
	}
	v := s.get(fr, dr.X)
	nameChan(v, id.Name)
	nameCond(v, id.Name)
	nameCtx(v, id.Name)
	nameMapVar(v, id.Name)
	if v.kind == vSlice && v.ptr.ref != nil && len(v.ptr.path) == 0 {
		// The arrays of an allocation in a loop (sliceArrayRef).
		for _, o := range v.ptr.ref.objs {
			if o.anon && !o.named && o.holder == nil {
				o.name, o.anon = id.Name, false
			}
		}
		return
	}
	if (v.kind != vPtr && v.kind != vSlice) || len(v.ptr.path) != 0 || !v.ptr.obj.anon || v.ptr.obj.holder != nil {
		return
	}
	v.ptr.obj.name, v.ptr.obj.anon = id.Name, false
}

// alloc creates the object of an Alloc instruction.
func (s *system) alloc(in *ssa.Alloc, owner int) *object {
	name := in.Comment
	switch name {
	case "", "new", "complit", "slicelit", "makeslice", "varargs", "range", "rangefunc":
		name = ""
	}
	if !token.IsIdentifier(name) {
		name = ""
	}
	if id := s.x.debugOf(in.Parent()).ident[in]; name == "" && id != nil {
		name = id.Name // n := &node{...} names the object n
	}
	decl := s.x.defs[in.Pos()]
	return s.newObject(name, deref(in.Type()), decl, owner)
}

// staticPtr returns the pointer a setup instruction accesses.
func (s *system) staticPtr(v value, pos token.Pos) pointer {
	if v.kind != vPtr {
		if v.kind == vNil {
			s.fail(pos, "nil pointer dereference in the setup of system %s", s.name)
		}
		s.unsupported(pos, "memory reached through %s", describe(v))
	}
	if v.ptr.dynamic() {
		s.unsupported(pos, "an index the setup cannot compute")
	}
	if !s.init.running {
		s.checkInitAt(v.ptr, pos)
	}
	return v.ptr
}

// noteSpawn records, before the set-up starts its first goroutine, the
// objects that goroutine may reach and where the set-up may end instead
// (splitPoint).
func (s *system) noteSpawn(spawns []spawn) {
	if len(spawns) == 0 && !s.goStarted {
		s.spawnObjs, s.spawnChans = len(s.objects), len(s.chans)
		if s.topInstr != nil {
			s.firstGo = splitPoint(s.topInstr)
		}
		s.goStarted = true
	}
}

// splitPoint returns where the set-up may end so that in, the
// instruction of the system function that starts its first goroutine,
// runs in the system function's process: before in itself, or, when in
// lies in a loop (a g.Go per iteration), before the head of the outermost
// loop around it, on the edge that enters it, so that the process runs
// the loop from its start. It is nil for a loop without one head.
func splitPoint(in ssa.Instruction) ssa.Instruction {
	b := in.Block()
	if !inCycle(b) {
		return in
	}
	scc := cycleOf(b)
	for _, h := range b.Parent().Blocks {
		if scc[h] && dominatesAll(h, scc) {
			return h.Instrs[0]
		}
	}
	return nil
}

// splitSetup handles what, an action of the set-up after it started a
// goroutine that the goroutine may observe or wait for (a store to memory
// it may reach, a change to a map, a send or receive on a channel): the
// model starts every goroutine after the set-up, so the next round ends
// the set-up before the instruction of the system function that started
// the first (a go statement, or a call whose callee starts one: an
// errgroup's or a pool's Go), and the system function's own process runs
// the rest, go statements included, where Go runs it.
func (s *system) splitSetup(pos token.Pos, what string) {
	if s.firstGo == nil || s.heap.hint.splitAt != nil {
		s.unsupported(pos, "%s between go statements, where the set-up cannot end before the first (move it before the first go statement)", what)
	}
	if s.splitReq == nil {
		s.splitReq = s.firstGo
		s.heapChange("the set-up acts on shared memory or a channel after a go statement")
	}
}

// setupLoadAfterGo notes a load by the set-up, after a go statement, of
// the cell ptr, which a started goroutine may reach: when a goroutine
// writes it (the hint says so, loadsGoroutinesWrite), the set-up ends
// before the first go statement, as for a store there, so that the load is
// the system function's, concurrent with the goroutine.
func (s *system) setupLoadAfterGo(ptr pointer, pos token.Pos) {
	k := ptr.key()
	if s.heap.hint.splitLoads[k] {
		s.splitSetup(pos, "a load of "+ptr.name()+", which a goroutine writes,")
		return
	}
	if s.heap.setupLoads == nil {
		s.heap.setupLoads = map[string]bool{}
	}
	s.heap.setupLoads[k] = true
}

// syncAfterGo handles a synchronising operation of the set-up (an atomic
// access, a lock, a Once) on the cell p, the address addr, after it
// started a goroutine that may reach it: a load as a plain load there
// (setupLoadAfterGo), anything else as a store (splitSetup), so that the
// goroutines started so far run concurrently with it. A WaitGroup's Add,
// Done and Wait are left to the set-up (the usual wg.Add(1) before each
// go statement).
func (s *system) syncAfterGo(fr *frame, addr ssa.Value, p pointer, load bool, name string, pos token.Pos) {
	if !s.reachable(p.obj) || unsharedCell(fr, addr) {
		return
	}
	if load {
		s.setupLoadAfterGo(p, pos)
		return
	}
	s.splitSetup(pos, "a "+name+" of "+p.name())
}

// waitsOnWaitGroup reports whether fn, or a function it calls statically
// or makes a closure of (to a depth of 8), calls WaitGroup.Wait.
func waitsOnWaitGroup(fn *ssa.Function, depth int, seen map[*ssa.Function]bool) bool {
	if fn == nil || seen[fn] || depth > 8 {
		return false
	}
	seen[fn] = true
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			var callee *ssa.Function
			switch in := in.(type) {
			case ssa.CallInstruction:
				callee = in.Common().StaticCallee()
				if isSyncMethod(callee, "WaitGroup", "Wait") {
					return true
				}
			case *ssa.MakeClosure:
				callee, _ = in.Fn.(*ssa.Function)
			}
			if waitsOnWaitGroup(callee, depth+1, seen) {
				return true
			}
		}
	}
	return false
}

// unsharedCell reports whether addr is a local variable's cell that no
// goroutine started so far can reach: one that a closure captures (which
// is why go/ssa allocates it), whose address is otherwise only stored
// into and loaded from, and whose capturing closures the set-up has not
// made yet (c := cache.New(...) after New started a janitor, captured by
// the go statements that follow).
func unsharedCell(fr *frame, addr ssa.Value) bool {
	a, ok := addr.(*ssa.Alloc)
	if !ok || a.Referrers() == nil {
		return false
	}
	for _, r := range *a.Referrers() {
		switch r := r.(type) {
		case *ssa.Store:
			if r.Val == a {
				return false
			}
		case *ssa.UnOp:
			if r.Op != token.MUL {
				return false
			}
		case *ssa.MakeClosure:
			if _, made := fr.vals[r]; made {
				return false
			}
		case *ssa.DebugRef:
		default:
			return false
		}
	}
	return true
}

// reachable reports whether a process spawned by the first go statement of
// the setup may reach o: o existed then, or is a package-level variable.
func (s *system) reachable(o *object) bool {
	if o.seq < s.spawnObjs {
		return true
	}
	for _, g := range s.globals {
		if g == o {
			return true
		}
	}
	return false
}

func (s *system) setupStore(p pointer, v value, val ssa.Value, pos token.Pos) {
	key := p.key()
	if isNanos(v) {
		// A time's nanoseconds (nanos.go), kept as they are.
		s.noteClockCell(p, v, false, pos)
		s.mem[key] = v
		return
	}
	switch v.kind {
	case vInt, vPtr, vNil, vFunc, vIface:
		s.mem[key] = v
		return
	case vCtx, vCancel, vTimer, vTicker, vStop:
		nameCtx(v, p.name())
		s.mem[key] = v
		return
	case vChan, vCond:
		nameChan(v, p.name())
		nameCond(v, p.name())
		s.mem[key] = v
		return
	case vSlice, vMap:
		nameBacking(v, p)
		s.mem[key] = v
		return
	case vAgg:
		s.setupStoreAgg(p, v)
		return
	case vOpaque:
		if v.uncomputed && len(v.from) == 0 && v.clock == nil && v.taint == nil {
			// A result the model does not compute (a *log.Logger of
			// log.New kept in a field): loads give it back, and a use
			// of it is refused where a run reaches it.
			s.mem[key] = v
			return
		}
	}
	if c, ok := val.(*ssa.Const); ok && c.Value == nil {
		// Zeroing an aggregate: forget what was stored inside it.
		for k := range s.mem {
			if k == key || strings.HasPrefix(k, key+".") || strings.HasPrefix(k, key+"[") {
				delete(s.mem, k)
			}
		}
		return
	}
	s.unsupported(pos, "storing %s", describe(v))
}

func (s *system) setupLoad(p pointer, t types.Type) value {
	if v, ok := s.mem[p.key()]; ok {
		return v
	}
	if isPtrCell(t) {
		return value{kind: vNil}
	}
	if isTime(t) {
		return constVal(0) // the zero Time
	}
	switch t.Underlying().(type) {
	case *types.Basic:
		return constVal(0)
	case *types.Pointer, *types.Signature, *types.Slice, *types.Chan, *types.Map:
		return value{kind: vNil}
	case *types.Struct, *types.Array:
		return s.setupLoadAgg(p, t)
	}
	return opaque("a value of type " + t.String())
}

func (s *system) goStmt(fr *frame, in *ssa.Go) spawn {
	c := in.Common()
	if b, ok := c.Value.(*ssa.Builtin); ok && b.Name() == "close" && len(c.Args) == 1 {
		// go close(ch): a goroutine that closes it.
		call, err := s.x.goBuiltinShim("close", []types.Type{c.Args[0].Type()})
		if err != nil {
			s.unsupported(in.Pos(), "%v", err)
		}
		return spawn{fn: call, pos: in.Pos(), args: []value{s.get(fr, c.Args[0])}}
	}
	f, args := s.callee(fr, c, in.Pos())
	if f.kind == vCancel || f.kind == vStop {
		// go cancel(), go stop(): a goroutine that calls it.
		call, err := s.x.goCallShim()
		if err != nil {
			s.unsupported(in.Pos(), "%v", err)
		}
		f, args = value{kind: vFunc, fn: call}, []value{f}
	}
	if f.kind == vFunc && !s.x.local(f.fn) && len(f.fn.FreeVars) == 0 {
		// go wg.Done(), go n.Add(1): a goroutine that calls it.
		call, err := s.x.goShim(f.fn.Signature)
		if err != nil {
			s.unsupported(in.Pos(), "%v", err)
		}
		f, args = value{kind: vFunc, fn: call}, append([]value{f}, args...)
	}
	if f.kind != vFunc || !s.x.local(f.fn) {
		s.unsupported(in.Pos(), "a go statement on %s (only functions, methods and closures of this package are modelled)", describeCallee(f))
	}
	return spawn{fn: f.fn, env: f.env, pos: in.Pos(), captured: append(s.captured(f), s.loopVars(fr, in.Pos())...), args: args}
}

// loopVars returns "name=value" for the integer variables declared by the
// for statements around pos in fr's function, with their values in the
// current iteration, as the setup last evaluated the loop's condition.
func (s *system) loopVars(fr *frame, pos token.Pos) []string {
	var out []string
	for _, f := range s.x.files {
		if pos < f.FileStart || pos > f.FileEnd {
			continue
		}
		path, _ := astutil.PathEnclosingInterval(f, pos, pos)
		for _, n := range path {
			loop, ok := n.(*ast.ForStmt)
			if !ok || loop.Cond == nil {
				continue
			}
			init, ok := loop.Init.(*ast.AssignStmt)
			if !ok || init.Tok != token.DEFINE {
				continue
			}
			for _, lhs := range init.Lhs {
				id, ok := lhs.(*ast.Ident)
				if !ok {
					continue
				}
				obj, _ := s.x.info.Defs[id].(*types.Var)
				if obj == nil || !isIntegral(obj.Type()) {
					continue
				}
				if c, ok := s.condValue(fr, loop.Cond, obj); ok {
					out = append(out, fmt.Sprintf("%s=%d", id.Name, c))
				}
			}
		}
	}
	return out
}

// condValue returns the constant value of v in the last evaluation of the
// loop condition cond in frame fr.
func (s *system) condValue(fr *frame, cond ast.Expr, v *types.Var) (int64, bool) {
	for _, b := range fr.fn.Blocks {
		for _, in := range b.Instrs {
			dr, ok := in.(*ssa.DebugRef)
			if !ok || dr.IsAddr || dr.Expr.Pos() < cond.Pos() || dr.Expr.End() > cond.End() {
				continue
			}
			if id, ok := ast.Unparen(dr.Expr).(*ast.Ident); ok && s.x.info.Uses[id] == v {
				if val, ok := fr.vals[dr.X]; ok {
					return val.constant()
				}
			}
		}
	}
	return 0, false
}

// captured returns "name=value" for each free variable of the closure f
// that holds an integer known to the setup (a constant, or a variable of
// the setup captured by reference, with its current value), and "" for the
// others.
func (s *system) captured(f value) []string {
	var out []string
	for i, fv := range f.fn.FreeVars {
		if i >= len(f.env) {
			break
		}
		v := f.env[i]
		if v.kind == vPtr && !v.ptr.dynamic() {
			if t, _ := v.ptr.target(); isIntegral(t) {
				if m, ok := s.mem[v.ptr.key()]; ok {
					v = m
				} else {
					v = constVal(0)
				}
			}
		}
		c, ok := v.constant()
		if ok {
			out = append(out, fmt.Sprintf("%s=%d", fv.Name(), c))
		} else {
			out = append(out, "")
		}
	}
	return out
}

func describeCallee(f value) string {
	if f.kind == vFunc {
		return f.fn.String()
	}
	return describe(f)
}

// setupCall executes a call of the setup.
func (s *system) setupCall(fr *frame, c *ssa.CallCommon, pos token.Pos, spawns *[]spawn) value {
	if b, ok := c.Value.(*ssa.Builtin); ok && !c.IsInvoke() {
		if v, ok := s.setupMapBuiltin(fr, b, c.Args, pos, *spawns); ok {
			return v
		}
		return s.builtin(fr, b, c.Args, pos)
	}
	if c.IsInvoke() {
		recv := s.get(fr, c.Value)
		if recv.kind == vCtx {
			return s.ctxMethod(recv, c.Method.Name(), s.argValues(fr, c), pos)
		}
		if pl := recv.env; recv.kind == vIface && c.Method.Name() == "Error" && len(pl) == 1 && pl[0].kind == vPtr && s.isErrorObj(pl[0].ptr.obj) {
			if own := s.ownErrorIn(pl[0].ptr.obj); own != nil {
				s.unsupported(pos, "%s", ownErrorWhy(own, false))
			}
			return s.errorText(pl[0].ptr.obj)
		}
	}
	f, args := s.callee(fr, c, pos)
	if len(*spawns) > 0 && (f.kind == vCancel || f.kind == vStop || len(args) > 0 && args[0].kind == vTicker && f.kind == vFunc && (f.fn.Name() == "Stop" || f.fn.Name() == "Reset")) {
		// A goroutine started so far may select on what this changes
		// (a context's Done, a timer's channel).
		s.splitSetup(pos, "a cancellation or a timer's Stop or Reset")
	}
	if f.kind == vCancel {
		s.setupCancel(f.ctx)
		return value{}
	}
	if f.kind == vStop {
		was := !f.tick.initStopped
		f.tick.initStopped = true
		return constVal(b2i(was))
	}
	if f.kind != vFunc {
		s.unsupported(pos, "a call of %s", describeCallee(f))
	}
	if isSyncMapOp(f.fn) {
		return s.setupSyncMapOp(f.fn, args, pos, *spawns)
	}
	if v, ok := s.contextCall(f.fn, args, pos); ok {
		if v.kind == vTuple && v.tup[0].ctx.past {
			// Go cancels it before WithTimeout returns.
			s.setupCancel(v.tup[0].ctx)
		}
		return v
	}
	if isTimeFunc(f.fn, "AfterFunc") {
		return s.setupAfterFunc("time.AfterFunc", args[1], pos, spawns)
	}
	if isErrorsFunc(f.fn, "context", "AfterFunc") {
		return s.setupCtxAfterFunc(args[0], args[1], pos, spawns)
	}
	if len(args) > 0 && args[0].kind == vTicker {
		was := !args[0].tick.initStopped
		switch f.fn.Name() {
		case "Stop":
			args[0].tick.initStopped = true
		case "Reset":
			if d, ok := args[1].constant(); ok && d <= 0 && !args[0].tick.once {
				s.goPanic(pos, "non-positive interval for Ticker.Reset")
			}
			args[0].tick.initStopped = false
		}
		if args[0].tick.once {
			return constVal(b2i(was))
		}
		return value{}
	}
	if v, ok := s.mathCall(f.fn, args, pos); ok {
		return v
	}
	if len(*spawns) == 0 {
		// Sorted in place, before any goroutine may read the slice, by
		// what the sort does: sort's code would compare the strings.
		if v, ok := s.sortCall(f.fn, args); ok {
			return v
		}
		if v, ok := s.sortShortCall(fr, f.fn, args, spawns); ok {
			return v
		}
	}
	if s.x.local(f.fn) && s.init.running {
		return s.initLocalCall(fr, c, f, args, pos, spawns)
	}
	if s.containable(f.fn, *spawns) {
		return s.containedCall(fr, c, f, args, pos, spawns)
	}
	if s.x.local(f.fn) {
		s.checkCgo(fr, c, f.fn, pos)
		if fr.activations(f.fn) >= maxSetupRecursion {
			s.unsupported(pos, "recursion more than %d calls deep (%s calls itself)", maxSetupRecursion, f.fn.Name())
		}
		res, _ := s.exec(s.bindCall(f.fn, f.env, args, fr), false, spawns)
		return res
	}
	if v, ok := s.setupRuntimeCall(f.fn, args, pos); ok {
		return v
	}
	if v, ok := s.setupRandCall(f.fn, args, pos); ok {
		return v
	}
	if v, ok := s.setupTimeCall(f.fn, args, pos); ok {
		return v
	}
	if v, ok := s.setupPoolCall(fr, f.fn, args, pos, spawns); ok {
		return v
	}
	if isNewCond(f.fn) {
		return s.newCond(args[0], pos)
	}
	if op, ok := isCondMethod(f.fn); ok && (op == "Signal" || op == "Broadcast") && s.condAt(args[0], pos).kind == vCond {
		return value{} // no goroutine waits yet
	}
	if f.fn == s.x.joinTooLong && f.fn != nil {
		s.unsupported(pos, "%s", joinTooLongWhy)
	}
	if isTimerMethod(f.fn) && len(args) > 0 && args[0].kind == vNil {
		s.goPanic(pos, "invalid memory address or nil pointer dereference")
	}
	if v, ok := s.setupExternCall(fr, c, f.fn, args, pos, spawns); ok {
		return v
	}
	k, vt := classifyExtern(f.fn)
	if k == extNone {
		if why := s.x.noSourceReason(f.fn); why != "" {
			s.unsupported(pos, "a call of %s (%s)", f.fn.String(), why)
		}
		s.unsupported(pos, "a call of %s", f.fn.String())
	}
	if k == extGosched {
		return value{}
	}
	if k == extWGGo {
		wg := s.staticPtr(args[0], pos)
		s.mem[wg.key()] = constVal(s.memInt(wg) + 1)
		sw := s.funcSpawn(args[1], pos)
		if sw.fn == nil || !s.x.local(sw.fn) {
			s.unsupported(pos, "WaitGroup.Go on %s", describeCallee(args[1]))
		}
		sw.wg = &wg
		s.noteSpawn(*spawns)
		*spawns = append(*spawns, sw)
		return value{}
	}
	p := s.staticPtr(args[0], pos)
	if len(*spawns) > 0 && k != extWGAdd && k != extWGDone && k != extWGWait {
		s.syncAfterGo(fr, c.Args[0], p, k == extLoad, f.fn.Name(), pos)
	}
	if len(*spawns) > 0 && k == extWGAdd && slices.ContainsFunc(*spawns, func(sw spawn) bool { return sw.fn != nil && waitsOnWaitGroup(sw.fn, 0, map[*ssa.Function]bool{}) }) {
		// A goroutine started so far may wait for this WaitGroup: it
		// could see the counter at 0 before this Add.
		s.syncAfterGo(fr, c.Args[0], p, false, f.fn.Name(), pos)
	}
	if isPtrCell(vt) {
		return s.setupPtrOp(k, p, args, pos)
	}
	if v, ok := s.setupNanosOp(k, p, args, pos); ok {
		return v
	}
	old := s.memInt(p)
	arg := func(i int) int64 {
		c, ok := args[i].constant()
		if !ok {
			s.unsupported(pos, "an argument the setup cannot compute")
		}
		return c
	}
	set := func(v int64) { s.mem[p.key()] = constVal(v) }
	switch k {
	case extLoad:
		return constVal(old)
	case extStore:
		set(arg(1))
	case extSwap:
		set(arg(1))
		return constVal(old)
	case extAdd:
		n := wrap(old+arg(1), vt)
		set(n)
		return constVal(n)
	case extAnd:
		set(old & arg(1))
		return constVal(old)
	case extOr:
		set(old | arg(1))
		return constVal(old)
	case extCAS:
		if old == arg(1) {
			set(arg(2))
			return constVal(1)
		}
		return constVal(0)
	case extWGAdd:
		set(old + arg(1))
		if old+arg(1) < 0 {
			s.fail(pos, "negative WaitGroup counter in the setup of system %s", s.name)
		}
	case extWGDone:
		set(old - 1)
		if old-1 < 0 {
			s.fail(pos, "negative WaitGroup counter in the setup of system %s", s.name)
		}
	case extWGWait:
		switch {
		case old != 0 && s.goStarted:
			// A helper that starts goroutines and waits for them: the
			// system function's process runs it, and waits where Go does.
			s.splitSetup(pos, "a wait for goroutines the set-up started")
		case old != 0:
			s.fail(pos, "deadlock: the set-up of system %s waits on a WaitGroup before it starts any goroutine that could call Done", s.name)
		}
	case extLock:
		if old != 0 {
			s.fail(pos, "the setup of system %s locks a locked mutex", s.name)
		}
		set(1)
	case extUnlock:
		if old != 1 {
			s.fail(pos, "fatal error in the setup of system %s: sync: unlock of unlocked mutex", s.name)
		}
		set(0)
	case extTryLock:
		if old == 0 {
			set(1)
			return constVal(1)
		}
		return constVal(0)
	}
	return value{}
}

// minMax evaluates the built-in min or max of integers that are all known
// (constants, and what the set-up computed, such as runtime.GOMAXPROCS(0)
// in its run); ok is false when one is known only at run time or is not an
// integer.
func (s *system) minMax(fr *frame, name string, args []ssa.Value) (value, bool) {
	var out int64
	for i, a := range args {
		if b, ok := a.Type().Underlying().(*types.Basic); !ok || b.Info()&types.IsInteger == 0 {
			return value{}, false
		}
		c, ok := s.get(fr, a).constant()
		if !ok || c < 0 && a.Type().Underlying().(*types.Basic).Info()&types.IsUnsigned != 0 {
			return value{}, false // beyond math.MaxInt64: compared as unsigned
		}
		if i == 0 || name == "min" && c < out || name == "max" && c > out {
			out = c
		}
	}
	return constVal(out), len(args) > 0
}

// runMinMax lowers min or max of integers known only at run time: each
// step keeps the one of two values a comparison selects, as
// (a <= b)*a + (1 - (a <= b))*b for min, with the comparison of the
// arguments' type (unsigned 64-bit values compare as unsigned). ok is false
// when an argument is not an integer.
func (s *system) runMinMax(fr *frame, name string, args []ssa.Value, pos token.Pos) (value, bool) {
	if len(args) == 0 {
		return value{}, false
	}
	t := args[0].Type()
	var out model.Expr
	for i, a := range args {
		if b, ok := a.Type().Underlying().(*types.Basic); !ok || b.Info()&types.IsInteger == 0 {
			return value{}, false
		}
		v := s.get(fr, a)
		if v.kind != vInt {
			return value{}, false
		}
		e := s.asInt(v, pos)
		if i == 0 {
			out = e
			continue
		}
		// keep: 1 when out stays (out <= e for min, e <= out for max).
		keep, _ := runBinOp(token.LEQ, out, e, t, t)
		if name == "max" {
			keep, _ = runBinOp(token.LEQ, e, out, t, t)
		}
		out = model.Bin(model.OpAdd,
			model.Bin(model.OpMul, keep, out),
			model.Bin(model.OpMul, model.Bin(model.OpSub, model.C(1), keep), e))
	}
	return intVal(out), true
}

// setupNanosOp executes the atomic operation k of the set-up on the cell
// p when it holds, or is given, a time's nanoseconds (nanos.go), kept as
// they are: a CAS compares their words. ok is false for other operations.
func (s *system) setupNanosOp(k extKind, p pointer, args []value, pos token.Pos) (value, bool) {
	cur, held := s.mem[p.key()]
	if !isNanos(cur) && !slices.ContainsFunc(args[1:], isNanos) {
		return value{}, false
	}
	if !held {
		cur = constVal(0)
	}
	word := func(v value) int64 {
		if c, ok := v.constant(); ok {
			return c
		}
		if w, ok := s.timeWord(v, pos); ok {
			if c, ok := w.(model.Const); ok {
				return c.Value
			}
		}
		s.unsupported(pos, "an argument the setup cannot compute")
		return 0
	}
	switch k {
	case extLoad:
		return cur, true
	case extStore, extSwap:
		s.noteClockCell(p, args[1], false, pos)
		s.mem[p.key()] = args[1]
		return cur, true
	case extCAS:
		if word(cur) != word(args[1]) {
			return constVal(0), true
		}
		s.noteClockCell(p, args[2], false, pos)
		s.mem[p.key()] = args[2]
		return constVal(1), true
	}
	s.unsupported(pos, "an atomic operation other than Load, Store, Swap and CompareAndSwap on nanoseconds of a time (t.UnixNano())")
	return value{}, false
}

func (s *system) memInt(p pointer) int64 {
	v, ok := s.mem[p.key()]
	if !ok {
		return 0
	}
	c, ok := v.constant()
	if !ok {
		s.unsupported(token.NoPos, "a non-integer value in %s", p.name())
	}
	return c
}

// builtin evaluates a call of a built-in function, in the setup and in
// processes alike.
func (s *system) builtin(fr *frame, b *ssa.Builtin, args []ssa.Value, pos token.Pos) value {
	switch b.Name() {
	case "print", "println":
		return value{}
	case "recover":
		return recoverNil() // the set-up does not panic: it fails
	case "ssa:wrapnilchk":
		// The check of a wrapper (*T).M of a method of T: the receiver
		// itself; the wrapper's load of *recv that follows panics on nil.
		return s.get(fr, args[0])
	case "len", "cap":
		if len(args) == 1 {
			return s.lenCap(b.Name(), s.get(fr, args[0]), args[0].Type(), pos)
		}
	case "append":
		dst, cells, vals, srcs := s.appendCells(fr, args, pos)
		for i, q := range cells {
			s.setupStore(q, vals[i], srcs[i], pos)
		}
		return dst
	case "close":
		if len(args) == 1 && s.isChan(args[0]) {
			ch := s.chanOf(s.get(fr, args[0]), pos)
			s.setupChanOp(ch, false, pos, "a close of "+ch.name)
			if ch.initClosed {
				s.fail(pos, "the setup of system %s panics: close of closed channel", s.name)
			}
			ch.initClosed = true
			return value{}
		}
	case "min", "max":
		if v, ok := s.minMax(fr, b.Name(), args); ok {
			return v
		}
		if v, ok := s.runMinMax(fr, b.Name(), args, pos); ok {
			return v
		}
		for _, a := range args {
			if isNanos(s.get(fr, a)) {
				s.unsupported(pos, "the built-in %s of nanoseconds of times (t.UnixNano()), which fencecheck keeps only where compared with <, >, == (write the comparison)", b.Name())
			}
		}
		s.unsupported(pos, "the built-in %s of floating-point or string values known only at run time (of integers, and of constants, it is supported)", b.Name())
		return value{}
	case "copy":
		s.unsupported(pos, "the built-in %s (a slice's length and contents are fixed by the set-up; assign its elements instead)", b.Name())
	}
	s.unsupported(pos, "the built-in %s", b.Name())
	return value{}
}

// extKind is the meaning of a call of a function outside the package.
type extKind uint8

const (
	extNone extKind = iota
	extGosched
	extLoad
	extStore
	extSwap
	extAdd
	extAnd
	extOr
	extCAS
	extWGAdd
	extWGDone
	extWGWait
	extWGGo
	extLock
	extUnlock
	extTryLock
)

var atomicOps = map[string]extKind{
	"Load": extLoad, "Store": extStore, "Swap": extSwap, "Add": extAdd,
	"And": extAnd, "Or": extOr, "CompareAndSwap": extCAS,
}

var atomicTypes = map[string]types.BasicKind{
	"Int32": types.Int32, "Int64": types.Int64, "Uint32": types.Uint32,
	"Uint64": types.Uint64, "Uintptr": types.Uintptr,
}

// classifyExtern says what a call of fn, a function outside the package,
// does in the model, and the type of the value it works on.
func classifyExtern(fn *ssa.Function) (extKind, types.Type) {
	if fn.Pkg == nil && fn.Object() == nil {
		return extNone, nil
	}
	obj, _ := fn.Object().(*types.Func)
	if obj == nil || obj.Pkg() == nil {
		return extNone, nil
	}
	path := obj.Pkg().Path()
	recv := fn.Signature.Recv()
	switch {
	case path == "runtime" && recv == nil && fn.Name() == "Gosched":
		return extGosched, nil
	case path == "sync/atomic" && recv == nil:
		for op, k := range atomicOps {
			if t, ok := strings.CutPrefix(fn.Name(), op); ok {
				if bk, ok := atomicTypes[t]; ok {
					return k, types.Typ[bk]
				}
				if t == "Pointer" && k != extAdd && k != extAnd && k != extOr {
					return k, types.Typ[types.UnsafePointer]
				}
			}
		}
	case recv == nil:
		return extNone, nil // sync.NewCond, sync.OnceFunc, atomic functions of no table
	case path == "sync/atomic" && isNamed(deref(recv.Type()), "sync/atomic", "Pointer"):
		if k, ok := atomicOps[fn.Name()]; ok {
			return k, types.NewPointer(ptrElem(deref(recv.Type())))
		}
	case path == "sync/atomic":
		if vt, ok := atomicKind(deref(recv.Type())); ok {
			if k, ok := atomicOps[fn.Name()]; ok {
				return k, vt
			}
		}
	case path == "sync":
		rt := deref(recv.Type())
		switch {
		case isNamed(rt, "sync", "WaitGroup"):
			switch fn.Name() {
			case "Add":
				return extWGAdd, types.Typ[types.Int]
			case "Done":
				return extWGDone, types.Typ[types.Int]
			case "Wait":
				return extWGWait, types.Typ[types.Int]
			case "Go":
				return extWGGo, types.Typ[types.Int]
			}
		case isNamed(rt, "sync", "Mutex"):
			switch fn.Name() {
			case "Lock":
				return extLock, types.Typ[types.Bool]
			case "Unlock":
				return extUnlock, types.Typ[types.Bool]
			case "TryLock":
				return extTryLock, types.Typ[types.Bool]
			}
		}
	}
	return extNone, nil
}

// unsupportedInstr reports an instruction the model has no counterpart for.
func (s *system) unsupportedInstr(in ssa.Instruction) {
	what := "this construct"
	switch in := in.(type) {
	case *ssa.MakeChan, *ssa.Send:
		what = "channels"
	case *ssa.UnOp:
		if in.Op == token.ARROW {
			what = "channels"
		}
	case *ssa.Select:
		what = "select"
	case *ssa.Lookup:
		what = "indexing a string (strings are opaque values)"
	case *ssa.Defer, *ssa.RunDefers:
		what = "defer"
	case *ssa.Range, *ssa.Next:
		what = "range over a string (strings are opaque values)"
	case *ssa.TypeAssert:
		what = "type assertions"
	case *ssa.MakeSlice, *ssa.Slice, *ssa.SliceToArrayPointer:
		what = "slices"
	case *ssa.Go:
		what = "a go statement inside a goroutine"
	case *ssa.MultiConvert:
		what = "generic conversions"
	}
	s.unsupported(in.Pos(), "%s", what)
}
