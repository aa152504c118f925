package extract

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/fencecheck/fencecheck/model"
)

// Deferred calls.
//
// A defer statement evaluates the function and its arguments where it
// stands and runs the call when the function returns (at the RunDefers that
// go/ssa puts before each return), the last deferred first. A panic runs
// them when one of them may recover it (recover.go); otherwise it is a bad
// state where it happens, whatever the deferred calls would do.
//
// In the setup the defers a function executes are a concrete list, whatever
// loops run them. In a process a defer is a point of the function's control
// flow: outside a loop of that function it runs at most once per
// activation, and the order of the defers a path executes is the order of
// the blocks on the path, which reverse postorder respects (two blocks that
// can reach each other are on a loop). A defer whose block dominates every
// return runs on every path that returns; any other one sets a register of
// its own, and the return runs it when the register is set (and clears it,
// for the next activation of an inlined function). At a panic or a Goexit,
// which may stand where not every defer statement before it in reverse
// postorder ran, a defer runs when its block dominates that point, as its
// register says when it has one, and not when its block cannot reach the
// point. A defer in a loop of its function would need an unbounded stack,
// and is reported.

// deferred is one executed defer statement of a frame.
type deferred struct {
	in *ssa.Defer
	// snap binds the function and arguments of the call as the defer
	// statement evaluated them.
	snap *frame
	// flag is the register set when the defer statement ran, or -1 when it
	// runs on every path to a return.
	flag int
}

// callState is what the lowering of defers, sync types, calls into other
// packages and nested go statements keeps per system.
type callState struct {
	defers map[*frame][]deferred
	// readers counts, for each RWMutex variable, the sites of each
	// process that read-lock it (process, position).
	readers map[int]map[[2]int]bool
	// nested lists the go statements executed by processes, lowered as
	// processes of their own after the others.
	nested []nestedSpawn
	// fixedChans holds, for each goroutine's channel variable that holds
	// one channel for its whole life (fixedChanCell), that channel.
	fixedChans map[*object]value
	// splitAt and splitFr carry a split found inside a function the setup
	// called back to the call (see execCall).
	splitAt *split
	splitFr *frame
}

func (s *system) deferList(fr *frame) []deferred {
	return s.calls.defers[fr]
}

func (s *system) pushDefer(fr *frame, d deferred) {
	if s.calls.defers == nil {
		s.calls.defers = map[*frame][]deferred{}
	}
	s.calls.defers[fr] = append(s.calls.defers[fr], d)
}

// snapshot binds, in a frame of its own, the callee and arguments of c as
// fr binds them now.
func (s *system) snapshot(fr *frame, c *ssa.CallCommon) *frame {
	snap := newFrame(fr.fn, fr.parent)
	if _, ok := c.Value.(*ssa.Builtin); !ok {
		snap.vals[c.Value] = s.get(fr, c.Value)
	}
	for _, a := range c.Args {
		snap.vals[a] = s.get(fr, a)
	}
	return snap
}

func (s *system) checkDefer(in *ssa.Defer) {
	if in.DeferStack != nil {
		s.unsupported(in.Pos(), "defer inside the body of a range-over-func loop")
	}
}

// setupDefer records a defer statement the setup executes.
func (s *system) setupDefer(fr *frame, in *ssa.Defer) {
	s.checkDefer(in)
	s.pushDefer(fr, deferred{in: in, snap: s.snapshot(fr, &in.Call), flag: -1})
}

// setupRunDefers runs the calls fr deferred, the last first.
func (s *system) setupRunDefers(fr *frame, spawns *[]spawn) {
	ds := s.calls.defers[fr]
	delete(s.calls.defers, fr)
	for i := len(ds) - 1; i >= 0; i-- {
		d := ds[i]
		s.setupCall(d.snap, &d.in.Call, d.in.Pos(), spawns)
	}
}

// deferInstr lowers a defer statement of a process.
func (p *proc) deferInstr(fr *frame, b *ssa.BasicBlock, in *ssa.Defer, cur int) int {
	s := p.s
	s.checkDefer(in)
	if inCycle(b) {
		s.unsupported(in.Pos(), "defer in a loop (the deferred calls would pile up without bound)")
	}
	d := deferred{in: in, snap: s.snapshot(fr, &in.Call), flag: -1}
	for _, rb := range fr.fn.Blocks {
		if hasRunDefers(rb) && !b.Dominates(rb) {
			d.flag = p.newReg("deferred", types.Typ[types.Bool])
			cur = p.emit(cur, model.AssignOp(d.flag, model.C(1)), in.Pos(), Origin{})
			break
		}
	}
	s.pushDefer(fr, d)
	return cur
}

