package extract

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/fencecheck/fencecheck/model"
)

// callKind is what a call of a function outside the package means, beyond
// the atomics, Mutex and WaitGroup of classifyExtern.
type callKind uint8

const (
	callOther    callKind = iota
	callNop               // time.Sleep: a yield
	callPure              // a function that cannot touch the system's memory
	callCallers           // runtime.Callers (callersArray)
	callExit              // os.Exit
	callFatal             // log.Fatal*, log.Panic*: the program fails there
	callRLock             // (*sync.RWMutex).RLock
	callRUnlock           // (*sync.RWMutex).RUnlock
	callWLock             // (*sync.RWMutex).Lock
	callWUnlock           // (*sync.RWMutex).Unlock
	callTryLock           // (*sync.RWMutex).TryLock
	callTryRLock          // (*sync.RWMutex).TryRLock
	callOnceDo            // (*sync.Once).Do
	callValue             // a method of atomic.Value
)

// purePackages are the packages whose functions and methods touch no memory
// of a system when no argument points into it: they format, parse, compute
// and write to the process's outputs.
var purePackages = map[string]bool{
	"errors": true, "fmt": true, "log": true, "math": true, "math/bits": true,
	"strconv": true, "strings": true, "time": true, "unicode": true,
	"unicode/utf8": true, "unicode/utf16": true,
}

// rwMutexMaxReaders is Go's bound on the readers of a sync.RWMutex.
const rwMutexMaxReaders = 1 << 30

// classifyCall says what a call of fn, a function outside the package,
// means when classifyExtern does not know it.
func classifyCall(fn *ssa.Function) callKind {
	obj, _ := fn.Object().(*types.Func)
	if obj == nil || obj.Pkg() == nil {
		return callOther
	}
	path, name := obj.Pkg().Path(), fn.Name()
	recv := fn.Signature.Recv()
	if recv != nil {
		rt := deref(recv.Type())
		switch {
		case isNamed(rt, "sync", "RWMutex"):
			return map[string]callKind{"Lock": callWLock, "Unlock": callWUnlock, "RLock": callRLock,
				"RUnlock": callRUnlock, "TryLock": callTryLock, "TryRLock": callTryRLock}[name]
		case isNamed(rt, "sync", "Once"):
			if name == "Do" {
				return callOnceDo
			}
			return callOther
		case isNamed(rt, "sync/atomic", "Value"):
			return callValue
		}
	}
	switch {
	case path == "time" && recv == nil && name == "Sleep":
		return callNop
	case path == "os" && recv == nil && name == "Exit":
		return callExit
	case path == "log" && (name == "Fatal" || name == "Fatalf" || name == "Fatalln" ||
		name == "Panic" || name == "Panicf" || name == "Panicln"):
		return callFatal
	case purePackages[path], path == "runtime/debug" && recv == nil && name == "Stack":
		return callPure
	case path == "runtime" && recv == nil && name == "Callers":
		return callCallers
	}
	return callOther
}

// syncRange is the range of the model variable of a sync.RWMutex or a
// sync.Once.
func syncRange(t types.Type) (lo, hi int64, ok bool) {
	switch classify(t) {
	case leafRWMutex:
		return -1 - rwMutexMaxReaders, rwMutexMaxReaders, true
	case leafOnce:
		return 0, 2, true
	}
	return 0, 0, false
}

// boundRWMutexes gives each RWMutex variable the domain [-(n+1), n], n
// the number of sites of each process that read-lock it (-(r+1) is a writer waiting
// for r readers). The domain is fencecheck's own: a
// process that holds two read locks at once leaves it, and the analysis
// widens it to Go's bound.
func (s *system) boundRWMutexes() {
	for x := range s.prog.Vars {
		if classify(s.varType[x]) == leafRWMutex {
			// The read locks that can be held at once: the goroutines',
			// and those the set-up left held.
			n := int64(len(s.calls.readers[x])) + max(s.prog.Vars[x].Init.Value, 0)
			s.prog.Vars[x].Dom = model.Range(-1-n, n)
		}
	}
}

// pointerFree reports whether a value of type t holds no pointer.
func pointerFree(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Kind() != types.UnsafePointer
	case *types.Array:
		return pointerFree(u.Elem())
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if !pointerFree(u.Field(i).Type()) {
				return false
			}
		}
		return true
	}
	return false
}

// argProblem says why v, an argument of a call into a package of
// purePackages, may let the callee reach the system's memory, or returns "".
// Allowed are values without pointers, interface values made from them (the
// arguments of fmt.Println), and the results of such calls (an error from
// fmt.Errorf).
func argProblem(v ssa.Value) string { return argProblemAt(v, nil) }

// fmtMethod returns the method of t that fmt, log and errors' formatting
// call in place of printing the value (Error, String, Format, GoString),
// when code outside the standard library declares it: it may read or
// write the system's memory, lock or panic; or nil.
func (x *extractor) fmtMethod(t types.Type) *types.Func {
	return x.fmtMethodIn(t, map[types.Type]bool{})
}

// fmtMethodIn is fmtMethod of t, or of what fmt prints inside a value of
// type t: the elements of an array, a slice or a map, the exported
// fields of a struct, what a pointer points to. seen holds the types
// looked at already.
func (x *extractor) fmtMethodIn(t types.Type, seen map[types.Type]bool) *types.Func {
	if seen[t] {
		return nil
	}
	seen[t] = true
	if m := x.ownFmtMethod(t); m != nil {
		return m
	}
	if _, isPtr := t.(*types.Pointer); !isPtr {
		if m := x.ownFmtMethod(types.NewPointer(t)); m != nil {
			return m // an addressable element's pointer method
		}
	}
	switch u := t.Underlying().(type) {
	case *types.Array:
		return x.fmtMethodIn(u.Elem(), seen)
	case *types.Slice:
		return x.fmtMethodIn(u.Elem(), seen)
	case *types.Pointer:
		return x.fmtMethodIn(u.Elem(), seen)
	case *types.Map:
		if m := x.fmtMethodIn(u.Key(), seen); m != nil {
			return m
		}
		return x.fmtMethodIn(u.Elem(), seen)
	case *types.Struct:
		for i := range u.NumFields() {
			if f := u.Field(i); f.Exported() {
				if m := x.fmtMethodIn(f.Type(), seen); m != nil {
					return m
				}
			}
		}
	}
	return nil
}

