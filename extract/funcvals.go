package extract

import (
	"fmt"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/fencecheck/fencecheck/model"
)

// Function values chosen at run time.
//
// A function value the lowering knows is a vFunc: the function and the
// values its closure captured, so that a call of it is inlined. When the
// paths that reach a join bring different functions (f := g; if c { f = h
// }), the join is a vFuncRef: a register holding the index of one of the
// alternatives (0 for nil), and a call of it is a case split that inlines
// each alternative under its index, with a nil-dereference panic for 0.
// The alternatives are the values the join's predecessors bring, so the
// target set is exact; a join on a loop's back edge stays unsupported.
// Function values compare only with nil: index 0.

// allFuncs reports whether vs are function values, at least one of them
// not nil.
func allFuncs(vs []value) bool {
	some := false
	for _, v := range vs {
		switch v.kind {
		case vFunc:
			some = true
		case vNil:
		default:
			return false
		}
	}
	return some
}

// funcPhi makes the value of a join of function values.
func (p *proc) funcPhi(fr *frame, phi *ssa.Phi, st *blockState, known []value) value {
	var alts []value
	for _, v := range known {
		if v.kind != vFunc {
			continue
		}
		dup := false
		for _, a := range alts {
			if same(a, v) {
				dup = true
			}
		}
		if !dup {
			alts = append(alts, v)
		}
	}
	if len(alts) > maxCases {
		p.s.unsupported(phi.Pos(), "a function value that may be one of more than %d functions", maxCases)
	}
	r := p.phiIndexReg(fr, phi, st, len(alts))
	return value{kind: vFuncRef, e: model.R(r), alts: alts}
}

// indexReg makes the register of phi, a join of values chosen at run time
// (functions, channels): the index of one of n alternatives, 0 for nil.
func (p *proc) phiIndexReg(fr *frame, phi *ssa.Phi, st *blockState, n int) int {
	r := p.indexReg(fr, phi, int64(n))
	st.phiReg[phi] = r
	return r
}

// tableFuncs reports whether vs are function values of a funcTable
// (received from a channel or loaded from memory) or nil, one of them at
// least not nil.
func tableFuncs(vs []value) bool {
	some := false
	for _, v := range vs {
		switch {
		case v.kind == vFuncRef && v.ftab != nil:
			some = true
		case v.kind == vNil:
		default:
			return false
		}
	}
	return some
}

// funcIndex returns the index of v among the alternatives of fv.
func (s *system) funcIndex(fv, v value, pos token.Pos) model.Expr {
	if fv.ftab != nil {
		return s.funcID(fv.ftab.sig, v, pos)
	}
	switch v.kind {
	case vNil:
		return model.C(0)
	case vFuncRef:
		if len(v.alts) == len(fv.alts) {
			all := true
			for i := range v.alts {
				if !same(v.alts[i], fv.alts[i]) {
					all = false
				}
			}
			if all {
				return v.e
			}
		}
	case vFunc:
		for i, a := range fv.alts {
			if same(a, v) {
				return model.C(int64(i + 1))
			}
		}
	}
	s.unsupported(pos, "a function value chosen at run time among functions not known at the join (%s)", describe(v))
	return nil
}

// callFuncRef lowers a call of a function value chosen at run time.
func (p *proc) callFuncRef(fr *frame, in *ssa.Call, f value, args []value, cur int) int {
	var targets []callTarget
	for i, a := range f.alts {
		targets = append(targets, callTarget{
			cond: model.Bin(model.OpEq, f.e, model.C(int64(i+1))),
			fn:   a.fn,
			env:  a.env,
			args: args,
		})
	}
	return p.splitCall(fr, in, targets, model.Bin(model.OpEq, f.e, model.C(0)), cur)
}

