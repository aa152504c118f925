package extract

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/ssa"

	"github.com/fencecheck/fencecheck/extract/directive"
	"github.com/fencecheck/fencecheck/model"
)

// extractor holds what every system of one package shares.
type extractor struct {
	fset   *token.FileSet
	pkg    *types.Package
	files  []*ast.File
	info   *types.Info
	dirs   *directive.Set
	ssapkg *ssa.Package
	// deps are the packages of the build read from source (wholeprog.go),
	// srcPkgs their SSA packages and the package's own, whose functions
	// are inlined; noSource says why a package whose functions the
	// package uses is not among them.
	deps     []*sourcePackage
	srcPkgs  map[*ssa.Package]bool
	noSource map[string]string
	foreign  map[string]string // see foreignFiles
	// onceCells caches writeOnce (spilled.go).
	onceCells map[*ssa.Alloc]bool
	defs      map[token.Pos]*types.Var // local variables by the position of their name
	debug     map[*ssa.Function]*debugInfo
	hasGo     map[*ssa.Function]int // 0 unknown, 1 computing/no, 2 yes
	globals   map[*types.Var]int64  // constant initial values of package-level variables
	// fnGlobals caches, for each function, the package-level variables its
	// code and the code it may call refer to (see globalsOf).
	fnGlobals map[*ssa.Function]*globalRefs
	// invoked caches invokeTargets, by the method's package and name.
	invoked map[string]invokeTargets
	// errType is the type of the errors errors.New makes (errsent.go).
	errType *types.Named
	// wrapErrType is the type of the errors fmt.Errorf makes with %w
	// (errwrap.go).
	wrapErrType *types.Named
	// joinErrType is the type of the errors errors.Join makes
	// (errwrap.go).
	joinErrType *types.Named
	// opts tune the extraction; choices are the values the run time picks
	// in the variant being lowered, and linknames the functions of other
	// packages that //go:linkname directives name, by package path and
	// local name (runtime.go).
	opts      Options
	choices   *runChoices
	linknames map[string]string
	// shims are the functions of the model's own source that stand for
	// instances of sync.OnceFunc, OnceValue and OnceValues (oncefunc.go).
	shims map[*ssa.Function]*ssa.Function
	// slotVars stand, as clock cells' keys (nanos.go), for the cells of
	// allocations that declare no variable (a function's result slot).
	slotVars map[*ssa.Alloc]*types.Var
	// syncMaps is the package that stands for the methods of sync.Map
	// (syncmap.go), built at the first call of one.
	syncMaps *syncMapShims
	// goCall runs the cancel function of a context in a goroutine of its
	// own (context.go).
	goCall *ssa.Function
	// goShims run a function known by behaviour in a goroutine of its
	// own (go wg.Done()), by signature (goshim.go).
	goShims map[string]*ssa.Function
	// modelFiles are the files of the model's own source (modelSource).
	modelFiles []*ast.File
	// joinSlice stands for errors.Join(errs...) of a slice, and
	// joinTooLong, which it calls, for one of a slice longer than the
	// model keeps (errjoin.go).
	joinSlice, joinTooLong *ssa.Function
}

// unsupported is the error a construct the model cannot express raises. It
// aborts the lowering of the system and becomes a diagnostic.
type unsupported struct {
	pos token.Pos
	msg string
	// goPanic marks one of Go's run-time panics on values the lowering
	// computed (goPanic): in a goroutine, a bad state where a run reaches
	// it (instrOrRefuse).
	goPanic bool
}

// goPanic stops the lowering at one of Go's run-time panics (an index out
// of range, a nil dereference, a division by zero) on values it computed:
// in the set-up the system fails with msg, in a goroutine the panic is a
// bad state where a run reaches it.
func (s *system) goPanic(pos token.Pos, format string, args ...any) {
	if !pos.IsValid() {
		pos = s.curPos
	}
	if !pos.IsValid() {
		pos = s.decl.Pos()
	}
	panic(unsupported{pos: pos, msg: fmt.Sprintf(format, args...), goPanic: true})
}

func (s *system) fail(pos token.Pos, format string, args ...any) {
	if !pos.IsValid() {
		pos = s.curPos
	}
	if !pos.IsValid() {
		pos = s.decl.Pos()
	}
	panic(unsupported{pos: pos, msg: fmt.Sprintf(format, args...)})
}

func (s *system) unsupported(pos token.Pos, what string, args ...any) {
	s.fail(pos, unsupportedPrefix+what, args...)
}

// debugInfo maps SSA values back to the syntax they came from.
type debugInfo struct {
	expr     map[ssa.Value]ast.Expr // the first expression that denotes each value
	storeLHS map[*ssa.Store]ast.Expr
	ident    map[ssa.Value]*ast.Ident // the first local variable that holds each value
}

func (x *extractor) debugOf(fn *ssa.Function) *debugInfo {
	if d := x.debug[fn]; d != nil {
		return d
	}
	d := &debugInfo{expr: map[ssa.Value]ast.Expr{}, storeLHS: map[*ssa.Store]ast.Expr{}, ident: map[ssa.Value]*ast.Ident{}}
	for _, b := range fn.Blocks {
		for i, in := range b.Instrs {
			switch in := in.(type) {
			case *ssa.DebugRef:
				if !in.IsAddr {
					if _, ok := d.expr[in.X]; !ok {
						d.expr[in.X] = in.Expr
					}
					id, isIdent := in.Expr.(*ast.Ident)
					if v, isVar := in.Object().(*types.Var); isIdent && isVar && !v.IsField() && d.ident[in.X] == nil {
						d.ident[in.X] = id
					}
				}
			case *ssa.Store:
				if i+1 < len(b.Instrs) {
					if dr, ok := b.Instrs[i+1].(*ssa.DebugRef); ok && dr.X == in.Val && !dr.IsAddr {
						d.storeLHS[in] = dr.Expr
					}
				}
			}
		}
	}
	x.debug[fn] = d
	return d
}