// ownFmtMethod is the method fmtMethod looks for, in t's own method set.
func (x *extractor) ownFmtMethod(t types.Type) *types.Func {
	mset := types.NewMethodSet(t)
	for _, name := range []string{"Error", "String", "Format", "GoString"} {
		sel := mset.Lookup(nil, name)
		if sel == nil {
			continue
		}
		m, ok := sel.Obj().(*types.Func)
		if !ok || m.Pkg() == nil {
			continue
		}
		file := x.fset.Position(m.Pos()).Filename
		std := inGoroot(file)
		if file == "" {
			// Without a position (the export data of the standard
			// library): by its path.
			first, _, _ := strings.Cut(m.Pkg().Path(), "/")
			std = !strings.Contains(first, ".")
		}
		if !std {
			return m
		}
	}
	return nil
}

// fmtMethodArg describes an operand of a formatting call's ... argument
// (args, the call's arguments) whose type has a method fmtMethod returns,
// or returns "". fr, when not nil, tells the dynamic types of interface
// values a goroutine passes on.
func (s *system) fmtMethodArg(fr *frame, args []ssa.Value) string {
	if len(args) == 0 {
		return ""
	}
	elems, ok := appendArgs(args[len(args)-1])
	if !ok {
		return ""
	}
	describe := func(t types.Type, m *types.Func) string {
		return fmt.Sprintf("a value of type %s, whose method %s formatting calls (fencecheck does not run it there)", t, m.Name())
	}
	for _, e := range elems {
		for {
			ci, ok := e.(*ssa.ChangeInterface)
			if !ok {
				break
			}
			e = ci.X
		}
		if mi, ok := e.(*ssa.MakeInterface); ok {
			if m := s.x.fmtMethod(mi.X.Type()); m != nil {
				return describe(mi.X.Type(), m)
			}
			continue
		}
		if fr == nil {
			continue
		}
		v, ok := fr.vals[e]
		if !ok {
			continue
		}
		switch v.kind {
		case vIface:
			if m := s.x.fmtMethod(v.typ); m != nil {
				return describe(v.typ, m)
			}
			if o, ok := s.wrapped(v); ok {
				if own := s.ownErrorIn(o); own != nil {
					return ownErrorWhy(own, true)
				}
			}
		case vRef:
			for _, o := range v.objs {
				if own := s.ownErrorIn(o); own != nil {
					return ownErrorWhy(own, true)
				}
				if dt := dynType(o); dt != nil {
					if m := s.x.fmtMethod(dt); m != nil {
						return describe(dt, m)
					}
				}
			}
		}
	}
	return ""
}

// argProblemAt is argProblem where readOnly, when not nil, tells the values
// whose value a goroutine knows to be only readable (readOnlyArg).
func argProblemAt(v ssa.Value, readOnly func(ssa.Value) bool) string {
	seen := map[ssa.Value]bool{}
	var check func(v ssa.Value) string
	check = func(v ssa.Value) string {
		if seen[v] || pointerFree(v.Type()) || readOnly != nil && readOnly(v) {
			return ""
		}
		seen[v] = true
		switch v := v.(type) {
		case *ssa.Const:
			if v.Value == nil {
				return ""
			}
		case *ssa.MakeInterface:
			return check(v.X)
		case *ssa.ChangeInterface:
			return check(v.X)
		case *ssa.Extract:
			return check(v.Tuple)
		case *ssa.UnOp:
			if g, ok := v.X.(*ssa.Global); ok && v.Op == token.MUL && isStdStream(g) {
				return ""
			}
		case *ssa.Call:
			if f := v.Call.StaticCallee(); f != nil && !v.Call.IsInvoke() && classifyCall(f) == callPure {
				return ""
			}
			if b, ok := v.Call.Value.(*ssa.Builtin); ok && b.Name() == "recover" {
				return "" // a panic's value, which recover.go checks
			}
		case *ssa.Phi:
			for _, e := range v.Edges {
				if why := check(e); why != "" {
					return why
				}
			}
			return ""
		case *ssa.Slice:
			// The arguments of a variadic call: the elements stored in
			// the array the slice is made of.
			arr, ok := v.X.(*ssa.Alloc)
			if !ok || v.Low != nil || v.High != nil || v.Max != nil {
				break
			}
			for _, r := range *arr.Referrers() {
				ia, ok := r.(*ssa.IndexAddr)
				if !ok {
					if r != v {
						return "a slice used elsewhere"
					}
					continue
				}
				for _, rr := range *ia.Referrers() {
					st, ok := rr.(*ssa.Store)
					if !ok || st.Addr != ia {
						return "a slice used elsewhere"
					}
					if why := check(st.Val); why != "" {
						return why
					}
				}
			}
			return ""
		}
		return fmt.Sprintf("a value of type %s (it may point into the system's memory)", v.Type())
	}
	return check(v)
}

// pureArgs reports whether no argument of c lets a call into a package of
// purePackages reach the system's memory (argProblem).
func pureArgs(c *ssa.CallCommon) bool {
	for _, a := range c.Args {
		if argProblem(a) != "" {
			return false
		}
	}
	return true
}

// isStdStream reports whether g is one of the process's standard streams
// (os.Stdin, os.Stdout, os.Stderr) or io.Discard: values of the standard
// library that point into no memory of a system.
func isStdStream(g *ssa.Global) bool {
	if g.Pkg == nil {
		return false
	}
	switch g.Pkg.Pkg.Path() {
	case "os":
		return g.Name() == "Stdin" || g.Name() == "Stdout" || g.Name() == "Stderr"
	case "io":
		return g.Name() == "Discard"
	}
	return false
}