// Function values in channels and in memory goroutines write.
//
// A channel of func() (the job queue of a worker pool), and a field of
// function type that a goroutine stores to (a callback a server
// installs), hold function values as integers: each function value the
// system sends or stores there gets an index in its signature's
// funcTable, and a received or loaded value is a vFuncRef over the whole
// table. A field is known to be such a cell from the round after a
// goroutine's store to it (as pointer cells are, pointers.go). Since a
// goroutine lowered early may call a value that a goroutine lowered later
// sends, such a call is lowered last (lowerLate); its results are
// registers that every function of the table sets when it returns. A
// function so called may add to its own table or to that of a call lowered
// before it (a stream's task returns its callback, which another goroutine
// receives and calls): each call comes back for the functions added since
// it was lowered, each inlined as another case of it, until no table grows.

// A funcTable lists the function values of one signature that the system
// sends on channels or goroutines store: a value is its index + 1, and 0
// is nil.
type funcTable struct {
	sig   *types.Signature
	funcs []value
	// gens are the generations of funcs (maxLateGen).
	gens []int
	pos  token.Pos // where the table was last added to
	// recoverAt is 1 + the size the table had when a deferred call through
	// it was found not to recover (tableMayRecover); 0 before.
	recoverAt int
}

// tableMayRecover reports whether a function of tab calls recover itself.
// When none does, a function added later that does is refused at the end
// (lowerLate): the deferred call was taken not to recover.
func (s *system) tableMayRecover(tab *funcTable) bool {
	for _, f := range tab.funcs {
		if f.kind == vFunc && s.x.local(f.fn) && callsRecover(f.fn) {
			return true
		}
	}
	if tab.recoverAt == 0 || tab.recoverAt > len(tab.funcs)+1 {
		tab.recoverAt = len(tab.funcs) + 1
	}
	return false
}

// funcTableOf returns the table of function values of type t.
func (s *system) funcTableOf(t types.Type) *funcTable {
	sig := t.Underlying().(*types.Signature)
	for _, tab := range s.funcTabs {
		if types.Identical(tab.sig, sig) {
			return tab
		}
	}
	tab := &funcTable{sig: sig}
	s.funcTabs = append(s.funcTabs, tab)
	return tab
}

// funcNames spells the values 1, 2, ... of a function cell of type t:
// the functions of its table, a function literal by its place.
func (s *system) funcNames(t types.Type) []string {
	sig := t.Underlying().(*types.Signature)
	var names []string
	for _, tab := range s.funcTabs {
		if !types.Identical(tab.sig, sig) {
			continue
		}
		for _, f := range tab.funcs {
			switch {
			case f.kind == vFunc && f.fn != nil && f.fn.Parent() != nil:
				pos := s.x.fset.Position(f.fn.Pos())
				names = append(names, fmt.Sprintf("(func literal at %s:%d)", filepath.Base(pos.Filename), pos.Line))
			case f.kind == vFunc && f.fn != nil:
				var from *types.Package
				if f.fn.Pkg != nil {
					from = f.fn.Pkg.Pkg
				}
				names = append(names, f.fn.RelString(from))
			default:
				names = append(names, "("+describe(f)+")")
			}
		}
	}
	return names
}

// isFuncCell reports whether a channel's element of type t is a function
// value.
func isFuncCell(t types.Type) bool {
	_, ok := t.Underlying().(*types.Signature)
	return ok
}