// stmtAt returns the innermost statement enclosing [pos, end).
// rangeUnevaluated reports whether the load in is the range expression of
// a for statement that Go does not evaluate: nothing uses the value, the
// statement has at most one iteration variable, and the expression's
// length is constant (an array, or a pointer to one, with no receive or
// call in it), so for i := range *p does not dereference a nil p.
func (x *extractor) rangeUnevaluated(in *ssa.UnOp) bool {
	if in.Op != token.MUL || used(in) || !isAggregate(in.Type()) {
		return false
	}
	if _, isArr := in.Type().Underlying().(*types.Array); !isArr {
		return false
	}
	pos := in.Pos()
	rs, ok := x.stmtAt(pos, pos).(*ast.RangeStmt)
	if !ok || rs.Value != nil || pos < rs.X.Pos() || pos >= rs.X.End() {
		return false
	}
	evaluated := false
	ast.Inspect(rs.X, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			evaluated = true
		case *ast.UnaryExpr:
			evaluated = evaluated || n.Op == token.ARROW
		}
		return !evaluated
	})
	return !evaluated
}

// onlyUnevaluated reports whether every use of the field address fa is a
// load Go does not evaluate (rangeUnevaluated): range p.arr with a nil p
// computes no address.
func (x *extractor) onlyUnevaluated(fa *ssa.FieldAddr) bool {
	refs := fa.Referrers()
	if refs == nil {
		return false
	}
	n := 0
	for _, r := range *refs {
		switch r := r.(type) {
		case *ssa.DebugRef:
		case *ssa.UnOp:
			if !x.rangeUnevaluated(r) {
				return false
			}
			n++
		default:
			return false
		}
	}
	return n > 0
}

func (x *extractor) stmtAt(pos, end token.Pos) ast.Stmt {
	for _, f := range x.sourceFiles() {
		if f.FileStart <= pos && pos <= f.FileEnd {
			path, _ := astutil.PathEnclosingInterval(f, pos, end)
			for _, n := range path {
				if s, ok := n.(ast.Stmt); ok {
					if _, isBlock := n.(*ast.BlockStmt); isBlock {
						return nil
					}
					return s
				}
			}
		}
	}
	return nil
}

// fullExpr returns the largest selector expression of which e is the
// selected name (f.up for the up of f.up, pkg.x for its x), or e itself: go/ssa
// records a field store under the field's name alone.
func (x *extractor) fullExpr(e ast.Expr) ast.Expr {
	for _, f := range x.sourceFiles() {
		if f.FileStart <= e.Pos() && e.End() <= f.FileEnd {
			path, _ := astutil.PathEnclosingInterval(f, e.Pos(), e.End())
			for i, n := range path {
				if n != e || i+1 >= len(path) {
					continue
				}
				for _, up := range path[i+1:] {
					sel, ok := up.(*ast.SelectorExpr)
					if !ok || sel.Sel != e {
						break
					}
					e = sel
				}
				return e
			}
		}
	}
	return e
}

// containsGo reports whether fn, or a function of the package it calls,
// contains a go statement.
func (x *extractor) containsGo(fn *ssa.Function) bool {
	switch x.hasGo[fn] {
	case 1:
		return false
	case 2:
		return true
	}
	x.hasGo[fn] = 1
	for _, b := range fn.Blocks {
		if x.blockSpawns(b, 0) {
			x.hasGo[fn] = 2
			return true
		}
	}
	return false
}

// blockSpawns reports whether b.Instrs[from:] contain a go statement, a
// call that starts a goroutine (WaitGroup.Go, time.AfterFunc) or a call to
// a function of the package that spawns.
func (x *extractor) blockSpawns(b *ssa.BasicBlock, from int) bool {
	for _, in := range b.Instrs[from:] {
		switch in := in.(type) {
		case *ssa.Go:
			return true
		case *ssa.Call:
			if isSyncMethod(in.Call.StaticCallee(), "WaitGroup", "Go") {
				return true
			}
			if f := in.Call.StaticCallee(); f != nil && isTimeFunc(f, "AfterFunc") {
				return true // its function runs in a goroutine of its own
			}
			if f := x.boundTarget(in.Call.StaticCallee()); f != nil && x.local(f) && x.containsGo(f) {
				return true
			}
		}
	}
	return false
}

// mayStillSpawn reports whether a go statement can be reached from
// b.Instrs[from:].
func (x *extractor) mayStillSpawn(b *ssa.BasicBlock, from int) bool {
	seen := map[*ssa.BasicBlock]bool{}
	var visit func(*ssa.BasicBlock, int) bool
	visit = func(b *ssa.BasicBlock, from int) bool {
		if x.blockSpawns(b, from) {
			return true
		}
		for _, s := range b.Succs {
			if !seen[s] {
				seen[s] = true
				if visit(s, 0) {
					return true
				}
			}
		}
		return false
	}
	return visit(b, from)
}

// local reports whether fn belongs to the package being analysed (including
// its closures), so that calls to it are inlined.
func (x *extractor) local(fn *ssa.Function) bool {
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	if fn.Origin() != nil {
		fn = fn.Origin()
	}
	if fn.Pkg == nil && fn.Synthetic != "" && len(fn.Blocks) > 0 {
		// A wrapper the SSA builder made, such as (*T).M for a method M
		// of T called through an interface holding a *T: it belongs to no
		// package, and is inlined with the method it calls when T's
		// package is read from source.
		if obj, ok := fn.Object().(*types.Func); ok && obj.Pkg() != nil {
			for p := range x.srcPkgs {
				if p.Pkg == obj.Pkg() {
					return true
				}
			}
		}
	}
	return x.srcPkgs[fn.Pkg] && len(fn.Blocks) > 0
}

// sourceFiles returns the syntax of the package and of the packages read
// from source with it.
func (x *extractor) sourceFiles() []*ast.File {
	if len(x.deps) == 0 {
		return x.files
	}
	files := slices.Clip(x.files)
	for _, d := range x.deps {
		files = append(files, d.files...)
	}
	return files
}

