package extract

import (
	"fmt"
	"go/token"
	"go/types"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// The package's initialisation runs before the setup of every system, as in
// Go: go/ssa's synthetic init function of the package evaluates the
// initialisers of the package-level variables in dependency order and then
// calls every init function. It is executed by the interpreter of the setup
// (exec), with these differences:
//
//   - A call into another package that the model does not run (errors.New,
//     flag.Bool, the imported packages' own init functions) is skipped: its
//     result is an opaque value, and whatever its arguments reach (objects
//     behind pointers; the package-level variables that functions and
//     methods given to it may use) is marked as changed in a way the
//     extractor cannot follow.
//   - Values the interpreter cannot compute (interfaces, slices, maps,
//     strings, the results of skipped calls) are opaque values instead of
//     failures; an object in which such a value is stored is marked.
//   - A call of a function read from source that the interpreter cannot
//     run to its end (a branch on an opaque value, a go statement, a panic
//     that may be recovered, recursion, a loop that does not finish within
//     the step bound, anywhere in the code it calls) is contained: it is
//     skipped as a call into another package is, once its partial effects
//     are made unknown (its arguments, and what the package-level variables
//     its code may write hold or point to), and the initialisation goes on
//     after it (var re = regexp.MustCompile(...) after a var whose
//     initialiser ranges over runtime/metrics.All()).
//   - Anything else the interpreter cannot go past (such code in the body
//     of the synthetic init function itself) ends the initialisation: every
//     package-level variable and object that the rest of it may reach is
//     marked.
//
// A marked object is no failure by itself: only the systems that access it
// get a diagnostic, at the package-level variable, so that no system ever
// runs on a value Go would not give it.

// initState is the state of the run of the package's initialisation.
type initState struct {
	running bool
	// issues marks the objects whose initial values are not known, cells
	// the cells of objects (by key, initcells.go).
	issues map[*object]*initIssue
	cells  map[string]*initIssue
	// pc is the instruction each frame of the initialisation executes; cur
	// is the innermost frame: where to go on from when it stops.
	pc  map[*frame]ssa.Instruction
	cur *frame
	// named holds the objects the initialisation allocated and stored in a
	// package-level variable, named after it (var lock = &sync.Mutex{}).
	named map[*object]*types.Var
	// panicked is set when the initialisation reaches a panic that nothing
	// can recover: the program stops there, before any system starts.
	panicked bool
	// spent counts the steps of the calls that were contained because they
	// did not finish within maxSetupSteps; beyond maxInitSteps the
	// initialisation ends.
	spent int
}

// maxInitSteps bounds the steps that contained calls of the
// initialisation may spend in all.
const maxInitSteps = 4 * maxSetupSteps

// initIssue says why the initial value of an object is not known.
type initIssue struct {
	pos  token.Pos // the package-level variable's position, if any
	what string    // the object, as the diagnostic names it
	why  string    // what its value depends on
	from []value   // what was stored in it (for loads by the initialisation)
	cell *pointer  // for a marked cell, the cell (initcells.go)
	// tainted is set once taintObj marked what the object's cells held:
	// the initialisation no longer writes them (initStore adds to from),
	// so a later taint follows only from.
	tainted bool
}

// runInit executes the package's initialisation before the setup.
func (s *system) runInit() {
	fn := s.x.ssapkg.Func("init")
	if fn == nil || len(fn.Blocks) == 0 {
		return
	}
	s.init = initState{running: true, issues: map[*object]*initIssue{}, pc: map[*frame]ssa.Instruction{}, named: map[*object]*types.Var{}}
	defer func() {
		s.init.running, s.init.pc, s.init.cur = false, nil, nil
		s.steps, s.curPos = 0, token.NoPos
	}()
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		u, ok := r.(unsupported)
		if !ok || s.init.panicked {
			panic(r)
		}
		s.initStopped(u)
	}()
	var spawns []spawn
	s.exec(s.bindCall(fn, nil, nil, nil), false, &spawns)
}

// checkInit reports an access of the system, at pos, to an object whose
// initial value the package's initialisation did not determine: at the
// package-level variable, naming where the system uses it.
func (s *system) checkInit(o *object, pos token.Pos) {
	s.reportInit(s.init.issues[o], pos)
}

// checkInitAt is checkInit for the memory p points to: its object, or a
// marked cell that overlaps it.
func (s *system) checkInitAt(p pointer, pos token.Pos) {
	s.reportInit(s.issueAt(p), pos)
}

// reportInit refuses the access at pos to memory whose initial value is
// not known for the reason is gives (nothing when is is nil).
func (s *system) reportInit(is *initIssue, pos token.Pos) {
	if is == nil {
		return
	}
	at := ""
	if pos.IsValid() && pos != is.pos {
		p := s.x.fset.Position(pos)
		at = fmt.Sprintf(" (used at %s:%d)", filepath.Base(p.Filename), p.Line)
	}
	s.unsupported(is.pos, "the initial value of %s, which depends on %s%s", is.what, is.why, at)
}

// initStopped handles what ends the initialisation early: everything the
// rest of it may reach, from the frames it was executing, is marked.
func (s *system) initStopped(u unsupported) {
	why := s.cannotRun(u, s.steps > maxSetupSteps || s.init.spent > maxInitSteps)
	seen := map[*object]bool{}
	for fr := s.init.cur; fr != nil; fr = fr.parent {
		in := s.init.pc[fr]
		if in == nil {
			continue
		}
		refs, used := s.x.rest(in)
		s.taintGlobals(refs, why, u.pos, seen)
		for _, v := range used {
			if val, ok := fr.vals[v]; ok {
				s.taint(val, why, u.pos, seen)
			}
		}
	}
}