// funcID returns the integer that stands for function value v of type t.
func (s *system) funcID(t types.Type, v value, pos token.Pos) model.Expr {
	tab := s.funcTableOf(t)
	switch v.kind {
	case vNil:
		return model.C(0)
	case vFunc:
		// A captured variable chosen at run time (a loop's variable, a new
		// one each iteration) makes one entry per object it may be.
		for k, e := range v.env {
			switch {
			case e.kind == vRef:
				var sum model.Expr = model.C(0)
				for _, o := range e.objs {
					one := v
					one.env = slices.Clone(v.env)
					one.env[k] = value{kind: vPtr, ptr: o.target()}
					sum = model.Bin(model.OpAdd, sum, model.Bin(model.OpMul,
						model.Bin(model.OpEq, e.e, model.C(s.idOf(o, pos))), s.funcID(t, one, pos)))
				}
				return sum
			case e.kind == vFuncRef, e.kind == vInt && !isConstExpr(e.e), e.kind == vPtr && e.ptr.dynamic():
				s.unsupported(pos, "sending on a channel a closure that captures %s known only at run time", describe(e))
			case e.kind == vPtr && e.ptr.obj.owner >= 0:
				// Whoever receives the closure reaches the variable: it is
				// shared from its allocation on.
				s.idOf(e.ptr.obj, pos)
			}
		}
		for i, f := range tab.funcs {
			if same(f, v) {
				return model.C(int64(i + 1))
			}
		}
		s.addTableFunc(tab, v, pos)
		if len(tab.funcs) > maxCases {
			s.unsupported(pos, "more than %d function values of type %s sent on channels or stored by goroutines", maxCases, t)
		}
		return model.C(int64(len(tab.funcs)))
	case vCancel, vStop:
		// A context's cancel function, a context.AfterFunc's stop: an
		// entry of its own, which a call through the table runs as a
		// direct call of it does (lowerTargets).
		for i, f := range tab.funcs {
			if same(f, v) {
				return model.C(int64(i + 1))
			}
		}
		s.addTableFunc(tab, v, pos)
		return model.C(int64(len(tab.funcs)))
	case vFuncRef:
		if v.ftab == tab {
			return v.e
		}
		// The alternatives' indices, selected by v's.
		var e model.Expr = model.C(0)
		for i, a := range v.alts {
			id := s.funcID(t, a, pos)
			e = model.Bin(model.OpAdd, e, model.Bin(model.OpMul, model.Bin(model.OpEq, v.e, model.C(int64(i+1))), id))
		}
		return e
	}
	s.unsupported(pos, "sending %s on a channel of %s", describe(v), t)
	return nil
}

// addTableFunc adds v to tab, of the generation of the lowering that
// makes it.
func (s *system) addTableFunc(tab *funcTable, v value, pos token.Pos) {
	if s.lateGen > maxLateGen {
		s.unsupported(pos, "a function value sent on a channel by a function called through a channel, which another such function made, %d times over", maxLateGen)
	}
	tab.funcs = append(tab.funcs, v)
	tab.gens = append(tab.gens, s.lateGen)
	tab.pos = pos
}

// funcFromID is the function value a channel of type t delivers as e.
func (s *system) funcFromID(t types.Type, e model.Expr) value {
	tab := s.funcTableOf(t)
	return value{kind: vFuncRef, e: e, ftab: tab}
}

// A funcCall is a call of a function value received from a channel,
// lowered once every process is (lowerFuncCalls).
type funcCall struct {
	p        *proc
	fr       *frame
	in       *ssa.Call
	f        value
	args     []value
	from, to int
	results  []int  // the registers of the results
	refs     []bool // which results are heap ids
	types    []types.Type
	// at is where the call stands, and chain the deferred calls that may
	// recover a panic of it, as they were at the call.
	at    unwindCtx
	chain []chainElem
	// unwinding is the panic whose deferred calls the call is one of, if
	// any: recover in it, and a panic in it, see that panic (recover.go).
	unwinding *unwinding
	// nilPanics is set when a nil function value may reach the call.
	nilPanics bool
	// lowered is set once the call is lowered, with the first done
	// functions of its table.
	lowered bool
	done    int
	// depth is the number of such calls it is lowered inside, itself
	// included; gen is the generation of the lowering that made it
	// (maxLateGen).
	depth, gen int
}

// maxLateDepth bounds the nesting of calls of function values received
// from channels or loaded from memory, each lowered with every function
// of its table: a task wrapper calling the task it wraps is such a call
// inside another, and the table holds the wrapper too, so that each
// lowering would add one more. A run that goes deeper is refused.
// maxFuncCalls bounds such calls in all.
//
// A function a table's call inlines may make another function of a table
// (a stream's task its callback), which a call comes back for. Each
// function of a table, and each such call, has a generation: 0 when the
// lowering of the processes made it, else 1 + the highest of the call
// whose functions were being inlined and of those functions. A task
// wrapper that calls the task it wraps, where a task may submit another
// wrapped task, makes a function of a higher generation each time it is
// inlined, without end: past maxLateGen it is refused.
const (
	maxLateDepth = 4
	maxFuncCalls = 1024
	maxLateGen   = 8
)