// system is the state of one system being lowered.
type system struct {
	// inferWork is the work the domain inference did for this system,
	// over all its lowering rounds (inferBudget).
	inferWork *int64
	// guessSites numbers the questions whose answers the model guesses.
	guessSites int
	// unsafeCompares are the positions where a process compares
	// unsafe.Pointers it reads at run time (== and !=, compare-and-swap):
	// the model compares locations, Go addresses (see checkUnsafeCompares).
	unsafeCompares []token.Pos
	// addresses are the locations held as pointer values, by address, and
	// sharedAddress names two of them at one address (notePointerValue).
	addresses     map[addressKey]string
	sharedAddress string
	// spilled holds the pointer in each spilled variable written once
	// (spilled.go), for every process that loads it.
	spilled map[*object]value
	// spilledBy is the process that stored each of spilled's values.
	spilledBy map[*object]int
	x         *extractor
	name      string
	decl      *ast.FuncDecl
	curPos    token.Pos
	// blocking is set when the system has too many places to block for
	// its blocking bugs to be bad states (addBlockedStates).
	// lateGen is the generation of the functions and calls through
	// function tables that the lowering makes now (funcvals.go).
	lateGen   int
	blocking  *BlockingSearch
	unstarted []model.ProcLoc // see System.Unstarted
	mainIdx   int             // the process of the system function's body

	// Channels (chans.go): those the setup made, and the operations of
	// the processes on them, lowered once every process is known.
	chans      []*channel
	chanSites  []*chanSite
	chanCloses []*chanClose
	chanLens   []chanLen
	// nilled are the channel variables that the code sets only to nil
	// (chanvals.go), once computed.
	nilled map[*types.Var]bool
	// ctxErrs are context.Canceled and context.DeadlineExceeded, once
	// made; ctxErrSites the calls of ctx.Err() by processes.
	ctxErrs     [2]value
	ctxErrSites []*ctxErrSite
	// funcTabs are the function values sent on channels, by signature;
	// funcCalls the calls of values received (funcvals.go).
	funcTabs  []*funcTable
	funcCalls []*funcCall
	// curProc is the process being lowered (nil in the set-up);
	// ifaceProbes the interface values of run-time payloads (anyint.go).
	curProc     *proc
	ifaceProbes []ifaceProbe
	// makeProbes are the makes of run-time size (refuse.go), makeUnknown
	// the positions of those whose size the inference did not fix.
	makeProbes  []makeProbe
	makeUnknown []makeSite
	// formatProbes are the calls that format an integer known only at run
	// time (formatsplit.go), formatUnknown the sites whose values are too
	// many.
	formatProbes  []formatProbe
	formatUnknown map[makeSite]bool
	// sizedMixed says that a slice in memory may name arrays of several
	// lengths that makes sized by the inference allocated (headers.go).
	sizedMixed bool
	forever    int // 1 + the variable of a wait that never ends, or 0
	condSites  []*condSite
	// condCells are the Conds kept by value in memory (a field of type
	// sync.Cond), by the key of their cell (condAt).
	condCells map[string]value
	deadlines []*ctxNode // contexts with a deadline, each a process that cancels it
	timers    []*channel // channels of time.After calls of the setup, each a process that sends once
	// clock is 1 + the clock's variable once time.Now is read, at
	// clockPos (clock.go).
	clock    int
	clockPos token.Pos
	// clockProc advances it (emitClockTicks); clockInLoop is set when a
	// goroutine reads it in a loop, and setupReadsClock once the set-up
	// reads it.
	clockProc       *proc
	clockInLoop     bool
	setupReadsClock bool
	tickers         []*ticker
	tickStops       []tickStop
	// timerObjs are the timers of the timer objects a goroutine's loop
	// makes (timerpool.go).
	timerObjs map[*object]*ticker
	// randSources are, by the generator rand.New made, the variable of
	// its source's state (random.go).
	randSources map[*object]*object

	// pools are the sync.Pools, by the key of their cell (pool.go).
	pools map[string]*syncPool

	objects []*object
	// spawnObjs is the number of objects when the setup executed its first
	// go statement: those, and the package-level variables, are the objects
	// a running process may already reach.
	spawnObjs int
	// spawnChans is the number of channels then.
	spawnChans int
	// chanRank counts the channels made at each position, and preChans
	// are the channels made ahead of their make (chanvals.go).
	chanRank map[token.Pos]int
	preChans map[string]*channel
	// ctxRank counts the contexts derived at each position, and ctxKeyed
	// holds this round's derived contexts by key, some made ahead of
	// their call (ctxcells.go).
	ctxRank  map[token.Pos]int
	ctxKeyed map[string]*ctxNode
	// onceCalls are the calls of the functions sync.Once's Do runs, each
	// with 1 + the Once's variable.
	onceCalls map[*ssa.Call]int
	// onceBlocks are the blocks of the Do calls that made them.
	onceBlocks map[*ssa.Call]*ssa.BasicBlock
	// topInstr is the instruction of the system function the set-up
	// executes, until a goroutine starts; firstGo is the one during which
	// the first did (a go statement, or a call that starts one), nil while
	// none has; splitReq asks the next round to end the setup before it
	// (heapHint.splitAt).
	topInstr, firstGo, splitReq ssa.Instruction
	// goStarted says the set-up has started a goroutine.
	goStarted bool
	// setupLenient is set while a call of the set-up runs in the
	// initialisation's lenient mode (setupskip.go).
	setupLenient bool
	// setupCallPos is then the position of that call in the set-up, where
	// what it makes unknown is reported.
	setupCallPos token.Pos
	objName      map[string]int
	globals      map[*ssa.Global]*object
	mem          map[string]value // the setup's memory, by cell key
	steps        int              // setup steps, for the budget

	prog *model.Program
	vars map[string]int // cell key -> shared variable
	// cellVars holds, by cell key, the variables cellVar made for cells
	// that hold which of several values they are (keyed in vars under a
	// prefix of their kind: "chan:", "chanid:", "ctx:").
	cellVars map[string][]int
	varType  []types.Type
	varDecl  []*types.Var
	// boxVars are the shared variables that are cells of value boxes
	// (valueboxes.go).
	boxVars map[int]bool
	procs   []*proc
	spawns  []token.Pos
	// allocIDs numbers the allocations of the system, the same in every
	// round (allocID); allocRank counts this round's allocations by
	// position and type, and byID holds its objects by id.
	allocIDs  map[string]int
	allocRank map[string]int
	byID      map[int]*object

	init  initState // the run of the package's initialisation (pkginit.go)
	calls callState // defers, sync types, other packages, nested spawns (defer.go, calls.go)
	heap  heapState // pointers held in memory (pointers.go)
	maps  mapState  // maps (maps.go)

	strs   []string         // the interned strings, by id - 1 (strings.go)
	strIDs map[string]int64 // their ids
	// builders are the contents of the Builders the set-up writes
	// (conststrings.go), by the key of their memory.
	builders map[string]*builderState
}

