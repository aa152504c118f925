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

// The run time as user code calls it.
//
// runtime.GOMAXPROCS(0), runtime.NumCPU() and runtime.NumGoroutine() return
// a value the run time picks: any of 1 to Options.MaxProcs. GOMAXPROCS and
// NumCPU each hold one value for a whole run (GOMAXPROCS(n) with n > 0, in
// the set-up, sets it and returns the one before); NumGoroutine may return
// another at each call. A value a goroutine reads is a choice between steps,
// one per value, as rand.Intn's (random.go); a value the set-up or the
// package's initialisation reads decides what the set-up does (how many
// workers it starts), so the system is lowered once per value: a variant,
// named after the values it took ("pool with runtime.GOMAXPROCS(0) = 2"),
// each a System of its own. The values of GOMAXPROCS and NumCPU that only
// goroutines read are variants too, since they hold for a whole run.
//
// runtime.Gosched, and the run time's own yields that code reaches with
// //go:linkname (procyield, osyield, usleep, sync.runtime_doSpin), let other
// goroutines run, which every interleaving already does: nothing. The run
// time's random numbers reached with //go:linkname (fastrand, cheaprand and
// their 64-bit and uint forms), and the unbounded functions and methods of
// math/rand and math/rand/v2 (Int, Int31, Int63, Uint32, Uint64, ...),
// return any non-negative value: only what x % n and x & m, with a
// constant n from 1 to maxRandChoices (m below it), make of it is
// modelled, each of its values a choice; fastrandn(n) and cheaprandn(n)
// are rand.Intn(n).
//
// runtime.Goexit, in a goroutine, runs the deferred calls of every function
// of the goroutine, innermost first, and ends it (a goroutine started by
// WaitGroup.Go is then done): no bad state.

// DefaultMaxProcs is the default bound of the values of runtime.GOMAXPROCS,
// NumCPU and NumGoroutine.
const DefaultMaxProcs = 4

// maxVariants bounds the runs of one system: the combinations of the values
// the run time picks that its set-up reads.
const maxVariants = 16

// Options tune the extraction.
type Options struct {
	// MaxProcs bounds the values of runtime.GOMAXPROCS(0), runtime.NumCPU()
	// and runtime.NumGoroutine(): any of 1 to MaxProcs. 0 means
	// DefaultMaxProcs.
	MaxProcs int
}

func (o Options) maxProcs() int {
	if o.MaxProcs <= 0 {
		return DefaultMaxProcs
	}
	return o.MaxProcs
}

// rtKind is what a call of the run time, or of math/rand, means.
type rtKind uint8

const (
	rtNone         rtKind = iota
	rtYield               // Gosched, procyield, osyield: nothing
	rtNoEffect            // SetFinalizer, KeepAlive: nothing (finalizerRuns)
	rtMaxProcs            // runtime.GOMAXPROCS
	rtNumCPU              // runtime.NumCPU
	rtNumGoroutine        // runtime.NumGoroutine
	rtGoexit              // runtime.Goexit
	rtAny                 // fastrand, rand.Int63: any non-negative value
	rtAnyN                // fastrandn(n): any value of [0, n)
)

// runtimeYields, runtimeAny and runtimeAnyN name the functions of the run
// time that a package reaches with //go:linkname and the model knows.
var (
	runtimeYields = map[string]bool{
		"runtime.Gosched": true, "runtime.procyield": true, "runtime.osyield": true,
		"runtime.usleep": true, "sync.runtime_doSpin": true,
	}
	runtimeAny = map[string]bool{
		"runtime.fastrand": true, "runtime.fastrand64": true, "runtime.fastrandu": true,
		"runtime.cheaprand": true, "runtime.cheaprand64": true,
	}
	runtimeAnyN = map[string]bool{"runtime.fastrandn": true, "runtime.cheaprandn": true}
	// randAny are the functions and methods of math/rand and math/rand/v2
	// whose results are any non-negative value of their type.
	randAny = map[string]bool{
		"Int": true, "Int31": true, "Int32": true, "Int63": true, "Int64": true,
		"Uint": true, "Uint32": true, "Uint64": true,
	}
)

// linkname returns the function of another package that fn, a function
// without a body of a package read from source (the system's or a
// dependency's), stands for by a //go:linkname directive
// ("runtime.procyield"), or "".
func (x *extractor) linkname(fn *ssa.Function) string {
	if fn.Pkg == nil || len(fn.Blocks) > 0 || fn.Pkg != x.ssapkg && !x.srcPkgs[fn.Pkg] {
		return ""
	}
	if x.linknames == nil {
		x.linknames = map[string]string{}
		add := func(pkg *types.Package, files []*ast.File) {
			for _, f := range files {
				for _, cg := range f.Comments {
					for _, c := range cg.List {
						fields := strings.Fields(c.Text)
						if len(fields) == 3 && fields[0] == "//go:linkname" {
							x.linknames[pkg.Path()+"."+fields[1]] = fields[2]
						}
					}
				}
			}
		}
		add(x.pkg, x.files)
		for _, d := range x.deps {
			add(d.pkg, d.files)
		}
	}
	return x.linknames[fn.Pkg.Pkg.Path()+"."+fn.Name()]
}