// callOrigin returns the origin of the transitions a call of fn lowers to,
// and their position: the call, and its receiver or first argument as the
// memory it acts on.
func (p *proc) callOrigin(fr *frame, in *ssa.Call, fn *ssa.Function) (Origin, token.Pos) {
	s := p.s
	o, pos := Origin{}, in.Pos()
	x, ok := s.x.debugOf(fr.fn).expr[in]
	if !ok {
		return o, pos
	}
	o.Node, pos = x, x.Pos()
	call, ok := ast.Unparen(x).(*ast.CallExpr)
	if !ok {
		return o, pos
	}
	s.setCallTarget(&o, fn, call)
	return o, pos
}

// callName is the source of the call in, or the name of fn.
func (s *system) callName(fr *frame, in *ssa.Call, fn *ssa.Function) string {
	if x, ok := s.x.debugOf(fr.fn).expr[in]; ok {
		return types.ExprString(x)
	}
	return fn.String()
}

// externCall lowers a call of a function outside the package that
// classifyCall knows; ok is false for the others.
func (p *proc) externCall(fr *frame, in *ssa.Call, fn *ssa.Function, args []value, cur int) (next int, ok bool) {
	s := p.s
	k := classifyCall(fn)
	pos := in.Pos()
	loop := func() bool { return in.Block() == nil || inLoop(fr, in.Block()) }
	if v, ok := s.mathCall(fn, args, pos); ok {
		if used(in) {
			fr.vals[in] = v
		}
		return cur, true
	}
	if v, ok := s.stringsCall(fn, args); ok {
		if used(in) {
			fr.vals[in] = v
		}
		return cur, true
	}
	if next, ok := p.stringsCallAt(fr, in, fn, args, cur); ok {
		return next, true
	}
	if v, ok := s.formatCall(fr, in.Common(), fn, args); ok {
		if used(in) {
			fr.vals[in] = v
		}
		return cur, true
	}
	if next, ok := p.formatRuntime(fr, in, fn, args, cur); ok {
		return next, true
	}
	if msg, ok := s.certainPanic(fn, args); ok {
		p.panicAt(panicSite{loc: cur, name: msg, pos: pos})
		return -1, true
	}
	if v, ok := s.regexpCall(fn, args, pos); ok {
		if used(in) {
			fr.vals[in] = v
		}
		return cur, true
	}
	if fn == s.x.joinTooLong && fn != nil {
		return p.refuseAt(cur, joinTooLongWhy, pos), true
	}
	if isTimerMethod(fn) && len(args) > 0 && args[0].kind == vNil {
		// (*time.Timer)(nil).Stop(): Go dereferences the timer.
		p.panicAt(panicSite{loc: cur, name: "invalid memory address or nil pointer dereference", pos: pos})
		return -1, true
	}
	if next, ok := p.errorsAs(fr, in, fn, args, cur); ok {
		return next, true
	}
	if spec, ok := s.errorSpec(fn, in.Common(), args, fr); ok {
		return p.makeError(fr, in, spec, loop(), cur), true
	}
	if v, ok := s.errorsCall(fn, in.Common(), args, pos, fr); ok {
		if used(in) {
			fr.vals[in] = v
		}
		return cur, true
	}
	switch k {
	case callOther:
		if ek, _ := classifyExtern(fn); ek != extNone {
			return 0, false
		}
		if why := s.x.noSourceReason(fn); why != "" {
			s.unsupported(pos, "a call of %s (%s)", fn.String(), why)
		}
		// Refused where a run reaches it: a library's path that the
		// system never takes (perks' sort.Sort once its buffer is full)
		// does not refuse the system.
		return p.refuseAt(cur, fmt.Sprintf("a call of %s (not modelled; only calls that cannot touch the system's memory, such as fmt, log, strconv, strings and time.Sleep, are)", fn.String()), pos), true
	case callNop:
		return cur, true
	case callValue:
		return p.valueOp(fr, in, fn, args, cur), true
	case callPure:
		if what := p.checkArgs(fr, in, fn, args); what != "" {
			return p.refuseAt(cur, what, pos), true
		}
		cur = p.runtimePanics(fn, args, pos, cur)
		return p.pureResults(fr, in, fn, cur), true
	case callCallers:
		if callersArray(in) == nil {
			return p.refuseAt(cur, "runtime.Callers into an array that the code reads otherwise than as arr[:n] of its result (fencecheck does not compute program counters)", pos), true
		}
		return p.pureResults(fr, in, fn, cur), true
	case callExit, callFatal:
		if what := p.checkArgs(fr, in, fn, args); what != "" {
			return p.refuseAt(cur, what, pos), true
		}
		if c, isConst := args[0].constant(); k == callExit && isConst && c == 0 {
			p.exits[cur] = true
			return -1, true // the program ends: nothing of this process follows
		}
		name := s.callName(fr, in, fn)
		if x, ok := s.x.debugOf(fr.fn).expr[in]; ok {
			pos = x.Pos()
		}
		site := panicSite{loc: cur, name: name, pos: pos}
		if strings.HasPrefix(fn.Name(), "Panic") {
			p.panicAt(site) // log.Panic panics, which a deferred call may recover
		} else {
			p.panics = append(p.panics, site)
		}
		return -1, true
	}
	if p.nilDeref(args[0], pos, cur) {
		return -1, true
	}
	ptr := p.pointerArg(args[0], pos)
	if ptr.obj.owner >= 0 {
		if next, ok := p.privateSyncOp(fr, in, fn, k, ptr, pos, cur); ok {
			return next, true
		}
		s.unsupported(pos, "synchronisation on a variable private to one goroutine (its mutex's Lock, Unlock, RLock and RUnlock are modelled)")
	}
	if !ptr.dynamic() {
		return p.syncOp(fr, in, fn, k, ptr, pos, cur)
	}
	if k == callTryLock || k == callTryRLock {
		s.unsupported(pos, "a %s chosen at run time", deref(fn.Signature.Recv().Type()))
	}
	// A mutex or a Once that the pointer picks at run time (a field of an
	// object a goroutine got from memory): the operation on each.
	join := p.newLoc(pos)
	p.eachCase(cur, ptr, pos, func(q pointer, from int) {
		if end, _ := p.syncOp(fr, in, fn, k, q, pos, from); end >= 0 {
			p.emitTo(end, model.NopOp(), join, pos, Origin{})
		}
	})
	return join, true
}