// maxSetupSteps bounds the concrete execution of a system's setup.
const maxSetupSteps = 200_000

// maxCases bounds the case split of a pointer with run-time indexes over
// its objects, and of a value that may be one of several.
const maxCases = 64

// maxIndexCases bounds the case split of a pointer with run-time indexes
// over the cells of its arrays: golang-lru's expirable cache keeps 100
// buckets, one chosen by a counter at run time.
const maxIndexCases = 256

// allocID returns the id of the allocation of an object of type t being
// made: the same in every round of lowering the system for the same
// allocation, known by the position of the instruction being lowered, the
// type and its rank among the round's allocations there (so that code a
// round lowers first, which a later round reaches through a new target
// of an interface call, does not renumber the objects after it).
func (s *system) allocID(t types.Type) int {
	base := fmt.Sprintf("%d/%s", s.curPos, types.TypeString(t, nil))
	n := s.allocRank[base]
	if s.allocRank == nil {
		s.allocRank = map[string]int{}
	}
	s.allocRank[base]++
	k := fmt.Sprintf("%s#%d", base, n)
	id, ok := s.allocIDs[k]
	if !ok {
		id = len(s.allocIDs)
		s.allocIDs[k] = id
	}
	return id
}

// addObject records the allocation of o.
func (s *system) addObject(o *object) {
	o.seq = len(s.objects)
	s.objects = append(s.objects, o)
	if s.byID == nil {
		s.byID = map[int]*object{}
	}
	s.byID[o.id] = o
}

// allocated reports whether o is an object this round allocated.
func (s *system) allocated(o *object) bool {
	return o.id >= 0 && s.byID[o.id] == o
}

func (s *system) newObject(name string, t types.Type, decl *types.Var, owner int) *object {
	id := s.allocID(t)
	if o := s.adopt(id, t); o != nil {
		// An object that an earlier round found to need a heap id.
		o.decl = decl
		s.addObject(o)
		return o
	}
	o := &object{id: id, name: name, typ: t, decl: decl, owner: owner}
	if name == "" {
		// Named after what holds it, where something does (nameAfter);
		// else after its type (add(&entry{k: 1}) makes an entry).
		o.name, o.anon = "obj", true
		if named, ok := types.Unalias(t).(*types.Named); ok {
			o.name = named.Obj().Name()
			if pkg := named.Obj().Pkg(); pkg != nil && pkg != s.x.pkg {
				o.name = pkg.Name() + "." + o.name // list.Element
			}
		}
	}
	s.addObject(o)
	return o
}

// display makes o's name unique among the objects that have model
// variables or registers (l, l#2, ...), once, when the first one is made.
func (s *system) display(o *object) {
	if o.named {
		return
	}
	o.named = true
	if o.within != nil {
		s.display(o.within.obj)
		o.name = o.within.name()
	}
	if h := o.holder; o.anon && h != nil {
		if len(h.path) == 0 {
			// A variable that holds the slice has no cells of its own in
			// the model: the array takes its name (buf[0]).
			o.name = h.obj.name
		} else {
			s.display(h.obj)
			o.name = h.name()
		}
	}
	o.raw = o.name
	base, n := o.name, 1
	for s.objName[o.name] > 0 {
		n++
		o.name = fmt.Sprintf("%s#%d", base, n)
	}
	s.objName[o.name]++
}

func (s *system) global(g *ssa.Global) pointer {
	o := s.globals[g]
	if o == nil {
		v, _ := g.Object().(*types.Var)
		o = s.newObject(g.Name(), deref(g.Type()), v, -1)
		s.globals[g] = o
		if c, ok := s.x.globals[v]; ok {
			s.mem[pointer{obj: o}.key()] = constVal(c)
		}
		if err, ok := s.contextGlobal(g); ok {
			s.mem[pointer{obj: o}.key()] = err
		}
		if why := s.x.uninitialised(g); why != "" {
			if s.init.issues == nil {
				s.init.issues = map[*object]*initIssue{}
			}
			s.init.issues[o] = &initIssue{what: g.Pkg.Pkg.Name() + "." + g.Name(), why: why}
		}
	}
	return pointer{obj: o}
}