// cannotRun says why code of the initialisation cannot be run, from the
// failure u that stopped it (or the step bound, when loop is set).
func (s *system) cannotRun(u unsupported, loop bool) string {
	why := strings.TrimPrefix(u.msg, unsupportedPrefix)
	if loop {
		why = fmt.Sprintf("a loop that does not finish within %d steps", maxSetupSteps)
	}
	p := s.x.fset.Position(u.pos)
	if s.setupLenient {
		return fmt.Sprintf("code of the set-up of system %s that cannot be run (%s:%d: %s)", s.name, filepath.Base(p.Filename), p.Line, why)
	}
	return fmt.Sprintf("code of the package's initialisation that cannot be run (%s:%d: %s)", filepath.Base(p.Filename), p.Line, why)
}

// initLocalCall executes a call of the initialisation into a function read
// from source (f, given args). When the code it runs cannot be run to its
// end, the call is contained (see the comment at the top of this file):
// whatever the callee may have changed is marked, its result is opaque,
// and the caller goes on. An initialisation that always panics, or whose
// contained calls spent maxInitSteps, is not contained, nor is a call in a
// frame below a deferred call that may recover (the code not run may
// panic, and Go would then go on after the recovering frame, not here).
func (s *system) initLocalCall(fr *frame, c *ssa.CallCommon, f value, args []value, pos token.Pos, spawns *[]spawn) (res value) {
	steps := s.steps
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		u, ok := r.(unsupported)
		if !ok || s.init.panicked || s.setupRecoverable(fr) {
			// The code not run may panic, and a deferred call of fr or
			// of a caller may recover: Go would not go on in fr. The call
			// of the frame that recovers is contained instead.
			panic(r)
		}
		loop := s.steps > maxSetupSteps
		if loop {
			s.init.spent += s.steps - steps
			if s.init.spent > maxInitSteps {
				panic(r)
			}
			s.steps = steps
		}
		s.init.cur = fr
		res = s.skipCall(c, f, args, s.cannotRun(u, loop), pos)
		res.why = "the result of " + f.fn.String() + ", whose code cannot be run"
	}()
	s.checkCgo(fr, c, f.fn, pos)
	if fr.activations(f.fn) >= maxSetupRecursion {
		s.unsupported(pos, "recursion more than %d calls deep (%s calls itself)", maxSetupRecursion, f.fn.Name())
	}
	res, _ = s.exec(s.bindCall(f.fn, f.env, args, fr), false, spawns)
	return res
}

// skipCall skips a call of the initialisation that it does not run: the
// callee and its arguments may change everything they reach, and the
// result is an opaque value made from the arguments.
func (s *system) skipCall(c *ssa.CallCommon, callee value, args []value, what string, pos token.Pos) value {
	seen := map[*object]bool{}
	all := append([]value{callee}, args...)
	for _, a := range c.Args {
		all = append(all, s.methodsOf(a.Type())...)
	}
	for _, v := range all {
		s.taint(v, what+", which may change it", pos, seen)
	}
	return opaqueFrom(what, args...)
}

// taintGlobals marks the package-level variables that code may write, and
// what the others hold: code that only loads a variable cannot change it,
// only the objects its value points to.
func (s *system) taintGlobals(refs globalRefs, why string, pos token.Pos, seen map[*object]bool) {
	for _, g := range refs.list(s.x) {
		o := s.global(g).obj
		switch {
		case zeroSized(o.typ):
			// A variable of a type with a single value keeps it.
		case refs.mayWrite(g):
			s.taintObj(o, why, pos, seen)
		default:
			if is := s.init.issues[o]; is != nil {
				for _, v := range is.from {
					s.taint(v, why, pos, seen)
				}
			}
			for _, v := range s.cellFroms(o) {
				s.taint(v, why, pos, seen)
			}
			for _, v := range s.contents(pointer{obj: o}) {
				s.taint(v, why, pos, seen)
			}
		}
	}
}

// zeroSized reports whether values of type t have no bits: a struct of no
// fields (or only such fields), an array of none (var V2 = v2{}).
func zeroSized(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if !zeroSized(u.Field(i).Type()) {
				return false
			}
		}
		return true
	case *types.Array:
		return u.Len() == 0 || zeroSized(u.Elem())
	}
	return false
}

// rest returns the package-level variables that the instructions from in
// on (and the functions they may call) refer to, and the values of the
// frame those instructions use.
func (x *extractor) rest(in ssa.Instruction) (refs globalRefs, used []ssa.Value) {
	b := in.Block()
	start := 0
	for i, other := range b.Instrs {
		if other == in {
			start = i
		}
	}
	seen := map[*ssa.BasicBlock]bool{}
	var instrs []ssa.Instruction
	var visit func(b *ssa.BasicBlock)
	visit = func(b *ssa.BasicBlock) {
		for _, succ := range b.Succs {
			if !seen[succ] {
				seen[succ] = true
				instrs = append(instrs, succ.Instrs...)
				visit(succ)
			}
		}
	}
	instrs = append(instrs, b.Instrs[start:]...)
	visit(b)
	for _, in := range instrs {
		refs.instr(x, in)
		for _, op := range in.Operands(nil) {
			if *op != nil {
				used = append(used, *op)
			}
		}
	}
	return refs, used
}