// privateSyncOp lowers Lock, Unlock, RLock or RUnlock (kind k, the call
// in) of the mutex ptr of an object private to the goroutine (an item it
// made and has not published, which locks itself as ttlcache's do): no
// other goroutine reaches it, so its state is a register, -1 held, r > 0
// r readers, 0 free. A lock of a held mutex waits forever, as Go's does;
// an unlock of a free one is Go's fatal error. ok is false for other
// operations, and for a mutex at a place chosen at run time.
func (p *proc) privateSyncOp(fr *frame, in *ssa.Call, fn *ssa.Function, k callKind, ptr pointer, pos token.Pos, cur int) (int, bool) {
	if ptr.dynamic() {
		return cur, false
	}
	if t, _ := ptr.target(); classify(t) != leafRWMutex {
		return cur, false
	}
	r := p.privateReg(ptr)
	o, pos := p.callOrigin(fr, in, fn)
	v, bin := model.R(r), model.Bin
	guarded := func(cond model.Expr, e model.Expr) int {
		g := p.emit(cur, model.GuardOp(cond), pos, o)
		return p.emit(g, model.AssignOp(r, e), pos, o)
	}
	// waitForever is the lock of a mutex held otherwise: a wait that no
	// other goroutine can end (s.foreverVar, as select {}).
	waitForever := func(held model.Expr) {
		g := p.emit(cur, model.GuardOp(held), pos, o)
		p.emit(g, model.ReadEqOp(p.s.foreverVar(), model.C(1)), pos, o)
	}
	switch k {
	case callWLock:
		waitForever(bin(model.OpNe, v, model.C(0)))
		return guarded(bin(model.OpEq, v, model.C(0)), model.C(-1)), true
	case callRLock:
		waitForever(bin(model.OpLt, v, model.C(0)))
		return guarded(bin(model.OpGe, v, model.C(0)), bin(model.OpAdd, v, model.C(1))), true
	case callWUnlock:
		p.fatal(cur, model.GuardOp(bin(model.OpNe, v, model.C(-1))), "sync: Unlock of unlocked RWMutex", pos, o)
		return guarded(bin(model.OpEq, v, model.C(-1)), model.C(0)), true
	case callRUnlock:
		p.fatal(cur, model.GuardOp(bin(model.OpLe, v, model.C(0))), "sync: RUnlock of unlocked RWMutex", pos, o)
		return guarded(bin(model.OpGt, v, model.C(0)), bin(model.OpSub, v, model.C(1))), true
	}
	return cur, false
}

// syncOp lowers the call in of a method of sync.Mutex, RWMutex or Once, of
// kind k, on the cell ptr.
func (p *proc) syncOp(fr *frame, in *ssa.Call, fn *ssa.Function, k callKind, ptr pointer, pos token.Pos, cur int) (int, bool) {
	s := p.s
	t, _ := ptr.target()
	if lk := classify(t); lk != leafRWMutex && lk != leafOnce {
		s.unsupported(pos, "%s on a %s", fn.Name(), t)
	}
	x := s.varFor(ptr)
	o, pos := p.callOrigin(fr, in, fn)
	if o.Type == nil {
		o.Type = t
	}
	v := model.V(x)
	bin := model.Bin
	switch k {
	case callWLock:
		// Lock announces the writer, r readers still holding becoming
		// -(r+1) (-1 at once without readers), then waits for the last
		// of them to leave (-1): new readers wait from the announcement
		// on, as Go's do.
		announced := p.emit(cur, model.LockedOp(model.GuardOp(bin(model.OpGe, v, model.C(0))),
			model.WriteOp(x, bin(model.OpSub, model.C(-1), v))), pos, o)
		return p.emit(announced, model.LockedOp(model.ReadEqOp(x, model.C(-1))), pos, o), true
	case callRLock:
		p.reader(x, pos)
		return p.emit(cur, model.LockedOp(model.GuardOp(bin(model.OpGe, v, model.C(0))),
			model.WriteOp(x, bin(model.OpAdd, v, model.C(1)))), pos, o), true
	case callRUnlock:
		// A reader leaves: r readers are r, or -(r+1) while a writer
		// waits for them.
		p.fatal(cur, model.LockedOp(model.GuardOp(bin(model.OpAnd, bin(model.OpLe, v, model.C(0)), bin(model.OpGe, v, model.C(-1)))), model.ReadOp(x, -1)),
			"sync: RUnlock of unlocked RWMutex", pos, o)
		join := p.newLoc(pos)
		p.emitTo(cur, model.LockedOp(model.GuardOp(bin(model.OpGt, v, model.C(0))),
			model.WriteOp(x, bin(model.OpSub, v, model.C(1)))), join, pos, o)
		p.emitTo(cur, model.LockedOp(model.GuardOp(bin(model.OpLt, v, model.C(-1))),
			model.WriteOp(x, bin(model.OpAdd, v, model.C(1)))), join, pos, o)
		return join, true
	case callWUnlock:
		p.fatal(cur, model.LockedOp(model.GuardOp(bin(model.OpNe, v, model.C(-1))), model.ReadOp(x, -1)),
			"sync: Unlock of unlocked RWMutex", pos, o)
		return p.emit(cur, model.LockedOp(model.ReadEqOp(x, model.C(-1)), model.WriteOp(x, model.C(0))), pos, o), true
	case callTryLock, callTryRLock:
		succ := model.CASSuccess(x, -1, model.C(0), model.C(-1))
		fail := model.LockedOp(model.GuardOp(bin(model.OpNe, v, model.C(0))), model.ReadOp(x, -1))
		if k == callTryRLock {
			p.reader(x, pos)
			succ = model.LockedOp(model.GuardOp(bin(model.OpGe, v, model.C(0))), model.WriteOp(x, bin(model.OpAdd, v, model.C(1))))
			fail = model.LockedOp(model.GuardOp(bin(model.OpLt, v, model.C(0))), model.ReadOp(x, -1))
		}
		if used(in) {
			r := p.newReg(p.regName(fr, in), types.Typ[types.Bool])
			p.holds(r, fr, in)
			succ.Body = append(succ.Body, model.AssignOp(r, model.C(1)))
			fail.Body = append(fail.Body, model.AssignOp(r, model.C(0)))
			fr.vals[in] = intVal(model.R(r))
		}
		join := p.newLoc(pos)
		p.emitTo(cur, succ, join, pos, o)
		p.emitTo(cur, fail, join, pos, o)
		return join, true
	case callOnceDo:
		// The first caller moves the state from 0 to 1, runs f and sets 2;
		// the others wait until it is 2 (an atomic load, as Go's fast path).
		done := p.newLoc(pos)
		p.emitTo(cur, model.Op{Kind: model.Read, Var: x, Reg: -1, Expr: model.C(2), Atomic: true}, done, pos, o)
		run := p.emit(cur, model.CASSuccess(x, -1, model.C(0), model.C(1)), pos, o)
		oc := onceCall(in)
		if s.onceCalls == nil {
			s.onceCalls = map[*ssa.Call]int{}
		}
		s.onceCalls[oc] = 1 + x
		if s.onceBlocks == nil {
			s.onceBlocks = map[*ssa.Call]*ssa.BasicBlock{}
		}
		s.onceBlocks[oc] = in.Block()
		if run = p.call(fr, oc, run); run >= 0 {
			p.emitTo(run, model.Exchange(x, -1, model.C(2)), done, pos, o)
		}
		return done, true
	}
	return 0, false
}