// Finalizers. runtime.SetFinalizer registers a function that Go runs at
// some time after its object becomes unreachable, or never: "there is no
// guarantee that finalizers will run before a program exits". The model
// takes the runs in which it never does (a cache's janitor, stopped by a
// finalizer, goes on ticking), so what a finalizer does is not checked.
// runtime.KeepAlive does nothing the model sees.

// runtimeKind says what a call of fn means, and names fn as the source
// does (runtime.GOMAXPROCS, rand.Int63, fastrand).
func (x *extractor) runtimeKind(fn *ssa.Function) (rtKind, string) {
	if target := x.linkname(fn); target != "" {
		switch {
		case runtimeYields[target]:
			return rtYield, fn.Name()
		case runtimeAny[target]:
			return rtAny, fn.Name()
		case runtimeAnyN[target]:
			return rtAnyN, fn.Name()
		}
		return rtNone, fn.Name()
	}
	obj, _ := fn.Object().(*types.Func)
	if obj == nil || obj.Pkg() == nil {
		return rtNone, ""
	}
	path, name := obj.Pkg().Path(), fn.Name()
	recv := fn.Signature.Recv()
	switch path {
	case "runtime":
		if recv != nil {
			return rtNone, ""
		}
		k := map[string]rtKind{"Gosched": rtYield, "GOMAXPROCS": rtMaxProcs, "NumCPU": rtNumCPU,
			"NumGoroutine": rtNumGoroutine, "Goexit": rtGoexit, "SetFinalizer": rtNoEffect, "KeepAlive": rtNoEffect}[name]
		return k, "runtime." + name
	case "math/rand", "math/rand/v2":
		if randAny[name] && fn.Signature.Params().Len() == 0 {
			return rtAny, "rand." + name
		}
	}
	return rtNone, ""
}

// runChoices enumerates the variants of one system: the values the run
// time picks that its lowering reads, in the order it reads them.
type runChoices struct {
	max int
	// forced is the alternative taken at each choice of this variant
	// (0 beyond its end); sites are the choices the current round met.
	forced []int
	sites  []choiceSite
	// vals holds GOMAXPROCS and NumCPU once this round read them.
	vals map[string]int64
}

// A choiceSite is one value the run time picks, one of vals.
type choiceSite struct {
	pos  token.Pos
	what string
	vals []int64
}

// beginRound starts a lowering of the current variant.
func (c *runChoices) beginRound() {
	c.sites, c.vals = nil, map[string]int64{}
}

// alt is the alternative the variant takes at choice k.
func (c *runChoices) alt(k int) int {
	if k < len(c.forced) {
		return c.forced[k]
	}
	return 0
}

// next moves to the next variant, depth first over the choices the last
// round met; it reports false when there is none.
func (c *runChoices) next() bool {
	for i := len(c.sites) - 1; i >= 0; i-- {
		if a := c.alt(i); a+1 < len(c.sites[i].vals) {
			forced := make([]int, i+1)
			for j := range i {
				forced[j] = c.alt(j)
			}
			forced[i] = a + 1
			c.forced = forced
			return true
		}
	}
	return false
}

// label names the variant after the values it took, or "" when the
// lowering met no choice.
func (c *runChoices) label() string {
	var parts []string
	for k, site := range c.sites {
		parts = append(parts, fmt.Sprintf("%s = %d", site.what, site.vals[c.alt(k)]))
	}
	return strings.Join(parts, ", ")
}

// choose returns the value the current variant takes for a value the run
// time picks among vals, named what.
func (s *system) choose(pos token.Pos, what string, vals []int64) int64 {
	c := s.x.choices
	k := len(c.sites)
	c.sites = append(c.sites, choiceSite{pos: pos, what: what, vals: vals})
	return vals[c.alt(k)]
}

// upTo returns lo, lo+1, ..., hi.
func upTo(lo, hi int64) []int64 {
	var vals []int64
	for v := lo; v <= hi; v++ {
		vals = append(vals, v)
	}
	return vals
}

// procsValue is the value of GOMAXPROCS or NumCPU (name) in this run.
func (s *system) procsValue(name string, pos token.Pos) int64 {
	c := s.x.choices
	if v, ok := c.vals[name]; ok {
		return v
	}
	what := "runtime." + name + "()"
	if name == "GOMAXPROCS" {
		what = "runtime.GOMAXPROCS(0)"
	}
	v := s.choose(pos, what, upTo(1, int64(c.max)))
	c.vals[name] = v
	return v
}