// globalsOf returns the package-level variables that fn and the functions
// it may call refer to, and which of them they may write.
func (x *extractor) globalsOf(fn *ssa.Function) *globalRefs {
	if refs, ok := x.fnGlobals[fn]; ok {
		return refs
	}
	if x.fnGlobals == nil {
		x.fnGlobals = map[*ssa.Function]*globalRefs{}
	}
	refs := &globalRefs{}
	refs.fn(x, fn)
	x.fnGlobals[fn] = refs
	return refs
}

// globalRefs collects the package-level variables that code refers to,
// following the functions it refers to. A call of an interface method may
// reach the method of that name of any type of the packages read from
// source: each of them is followed; where one is generic (its instances
// are not all known), every variable of those packages counts.
type globalRefs struct {
	globals []*ssa.Global
	seenG   map[*ssa.Global]bool
	// written holds the variables used otherwise than by a load of the
	// whole variable: stored to, or their address taken.
	written map[*ssa.Global]bool
	seenF   map[*ssa.Function]bool
	all     bool
}

// mayWrite reports whether the code may change g itself (not only the
// objects its value points to).
func (r *globalRefs) mayWrite(g *ssa.Global) bool {
	return r.all || r.written[g]
}

func (r *globalRefs) fn(x *extractor, fn *ssa.Function) {
	if r.seenF == nil {
		r.seenF = map[*ssa.Function]bool{}
	}
	if r.seenF[fn] || len(fn.Blocks) == 0 {
		return
	}
	r.seenF[fn] = true
	for _, b := range fn.Blocks {
		for _, in := range b.Instrs {
			r.instr(x, in)
		}
	}
}

func (r *globalRefs) instr(x *extractor, in ssa.Instruction) {
	if mi, ok := in.(*ssa.MakeInterface); ok {
		// Code given the interface value (sort.Sort, a call of another
		// package) may call any of its methods.
		prog := x.ssapkg.Prog
		mset := prog.MethodSets.MethodSet(mi.X.Type())
		for i := 0; i < mset.Len(); i++ {
			if fn := prog.MethodValue(mset.At(i)); fn != nil {
				r.fn(x, fn)
			}
		}
	}
	if c, ok := in.(ssa.CallInstruction); ok && c.Common().IsInvoke() && !r.all {
		t := x.invokeTargets(c.Common().Method)
		r.all = t.generic
		for _, fn := range t.fns {
			r.fn(x, fn)
		}
	}
	for _, op := range in.Operands(nil) {
		switch v := (*op).(type) {
		case *ssa.Global:
			if r.seenG == nil {
				r.seenG = map[*ssa.Global]bool{}
			}
			if !r.seenG[v] {
				r.seenG[v] = true
				r.globals = append(r.globals, v)
			}
			if u, ok := in.(*ssa.UnOp); !ok || u.Op != token.MUL {
				if r.written == nil {
					r.written = map[*ssa.Global]bool{}
				}
				r.written[v] = true
			}
		case *ssa.Function:
			r.fn(x, v)
		}
	}
}

func (r *globalRefs) list(x *extractor) []*ssa.Global {
	if !r.all {
		return r.globals
	}
	var out []*ssa.Global
	for _, p := range x.sourcePkgs() {
		for _, m := range p.Members {
			if g, ok := m.(*ssa.Global); ok {
				out = append(out, g)
			}
		}
	}
	return out
}

// sourcePkgs returns the packages read from source, the package's own
// first, the others in the order of their paths.
func (x *extractor) sourcePkgs() []*ssa.Package {
	out := []*ssa.Package{x.ssapkg}
	var rest []*ssa.Package
	for p := range x.srcPkgs {
		if p != x.ssapkg {
			rest = append(rest, p)
		}
	}
	sort.Slice(rest, func(i, j int) bool { return rest[i].Pkg.Path() < rest[j].Pkg.Path() })
	return append(out, rest...)
}

// isSourcePkg reports whether p is the package or one read from source.
func (x *extractor) isSourcePkg(p *types.Package) bool {
	if p == x.pkg {
		return true
	}
	for sp := range x.srcPkgs {
		if sp.Pkg == p {
			return true
		}
	}
	return false
}

// invokeTargets are the methods a call of an interface method may run
// among the packages read from source.
type invokeTargets struct {
	fns     []*ssa.Function
	generic bool // a generic type has the method: its instances count too
}