// callBlock returns the block of the call in: for the call of f that
// once.Do(f) makes (onceCall), which go/ssa has not placed, the block of
// the Do.
func (s *system) callBlock(in *ssa.Call) *ssa.BasicBlock {
	if b := in.Block(); b != nil {
		return b
	}
	return s.onceBlocks[in]
}

// onceCall is the call of f that once.Do(f) makes.
func onceCall(in *ssa.Call) *ssa.Call {
	c := in.Call
	c.Value, c.Args, c.Method = in.Call.Args[1], nil, nil
	return &ssa.Call{Call: c}
}

// reader notes that the process read-locks the RWMutex variable x at pos:
// each site of each process may hold one read lock at once (a Sum that
// calls Get holds two).
func (p *proc) reader(x int, pos token.Pos) {
	if p.s.calls.readers == nil {
		p.s.calls.readers = map[int]map[[2]int]bool{}
	}
	if p.s.calls.readers[x] == nil {
		p.s.calls.readers[x] = map[[2]int]bool{}
	}
	p.s.calls.readers[x][[2]int{p.idx, int(pos)}] = true
}

// fatal adds, from cur, a transition op to a location where the program
// fails with Go's fatal error msg.
func (p *proc) fatal(cur int, op model.Op, msg string, pos token.Pos, o Origin) {
	l := p.emit(cur, op, pos, o)
	p.panics = append(p.panics, panicSite{loc: l, name: "fatal error: " + msg, pos: pos})
}

// readOnlyArg reports whether v, an argument of a call that cannot touch
// the system's memory, can only be read by it: nil, a value the model does
// not compute (the result of another such call), or an error that
// errors.New or fmt.Errorf made (its message never changes).
func (s *system) readOnlyArg(v value) bool {
	switch v.kind {
	case vNil:
		return true
	case vOpaque:
		return v.uncomputed || strings.HasPrefix(v.why, "the error returned by ")
	case vIface:
		return isObjPtr(v.typ) && s.x.isMadeError(ptrElem(v.typ))
	case vRef:
		for _, o := range v.objs {
			if o != nil && !s.isErrorObj(o) {
				return false
			}
		}
		return len(v.objs) > 0
	}
	return false
}

// checkArgs describes a call that cannot touch the system's memory when an
// argument may point into it (fmt.Println(&x)), or returns "": the call is
// refused where a run reaches it, so that a library's message on a path a
// system never takes (a panic that reports a value with %T) does not refuse
// the system. vals are the arguments' values. The receiver of a
// strings.Builder's method must be a Builder of the goroutine's own.
func (p *proc) checkArgs(fr *frame, in *ssa.Call, fn *ssa.Function, vals []value) string {
	args := in.Call.Args
	if isBuilderMethod(fn) {
		if v := vals[0]; v.kind != vPtr || v.ptr.obj.owner != p.idx || v.ptr.dynamic() {
			p.s.unsupported(in.Pos(), "%s on a strings.Builder that is not a variable of the goroutine's own (a Builder shared between goroutines is not modelled)", fn.Name())
		}
		args = args[1:]
	}
	readOnly := func(v ssa.Value) bool {
		x, ok := fr.vals[v]
		// A time.Time that is a reading of the clock points into no memory
		// of the system (its Location is the time package's).
		return ok && (p.s.readOnlyArg(x) || isTime(v.Type()) && x.kind == vInt)
	}
	for _, a := range args {
		if why := argProblemAt(a, readOnly); why != "" {
			return fmt.Sprintf("passing %s to %s", why, fn.String())
		}
	}
	if why := p.s.fmtMethodArg(fr, args); why != "" {
		return fmt.Sprintf("passing %s to %s", why, fn.String())
	}
	return ""
}

