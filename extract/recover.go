package extract

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/fencecheck/fencecheck/model"
)

// Panics and recover.
//
// A panic of a goroutine (an explicit panic, a run-time panic such as a
// nil dereference or an index out of range, log.Panic) is a bad state
// where it happens when no deferred call that can stop it is pending: no
// function the goroutine is in has deferred a function that calls recover
// itself. Otherwise the panic is lowered as Go runs it: a register,
// panicking, is set, and the deferred calls of the function the panic
// happened in run, the last first, then those of its caller, and so on up
// the goroutine's functions (the deferred calls of a function whose defer
// statements ran on the way there: those whose block dominates the point,
// or whose flag is set). A recover() that a deferred call makes itself
// while panicking is set clears it and returns the panic's value (any
// other recover returns nil); after a deferred call that recovered, the
// function that deferred it runs its remaining deferred calls and returns
// normally, with its named results' current values (go/ssa's Recover
// block) or its results' zero values, and its caller goes on after the
// call. A panic that no deferred call recovers is a bad state after the
// last of them, named and placed like the panic. A panic inside a deferred
// call goes on with the deferred calls of the function that deferred it
// that have not run yet. Fatal errors (an Unlock of an unlocked RWMutex),
// os.Exit and log.Fatal cannot be recovered.

// unwindCtx is where the instruction being lowered stands: its frame, and
// its block.
type unwindCtx struct {
	fr *frame
	b  *ssa.BasicBlock
}

// A lateCall is a call lowered after the rest of its process: the frame
// that makes it and the chain of frames and deferred calls at the call.
type lateCall struct {
	fr    *frame
	chain []chainElem
	// depth is the number of calls through function tables the call is
	// lowered inside, itself included (funcvals.go's maxLateDepth).
	depth int
}

// snapInfo describes the frame that binds a deferred call being lowered:
// the frame real that deferred it, whose control stands in block b, and
// the number of real's deferred calls that run after it (the first left).
type snapInfo struct {
	real *frame
	left int
	b    *ssa.BasicBlock
}

// unwinding is a panic whose deferred calls are being lowered: snap binds
// the deferred call being lowered, whose own recover() stops the panic;
// id is the heap id of the panic's value, when it is a constant or a
// pointer (ifacecells.go), else nil.
type unwinding struct {
	snap  *frame
	site  panicSite
	id    model.Expr
	depth int // the panic's depth (panicReg)
}

// chainElem is a function of the goroutine that a panic passes through:
// its frame, the block its control stands in, and the deferred calls of it
// that are still to run.
type chainElem struct {
	fr *frame
	b  *ssa.BasicBlock
	ds []deferred
}

// chain lists the functions of the goroutine from the instruction being
// lowered up to the goroutine's own function, innermost first. A frame that
// binds a deferred call stands for the function that deferred it, with the
// deferred calls that run after that one.
func (p *proc) chain() []chainElem {
	var out []chainElem
	f, b := p.at.fr, p.at.b
	for f != nil {
		if p.late != nil && f == p.late.fr {
			return append(out, p.late.chain...)
		}
		if info, ok := p.snapOf[f]; ok {
			out = append(out, chainElem{fr: info.real, b: info.b, ds: p.s.deferList(info.real)[:info.left]})
			f, b = f.parent, info.real.site
			continue
		}
		out = append(out, chainElem{fr: f, b: b, ds: p.s.deferList(f)})
		f, b = f.parent, f.site
	}
	return out
}

// callsRecover reports whether fn calls recover itself, or
// runtime.Goexit, which ends a panic in progress too (the goroutine exits
// after its remaining deferred calls).
func callsRecover(fn *ssa.Function) bool {
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			if c, ok := in.(*ssa.Call); ok {
				if bi, ok := c.Call.Value.(*ssa.Builtin); ok && bi.Name() == "recover" || isGoexit(c.Call.StaticCallee()) {
					return true
				}
			}
		}
	}
	return false
}

// isGoexit reports whether fn is runtime.Goexit.
func isGoexit(fn *ssa.Function) bool {
	return fn != nil && fn.Pkg != nil && fn.Pkg.Pkg.Path() == "runtime" && fn.Name() == "Goexit"
}