// lowerVariants lowers one system function once per variant. It returns
// the systems, or the first diagnostic of a variant.
func (x *extractor) lowerVariants(name string, decl *ast.FuncDecl, fn *ssa.Function) ([]*system, []*System, *Diagnostic) {
	x.choices = &runChoices{max: x.opts.maxProcs()}
	var ss []*system
	var syss []*System
	for {
		s, sys, d := x.lowerSystem(name, decl, fn)
		if d != nil {
			return nil, nil, d
		}
		if label := x.choices.label(); label != "" {
			sys.Name = name + " with " + label
			sys.Variant = label
		}
		ss, syss = append(ss, s), append(syss, sys)
		if !x.choices.next() {
			return ss, syss, nil
		}
		if len(syss) == maxVariants {
			var whats []string
			for _, site := range x.choices.sites {
				whats = append(whats, fmt.Sprintf("%s from %d to %d", site.what, site.vals[0], site.vals[len(site.vals)-1]))
			}
			return nil, nil, &Diagnostic{Pos: x.choices.sites[0].pos, Message: fmt.Sprintf(
				"unsupported in a fencecheck system: more than %d runs of system %s, one per combination of the values the run time picks (%s): a smaller -maxprocs bounds them",
				maxVariants, name, strings.Join(whats, ", "))}
		}
	}
}

// anyValue is the result of a call that returns any non-negative value of
// type t (fastrand, rand.Int63), named what.
func anyValue(what string, t types.Type) value {
	return anyValueOf("the result of "+what, what, t)
}

// anyValueOf is a value that may be any non-negative value of type t,
// shown as shown in messages and made by rand.
func anyValueOf(shown, rand string, t types.Type) value {
	v := opaque(fmt.Sprintf("%s, any value (only %% n and & m of it, with constants n from 1 to %d and m below it, are modelled)", shown, maxRandChoices))
	v.anyInt, v.typ, v.rand = true, t, rand
	return v
}

// anyValues returns, for x op y with x any non-negative value and y a
// constant, the values the result may take; ok is false for any other
// binary operation.
func (s *system) anyValues(fr *frame, in *ssa.BinOp) (vals []int64, ok bool) {
	x, y := s.get(fr, in.X), s.get(fr, in.Y)
	if !x.anyInt {
		return nil, false
	}
	n, isConst := y.constant()
	switch {
	case !isConst:
	case in.Op == token.REM && n >= 1 && n <= maxRandChoices:
		for k := range n {
			vals = append(vals, k)
		}
		return vals, true
	case in.Op == token.AND && n >= 0 && n < maxRandChoices:
		for k := int64(0); k <= n; k++ {
			if k&n == k {
				vals = append(vals, k)
			}
		}
		return vals, true
	}
	s.unsupported(in.Pos(), "%s", x.why)
	return nil, false
}

// anyConvert keeps a value that may be any non-negative integer through a
// conversion that keeps it non-negative (to an unsigned type, or to a wider
// signed one); ok is false for any other conversion.
func anyConvert(x value, to types.Type) (value, bool) {
	if !x.anyInt || !isIntegral(to) {
		return value{}, false
	}
	wt, _, _ := intBits(to)
	wx, _, _ := intBits(x.typ)
	if !isUnsigned(to) && wt <= wx {
		return value{}, false
	}
	x.typ = to
	return x, true
}

// setupRuntimeCall executes, in the set-up or the package's
// initialisation, a call of the run time or of math/rand; ok is false for
// other calls.
func (s *system) setupRuntimeCall(fn *ssa.Function, args []value, pos token.Pos) (value, bool) {
	if randBounded(fn) {
		n, isConst := args[len(args)-1].constant()
		if !isConst || n <= 0 || n > maxRandChoices {
			s.unsupported(pos, "%s with a bound other than a constant from 1 to %d", fn.Name(), maxRandChoices)
		}
		return constVal(s.choose(pos, fmt.Sprintf("rand.%s(%d)", fn.Name(), n), upTo(0, n-1))), true
	}
	k, name := s.x.runtimeKind(fn)
	switch k {
	case rtNone:
		return value{}, false
	case rtYield, rtNoEffect:
		return value{}, true
	case rtMaxProcs:
		n, isConst := args[0].constant()
		if !isConst {
			s.unsupported(pos, "runtime.GOMAXPROCS(n) with an n the set-up cannot compute")
		}
		old := s.procsValue("GOMAXPROCS", pos)
		if n > 0 {
			s.x.choices.vals["GOMAXPROCS"] = n
		}
		return constVal(old), true
	case rtNumCPU:
		return constVal(s.procsValue("NumCPU", pos)), true
	case rtNumGoroutine:
		return constVal(s.choose(pos, "runtime.NumGoroutine()", upTo(1, int64(s.x.choices.max)))), true
	case rtGoexit:
		s.unsupported(pos, "runtime.Goexit in the set-up (the system function's goroutine would end and leave the others to crash the program)")
	case rtAny:
		return anyValue(name+"()", fn.Signature.Results().At(0).Type()), true
	case rtAnyN:
		n, isConst := args[len(args)-1].constant()
		if !isConst || n <= 0 || n > maxRandChoices {
			s.unsupported(pos, "%s with a bound other than a constant from 1 to %d", name, maxRandChoices)
		}
		return constVal(s.choose(pos, fmt.Sprintf("%s(%d)", name, n), upTo(0, n-1))), true
	}
	return value{}, false
}