var errorType = types.Universe.Lookup("error").Type()

// resultUsed reports whether result k of the call in is used.
func resultUsed(in *ssa.Call, k int) bool {
	if in.Call.Signature().Results().Len() == 1 {
		return used(in)
	}
	refs := in.Referrers()
	if refs == nil {
		return false
	}
	for _, r := range *refs {
		if e, ok := r.(*ssa.Extract); ok && e.Index == k && used(e) {
			return true
		}
	}
	return false
}

// pureResults binds the results of a call that cannot touch the system's
// memory. Nothing is known of them: a bool is either value, an error is nil
// or not (a register holds which), and any other result is a value that
// only other such calls may use.
func (p *proc) pureResults(fr *frame, in *ssa.Call, fn *ssa.Function, cur int) int {
	res := in.Call.Signature().Results()
	if res.Len() == 0 || !used(in) {
		return cur
	}
	vals := make([]value, res.Len())
	// Go's results are a function of the arguments: the inputs of the
	// guesses made of them.
	inputs := p.s.inputsOf(fr, in.Call.Args...)
	for k := range vals {
		t := res.At(k).Type()
		what := fmt.Sprintf("the result of %s, which fencecheck does not compute", p.s.callName(fr, in, fn))
		vals[k] = opaque(what)
		vals[k].uncomputed = true
		vals[k].deps, vals[k].depsKnown = inputs.deps, inputs.known
		if !resultUsed(in, k) {
			continue
		}
		if isString(t) {
			vals[k] = p.s.uncomputedString(what)
			vals[k].minLen = p.s.formatMinLen(fn, in.Common())
			vals[k].deps, vals[k].depsKnown = inputs.deps, inputs.known
			continue
		}
		isErr := types.Identical(t, errorType)
		if !isErr && !isBool(t) {
			continue
		}
		name := fmt.Sprintf("%s.result%d", fn.Name(), k)
		if res.Len() == 1 {
			name = p.regName(fr, in)
		}
		r := p.newReg(name, types.Typ[types.Bool])
		if res.Len() == 1 {
			p.holds(r, fr, in)
		} else {
			p.holdsResult(r, fr, in, k)
		}
		join := p.newLoc(in.Pos())
		kind := GuessBool
		var answers []int64
		if isErr {
			kind = GuessError
			if isErrorsFunc(fn, "fmt", "Errorf") || isErrorsFunc(fn, "errors", "New") {
				answers = []int64{1} // never nil
			}
		}
		p.guessAt(cur, join, r, kind, in.Pos(), "the result of "+p.s.callName(fr, in, fn), inputs, answers...)
		cur = join
		if isErr {
			vals[k] = value{kind: vOpaque, why: "the error returned by " + p.s.callName(fr, in, fn), e: model.R(r)}
		} else {
			vals[k] = intVal(model.R(r))
		}
	}
	if len(vals) == 1 {
		fr.vals[in] = vals[0]
	} else {
		fr.vals[in] = value{kind: vTuple, tup: vals}
	}
	return cur
}

// opaqueCompare compares a value the model does not represent with a
// pointer or nil. An error returned by a call into another package is nil
// or not as the register in its e says; any other such comparison is
// unsupported. ok is false when neither operand is such a value.
func (s *system) opaqueCompare(x, y value, in *ssa.BinOp) (value, bool) {
	if y.kind == vOpaque {
		x, y = y, x
	}
	if x.kind != vOpaque || (y.kind != vNil && y.kind != vPtr) {
		return value{}, false
	}
	if y.kind == vNil && x.e != nil && (in.Op == token.EQL || in.Op == token.NEQ) {
		op := model.OpNe
		if in.Op == token.EQL {
			op = model.OpEq
		}
		return intVal(model.Bin(op, x.e, model.C(0))), true
	}
	s.unsupported(in.Pos(), "comparing %s with %s", x.why, kindName(y.kind))
	return value{}, false
}