// mayRecover reports whether the deferred call d may stop a panic: call
// recover itself, or end the goroutine.
func (s *system) mayRecover(d deferred) bool {
	if _, ok := d.in.Call.Value.(*ssa.Builtin); ok {
		return false
	}
	f, _ := s.unbind(d.snap.vals[d.in.Call.Value], nil, d.in.Pos())
	switch f.kind {
	case vFunc:
		return isGoexit(f.fn) || s.x.local(f.fn) && callsRecover(f.fn)
	case vFuncRef:
		for _, a := range f.alts {
			if a.kind == vFunc && (isGoexit(a.fn) || s.x.local(a.fn) && callsRecover(a.fn)) {
				return true
			}
		}
		return f.ftab != nil && s.tableMayRecover(f.ftab)
	}
	return false
}

// recoverable reports whether a panic at the instruction being lowered may
// meet a deferred call that recovers.
func (p *proc) recoverable() bool {
	for _, c := range p.chain() {
		for _, d := range c.ds {
			if p.s.mayRecover(d) {
				return true
			}
		}
	}
	return false
}

// panicAt makes a panic at the instruction being lowered: a bad state at
// site.loc, or, when a deferred call may recover it, the run of the
// deferred calls from there (unwind).
func (p *proc) panicAt(site panicSite) {
	if !site.pos.IsValid() {
		site.pos = p.wrapperPos
	}
	if !p.recoverable() {
		p.panics = append(p.panics, site)
		return
	}
	p.unwind(site, p.panicID(site))
}

// panicID returns the heap id of the value of the explicit panic site, as
// the instruction being lowered computes it, when it is an interface value
// holding a constant or a pointer; else nil.
func (p *proc) panicID(site panicSite) model.Expr {
	if site.val == nil || p.at.fr == nil {
		return nil
	}
	v := p.s.get(p.at.fr, site.val)
	if v.kind != vIface {
		return nil
	}
	pl := v.env[0]
	if _, isConst := pl.constant(); isObjPtr(v.typ) && (pl.kind == vPtr || pl.kind == vNil) || isConst && isScalarPayload(v.typ) {
		return p.s.ifaceID(v, site.pos)
	}
	return nil
}

// landing returns a location from which the panic name at pos runs as
// panicAt lowers it, for a panic that a channel operation being lowered
// may raise when every process is known (chans.go), or -1 when it is a bad
// state there.
func (p *proc) landing(name string, pos token.Pos) int {
	if !p.recoverable() {
		return -1
	}
	l := p.newLoc(pos)
	p.unwind(panicSite{loc: l, name: name, pos: pos}, nil)
	return l
}

// panicReg returns the register that is set while a panic is in progress
// at the given depth: 0 for a panic of the goroutine's code, one more for
// a panic inside a deferred call that an unwinding at the depth before
// runs (recovering it leaves the panic that runs the call in progress).
func (p *proc) panicReg(depth int) int {
	for len(p.panicking) <= depth {
		p.panicking = append(p.panicking, 1+p.newReg("panicking", types.Typ[types.Bool]))
	}
	return p.panicking[depth] - 1
}

// panicDepth is the depth of a panic at the instruction being lowered.
func (p *proc) panicDepth() int {
	if p.unwinding == nil {
		return 0
	}
	return p.unwinding.depth + 1
}

// unwoundAt is an unwinding lowered from a location: where it starts, the
// number of transitions of its process when it was lowered (restore
// forgets the ones it took back), and, once done, where it ends: the bad
// state of a panic that nothing recovered, or -1 when none is.
type unwoundAt struct {
	loc, trans int
	end        int
	done       bool
	// named holds what the key names by address (the chain, the
	// unwinding and late call around it), so that no other object takes
	// an address the key holds while the entry stands.
	named []any
}

// unwindKey names what an unwinding from chain element k on runs: the
// frames, blocks and deferred calls of chain[k:], the panic value's heap
// id, and the deferred calls being lowered around it. Two panics whose
// keys agree run the same steps from there, which are lowered once: the
// deferred calls of a function run for each of the places in it that may
// panic, and lowering them for each made a goroutine with many such
// places (every call, nil check and division under a deferred recover)
// grow with the product of its places and its deferred code.
func (p *proc) unwindKey(chain []chainElem, id model.Expr) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d/%p/%p/%v", p.panicDepth(), p.unwinding, p.late, id)
	for _, c := range chain {
		fmt.Fprintf(&b, ";%p/%p/%d", c.fr, c.b, len(c.ds))
	}
	return b.String()
}