// deferFuncCall records a call of a value of a funcTable and returns the
// location after it.
func (p *proc) deferFuncCall(fr *frame, in *ssa.Call, f value, args []value, cur int) int {
	return p.deferFuncCallOf(fr, in, f, args, true, cur)
}

// deferFuncCallOf is deferFuncCall; nilPanics is false for a call that its
// caller guards against nil (sync.Pool's Get calls New only when set).
func (p *proc) deferFuncCallOf(fr *frame, in *ssa.Call, f value, args []value, nilPanics bool, cur int) int {
	depth := 1
	if p.late != nil {
		depth = p.late.depth + 1
	}
	if depth > maxLateDepth {
		// The functions of a table call the functions of a table in turn
		// (a task wrapper calling the task it wraps, which may be another
		// wrapper): a run that goes this deep is refused.
		return p.refuseAt(cur, fmt.Sprintf("calls of function values received from channels or loaded from memory nested more than %d deep", maxLateDepth), in.Pos())
	}
	if len(p.s.funcCalls) >= maxFuncCalls {
		p.s.unsupported(in.Pos(), "more than %d calls of function values received from channels or loaded from memory (functions of such values calling more of them)", maxFuncCalls)
	}
	c := &funcCall{depth: depth, gen: p.s.lateGen, nilPanics: nilPanics, p: p, fr: fr, in: in, f: f, args: args, from: cur, to: p.newLoc(in.Pos()), at: p.at, chain: p.chain(), unwinding: p.unwinding}
	// Its results are registers that every function of the table sets
	// when it returns: the call is lowered after the rest of the process.
	res := f.ftab.sig.Results()
	var vals []value
	for k := range res.Len() {
		t := res.At(k).Type()
		ref := isPtrCell(t) || ifaceOf(t) != nil
		if !ref && !isIntegral(t) && !isString(t) && !isFuncCell(t) {
			p.s.unsupported(in.Pos(), "a call of a function value chosen at run time with a result of type %s (its results may be integers, booleans, strings, pointers, functions and interface values)", t)
		}
		r := p.newReg(fmt.Sprintf("result%d", k), t)
		c.results = append(c.results, r)
		c.types = append(c.types, t)
		c.refs = append(c.refs, ref)
		if isFuncCell(t) {
			// A function: its index in the table of its type, as a
			// channel of functions carries it.
			vals = append(vals, p.s.funcFromID(t, model.R(r)))
			continue
		}
		if ref {
			// A pointer or an interface value: the heap id of what the
			// function returns (pointers.go, ifacecells.go).
			// It names what the table's functions return (chanflow.go).
			v := p.s.refVal(model.R(r), t)
			v.objs, v.guessed = p.s.flowObjs([]string{resultKey(f.ftab.sig, k)}, t)
			vals = append(vals, v)
			continue
		}
		vals = append(vals, intVal(model.R(r)))
	}
	switch len(vals) {
	case 0:
	case 1:
		fr.vals[in] = vals[0]
	default:
		fr.vals[in] = value{kind: vTuple, tup: vals}
	}
	p.s.funcCalls = append(p.s.funcCalls, c)
	return c.to
}

// lowerLate lowers the calls through function tables and the goroutines
// that processes start: a goroutine may call a function value (an
// errgroup's goroutine calls its task) and a function called through a
// table may start a goroutine, so each round lowers what the other added,
// until nothing is left.
func (s *system) lowerLate() {
	for nested := 0; ; {
		if c := s.nextFuncCall(); c != nil {
			s.lowerFuncCall(c)
			continue
		}
		if nested < len(s.calls.nested) {
			nested = s.lowerNested(nested)
			continue
		}
		break
	}
	s.checkPrivateLoads()
	for _, tab := range s.funcTabs {
		if tab.recoverAt > 0 {
			for _, f := range tab.funcs[tab.recoverAt-1:] {
				if f.kind == vFunc && s.x.local(f.fn) && callsRecover(f.fn) {
					s.unsupported(tab.pos, "a deferred call of a function value that may recover a panic, stored or sent after the deferred call")
				}
			}
		}
	}
}