// setupExternCall executes, in the setup, a call of a function outside the
// package that classifyCall knows; ok is false for the others.
func (s *system) setupExternCall(fr *frame, c *ssa.CallCommon, fn *ssa.Function, args []value, pos token.Pos, spawns *[]spawn) (v value, ok bool) {
	if v, ok := s.mathCall(fn, args, pos); ok {
		return v, true
	}
	if v, ok := s.stringsCall(fn, args); ok {
		return v, true
	}
	if v, ok := s.formatCall(fr, c, fn, args); ok {
		return v, true
	}
	if msg, ok := s.certainPanic(fn, args); ok {
		if s.init.running {
			s.initPanicAt(fr, msg, pos)
		}
		if s.setupRecoverable(fr) {
			s.unsupported(pos, "a panic of the set-up that a deferred call may recover")
		}
		s.fail(pos, "the setup of system %s panics: %s", s.name, msg)
	}
	if v, ok := s.regexpCall(fn, args, pos); ok {
		return v, true
	}
	if v, ok := s.builderCall(c, fn, args); ok {
		return v, true
	}
	if v, ok := s.errorsCall(fn, c, args, pos, fr); ok {
		return v, true
	}
	k := classifyCall(fn)
	switch k {
	case callOther:
		return value{}, false
	case callNop:
		return value{}, true
	case callValue:
		return s.valueSetup(fn, args, pos), true
	case callPure, callExit, callFatal:
		args := c.Args
		if isBuilderMethod(fn) {
			args = args[1:] // the set-up runs alone: its Builders are its own
		}
		for _, a := range args {
			if why := argProblem(a); why != "" {
				s.unsupported(pos, "passing %s to %s", why, fn.String())
			}
		}
		if why := s.fmtMethodArg(fr, args); why != "" {
			s.unsupported(pos, "passing %s to %s", why, fn.String())
		}
		if k != callPure {
			s.fail(pos, "the setup of system %s ends the program (%s)", s.name, fn.String())
		}
		res := fn.Signature.Results()
		why := fmt.Sprintf("the result of %s, which fencecheck does not compute", fn.String())
		result := func(k int) value {
			if isString(res.At(k).Type()) {
				return s.uncomputedString(why)
			}
			v := opaque(why)
			if _, isPtr := res.At(k).Type().Underlying().(*types.Pointer); isPtr {
				// A pointer the set-up may keep in memory (setupStore).
				v.uncomputed = true
			}
			return v
		}
		switch res.Len() {
		case 0:
			return value{}, true
		case 1:
			return result(0), true
		}
		tup := value{kind: vTuple}
		for k := range res.Len() {
			tup.tup = append(tup.tup, result(k))
		}
		return tup, true
	}
	p := s.staticPtr(args[0], pos)
	if len(*spawns) > 0 {
		s.syncAfterGo(fr, c.Args[0], p, false, fn.Name(), pos)
	}
	t, _ := p.target()
	if lk := classify(t); lk != leafRWMutex && lk != leafOnce {
		s.unsupported(pos, "%s on a %s", fn.Name(), t)
	}
	old := s.memInt(p)
	set := func(v int64) { s.mem[p.key()] = constVal(v) }
	switch k {
	case callWLock:
		if old != 0 {
			s.fail(pos, "the setup of system %s locks a locked RWMutex", s.name)
		}
		set(-1)
	case callRLock:
		if old < 0 {
			s.fail(pos, "the setup of system %s read-locks a write-locked RWMutex", s.name)
		}
		set(old + 1)
	case callRUnlock:
		if old <= 0 {
			s.fail(pos, "fatal error in the setup of system %s: sync: RUnlock of unlocked RWMutex", s.name)
		}
		set(old - 1)
	case callWUnlock:
		if old != -1 {
			s.fail(pos, "fatal error in the setup of system %s: sync: Unlock of unlocked RWMutex", s.name)
		}
		set(0)
	case callTryLock:
		if old == 0 {
			set(-1)
			return constVal(1), true
		}
		return constVal(0), true
	case callTryRLock:
		if old >= 0 {
			set(old + 1)
			return constVal(1), true
		}
		return constVal(0), true
	case callOnceDo:
		switch old {
		case 1:
			s.fail(pos, "the setup of system %s calls Once.Do from the function it runs (a deadlock)", s.name)
		case 0:
			set(1)
			f := onceCall(&ssa.Call{Call: *c})
			s.setupCall(fr, &f.Call, pos, spawns)
			set(2)
		}
	}
	return value{}, true
}

// execCall executes a call of the setup. When fr may end the setup (top)
// and the call is to a function of the package that spawns goroutines,
// after which fr cannot spawn any more, the setup ends inside the callee
// (a method that starts the goroutines and then waits for them): the split
// returned then lies in the callee, and ok is true. Otherwise the call runs
// to its end and its result is bound.
func (s *system) execCall(fr *frame, top bool, b *ssa.BasicBlock, idx int, in *ssa.Call, spawns *[]spawn) (split, bool) {
	c := in.Common()
	if top && !c.IsInvoke() && !s.x.mayStillSpawn(b, idx+1) {
		var args []value
		for _, a := range c.Args {
			args = append(args, s.get(fr, a))
		}
		if f, args := s.unbind(s.get(fr, c.Value), args, in.Pos()); f.kind == vFunc && s.x.local(f.fn) && s.x.containsGo(f.fn) && !fr.onStack(f.fn) {
			child := s.bindCall(f.fn, f.env, args, fr)
			_, sp := s.exec(child, true, spawns)
			if sp.b == nil {
				s.fail(in.Pos(), "internal error: the setup of system %s left %s without ending", s.name, f.fn.Name())
			}
			return split{b: b, idx: idx, pred: -1, inner: &sp, innerFr: child}, true
		}
	}
	fr.vals[in] = s.setupCall(fr, c, in.Pos(), spawns)
	return split{}, false
}

// lowerSplit lowers the rest of the system function from sp, at loc: from
// inside the callees the setup ended in, then back in each caller after
// the call.
func (p *proc) lowerSplit(fr *frame, sp split, loc int) {
	if sp.inner == nil {
		p.lowerBody(fr, sp.b, sp.idx, sp.pred, loc)
		return
	}
	call := sp.b.Instrs[sp.idx].(*ssa.Call)
	child := sp.innerFr
	p.lowerSplit(child, *sp.inner, loc)
	join := p.joinReturns(fr, call, child.fn, child.returns, call.Pos())
	child.noteJoin(call, join)
	if join < 0 {
		return
	}
	p.lowerBody(fr, sp.b, sp.idx+1, -1, join)
}

// nestedSpawn is a go statement executed by a process (fanout.go).
type nestedSpawn struct {
	sw     spawn
	parent *proc
	// passed lists the values known only at run time the goroutine gets.
	passed []passed
	// frozen says which captured variables the goroutine gets a copy of
	// (frozenCaptures).
	frozen []bool
	// slots are the goroutines the statement may start: one, or one per
	// iteration of the counted loop it lies in (loop).
	slots []slot
	loop  bool
	trans int // for a statement outside a loop, the parent's transition that starts the goroutine
	// after is, for a time.AfterFunc (afterfunc.go), the timer of each
	// slot, whose fire starts its goroutine.
	after []*ticker
}