// runtimeCall lowers a call of the run time or of math/rand by a process;
// ok is false for other calls.
func (p *proc) runtimeCall(fr *frame, in *ssa.Call, fn *ssa.Function, args []value, cur int) (int, bool) {
	s := p.s
	pos := in.Pos()
	k, name := s.x.runtimeKind(fn)
	switch k {
	case rtNone:
		return 0, false
	case rtYield, rtNoEffect:
		return cur, true
	case rtMaxProcs:
		if n, isConst := args[0].constant(); !isConst || n > 0 {
			s.unsupported(pos, "runtime.GOMAXPROCS(n) with n > 0 in a goroutine (set it in the set-up)")
		}
		fr.vals[in] = constVal(s.procsValue("GOMAXPROCS", pos))
		return cur, true
	case rtNumCPU:
		fr.vals[in] = constVal(s.procsValue("NumCPU", pos))
		return cur, true
	case rtNumGoroutine:
		// The goroutines of the program and of its environment (a test
		// binary's, the run time's): any number, so a comparison is
		// either answer and other uses are refused where a run reaches
		// them.
		v := opaque("the result of runtime.NumGoroutine(), which counts the goroutines of the program's environment too and which fencecheck does not compute")
		v.uncomputed, v.positive = true, true
		fr.vals[in] = v
		return cur, true
	case rtGoexit:
		return p.goexit(fr, pos, cur), true
	case rtAny:
		fr.vals[in] = anyValue(name+"()", in.Type())
		return cur, true
	case rtAnyN:
		return p.randCall(fr, in, args, cur), true
	}
	return 0, false
}

// choiceReg binds in to a new register, which the steps of a choice from
// the current location to next assign.
func (p *proc) choiceReg(fr *frame, in ssa.Value) (r, next int) {
	r = p.newReg(p.regName(fr, in), in.Type())
	p.holds(r, fr, in)
	fr.vals[in] = intVal(model.R(r))
	return r, p.newLoc(in.Pos())
}

// choice binds the result of the call in to one of vals, each a step of its
// own from cur.
func (p *proc) choice(fr *frame, in ssa.Value, vals []int64, cur int) int {
	if !used(in) {
		return cur
	}
	r, next := p.choiceReg(fr, in)
	for _, v := range vals {
		p.emitTo(cur, model.AssignOp(r, model.C(v)), next, in.Pos(), Origin{})
	}
	return next
}

// goexit lowers runtime.Goexit: the deferred calls of fr and of every
// function it is inlined into, innermost first (those that ran on the way
// there, recover.go's chain), and then the goroutine ends.
func (p *proc) goexit(fr *frame, pos token.Pos, cur int) int {
	s := p.s
	root := fr
	for root.parent != nil {
		root = root.parent
	}
	if root.fn.Syntax() == s.decl {
		s.unsupported(pos, "runtime.Goexit in the system function's own goroutine (Go ends it without returning, and crashes once every other goroutine has exited)")
	}
	for _, c := range p.chain() {
		if c.b == nil && len(c.ds) > 0 {
			s.unsupported(pos, "runtime.Goexit in code that the system function's goroutine runs from inside a function that started goroutines")
		}
		if cur = p.runDeferList(c.fr, c.b, c.ds, pos, cur); cur < 0 {
			return -1
		}
	}
	if cur >= 0 {
		p.goexits = append(p.goexits, cur)
	}
	return -1
}

// anyBinop evaluates, in the set-up, x % n or x & m of a value x that may
// be any non-negative integer: the variant picks the result. ok is false
// for any other binary operation.
func (s *system) anyBinop(fr *frame, in *ssa.BinOp) (value, bool) {
	vals, ok := s.anyValues(fr, in)
	if !ok {
		return value{}, false
	}
	what := s.x.valueName(fr.fn, in)
	if x, known := s.x.debugOf(fr.fn).expr[in]; known {
		what = types.ExprString(x)
	}
	return constVal(s.choose(in.Pos(), what, vals)), true
}