// panicSiteIDReg returns the register that names the panic a shared
// unwinding at the given depth runs for.
func (p *proc) panicSiteIDReg(depth int) int {
	for len(p.panicSiteRegs) <= depth {
		p.panicSiteRegs = append(p.panicSiteRegs, 1+p.newReg("panicsite", types.Typ[types.Int]))
	}
	return p.panicSiteRegs[depth] - 1
}

// unwind lowers the panic site, whose value has the heap id id (nil when
// it has none): the deferred calls of the goroutine's functions, innermost
// first, each a function's return when a deferred call of it recovers; the
// bad state of the panic after the last. The steps from a function of the
// goroutine on are lowered once for all the panics that reach it alike
// (unwindKey): a register, set at each panic, tells their bad states
// apart, and is cleared when a deferred call recovers.
func (p *proc) unwind(site panicSite, id model.Expr) {
	s := p.s
	if site.val != nil && !panicValueFree(site.val) && !(p.at.fr != nil && s.readOnlyArg(s.get(p.at.fr, site.val))) {
		// A value that may point into memory (an error made by
		// errors.New or fmt.Errorf, whose message never changes, does
		// not let a recover change anything).
		s.unsupported(site.pos, "a panic that a deferred call may recover, whose value (of type %s) may point into the system's memory", site.val.Type())
	}
	depth := p.panicDepth()
	pr, sr := p.panicReg(depth), p.panicSiteIDReg(depth)
	isSet := func(set bool) model.Op {
		op := model.OpNe
		if !set {
			op = model.OpEq
		}
		return model.GuardOp(model.Bin(op, model.R(pr), model.C(0)))
	}
	p.panicSites++
	site.id, site.depth = int64(p.panicSites), depth
	cur := p.emit(site.loc, model.AssignOp(pr, model.C(1)), site.pos, Origin{})
	// Go's gopanic counts the panics running deferred calls in an atomic
	// (runningPanicDefers.Add, a locked instruction on amd64): a barrier.
	cur = p.emit(cur, model.FenceOp(), site.pos, Origin{Node: s.x.stmtAt(site.pos, site.pos)})
	cur = p.emit(cur, model.AssignOp(sr, model.C(site.id)), site.pos, Origin{})
	chain := p.chain()
	if p.unwound == nil {
		p.unwound = map[string]*unwoundAt{}
	}
	var mine []*unwoundAt // the unwindings this panic lowers, which end where it does
	defer func() {
		for _, u := range mine {
			u.end, u.done = cur, true
		}
		if cur >= 0 {
			site.loc = cur
			p.panics = append(p.panics, site)
		}
	}()
	for k, c := range chain {
		key := p.unwindKey(chain[k:], id)
		if at, ok := p.unwound[key]; ok && at.done {
			// Lowered already, for an earlier panic: its steps, then
			// its end, serve this one too.
			p.emitTo(cur, model.NopOp(), at.loc, site.pos, Origin{})
			cur = at.end
			return
		}
		at := &unwoundAt{loc: cur, trans: len(p.q.Trans), named: []any{chain[k:], p.unwinding, p.late}}
		p.unwound[key] = at
		mine = append(mine, at)
		if c.b == nil && len(c.ds) > 0 {
			s.unsupported(site.pos, "a panic that a deferred call may recover, in code that the system function's goroutine runs from inside a function that started goroutines")
		}
		for i := len(c.ds) - 1; i >= 0 && cur >= 0; i-- {
			d := c.ds[i]
			cur = p.runDefer(c.fr, c.b, c.ds, i, site.pos, cur, func(loc int) int {
				prev := p.unwinding
				p.unwinding = &unwinding{snap: d.snap, site: site, id: id, depth: depth}
				loc = p.deferredCall(d, loc)
				p.unwinding = prev
				return loc
			})
			if cur < 0 || !s.mayRecover(d) {
				continue
			}
			joined := p.late != nil && slices.ContainsFunc(p.late.chain, func(l chainElem) bool { return l.fr == c.fr })
			if joined && (c.fr.joinedAt == 0 || !c.fr.resultsUnused) {
				// Its return was joined before this call was lowered,
				// with results it would have to give.
				s.unsupported(site.pos, "a panic that a deferred call may recover, in a call of a function value kept in memory or received from a channel, recovered in a function whose results are used")
			}
			// Recovered: the function returns normally, after its
			// remaining deferred calls.
			rec := p.emit(cur, isSet(false), site.pos, Origin{})
			rec = p.emit(rec, model.AssignOp(sr, model.C(0)), site.pos, Origin{})
			if rec = p.runDeferList(c.fr, c.b, c.ds[:i], site.pos, rec); rec >= 0 {
				if joined {
					// Its caller goes on where its returns joined.
					p.emitTo(rec, model.NopOp(), c.fr.joinedAt-1, site.pos, Origin{})
				} else {
					p.recoverReturn(c.fr, rec)
				}
			}
			cur = p.emit(cur, isSet(true), site.pos, Origin{})
		}
		if cur < 0 {
			return
		}
		if c.fr.onceVar > 0 {
			// The panic leaves the function a sync.Once runs: Go's Do
			// marks the Once done on its way out, and later Do calls
			// return at once.
			cur = p.emit(cur, model.Exchange(c.fr.onceVar-1, -1, model.C(2)), site.pos, Origin{})
		}
	}
}