// goInProc lowers a go statement of a process: the goroutine becomes a
// process of its own that starts by waiting for a variable that the parent
// sets, atomically, when it executes the statement (a go statement
// happens before the goroutine starts). In a loop, the statement starts
// one such process per iteration, which needs the number of iterations
// (goInLoop).
func (p *proc) goInProc(fr *frame, in *ssa.Go, cur int) int {
	s := p.s
	sw := s.goStmt(fr, in)
	if s.x.inModelSource(sw.pos) {
		// The go statement of WaitGroup.Go: named after the call.
		for g := fr; g != nil; g = g.parent {
			if g.callPos.IsValid() {
				sw.pos = g.callPos
				break
			}
		}
	}
	var ps []passed
	frozen := frozenCaptures(in)
	s.spawnValues(in.Pos(), sw, frozen, p.idx, -1, func(v passed) value {
		if v.cell != nil {
			v.e = model.R(p.privateReg(*v.cell))
		}
		ps = append(ps, v)
		return value{}
	})
	node := s.stmtNode(in.Pos())
	if inLoop(fr, in.Block()) {
		f, ok := s.countLoop(fr, in)
		switch {
		case ok && f.n > maxFanOut:
			s.unsupported(sw.pos, "a go statement in a loop inside a goroutine that runs it %d times (fencecheck models at most %d goroutines started by one go statement in a loop)", f.n, maxFanOut)
		case !ok:
			// Slots for the first few: one more is inconclusive.
			f = fanOut{n: maxUncountedGo}
		}
		return p.goInLoop(fr, in, sw, f, ps, Origin{Node: node}, cur)
	}
	sl := s.newSlot(s.procNames([]spawn{sw})[0], ps)
	next := p.emit(cur, startOp(sl, ps), in.Pos(), Origin{Node: node})
	s.calls.nested = append(s.calls.nested, nestedSpawn{sw: sw, parent: p, passed: ps, frozen: frozen, slots: []slot{sl}, trans: len(p.q.Trans) - 1})
	return next
}

// maxNested bounds the go statements processes execute, against a
// goroutine that spawns itself.
const maxNested = 64

// lowerNested lowers the goroutines that processes spawn, from the from-th,
// after every other process (and those they spawn in turn), and returns
// how many there are.
func (s *system) lowerNested(from int) int {
	for i := from; i < len(s.calls.nested); i++ {
		n := s.calls.nested[i]
		if i >= maxNested {
			s.unsupported(n.sw.pos, "more than %d go statements executed by goroutines (a goroutine that spawns itself?)", maxNested)
		}
		if !n.loop {
			if cyclic, _ := n.parent.q.Cycles(); cyclic[n.parent.q.Trans[n.trans].From] {
				s.unsupported(n.sw.pos, "a go statement in a loop inside a goroutine (an unbounded number of goroutines)")
			}
		}
		for k := range n.slots {
			s.startChild(n, k)
		}
	}
	return len(s.calls.nested)
}

// varargsStore reports whether in stores an argument of a variadic call
// of a function that has no Go source here (fmt.Println) into the array
// that go/ssa allocates for them: the setup keeps no such value, as only a
// call it does not run reads the array. The arguments of a function read
// from source (func New(opts ...Option)), or of a call whose callee is not
// known statically, are stored: its code reads them.
func (x *extractor) varargsStore(in *ssa.Store) bool {
	ia, ok := in.Addr.(*ssa.IndexAddr)
	if !ok {
		return false
	}
	a, ok := ia.X.(*ssa.Alloc)
	if !ok || a.Comment != "varargs" {
		return false
	}
	for _, r := range *a.Referrers() {
		sl, ok := r.(*ssa.Slice)
		if !ok {
			continue
		}
		for _, u := range *sl.Referrers() {
			if c, ok := u.(ssa.CallInstruction); ok {
				if f := c.Common().StaticCallee(); f == nil || x.local(f) {
					return false
				}
			}
		}
	}
	return true
}

// setCallTarget sets o's Target and Type to what the call of fn operates on:
// the receiver of a method, else the first argument (x for &x).
func (s *system) setCallTarget(o *Origin, fn *ssa.Function, call *ast.CallExpr) {
	var target ast.Expr
	if fn.Signature.Recv() != nil {
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
			target = sel.X
		}
	} else if len(call.Args) > 0 {
		target = call.Args[0]
		if u, ok := ast.Unparen(target).(*ast.UnaryExpr); ok && u.Op == token.AND {
			target = u.X
		}
	}
	if target != nil {
		o.Target, o.Type = target, s.x.info.TypeOf(target)
	}
}

// callersArray returns the array that the call in of runtime.Callers
// writes its program counters to, when in is runtime.Callers(skip,
// arr[:]) and the code uses arr and the count only as arr[:n]: the
// counters are values fencecheck does not compute, so that slice is one
// too (callersSlice) and nothing else may look at them. It returns nil
// otherwise.
func callersArray(in *ssa.Call) *ssa.Alloc {
	if len(in.Call.Args) != 2 {
		return nil
	}
	arg, ok := in.Call.Args[1].(*ssa.Slice)
	if !ok || arg.Low != nil || arg.High != nil || arg.Max != nil {
		return nil
	}
	arr, ok := arg.X.(*ssa.Alloc)
	if !ok {
		return nil
	}
	for _, r := range *arr.Referrers() {
		if _, ok := r.(*ssa.DebugRef); ok {
			continue
		}
		sl, ok := r.(*ssa.Slice)
		switch {
		case !ok:
			return nil
		case sl == arg:
		case sl.Low == nil && sl.High == in && sl.Max == nil:
		default:
			return nil
		}
	}
	for _, r := range *in.Referrers() {
		if _, ok := r.(*ssa.DebugRef); ok {
			continue
		}
		if sl, ok := r.(*ssa.Slice); !ok || sl.X != arr || sl.High != in {
			return nil
		}
	}
	return arr
}

// callersSlice reports whether in is arr[:n] of n := runtime.Callers(skip,
// arr[:]) (callersArray).
func callersSlice(in *ssa.Slice) bool {
	c, ok := in.High.(*ssa.Call)
	if !ok || in.Low != nil || in.Max != nil {
		return false
	}
	f := c.Call.StaticCallee()
	return f != nil && !c.Call.IsInvoke() && classifyCall(f) == callCallers && callersArray(c) == in.X
}