// invokeTargets returns the methods named as m of the types declared at
// the top level of the packages read from source, through values and
// pointers.
func (x *extractor) invokeTargets(m *types.Func) invokeTargets {
	key := m.Name()
	if !m.Exported() && m.Pkg() != nil {
		key = m.Pkg().Path() + "." + key
	}
	if t, ok := x.invoked[key]; ok {
		return t
	}
	var t invokeTargets
	prog := x.ssapkg.Prog
	for _, p := range x.sourcePkgs() {
		for _, mem := range p.Members {
			typ, ok := mem.(*ssa.Type)
			if !ok {
				continue
			}
			n, ok := typ.Type().(*types.Named)
			if !ok {
				continue
			}
			for _, recv := range []types.Type{n, types.NewPointer(n)} {
				sel := prog.MethodSets.MethodSet(recv).Lookup(m.Pkg(), m.Name())
				if sel == nil {
					continue
				}
				if n.TypeParams().Len() > 0 {
					// The generic method's body refers to the
					// variables of every instance.
					if obj, ok := sel.Obj().(*types.Func); ok {
						if isInterfaceMethod(obj) {
							// Promoted from an embedded interface: its
							// targets are the other types' methods.
							continue
						}
						if fn := prog.FuncValue(obj); fn != nil && len(fn.Blocks) > 0 {
							t.fns = append(t.fns, fn)
							continue
						}
					}
					t.generic = true
					continue
				}
				if fn := prog.MethodValue(sel); fn != nil {
					t.fns = append(t.fns, fn)
				}
			}
		}
	}
	if x.invoked == nil {
		x.invoked = map[string]invokeTargets{}
	}
	x.invoked[key] = t
	return t
}

// isPkgVar reports whether v is a package-level variable.
func isPkgVar(v *types.Var) bool {
	return v != nil && v.Pkg() != nil && v.Parent() == v.Pkg().Scope()
}

// newIssue describes why o's initial value is not known; pos is where the
// initialisation lost track of it, used when o is no package-level
// variable and was stored in none.
func (s *system) newIssue(o *object, why string, pos token.Pos) *initIssue {
	is := &initIssue{pos: pos, why: why, what: "an object that the package's initialisation allocates"}
	switch {
	case s.setupLenient && o.name != "" && !o.anon:
		is.pos, is.what = s.setupCallPos, "object "+o.name+" of the set-up of system "+s.name
	case s.setupLenient:
		is.pos, is.what = s.setupCallPos, "an object that the set-up of system "+s.name+" allocates"
	case isPkgVar(o.decl):
		is.pos, is.what = o.decl.Pos(), "package-level variable "+o.decl.Name()
	case s.init.named[o] != nil:
		v := s.init.named[o]
		is.pos, is.what = v.Pos(), "the object that package-level variable "+v.Name()+" points to"
	}
	return is
}

// poison marks o as holding a value the initialisation cannot compute.
func (s *system) poison(o *object, why string, pos token.Pos, v value) {
	is := s.newIssue(o, why, pos)
	is.from = []value{v}
	s.init.issues[o] = is
}

// taint marks everything v reaches as changed in a way the initialisation
// cannot follow (by a call that the model does not run): the objects
// behind pointers, the package-level variables that functions refer to,
// and the values opaque values were made from.
func (s *system) taint(v value, why string, pos token.Pos, seen map[*object]bool) {
	switch v.kind {
	case vPtr, vSlice:
		s.taintObj(v.ptr.obj, why, pos, seen)
	case vMap:
		s.taintMap(v.mp, why, pos, seen)
	case vAgg:
		for _, e := range v.agg {
			s.taint(e, why, pos, seen)
		}
	case vFunc:
		if len(v.fn.Blocks) > 0 {
			s.taintGlobals(*s.x.globalsOf(v.fn), why, pos, seen)
		}
		for _, e := range v.env {
			s.taint(e, why, pos, seen)
		}
	case vTuple:
		for _, e := range v.tup {
			s.taint(e, why, pos, seen)
		}
	case vOpaque:
		for _, e := range v.from {
			s.taint(e, why, pos, seen)
		}
	case vIface:
		for _, e := range v.env {
			s.taint(e, why, pos, seen)
		}
		for _, m := range s.methodsOf(v.typ) {
			s.taint(m, why, pos, seen)
		}
	}
}

// taintObj marks o, and what its contents reach.
func (s *system) taintObj(o *object, why string, pos token.Pos, seen map[*object]bool) {
	if seen[o] {
		return
	}
	seen[o] = true
	is := s.init.issues[o]
	if is == nil {
		is = s.newIssue(o, why, pos)
		s.init.issues[o] = is
	}
	for _, v := range append(is.from, s.cellFroms(o)...) {
		s.taint(v, why, pos, seen)
	}
	if is.tainted {
		return
	}
	is.tainted = true
	for _, v := range s.contents(pointer{obj: o}) {
		s.taint(v, why, pos, seen)
	}
}

// contents returns the values stored in the cells under p that may reach
// the package's state.
func (s *system) contents(p pointer) []value {
	var out []value
	t, _ := p.target()
	for _, v := range s.memBelow(p, t) {
		out = append(out, v)
	}
	return reaching(out)
}

// memBelow returns the cells of memory at or below the location p, of type
// t, by their path below it. It looks up the paths t has (fields and
// elements, down to their leaves), and scans memory only when they are
// more than its cells: a load of a small struct while a package's large
// table is in memory costs the struct's cells.
func (s *system) memBelow(p pointer, t types.Type) map[string]value {
	key := p.key()
	out := map[string]value{}
	n := 0
	var walk func(path string, t types.Type) bool
	walk = func(path string, t types.Type) bool {
		if n++; n > len(s.mem) {
			return false
		}
		if v, ok := s.mem[key+path]; ok {
			out[path] = v
		}
		switch u := t.Underlying().(type) {
		case *types.Struct:
			for i := range u.NumFields() {
				if !walk(path+"."+strconv.Itoa(i), u.Field(i).Type()) {
					return false
				}
			}
		case *types.Array:
			for i := range u.Len() {
				if !walk(path+"["+strconv.FormatInt(i, 10)+"]", u.Elem()) {
					return false
				}
			}
		}
		return true
	}
	if !walk("", t) {
		clear(out)
		for k, v := range s.mem {
			if below(k, key) {
				out[k[len(key):]] = v
			}
		}
	}
	return out
}