// recoverReturn lowers, from loc, the return of fr after a recovered panic:
// go/ssa's Recover block, which returns the named results' current values
// or the results' zero values.
func (p *proc) recoverReturn(fr *frame, loc int) {
	if fr.fn.Recover == nil {
		p.s.unsupported(fr.fn.Pos(), "a recovered panic in %s, which has no recover block", fr.fn.Name())
	}
	p.lowerBody(fr, fr.fn.Recover, 0, -1, loc)
}

// recoverCall lowers recover() of a process: while a panic is in progress
// and the call is the deferred call's own, it stops the panic and returns
// its value (the interface value of an explicit panic of a constant or a
// pointer; any other the model keeps only as nil or not); otherwise nil.
func (p *proc) recoverCall(fr *frame, in *ssa.Call, cur int) int {
	u := p.unwinding
	if u == nil || fr.parent != u.snap {
		fr.vals[in] = recoverNil()
		return cur
	}
	pr := p.panicReg(u.depth)
	pos := in.Pos()
	if u.id != nil {
		anyT := types.NewInterfaceType(nil, nil).Complete()
		r := p.newReg(p.regName(fr, in), anyT)
		p.holds(r, fr, in)
		next := p.newLoc(pos)
		set := p.emit(cur, model.GuardOp(model.Bin(model.OpNe, model.R(pr), model.C(0))), pos, Origin{})
		p.emitTo(set, model.AssignOp(r, u.id), next, pos, Origin{})
		unset := p.emit(cur, model.GuardOp(model.Bin(model.OpEq, model.R(pr), model.C(0))), pos, Origin{})
		p.emitTo(unset, model.AssignOp(r, model.C(0)), next, pos, Origin{})
		fr.vals[in] = p.s.refVal(model.R(r), anyT)
		return p.emit(next, model.AssignOp(pr, model.C(0)), pos, Origin{})
	}
	r := p.newReg("recovered", types.Typ[types.Bool])
	cur = p.emit(cur, model.AssignOp(r, model.R(pr)), pos, Origin{})
	cur = p.emit(cur, model.AssignOp(pr, model.C(0)), pos, Origin{})
	fr.vals[in] = value{kind: vOpaque, e: model.R(r),
		why: "the value recover returns (a panic's value, which the model keeps only as nil or not)"}
	return cur
}

// recoverNil is what recover returns when no panic is in progress, or to
// a call that no deferred call makes itself: nil.
func recoverNil() value {
	return value{kind: vNil}
}

// panicValueFree reports whether v, the value of a panic, cannot point into
// the system's memory: a value without pointers, an interface value made
// from one, or an error a call of errors or fmt made.
func panicValueFree(v ssa.Value) bool {
	return argProblem(v) == ""
}

// setupRecoverable reports whether a panic of the set-up in frame fr may
// meet a deferred call that recovers.
func (s *system) setupRecoverable(fr *frame) bool {
	for f := fr; f != nil; f = f.parent {
		for _, d := range s.calls.defers[f] {
			if s.mayRecover(d) {
				return true
			}
		}
	}
	return false
}

// nilDeref makes, when v is a nil pointer, the panic of dereferencing it at
// pos, from cur, and reports whether it did.
func (p *proc) nilDeref(v value, pos token.Pos, cur int) bool {
	if p.s.deref(v, pos).kind != vNil {
		return false
	}
	p.panicAt(panicSite{loc: cur, name: "nil pointer dereference", pos: pos})
	return true
}