// nextFuncCall returns the first call through a function table not
// lowered yet, or whose table has grown since (a function called through
// a channel sends another, a stream's task its callback); nil when there
// is none.
func (s *system) nextFuncCall() *funcCall {
	for _, c := range s.funcCalls {
		if !c.lowered || c.done < len(c.f.ftab.funcs) {
			return c
		}
	}
	return nil
}

// lowerFuncCall lowers a call of a function value received from a channel
// or loaded from memory: it inlines each function of its table not
// inlined there yet, under its index. A function so called may send more
// to the same table, or to the table of a call lowered before: lowerLate
// comes back to that call for them.
func (s *system) lowerFuncCall(c *funcCall) {
	tab := c.f.ftab
	var targets []callTarget
	for k := c.done; k < len(tab.funcs); k++ {
		a := tab.funcs[k]
		targets = append(targets, callTarget{
			cond: model.Bin(model.OpEq, c.f.e, model.C(int64(k+1))),
			fn:   a.fn,
			env:  a.env,
			args: c.args,
			std:  a,
		})
	}
	gen := c.gen
	for _, g := range tab.gens[c.done:] {
		gen = max(gen, g)
	}
	prevGen := s.lateGen
	s.lateGen = gen + 1
	defer func() { s.lateGen = prevGen }()
	c.done = len(tab.funcs)
	var isNil model.Expr
	if c.nilPanics && !c.lowered {
		isNil = model.Bin(model.OpEq, c.f.e, model.C(0))
	}
	c.lowered = true
	pos := c.in.Pos()
	prevAt, prevLate, prevUnwinding := c.p.at, c.p.late, c.p.unwinding
	c.p.at, c.p.late, c.p.unwinding = c.at, &lateCall{fr: c.at.fr, chain: c.chain, depth: c.depth}, c.unwinding
	rets := c.p.lateTargets(c, targets, isNil)
	c.p.at, c.p.late, c.p.unwinding = prevAt, prevLate, prevUnwinding
	for _, r := range rets {
		loc := r.loc
		for k, reg := range c.results {
			var e model.Expr
			if isFuncCell(c.types[k]) {
				e = s.funcID(c.types[k], r.vals[k], pos)
			} else {
				e = s.refOrInt(r.vals[k], c.refs[k], pos)
			}
			if c.refs[k] {
				s.noteValue([]string{resultKey(tab.sig, k)}, r.vals[k], e)
			}
			loc = c.p.emit(loc, model.AssignOp(reg, e), pos, Origin{})
		}
		c.p.emitTo(loc, model.NopOp(), c.to, pos, Origin{})
	}
}

// refOrInt is the expression of a result register: the heap id of a
// pointer or interface value when ref is set, else the integer.
func (s *system) refOrInt(v value, ref bool, pos token.Pos) model.Expr {
	if ref {
		return s.refExpr(v, pos)
	}
	return s.asInt(v, pos)
}

// isConstExpr reports whether e is a constant.
func isConstExpr(e model.Expr) bool {
	_, ok := e.(model.Const)
	return ok
}

// lateTargets lowers the targets of the call c through a function table
// (lowerTargets); a construct the model does not have in them is a
// run-time refusal at the call, as instrOrRefuse makes one.
func (p *proc) lateTargets(c *funcCall, targets []callTarget, isNil model.Expr) (rets []retSite) {
	st := p.state()
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		u := refusalOf(r, false)
		p.restore(st)
		pos := u.pos
		if !pos.IsValid() {
			pos = c.in.Pos()
		}
		p.refuseAt(c.from, strings.TrimPrefix(u.msg, unsupportedPrefix), pos)
		rets = nil
	}()
	return p.lowerTargets(c.fr, c.in, targets, isNil, c.from, c.to)
}