// reaching keeps the values that may reach the package's state.
func reaching(vs []value) []value {
	var out []value
	for _, v := range vs {
		switch v.kind {
		case vPtr, vFunc, vTuple, vSlice, vMap, vIface:
			out = append(out, v)
		case vAgg:
			var cells []value
			for _, c := range v.agg {
				cells = append(cells, c)
			}
			out = append(out, reaching(cells)...)
		case vOpaque:
			if len(v.from) > 0 {
				out = append(out, v)
			}
		}
	}
	return out
}

// opaqueFrom is an opaque value made from vs.
func opaqueFrom(why string, vs ...value) value {
	v := opaque(why)
	v.from = reaching(vs)
	return v
}

// methodsOf returns, as function values, the methods of the types of the
// packages read from source that a value of type t holds (in itself, its fields and elements,
// or behind pointers): what a call into another package given such a
// value, through an interface or a type parameter, may call.
func (s *system) methodsOf(t types.Type) []value {
	prog := s.x.ssapkg.Prog
	var out []value
	seen := map[types.Type]bool{}
	var walk func(t types.Type)
	walk = func(t types.Type) {
		t = types.Unalias(t)
		if seen[t] {
			return
		}
		seen[t] = true
		if n, ok := t.(*types.Named); ok {
			if s.x.isSourcePkg(n.Obj().Pkg()) && (n.TypeParams().Len() == 0 || n.TypeArgs().Len() > 0) {
				for _, recv := range []types.Type{n, types.NewPointer(n)} {
					mset := prog.MethodSets.MethodSet(recv)
					for i := 0; i < mset.Len(); i++ {
						if fn := prog.MethodValue(mset.At(i)); fn != nil {
							out = append(out, value{kind: vFunc, fn: fn})
						}
					}
				}
			}
		}
		switch u := t.Underlying().(type) {
		case *types.Pointer:
			walk(u.Elem())
		case *types.Struct:
			for i := 0; i < u.NumFields(); i++ {
				walk(u.Field(i).Type())
			}
		case *types.Array:
			walk(u.Elem())
		case *types.Slice:
			walk(u.Elem())
		case *types.Map:
			walk(u.Key())
			walk(u.Elem())
		case *types.Chan:
			walk(u.Elem())
		}
	}
	walk(t)
	return out
}

// nameAfter names an object the initialisation allocated after the
// package-level variable it is stored in (var p = &T{x: 1}: p.x).
func (s *system) nameAfter(g *object, v value) {
	if v.kind != vPtr || len(v.ptr.path) != 0 || !isPkgVar(g.decl) {
		return
	}
	o := v.ptr.obj
	if isPkgVar(o.decl) || s.init.named[o] != nil || o.named {
		return
	}
	o.name, o.anon = g.decl.Name(), false
	s.init.named[o] = g.decl
	if is := s.init.issues[o]; is != nil && !isPkgVar(o.decl) {
		// Made unknown before it was stored: named after the variable
		// now (var requests = metrics.NewCounter(name)).
		named := s.newIssue(o, is.why, is.pos)
		is.pos, is.what = named.pos, named.what
	}
	s.renameCells(o)
}