func hasRunDefers(b *ssa.BasicBlock) bool {
	for _, in := range b.Instrs {
		if _, ok := in.(*ssa.RunDefers); ok {
			return true
		}
	}
	return false
}

// runDefers lowers the calls fr deferred at a return of a process.
func (p *proc) runDefers(fr *frame, in *ssa.RunDefers, cur int) int {
	return p.runDeferList(fr, in.Block(), p.s.deferList(fr), in.Pos(), cur)
}

// runDeferList lowers, from cur, the calls of ds, which fr deferred, the
// last first, each when its defer statement ran on the way to block b, where
// fr's control stands (at pos).
func (p *proc) runDeferList(fr *frame, b *ssa.BasicBlock, ds []deferred, pos token.Pos, cur int) int {
	for i := len(ds) - 1; i >= 0 && cur >= 0; i-- {
		cur = p.runDefer(fr, b, ds, i, pos, cur, nil)
	}
	return cur
}

// runDefer lowers, from cur, the call of ds[i], which fr deferred, when its
// defer statement ran on the way to block b: always when its block
// dominates b, as its flag says when it has one, never when its block
// cannot reach b. The call is lowered by call (deferredCall when nil), and
// the flag cleared after it, for the next activation of an inlined
// function.
func (p *proc) runDefer(fr *frame, b *ssa.BasicBlock, ds []deferred, i int, pos token.Pos, cur int, call func(loc int) int) int {
	d := ds[i]
	run := func(loc int) int {
		prev, had := p.snapOf[d.snap]
		if p.snapOf == nil {
			p.snapOf = map[*frame]snapInfo{}
		}
		p.snapOf[d.snap] = snapInfo{real: fr, left: i, b: b}
		if call != nil {
			loc = call(loc)
		} else {
			loc = p.deferredCall(d, loc)
		}
		if had {
			p.snapOf[d.snap] = prev
		} else {
			delete(p.snapOf, d.snap)
		}
		return loc
	}
	if !pos.IsValid() {
		pos = d.in.Pos()
	}
	db := d.in.Block()
	switch {
	case b != nil && (db == b || db.Dominates(b)):
		if d.flag >= 0 {
			// Cleared for the next activation here too, before the
			// call, as Go takes the call off the list before making it
			// (a call that panics, recovered further out, must not run
			// again): one whose early return comes before the defer
			// statement must not run this activation's call.
			cur = p.emit(cur, model.AssignOp(d.flag, model.C(0)), pos, Origin{})
		}
		return run(cur)
	case d.flag >= 0:
	case b != nil && !reaches(db, b):
		return cur // not on the way to b
	default:
		p.s.unsupported(pos, "a deferred call that only some of the paths to here defer (defer it where every path passes, or at the start of the function)")
	}
	join := p.newLoc(pos)
	p.emitTo(cur, model.GuardOp(model.Bin(model.OpEq, model.R(d.flag), model.C(0))), join, pos, Origin{})
	ran := p.emit(cur, model.GuardOp(model.Bin(model.OpNe, model.R(d.flag), model.C(0))), pos, Origin{})
	ran = p.emit(ran, model.AssignOp(d.flag, model.C(0)), pos, Origin{})
	if ran = run(ran); ran >= 0 {
		p.emitTo(ran, model.NopOp(), join, pos, Origin{})
	}
	return join
}

// reaches reports whether block to can be reached from block from.
func reaches(from, to *ssa.BasicBlock) bool {
	return from == to || searchSuccs(from, func(x *ssa.BasicBlock) (found, goOn bool) { return x == to, true })
}

// deferredCall lowers the call of d, from cur, as a call at the defer
// statement with the values the statement evaluated.
func (p *proc) deferredCall(d deferred, cur int) int {
	call := &ssa.Call{Call: d.in.Call}
	if ds, ok := p.s.x.stmtAt(d.in.Pos(), d.in.Pos()).(*ast.DeferStmt); ok {
		// The call's source, for the origins of what it lowers to.
		p.s.x.debugOf(d.snap.fn).expr[call] = ds.Call
	}
	// The call stands in the frame that binds it: a deferred call that
	// panics or ends the goroutine itself (defer panic(v), defer
	// runtime.Goexit()) runs the calls deferred before it, not itself
	// again.
	prev := p.at
	p.at = unwindCtx{fr: d.snap}
	defer func() { p.at = prev }()
	return p.call(d.snap, call, cur)
}