func deref(t types.Type) types.Type {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

// frame is one activation of a function: the system function, a goroutine's
// function, or a function inlined into one of them.
type frame struct {
	fn     *ssa.Function
	parent *frame
	vals   map[ssa.Value]value

	blocks  map[*ssa.BasicBlock]*blockState
	returns []retSite
	site    *ssa.BasicBlock // the block of the parent that calls fn
	// callPos is, for a function of the model's own source that stands
	// for a library call (WaitGroup.Go), the position of that call: the
	// goroutines it starts are named after it.
	callPos token.Pos
	// once marks the function a sync.Once's Do runs, on a Once the
	// lowering knows: it runs at most once, wherever Do is called.
	// onceVar is then 1 + the Once's variable, which a panic leaving the
	// function sets to done, as Go's deferred done.Store does.
	once    bool
	onceVar int
	// joinedAt is 1 + the location where the caller goes on once fn
	// returns, set when its returns are joined, and resultsUnused marks a
	// call whose results nothing uses (or that has none): a panic a call
	// lowered later recovers in fn returns there (recover.go).
	joinedAt      int
	resultsUnused bool
}

// noteJoin records where the call in, inlined as fr, goes on once it
// returns (join, -1 when it never does).
func (fr *frame) noteJoin(in *ssa.Call, join int) {
	if join >= 0 {
		fr.joinedAt = join + 1
		fr.resultsUnused = fr.fn.Signature.Results().Len() == 0 || !used(in)
	}
}

type blockState struct {
	lowered bool
	entry   int
	pending []edge
	phiReg  map[*ssa.Phi]int
	// deadLoop marks the header of a range loop whose body never runs
	// (deadRangeLoop): its phis hold the values of its entry.
	deadLoop bool
}

type edge struct {
	loc  int // the location the edge leaves from
	pred int // the index of the predecessor in the target's Preds
	pos  token.Pos
}

type retSite struct {
	loc  int
	vals []value
}

func newFrame(fn *ssa.Function, parent *frame) *frame {
	return &frame{fn: fn, parent: parent, vals: map[ssa.Value]value{}, blocks: map[*ssa.BasicBlock]*blockState{}}
}

func (fr *frame) onStack(fn *ssa.Function) bool {
	return fr.activations(fn) > 0
}

// activations counts the frames of fn from fr up.
func (fr *frame) activations(fn *ssa.Function) int {
	n := 0
	for f := fr; f != nil; f = f.parent {
		if f.fn == fn {
			n++
		}
	}
	return n
}

// Recursion is followed call by call: a goroutine's code up to
// maxRecursion activations of one function deep when the function has at
// most maxRecursiveSize instructions (each activation is a copy of its
// code: a list walk or an unwrapping helper, not sort's pdqsort, whose
// recursion small slices never reach); a call past them is refused where a
// run reaches it. The set-up's and the package initialisation's, which
// run on known values, go up to maxSetupRecursion.
const (
	maxRecursion      = 2
	maxRecursiveSize  = 120
	maxSetupRecursion = 64
)

// recursionRefused says why a goroutine's call of fn from fr is not
// lowered, or "" when it is: fn is not active in fr, or is small and active
// fewer than maxRecursion times.
func (fr *frame) recursionRefused(fn *ssa.Function) string {
	n := fr.activations(fn)
	if n == 0 {
		return ""
	}
	size := 0
	for _, b := range fn.Blocks {
		size += len(b.Instrs)
	}
	switch {
	case size > maxRecursiveSize:
		return fmt.Sprintf("recursion of a function of more than %d instructions (%s calls itself)", maxRecursiveSize, fn.Name())
	case n >= maxRecursion:
		return fmt.Sprintf("recursion more than %d calls deep (%s calls itself)", maxRecursion, fn.Name())
	}
	return ""
}

// bindCall binds fn's parameters and free variables in a new frame.
func (s *system) bindCall(fn *ssa.Function, env, args []value, parent *frame) *frame {
	fr := newFrame(fn, parent)
	if len(args) != len(fn.Params) || len(env) != len(fn.FreeVars) {
		s.unsupported(fn.Pos(), "call of %s with %d arguments", fn.Name(), len(args))
	}
	for i, p := range fn.Params {
		fr.vals[p] = args[i]
	}
	for i, fv := range fn.FreeVars {
		fr.vals[fv] = env[i]
	}
	return fr
}

// get returns the value v is bound to in fr.
func (s *system) get(fr *frame, v ssa.Value) value {
	switch v := v.(type) {
	case *ssa.Const:
		return s.constant(v)
	case *ssa.Function:
		return value{kind: vFunc, fn: v}
	case *ssa.Global:
		return value{kind: vPtr, ptr: s.global(v)}
	case *ssa.Builtin:
		return opaque("the built-in " + v.Name())
	}
	if val, ok := fr.vals[v]; ok {
		return val
	}
	return opaque(s.x.valueName(fr.fn, v) + ", which is not computed on any modelled path")
}

// valueName names v, an SSA value of fn, as the source spells it: the
// variable or expression that it holds, with its position, or the kind of
// value and where it is computed; never by its SSA name.
func (x *extractor) valueName(fn *ssa.Function, v ssa.Value) string {
	d := x.debugOf(fn)
	where := func(pos token.Pos) string {
		if !pos.IsValid() {
			return ""
		}
		p := x.fset.Position(pos)
		return fmt.Sprintf(" at %s:%d:%d", filepath.Base(p.Filename), p.Line, p.Column)
	}
	switch {
	case d.ident[v] != nil:
		return "the value of " + d.ident[v].Name + where(d.ident[v].Pos())
	case d.expr[v] != nil:
		e := x.fullExpr(d.expr[v])
		return "the value of " + types.ExprString(e) + where(e.Pos())
	}
	var qual types.Qualifier
	if fn.Pkg != nil {
		qual = types.RelativeTo(fn.Pkg.Pkg)
	}
	return "a value of type " + types.TypeString(v.Type(), qual) + where(v.Pos())
}

func (s *system) constant(c *ssa.Const) value {
	if c.Value == nil {
		if isTime(c.Type()) {
			return constVal(0) // the zero Time, a reading before any (clock.go)
		}
		switch c.Type().Underlying().(type) {
		case *types.Pointer, *types.Signature, *types.Interface, *types.Slice, *types.Map, *types.Chan:
			return value{kind: vNil}
		case *types.Basic:
			return constVal(0)
		case *types.Struct, *types.Array:
			return value{kind: vAgg, agg: map[string]value{}}
		}
		return opaque("the zero value of " + c.Type().String())
	}
	if v, ok := floatConst(c.Value, c.Type()); ok {
		return constVal(v)
	}
	switch c.Value.Kind() {
	case constant.String:
		return constVal(s.intern(constant.StringVal(c.Value)))
	case constant.Bool:
		if constant.BoolVal(c.Value) {
			return constVal(1)
		}
		return constVal(0)
	case constant.Int:
		if n, ok := constant.Int64Val(c.Value); ok {
			return constVal(n)
		}
		if n, ok := constant.Uint64Val(c.Value); ok {
			// A large unsigned constant: keep its bits as a signed
			// value so that wrapping arithmetic (x + ^uint64(0)) works.
			return constVal(int64(n))
		}
	}
	return opaque("the constant " + c.Value.ExactString())
}

// asInt returns an integer value's expression, or fails at pos.
func (s *system) asInt(v value, pos token.Pos) model.Expr {
	switch v.kind {
	case vInt:
		return v.e
	case vOpaque:
		if isNanos(v) {
			// Only stores into memory keep them (storedWord).
			s.unsupported(pos, "nanoseconds of a time (t.UnixNano()) passed or joined where fencecheck keeps them as a plain integer (a channel, a result of several paths, a loop's variable): only fields, atomics and map items keep them")
		}
		if w, ok := s.timeWord(v, pos); ok {
			return w
		}
		s.unsupported(pos, "%s", v.why)
	}
	s.unsupported(pos, "%s where an integer is expected", kindName(v.kind))
	return nil
}

func kindName(k valKind) string {
	switch k {
	case vPtr:
		return "a pointer"
	case vFunc:
		return "a function value"
	case vNil:
		return "a nil value"
	case vTuple:
		return "a tuple"
	case vSlice:
		return "a slice"
	case vAgg:
		return "a struct or array value"
	case vRef:
		return "a pointer chosen at run time"
	case vIface:
		return "an interface value"
	case vFuncRef:
		return "a function value chosen at run time"
	case vChan:
		return "a channel"
	case vChanRef:
		return "a channel chosen at run time"
	case vCond:
		return "a sync.Cond"
	case vCondL:
		return "the address of a sync.Cond's L"
	case vCtx:
		return "a context"
	case vCancel:
		return "a context's cancel function"
	case vTimer:
		return "a timer's channel"
	case vTicker, vTickerC:
		return "a time.Ticker"
	case vStop:
		return "the stop function of a context.AfterFunc"
	case vMap:
		return "a map"
	case vMapIter:
		return "a range over a map"
	case vMapRef:
		return "a map chosen at run time"
	case vCtxRef:
		return "a context chosen at run time"
	}
	return "a value"
}

// wrap returns c as a value of the integer type t, as Go's arithmetic does.
func wrap(c int64, t types.Type) int64 {
	b, ok := t.Underlying().(*types.Basic)
	if !ok {
		return c
	}
	switch b.Kind() {
	case types.Bool:
		if c != 0 {
			return 1
		}
		return 0
	case types.Int8:
		return int64(int8(c))
	case types.Int16:
		return int64(int16(c))
	case types.Int32:
		return int64(int32(c))
	case types.Uint8:
		return int64(uint8(c))
	case types.Uint16:
		return int64(uint16(c))
	case types.Uint32:
		return int64(uint32(c))
	}
	return c
}

func isUnsigned(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsUnsigned != 0
}

// foldBin evaluates a binary operator on constants with Go's semantics.
func foldBin(op token.Token, x, y int64, t types.Type) (int64, bool) {
	unsigned := isUnsigned(t)
	switch op {
	case token.ADD:
		return wrap(x+y, t), true
	case token.SUB:
		return wrap(x-y, t), true
	case token.MUL:
		return wrap(x*y, t), true
	case token.QUO:
		if y == 0 {
			return 0, false
		}
		if unsigned {
			return wrap(int64(uint64(x)/uint64(y)), t), true
		}
		return wrap(x/y, t), true
	case token.REM:
		if y == 0 {
			return 0, false
		}
		if unsigned {
			return wrap(int64(uint64(x)%uint64(y)), t), true
		}
		return wrap(x%y, t), true
	case token.AND:
		return wrap(x&y, t), true
	case token.OR:
		return wrap(x|y, t), true
	case token.XOR:
		return wrap(x^y, t), true
	case token.AND_NOT:
		return wrap(x&^y, t), true
	case token.SHL:
		if y < 0 || y >= 64 {
			return 0, true
		}
		return wrap(x<<uint(y), t), true
	case token.SHR:
		if y < 0 || y >= 64 {
			if x < 0 && !unsigned {
				return -1, true
			}
			return 0, true
		}
		if unsigned {
			return wrap(int64(uint64(x)>>uint(y)), t), true
		}
		return wrap(x>>uint(y), t), true
	}
	var r, ok bool
	if unsigned {
		r, ok = compare(op, uint64(x), uint64(y))
	} else {
		r, ok = compare(op, x, y)
	}
	if !ok {
		return 0, false
	}
	if r {
		return 1, true
	}
	return 0, true
}

// compare applies the comparison op to x and y; ok is false when op is not a
// comparison.
func compare[T cmp.Ordered](op token.Token, x, y T) (r, ok bool) {
	switch op {
	case token.EQL:
		return x == y, true
	case token.NEQ:
		return x != y, true
	case token.LSS:
		return x < y, true
	case token.LEQ:
		return x <= y, true
	case token.GTR:
		return x > y, true
	case token.GEQ:
		return x >= y, true
	}
	return false, false
}

var modelOps = map[token.Token]model.BinOp{
	token.ADD: model.OpAdd, token.SUB: model.OpSub, token.MUL: model.OpMul,
	token.QUO: model.OpDiv, token.REM: model.OpMod,
	token.EQL: model.OpEq, token.NEQ: model.OpNe, token.LSS: model.OpLt,
	token.LEQ: model.OpLe, token.GTR: model.OpGt, token.GEQ: model.OpGe,
}

// pure evaluates an instruction that neither touches memory nor changes
// control, in the setup and in processes alike. handled is false for every
// other instruction.
func (s *system) pure(fr *frame, in ssa.Instruction) (handled bool) {
	switch in := in.(type) {
	case *ssa.DebugRef:
		if id, ok := ast.Unparen(in.Expr).(*ast.Ident); ok && !in.IsAddr {
			if v, ok := fr.vals[in.X]; ok {
				nameChan(v, id.Name)
				nameMapVar(v, id.Name)
			}
		}
		return true
	case *ssa.BinOp:
		fr.vals[in] = s.binop(fr, in)
	case *ssa.UnOp:
		if in.Op == token.MUL || in.Op == token.ARROW {
			return false
		}
		x := s.get(fr, in.X)
		if v, ok := s.floatNeg(in, x); ok {
			fr.vals[in] = v
			return true
		}
		e := s.asInt(x, in.Pos())
		t := in.Type()
		if c, ok := x.constant(); ok {
			switch in.Op {
			case token.SUB:
				fr.vals[in] = constVal(wrap(-c, t))
			case token.NOT:
				fr.vals[in] = constVal(1 - c)
			case token.XOR:
				fr.vals[in] = constVal(wrap(^c, t))
			}
			return true
		}
		switch in.Op {
		case token.SUB:
			fr.vals[in] = intVal(wrapTo(model.Bin(model.OpSub, model.C(0), e), t))
		case token.NOT:
			fr.vals[in] = intVal(model.Not(e))
		case token.XOR:
			fr.vals[in] = intVal(complement(e, t))
		default:
			s.unsupported(in.Pos(), "the operator %s on a value known only at run time", in.Op)
		}
	case *ssa.Convert:
		x := s.get(fr, in.X)
		if isPtrCell(in.Type()) || isPtrCell(in.X.Type()) {
			if !isPtrCell(in.Type()) || !isPtrCell(in.X.Type()) {
				s.unsupported(in.Pos(), "a conversion from %s to %s", in.X.Type(), in.Type())
			}
			fr.vals[in] = s.convertPtr(x, in.X.Type(), in.Type(), in.Pos())
			return true
		}
		if x.noise && !isString(in.Type()) {
			fr.vals[in] = x // a random number converted (a jitter to a Duration)
			return true
		}
		if v, ok := anyConvert(x, in.Type()); ok {
			fr.vals[in] = v
			return true
		}
		if v, ok := s.floatConvert(in, x); ok {
			fr.vals[in] = v
			return true
		}
		if v, ok := s.convertUncomputed(x, in.Type()); ok {
			fr.vals[in] = v
			return true
		}
		if x.kind == vOpaque && x.why != "" {
			s.unsupported(in.Pos(), "a conversion from %s to %s of %s", in.X.Type(), in.Type(), x.why)
		}
		if x.kind != vInt {
			s.unsupported(in.Pos(), "a conversion from %s to %s", in.X.Type(), in.Type())
		}
		if !isIntegral(in.Type()) {
			s.unsupported(in.Pos(), "a conversion to %s", in.Type())
		}
		if c, ok := x.constant(); ok {
			fr.vals[in] = constVal(wrap(c, in.Type()))
		} else {
			fr.vals[in] = intVal(convertTo(x.e, in.X.Type(), in.Type()))
		}
	case *ssa.ChangeType:
		fr.vals[in] = s.get(fr, in.X)
	case *ssa.MakeClosure:
		v := value{kind: vFunc, fn: in.Fn.(*ssa.Function)}
		for _, b := range in.Bindings {
			v.env = append(v.env, s.get(fr, b))
		}
		fr.vals[in] = v
	case *ssa.Extract:
		t := s.get(fr, in.Tuple)
		if t.kind != vTuple || in.Index >= len(t.tup) {
			s.unsupported(in.Pos(), "a multiple-value result")
		}
		fr.vals[in] = t.tup[in.Index]
	case *ssa.MakeInterface:
		fr.vals[in] = s.makeInterface(fr, in)
	case *ssa.ChangeInterface:
		fr.vals[in] = s.get(fr, in.X)
	case *ssa.TypeAssert:
		fr.vals[in] = s.typeAssert(fr, in)
	case *ssa.FieldAddr:
		if c := s.get(fr, in.X); c.kind == vTicker {
			fr.vals[in] = value{kind: vTickerC, tick: c.tick}
			return true
		}
		if c := s.get(fr, in.X); s.timerRef(c) {
			fr.vals[in] = timerFieldAddr(c)
			return true
		}
		if c := s.get(fr, in.X); c.kind == vCond {
			if in.Field != condLField(in.X.Type()) {
				s.unsupported(in.Pos(), "a field of a sync.Cond other than L")
			}
			fr.vals[in] = value{kind: vCondL, cond: c.cond}
			return true
		}
		p := s.deref(s.get(fr, in.X), in.Pos())
		if p.kind == vNil {
			return false // &p.f of a nil p: the caller panics
		}
		if p.kind != vPtr {
			s.unsupported(in.Pos(), "a field of %s", describe(p))
		}
		fr.vals[in] = value{kind: vPtr, ptr: p.ptr.with(step{field: in.Field})}
	case *ssa.IndexAddr:
		if _, isSlice := in.X.Type().Underlying().(*types.Slice); isSlice {
			v, ok := s.sliceIndex(fr, in)
			if !ok {
				return false // a constant index out of range: the caller panics
			}
			fr.vals[in] = v
			return true
		}
		p := s.deref(s.get(fr, in.X), in.Pos())
		arr, ok := deref(in.X.Type()).Underlying().(*types.Array)
		if p.kind == vNil {
			return false // &p[i] of a nil p: the caller panics
		}
		if p.kind != vPtr {
			s.unsupported(in.Pos(), "indexing %s", describe(p))
		}
		if !ok {
			s.unsupported(in.Pos(), "indexing a value of type %s", in.X.Type())
		}
		idx := s.get(fr, in.Index)
		e := s.asInt(idx, in.Pos())
		if c, ok := idx.constant(); ok {
			if c < 0 || c >= arr.Len() {
				s.goPanic(in.Pos(), "index %d out of range [0:%d]", c, arr.Len())
			}
			fr.vals[in] = value{kind: vPtr, ptr: p.ptr.with(step{field: -1, index: int(c)})}
		} else {
			fr.vals[in] = value{kind: vPtr, ptr: p.ptr.with(step{field: -1, dyn: e, n: int(arr.Len())})}
		}
	case *ssa.Slice:
		v, ok := s.slice(fr, in)
		if !ok {
			return false // constant bounds out of range: the caller panics
		}
		fr.vals[in] = v
	case *ssa.Field:
		fr.vals[in] = s.field(fr, in)
	case *ssa.Index:
		fr.vals[in] = s.index(fr, in)
	default:
		return false
	}
	return true
}

func describe(v value) string {
	if v.kind == vOpaque {
		return v.why
	}
	return kindName(v.kind)
}

func (s *system) binop(fr *frame, in *ssa.BinOp) value {
	if v, ok := anyArith(s.get(fr, in.X), s.get(fr, in.Y), in); ok {
		return v
	}
	if v, ok := s.anyBinop(fr, in); ok {
		return v
	}
	if v, cmp, ok := s.nanosBinop(fr, in); ok {
		if cmp != nil {
			return s.constCompare(*cmp, in.Pos())
		}
		return v
	}
	if c, ok := s.clockBinop(fr, in); ok {
		return s.constCompare(c, in.Pos()) // the set-up's durations are known
	}
	x, y := s.get(fr, in.X), s.get(fr, in.Y)
	if isString(in.X.Type()) && in.Op == token.ADD {
		if v, ok := s.concatStrings(x, y); ok {
			return v
		}
	}
	if isString(in.X.Type()) && (isAnyString(x) || isAnyString(y)) {
		s.unsupported(in.Pos(), "comparing a string that fencecheck does not compute in the set-up (it runs concretely)")
	}
	if isString(in.X.Type()) {
		if v, ok := s.constStringOrder(x, y, in.Op); ok {
			return v
		}
	}
	s.checkStringOp(in)
	if v, ok := s.opaqueCompare(x, y, in); ok {
		return v
	}
	if v, ok := s.chanCompare(x, y, in); ok {
		return v
	}
	if v, ok := s.ctxCompare(x, y, in); ok {
		return v
	}
	if v, ok := s.mapCompare(x, y, in); ok {
		return v
	}
	if v, ok := sliceNilCompare(x, y, in); ok {
		return v
	}
	if (types.IsInterface(in.X.Type()) || types.IsInterface(in.Y.Type())) && (in.Op == token.EQL || in.Op == token.NEQ) {
		if x.kind != vNil && y.kind != vNil && (s.mayHoldAnyString(x) || s.mayHoldAnyString(y)) {
			s.unsupported(in.Pos(), "comparing interface values that may hold a string fencecheck does not compute")
		}
		eq := s.ifaceEqual(x, y, in.Pos())
		if in.Op == token.EQL {
			return eq
		}
		if c, ok := eq.constant(); ok {
			return constVal(1 - c)
		}
		return intVal(model.Not(eq.e))
	}
	if in.Op == token.EQL || in.Op == token.NEQ {
		s.refuseZeroSizeCompare(x, y, in.Pos())
	}
	if x.kind == vRef || y.kind == vRef {
		if !isRefLike(x) || !isRefLike(y) {
			s.unsupported(in.Pos(), "comparing a pointer into an object with a pointer chosen at run time")
		}
		if isUnsafePointer(in.X.Type()) || isUnsafePointer(in.Y.Type()) {
			s.unsafeCompares = append(s.unsafeCompares, in.Pos())
		}
		switch in.Op {
		case token.EQL:
			return intVal(model.Bin(model.OpEq, s.refExpr(x, in.Pos()), s.refExpr(y, in.Pos())))
		case token.NEQ:
			return intVal(model.Bin(model.OpNe, s.refExpr(x, in.Pos()), s.refExpr(y, in.Pos())))
		}
		s.unsupported(in.Pos(), "pointer arithmetic")
	}
	if x.kind == vFuncRef || y.kind == vFuncRef {
		// Go compares function values only with nil, which is index 0.
		f := x
		if y.kind == vFuncRef {
			f = y
		}
		op := model.OpEq
		if in.Op == token.NEQ {
			op = model.OpNe
		}
		return intVal(model.Bin(op, f.e, model.C(0)))
	}
	if x.kind == vPtr || y.kind == vPtr || x.kind == vNil || y.kind == vNil {
		if in.Op != token.EQL && in.Op != token.NEQ {
			s.unsupported(in.Pos(), "pointer arithmetic")
		}
		if x.kind == vPtr && x.ptr.dynamic() || y.kind == vPtr && y.ptr.dynamic() {
			s.unsupported(in.Pos(), "comparing pointers chosen at run time")
		}
		eq := same(x, y) || isUnsafePointer(in.X.Type()) && x.kind == vPtr && y.kind == vPtr && x.ptr.sameAddress(y.ptr)
		if (in.Op == token.EQL) == eq {
			return constVal(1)
		}
		return constVal(0)
	}
	if v, ok := s.floatBinop(in, x, y); ok {
		return v
	}
	ex, ey := s.asInt(x, in.Pos()), s.asInt(y, in.Pos())
	cx, okx := x.constant()
	cy, oky := y.constant()
	if okx && oky {
		if (in.Op == token.SHL || in.Op == token.SHR) && cy < 0 && !isUnsigned(in.Y.Type()) {
			// Processes branch to a panic before (proc.guardBinOp).
			s.goPanic(in.Pos(), "negative shift amount")
		}
		if c, ok := foldBin(in.Op, cx, cy, in.X.Type()); ok {
			return constVal(c)
		}
		s.goPanic(in.Pos(), "integer division by zero")
	}
	if e, ok := runBinOp(in.Op, ex, ey, in.X.Type(), in.Y.Type()); ok {
		return intVal(e)
	}
	s.unsupported(in.Pos(), "the operator %s on values of type %s known only at run time", in.Op, in.X.Type())
	return value{}
}

// spawnName names a function after itself and its constant arguments:
// worker(0); a closure is named after its index in its parent (func1).
func spawnName(fn *ssa.Function, args []value) string {
	name := fn.Name()
	if i := strings.LastIndex(name, "$"); i >= 0 {
		name = "func" + name[i+1:]
	}
	if recv := fn.Signature.Recv(); recv != nil && len(args) > 0 {
		args = args[1:]
	}
	var consts []string
	for _, a := range args {
		if c, ok := a.constant(); ok {
			consts = append(consts, fmt.Sprint(c))
		}
	}
	if len(consts) > 0 {
		name += "(" + strings.Join(consts, ", ") + ")"
	}
	return name
}

func isSyncMethod(fn *ssa.Function, typ, name string) bool {
	if fn == nil || fn.Signature.Recv() == nil || fn.Name() != name {
		return false
	}
	return isNamed(deref(fn.Signature.Recv().Type()), "sync", typ)
}