// initInstr executes an instruction of the package's initialisation where
// it differs from the setup (see the comment at the top of this file). It
// reports whether it did; if not, exec executes it as in the setup.
func (s *system) initInstr(fr *frame, in ssa.Instruction) bool {
	s.init.pc[fr], s.init.cur = in, fr
	pos := in.Pos()
	if s.setupRecoverable(fr) {
		defer s.uncomputedUnderRecover(fr, in)
	}
	switch in := in.(type) {
	case *ssa.Go:
		s.unsupported(pos, "a go statement")
	case *ssa.Panic:
		s.initPanic(fr, in)
	case *ssa.If:
		if c := s.get(fr, in.Cond); c.kind == vOpaque {
			s.unsupported(pos, "a branch on %s", c.why)
		}
		return false
	case *ssa.Store:
		return s.initStore(fr, in)
	case *ssa.UnOp:
		switch in.Op {
		case token.MUL:
			return s.initLoad(fr, in)
		case token.ARROW:
			fr.vals[in] = opaque("a channel receive")
			return true
		}
	case *ssa.Call:
		return s.initCall(fr, in)
	case *ssa.MakeInterface:
		x := s.get(fr, in.X)
		if s.ifaceKnown(x, in.X.Type()) || x.kind == vOpaque && len(x.from) == 0 && len(s.methodsOf(in.X.Type())) == 0 {
			// Its dynamic type and payload are known: made as in the
			// set-up (var c Counter = &counter{}).
			return false
		}
		fr.vals[in] = opaqueFrom("an interface value", append([]value{x}, s.methodsOf(in.X.Type())...)...)
		return true
	case *ssa.MapUpdate, *ssa.Send, *ssa.Select:
		// Values stored where the initialisation cannot follow them may
		// reach a call that it does not run.
		vals := s.operands(fr, in)
		seen := map[*object]bool{}
		for _, v := range vals {
			s.taint(v, "a value stored in a map or sent on a channel", pos, seen)
		}
		if v, ok := in.(ssa.Value); ok {
			fr.vals[v] = opaque("select")
		}
		return true
	case *ssa.Alloc, *ssa.MakeClosure:
		return false
	}
	v, ok := in.(ssa.Value)
	if !ok {
		return false
	}
	switch in := in.(type) {
	case *ssa.Field:
		if x := s.get(fr, in.X); x.agg != nil {
			fr.vals[in] = part(x, fmt.Sprintf(".%d", in.Field), in.Type())
			return true
		}
	case *ssa.Index:
		x, i := s.get(fr, in.X), s.get(fr, in.Index)
		if c, ok := i.constant(); ok && x.agg != nil {
			if n := in.X.Type().Underlying().(*types.Array).Len(); c >= 0 && c < n {
				fr.vals[in] = part(x, fmt.Sprintf("[%d]", c), in.Type())
				return true
			}
		}
	}
	// A value computed from a value the initialisation cannot compute, or by
	// a construct the model does not have, is not computed either.
	vals := s.operands(fr, in)
	why := ""
	for _, x := range vals {
		if x.kind == vOpaque {
			why = x.why
			break
		}
	}
	if why == "" {
		switch in.(type) {
		case *ssa.MakeMap, *ssa.Lookup:
			why = "a map"
		case *ssa.MakeChan:
			why = "a channel"
		case *ssa.TypeAssert:
			why = "a type assertion"
		case *ssa.Range, *ssa.Next:
			why = "a range over a map or string"
		case *ssa.SliceToArrayPointer:
			why = "a conversion of a slice to an array pointer"
		case *ssa.ChangeInterface:
			why = "an interface value"
		case *ssa.MultiConvert:
			why = "a generic conversion"
		}
	}
	if why == "" {
		// Arithmetic and addresses as in the setup, where a value the model
		// cannot represent is opaque rather than a failure.
		handled, bad := s.tryPure(fr, in)
		if bad == nil {
			return handled
		}
		why = strings.TrimPrefix(bad.msg, unsupportedPrefix)
	}
	fr.vals[v] = opaqueFrom(why, vals...)
	return true
}

// uncomputedUnderRecover stops the initialisation at in, below a deferred
// call that may recover, when in made a value it does not compute, or
// stored through one: what Go does there may panic, and then go on after
// the recovering frame, not after in (see initLocalCall).
func (s *system) uncomputedUnderRecover(fr *frame, in ssa.Instruction) {
	if r := recover(); r != nil {
		panic(r)
	}
	v, isVal := in.(ssa.Value)
	if st, ok := in.(*ssa.Store); ok {
		v, isVal = st.Addr, true
	}
	if !isVal {
		return
	}
	if x, ok := fr.vals[v]; ok && x.kind == vOpaque && x.re == nil {
		s.unsupported(in.Pos(), "%s, which may panic, below a deferred call that may recover", x.why)
	}
}

// initPanic executes a panic of the initialisation. Every branch that led
// to it was decided on values the initialisation knows, so it fires in
// every run: a bad state before any system starts, reported at the panic.
// A panic that a deferred call of the initialisation might recover stops
// the run as code that cannot be run does.
func (s *system) initPanic(fr *frame, in *ssa.Panic) {
	name, pos := panicName(s.x, in)
	s.initPanicAt(fr, name, pos)
}

// initPanicAt is initPanic for the panic name at pos, of a panic statement
// or of a call that panics (regexp.MustCompile of a pattern that does not
// compile).
func (s *system) initPanicAt(fr *frame, name string, pos token.Pos) {
	if s.setupRecoverable(fr) {
		s.unsupported(pos, "a panic that a deferred call may recover")
	}
	s.init.panicked = true
	if s.setupLenient {
		s.fail(pos, "SC: the set-up of system %s always reaches %s here", s.name, name)
	}
	s.fail(pos, "SC: the package's initialisation always reaches %s here, so the program stops before any system starts", name)
}

// ifaceKnown reports whether the initialisation makes an interface value
// of payload x, of type t, as the set-up does: a pointer to an object, a
// slice, nil of a pointer, slice or map type, or a constant integer,
// boolean or string.
func (s *system) ifaceKnown(x value, t types.Type) bool {
	if byValueType(t) {
		return knownAgg(x)
	}
	switch x.kind {
	case vPtr, vSlice:
		return !x.ptr.dynamic()
	case vNil:
		return true
	case vInt:
		_, ok := x.constant()
		return ok
	}
	return false
}

// knownAgg reports whether x is a struct or array value each of whose
// cells holds a constant, nil or a pointer to a fixed place (a
// classifier's zero struct, DefaultClassifier{}): boxed in an interface,
// its dynamic type and payload are known.
func knownAgg(x value) bool {
	if x.kind != vAgg {
		return false
	}
	for _, c := range x.agg {
		switch c.kind {
		case vNil:
		case vInt:
			if _, ok := c.constant(); !ok {
				return false
			}
		case vPtr:
			if c.ptr.dynamic() {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// operands returns the values of in's operands.
func (s *system) operands(fr *frame, in ssa.Instruction) []value {
	var vals []value
	for _, op := range in.Operands(nil) {
		if *op != nil {
			vals = append(vals, s.get(fr, *op))
		}
	}
	return vals
}

// tryPure evaluates in as in the setup, returning the failure instead of
// raising it.
func (s *system) tryPure(fr *frame, in ssa.Instruction) (handled bool, bad *unsupported) {
	bad = s.try(func() { handled = s.pure(fr, in) })
	return handled, bad
}

// try runs f, returning the failure it raises instead of raising it.
func (s *system) try(f func()) (bad *unsupported) {
	defer func() {
		if r := recover(); r != nil {
			u, ok := r.(unsupported)
			if !ok {
				panic(r)
			}
			bad = &u
		}
	}()
	f()
	return nil
}

// initKnown reports whether the initialisation knows vals in full: none
// is opaque, and none points to an object whose value it does not know.
func (s *system) initKnown(vals []value) bool {
	for _, v := range vals {
		switch v.kind {
		case vOpaque:
			return false
		case vPtr, vSlice:
			if v.ptr.dynamic() || s.issueAt(pointer{obj: v.ptr.obj}) != nil {
				return false
			}
		}
	}
	return true
}

// initStore executes a store of the initialisation that the setup could
// not: one through an opaque pointer, of an opaque value, or into a marked
// object. A pointer stored in a package-level variable names its object.
func (s *system) initStore(fr *frame, in *ssa.Store) bool {
	a, v := s.get(fr, in.Addr), s.get(fr, in.Val)
	switch {
	case a.kind == vNil:
		s.fail(in.Pos(), "nil pointer dereference")
	case a.kind == vOpaque:
		s.taint(v, "a value stored through "+a.why, in.Pos(), map[*object]bool{})
		return true
	case a.kind != vPtr || a.ptr.dynamic():
		return false
	}
	o := a.ptr.obj
	if is := s.init.issues[o]; is != nil {
		is.from = append(is.from, reaching([]value{v})...)
		return true
	}
	if s.storeOverCells(a.ptr, v) {
		return true
	}
	if v.agg != nil {
		key := a.ptr.key()
		for k := range s.mem {
			if below(k, key) {
				delete(s.mem, k)
			}
		}
		for k, c := range v.agg {
			s.mem[key+k] = c
		}
		return true
	}
	if v.kind == vOpaque && v.re != nil && isScalar(in.Val.Type()) {
		// A compiled regexp is kept as computed.
		s.mem[a.ptr.key()] = v
		return true
	}
	if v.kind == vOpaque && len(v.from) == 0 && pureObject(in.Val.Type()) {
		// var quiet = log.New(io.Discard, "", 0): a value of a package that
		// formats and writes, from a call that reached no memory of the
		// program, kept as computed (only such calls look into it).
		v.uncomputed = true
		s.mem[a.ptr.key()] = v
		return true
	}
	if v.kind == vOpaque && len(a.ptr.path) > 0 {
		s.poisonCell(a.ptr, v.why, in.Pos(), v)
		return true
	}
	if v.kind == vOpaque {
		s.poison(o, v.why, in.Pos(), v)
		return true
	}
	if len(a.ptr.path) == 0 {
		s.nameAfter(o, v)
	}
	return false
}

// pureObject reports whether t is a pointer to a named type of a package
// of purePackages (*log.Logger, *strings.Replacer).
func pureObject(t types.Type) bool {
	ptr, ok := types.Unalias(t).(*types.Pointer)
	if !ok {
		return false
	}
	named, ok := types.Unalias(ptr.Elem()).(*types.Named)
	return ok && named.Obj().Pkg() != nil && purePackages[named.Obj().Pkg().Path()]
}

// initLoad executes a load of the initialisation that the setup could not:
// through an opaque pointer, from a marked object, or of an aggregate.
func (s *system) initLoad(fr *frame, in *ssa.UnOp) bool {
	x := s.get(fr, in.X)
	switch {
	case x.kind == vNil:
		s.fail(in.Pos(), "nil pointer dereference")
	case x.kind == vOpaque:
		fr.vals[in] = opaqueFrom(x.why, x)
		return true
	case x.kind != vPtr || x.ptr.dynamic():
		return false
	}
	if is := s.init.issues[x.ptr.obj]; is != nil {
		fr.vals[in] = opaqueFrom(is.why, append([]value{x}, is.from...)...)
		return true
	}
	if ks := s.cellIssues(x.ptr); len(ks) > 0 {
		from := []value{x}
		for _, k := range ks {
			from = append(from, s.init.cells[k].from...)
		}
		fr.vals[in] = opaqueFrom(s.init.cells[ks[0]].why, from...)
		return true
	}
	if _, ok := s.mem[x.ptr.key()]; !ok && !isScalar(in.Type()) {
		// A copy of an aggregate: a composite literal is built in a
		// temporary and copied into the variable (var t = T{a: 1}).
		v := opaqueFrom("a struct or array value", s.contents(x.ptr)...)
		v.agg = s.memBelow(x.ptr, in.Type())
		fr.vals[in] = v
		return true
	}
	return false
}

// isScalar reports whether the setup keeps values of type t in one cell.
func isScalar(t types.Type) bool {
	switch t.Underlying().(type) {
	case *types.Basic, *types.Pointer, *types.Signature, *types.Slice, *types.Interface, *types.Map, *types.Chan:
		return true
	}
	return false
}

// below reports whether the cell key k is key or a part of it.
func below(k, key string) bool {
	return k == key || strings.HasPrefix(k, key+".") || strings.HasPrefix(k, key+"[")
}

// part returns the part of an aggregate value the initialisation loaded
// that a Field or Index instruction with a constant index selects.
func part(v value, sel string, t types.Type) value {
	if isScalar(t) {
		if c, ok := v.agg[sel]; ok {
			return c
		}
		if _, ok := t.Underlying().(*types.Basic); ok {
			return constVal(0)
		}
		return value{kind: vNil}
	}
	var cells []value
	agg := map[string]value{}
	for k, c := range v.agg {
		if below(k, sel) {
			agg[k[len(sel):]] = c
			cells = append(cells, c)
		}
	}
	w := opaqueFrom(v.why, cells...)
	w.agg = agg
	return w
}

// initCall executes a call of the initialisation that the setup could not:
// calls into other packages that the model does not run are skipped (their
// arguments tainted, their results opaque), as are calls of interface
// methods and of function values the initialisation cannot compute.
func (s *system) initCall(fr *frame, in *ssa.Call) bool {
	c := in.Common()
	pos := in.Pos()
	var args []value
	for _, a := range c.Args {
		args = append(args, s.get(fr, a))
	}
	skip := func(what string, callee value) bool {
		fr.vals[in] = s.skipCall(c, callee, args, what, pos)
		return true
	}
	if c.IsInvoke() {
		recv := s.get(fr, c.Value)
		if recv.kind == vIface {
			if fn := s.x.ssapkg.Prog.LookupMethod(recv.typ, c.Method.Pkg(), c.Method.Name()); fn != nil && s.x.local(fn) {
				return false // as in the set-up: the method of its dynamic type
			}
		}
		return skip("a call of the interface method "+c.Method.Name(), recv)
	}
	if b, ok := c.Value.(*ssa.Builtin); ok {
		switch b.Name() {
		case "print", "println":
			return false
		case "len", "cap", "min", "max", "append":
			// As in the set-up, on values the initialisation knows in
			// full (len(name) of a constant, append to a known slice).
			if s.initKnown(args) {
				var v value
				if bad := s.try(func() { v = s.builtin(fr, b, c.Args, pos) }); bad == nil {
					fr.vals[in] = v
					return true
				}
			}
		}
		return skip("the built-in "+b.Name(), value{})
	}
	f := s.get(fr, c.Value)
	switch f.kind {
	case vOpaque:
		return skip("a call of "+f.why, f)
	case vFunc:
	default:
		return false
	}
	if v, ok := s.mathCall(f.fn, args, pos); ok {
		fr.vals[in] = v
		return true
	}
	if s.x.local(f.fn) {
		return false
	}
	if v, ok := s.errorsCall(f.fn, c, args, pos, nil); ok {
		fr.vals[in] = v
		return true
	}
	if msg, ok := s.certainPanic(f.fn, args); ok {
		s.initPanicAt(fr, msg, pos)
	}
	if v, ok := s.regexpCall(f.fn, args, pos); ok {
		fr.vals[in] = v
		return true
	}
	if v, ok := s.stringsCall(f.fn, args); ok {
		fr.vals[in] = v
		return true
	}
	if v, ok := s.formatCall(fr, c, f.fn, args); ok {
		fr.vals[in] = v
		return true
	}
	if v, ok := s.builderCall(c, f.fn, args); ok {
		// Every call of a Builder that builderCall follows comes here: one
		// it does not compute marks the contents unknown.
		fr.vals[in] = v
		return true
	}
	if s.initKnown(args) {
		if v, ok := s.sortCall(f.fn, args); ok {
			fr.vals[in] = v
			return true
		}
		var spawns []spawn
		if v, ok := s.sortShortCall(fr, f.fn, args, &spawns); ok {
			fr.vals[in] = v
			return true
		}
	}
	if k, _ := s.x.runtimeKind(f.fn); k != rtNone || randBounded(f.fn) || isRandSource(f.fn) || isRandNew(f.fn) {
		// var workers = runtime.GOMAXPROCS(0): as in the set-up.
		return false
	}
	if isNewCond(f.fn) {
		// var cond = sync.NewCond(&sync.Mutex{}): made as in the set-up,
		// from the mutex (the initialisation keeps no interface values).
		if mi, ok := c.Args[0].(*ssa.MakeInterface); ok && s.condMutex(s.get(fr, mi.X)) {
			fr.vals[in] = s.newCond(s.makeInterface(fr, mi), pos)
			return true
		}
	}
	if classifyCall(f.fn) == callPure && !isBuilderMethod(f.fn) && pureArgs(c) {
		// var logger = log.New(os.Stderr, "", 0): a call that can reach
		// no memory of the program, as in the set-up; its results are
		// values only such calls look into.
		return false
	}
	switch k, _ := classifyExtern(f.fn); k {
	case extNone:
		return skip("a call of "+f.fn.String(), f)
	case extWGGo:
		s.unsupported(pos, "WaitGroup.Go")
	case extGosched:
		return false
	default:
		// A modelled operation runs as in the setup on memory the
		// initialisation knows.
		if len(args) > 0 && args[0].kind == vPtr && !args[0].ptr.dynamic() && s.issueAt(args[0].ptr) == nil {
			known := true
			for _, a := range args[1:] {
				if _, ok := a.constant(); !ok {
					known = false
				}
			}
			if known {
				return false
			}
		}
		return skip("a call of "+f.fn.String()+" on values the initialisation cannot compute", f)
	}
	return false
}
