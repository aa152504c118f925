// Package extract finds the //fencecheck:system functions of a Go package and
// lowers each one, through go/ssa, into a [model.Program]. It knows Go and the
// model; it knows no engine.
//
// # Stages
//
// A package goes through four stages, each a unit of its own (a package or
// a family of files); TestStages fails when a file of the package is in no
// unit or in two.
//
//   - directives: the //fencecheck: comments, checked, and the system
//     functions they mark: package extract/directive.
//   - program: the package and every package whose code the systems may
//     run, listed by the go command, found by calls and type-checked from
//     source, and their initialisation: wholeprog.go, golist.go, reach.go,
//     pkginit.go, initcells.go, cgo.go, archtwin.go.
//   - set-up: each system function run concretely up to its last go
//     statement, allocating the shared state and spawning the goroutines
//     (a call into another package that it cannot compute contained as
//     the initialisation's are): system.go, setup.go, fanout.go,
//     captures.go, spilled.go, setupskip.go.
//   - lowering, one unit per family of Go constructs:
//   - control flow and instructions, and what a run may reach but the
//     model refuses: lower.go, values.go, liveness.go, refuse.go.
//   - numbers: integers and booleans (Go's wrap-around, conversions, bit
//     operations), ints.go; floats as IEEE bit patterns, floats.go;
//     math/bits, bitscall.go; time.Duration's methods, durations.go.
//   - structs, arrays and copy: aggregates.go, copy.go.
//   - slices: slices.go, headers.go. strings: strings.go, conststrings.go,
//     constformat.go, formatsplit.go, regexps.go.
//   - answers the model does not compute, taken both ways and marked so
//     that a finding that needs one is confirmed: guess.go.
//   - pointers and heap objects, and pointers into objects held in
//     memory: pointers.go, interior.go, zerosize.go; fields goroutines
//     only read, readonly.go.
//   - interfaces and errors: interfaces.go, ifacecells.go, errsent.go,
//     errorf.go, errwrap.go, errjoin.go, errorsas.go, anyint.go,
//     anyfloat.go, anyslice.go, anymap.go, valueboxes.go.
//   - calls and function values: calls.go, funcvals.go, methodvals.go.
//   - defer, panic and recover: defer.go, recover.go.
//   - channels, select and blocking: chans.go, chanvals.go, chanflow.go, blocking.go.
//   - maps: maps.go, floatkeys.go, syncmap.go.
//   - sync and the library the model knows by behaviour (Cond, Pool,
//     context, time, runtime, math/rand, sync.OnceFunc and OnceValue,
//     WaitGroup.Go): cond.go, heldlocks.go, pool.go, context.go,
//     ctxcells.go, ctxvalue.go, timerpool.go, afterfunc.go, clock.go, nanos.go,
//     runtime.go, random.go, randomcells.go, oncefunc.go, wggo.go; go
//     statements on its methods, goshim.go.
//   - domains and the result: the values each variable and register takes,
//     the declared ranges, and the System with its entities: domain.go,
//     unroll.go, ranges.go, exitwrite.go, entities.go, finish.go,
//     extract.go.
//
// # Systems
//
// The body of a system function is first executed concretely, alone, as its
// setup: it allocates and initialises the shared state, and every go
// statement it executes (unrolling any loop around it, whatever its bound,
// as long as the setup finishes within a step budget) spawns one process,
// specialised by the constant arguments of the call. The setup ends at the
// first point from which no go statement can be reached any more; from there
// the system function is itself a process, called main. Code between two go
// statements belongs to the setup: all processes start together, after it.
// A store there to memory that an already spawned process may reach is
// reported as unsupported, since that process could read the old value.
//
// A process running a named function is named after it and its constant
// arguments (worker(0)); one running a closure after the line of its go
// statement and its constant arguments (go@33, go@33(1)), and closures that
// one go statement spawns in a loop also after the values of the loop
// variables or captured variables that tell them apart (go@33(i=0),
// go@33(i=1)). The system
// function's own process is main. A name still repeated gets a suffix
// (go@33#2). Locations are named L0, L1, ... in
// the order the code reaches them; every transition carries the Go position
// of what it was lowered from (the start of the assignment for a plain
// store, the load expression for a load, the call for an atomic operation).
//
// # Shared state
//
// Every integer, boolean or float cell (a float as its IEEE 754 bits;
// floats.go) that a process accesses becomes a model
// variable named as Go spells it (x, l.flag[0], m.ready): package-level
// variables and every object the setup created and a process reaches
// (captured by a closure or passed by pointer). Objects a process allocates
// itself are private to it and live in registers, unless their address is
// stored, compared or merged. An index computed at run time into an array is
// a case split over the elements (and an out-of-range index is a bad state
// named "index out of range").
//
// # Pointers, interfaces, slices, structs and strings
//
// A pointer that a process stores (a *T field or variable, an
// atomic.Pointer[T], an unsafe.Pointer under atomic.StorePointer and
// friends) is the heap id of an object (0 is nil); every object whose
// address is stored gets one, and its fields become shared variables
// (n.next, n#2.val). Dereferencing a pointer known only at run time is a
// case split over the objects of its type, and nil is a bad state named
// "nil pointer dereference". An allocation that runs in a loop takes the
// next object of a small pool; past the pool the count leaves its domain and
// the answer is inconclusive. Interface values of a dynamic type known in
// the system call its methods (inlined). An interface value that is stored,
// merged or compared is a heap id too: a pointer's object, or a box that
// stands for one constant of a non-pointer dynamic type (any(1)), so that
// equal ids are equal values; a type switch, a type assertion or a method
// call on one known only at run time is a case split over its candidates
// (ifacecells.go). atomic.Value is an atomic cell of such ids. errors.New
// and constant fmt.Errorf errors are distinct objects compared by identity,
// and errors.Is an identity test (errsent.go); errors.Join of a slice is a
// join of its elements, by its length (errjoin.go). A payload computed at run
// time is the box of whichever value it holds, the boxes being those the
// domain inference finds (anyint.go); a struct, array, function or channel
// is a value box, an object holding a copy of it (valueboxes.go). A
// pointer to a field or an element stored in memory is the id of an alias
// of that location (interior.go), and a make of run-time length in a
// goroutine a refusal where a run reaches it (refuse.go). A join of
// function values is an index over its alternatives, and a call of it a
// case split (funcvals.go). See pointers.go and interfaces.go.
//
// A slice is a window onto a backing array that the setup fixes: make with
// a constant length, a slice literal, or a reslice with constant bounds
// (slices.go). Its elements are the array's cells (r.buf[0], named after
// the variable or field that first holds the slice); an index is checked
// against the window's length, and only the setup may store a slice;
// append to a slice with room stores into its backing array. Append to a
// nil slice or beyond the capacity moves the elements to a new array: in
// the setup one of the shared state, in a goroutine one of its own of
// growBound cells whose length may be a register (appending past it is
// inconclusive, or reported when the length is known). Whether append
// copies is the runtime's choice, so a slice used after an append to it,
// the capacity of a grown slice, and slicing or storing one, are reported. A
// struct or array value is copied cell by cell: a store of a whole struct
// is one plain store per field in order, a load one plain load per field,
// so torn reads are modelled (aggregates.go). Conversions between a named
// type and its underlying type keep the value (and a pointer conversion the
// cell). A string is an opaque value: each constant is interned as a small
// integer, so strings are stored, loaded and compared with == and !=; len,
// slicing, indexing and concatenation of constants, the functions of
// package strings applied to constants, a strings.Builder that the set-up
// writes with constants and the sort of a slice of known strings or
// integers are computed (conststrings.go), and so are the matches of
// constants by a regexp compiled from a constant (regexps.go). A
// string that a call the model does not run returns is strAny, a value
// that stands for every string: it is stored, loaded, passed on and
// concatenated, and == or != with it is either answer, which only adds
// behaviours; len of it, slicing or indexing it and a map key that may be
// it are refused where a run reaches them (strings.go).
//
// A map is a slot per key the system can use, at most 16: a presence flag
// and the element's cells (m["a"], present(m["a"])), with a variable of
// the map's own that every access reads and every assignment, delete and
// clear writes, so that a write races with any other access to the map.
// A key known only at run time is a case split over the slots; the keys
// are those the set-up inserts, the constant keys of the goroutines and
// the values the domain inference finds for a computed key (another
// round); inserting any other key is inconclusive. A range visits the
// keys in every order, an assignment to a nil map panics, and a cell that
// goroutines store maps into holds the identity of a map (maps.go).
//
// # Calls
//
// Calls of functions and methods of the package are inlined (recursion is
// reported), generic ones as instantiated. Calls of sync/atomic (functions
// and the typed atomics), of sync.Mutex, sync.WaitGroup and runtime.Gosched
// are lowered by the table of docs/design.md §3, and atomic And/Or as locked
// read-and-write operations that return the old value (Go 1.23).
//
// A sync.RWMutex is one variable: -1 while write-locked, r >= 0 for r
// readers, and -(r+1) while a writer waits for r readers to leave. Lock
// waits for a value not below 0 and sets -(r+1) (-1 at once without
// readers), then waits for -1; RLock waits for a value not below 0 and
// adds one, so that a reader waits for a writer that waits, as Go's does
// (a second RLock of one goroutine while a writer waits deadlocks);
// RUnlock moves r or -(r+1) one reader down and Unlock sets 0, each a
// locked read-modify-write (LOCK CMPXCHG, LOCK XADD). Unlocking an RWMutex that is not locked is a bad state (Go's fatal
// error, "sync: RUnlock of unlocked RWMutex"). A sync.Once is a variable
// that is 0, 1 while the function of the first Do runs, 2 after it: the
// first Do moves it from 0 to 1 (locked), runs the function inlined and
// stores 2 (locked), also when the function panics and a deferred call
// up the stack recovers (Go's Do marks the Once done on its way out); every
// other Do waits until an atomic load sees 2.
// atomic.Value's Load, Store, Swap and CompareAndSwap are atomic accesses
// to its cell, with Go's panics (a nil store, a store of another dynamic
// type than the first) as bad states.
//
// A defer statement runs its call, with the function and arguments it
// evaluated, when its function returns (an inlined function's return, not
// the goroutine's end), the last deferred first. A panic runs them when one
// of them may recover it, as Go does (recover.go); otherwise it is a bad
// state where it happens. In a process, a defer in a loop of its function
// is reported.
//
// Calls into errors, fmt, log, math, math/bits, strconv, strings, time,
// unicode, unicode/utf8 and unicode/utf16 cannot touch the system's memory
// when no argument holds a pointer (fmt.Println(x) may; fmt.Println(&x) is
// refused where a run reaches it, so that a message on a path no run takes
// does not refuse the system; a nil, an uncomputed result or an errors.New
// error may be passed): they are nops, time.Sleep included. So are
// runtime/debug.Stack and the methods of a strings.Builder that is a variable of the goroutine's
// own (or of the setup). Their results are not computed: a bool or error
// result is a nondeterministic choice (true or false, nil or not), a
// string is strAny (above), a comparison of any other result is either
// answer, other arithmetic on one is refused where a run reaches it, and
// storing one is refused.
// os.Exit(0) ends the process that calls it (the others go on,
// which only adds behaviours); os.Exit with another code, log.Fatal* and
// log.Panic* are bad states named after the call, like a panic: a
// fencecheck user wants a reachable log.Fatal reported.
//
// A function that the system function calls may spawn the goroutines and
// go on (start them, then wait): the setup then ends inside it, and main
// runs the rest of that function and then of its callers. A go statement
// of a process spawns a process of its own that waits, first, for a
// variable (named StartFlagPrefix and its name) that the parent sets with a locked store when it
// executes the statement; its arguments and captured variables must be
// constants, pointers into the shared state or functions, and a go
// statement that a process may execute more than once is reported.
//
// Channels, select, sync.Cond, contexts and timers are modelled by
// chans.go, cond.go and context.go; the goroutines that can block forever
// become bad states by blocking.go.
//
// Every other construct the model cannot express is reported: channels a
// goroutine makes, interface values holding run-time integers or structs,
// append beyond the capacity of a slice of the shared state in a goroutine,
// copy, slices of run-time length,
// concatenation of strings known only at run time, calls into other
// packages. Each such diagnostic
// reads "unsupported in a fencecheck system: ..." and names the first one
// met in the system.
//
// # Bad states
//
// Each reachable panic is a bad state named after the call
// (panic("both loads saw 0")); every pair of processes standing at
// //fencecheck:critical points at once is a bad state named
// "mutual exclusion".
//
// # Domains and overflow
//
// Domains are inferred by an abstract interpretation of the lowered model:
// every value a variable may receive (flow-insensitively) and every value a
// register may hold at each location (refined by guards, so that the counter
// of a loop with a constant bound is bounded). A //fencecheck:range LO..HI
// fixes the domain of the variables of that declaration: of the shared
// variables it becomes, and of the registers a goroutine-local variable
// becomes (in memory private to a goroutine, or in SSA values: each value
// assigned to it then goes into a register of the range, where a value
// outside it faults). A variable whose
// values inference cannot bound (a counter incremented in a loop) gets
// [model.Unbounded]; booleans are [0, 1], mutexes [0, 1] and wait-group
// counters never negative. Domains never exceed the range of the Go type.
//
// Integers are Go's. A value of a type narrower than 64 bits is held as
// itself; a uint64, uint or uintptr as its two's complement bit pattern, an
// int64 (2^64-1 is -1). Arithmetic on a narrower type is wrapped to it
// where Go wraps it, by a [model.Wrap] around the sum, difference, product,
// quotient or negation (int8(x + y)); at 64 bits the model's int64
// arithmetic wraps by itself. A conversion to a narrower type, or to one of
// the same width and the other signedness, is a wrap (it truncates); every
// other conversion keeps the value (a bit pattern reads as int64 or uint64
// alike). Comparisons, division, remainder and right shifts of uint64
// values are lowered to signed operations that compute the unsigned result
// exactly; shifts by a constant count are multiplications, wraps and
// divisions; x & (2^k-1) keeps the k low bits (a wrap); the other bitwise
// operators are the model's (of int64 values held sign- or zero-extended,
// which keeps their results in the type), and a shift by a count known only
// at run time is the model's shift (arithmetic for signed and narrower
// unsigned values, logical for uint64 bit patterns, wrapped to the type
// when it shifts left; a uint64 count of 2^63 or more becomes 64). Division and
// remainder branch to a panic ("integer divide by zero") when the divisor
// is zero, and a shift by a negative count panics ("negative shift
// amount"), as in Go. Every expression of a process therefore evaluates, in
// [model.Eval], to exactly the value Go computes: explicit and sb are exact;
// the predicate engine is exact for the wraps and treats 64-bit values as
// mathematical integers, giving no proof for a program whose runs could
// wrap one within 2^60 operations (its own documentation says how).
// Constant arithmetic (of the setup and of specialised constants) follows
// Go's semantics directly. The domain of a bitwise result is bounded by
// its non-negative operands (x & m lies in [0, m]) and otherwise by its
// type.
//
// So a value never leaves the range of its Go type, and a value outside a
// domain means one of three things, which [Entity] tells apart: outside a
// //fencecheck:range, the program breaks the user's claim (a finding); a
// wait-group counter below zero, Go panics; outside a domain the inference
// chose, a gap in fencecheck's own abstraction (the analysis widens the
// domain to [Entity].Limit and goes on, or is inconclusive; never a
// verdict). A variable whose value nothing ever reads (the dummy of an
// atomic.AddInt32 used as a barrier) keeps its initial value, so that the
// model stays finite.
//
// Package-level variables start at the values the package's initialisation
// gives them: before the setup of every system, the initialisers of the
// package-level variables (in dependency order) and the init functions are
// executed like the setup. Calls into other packages there (flag.Bool)
// are skipped, except errors.New; a variable whose value depends on one, or on code
// the extractor cannot execute, is reported as unsupported, at the
// variable, by the systems that use it.
//
// # Dead registers
//
// After lowering, a liveness analysis of each process finds the registers
// whose values no path reads any more (in a guard, an assignment, a write or
// the condition of a bad state at its location) and resets them to a
// canonical value (their initial value) where the model allows it without
// new locations or transitions: a nop becomes the reset of one register, a
// locked block resets any number at its end, and a read whose value is dead
// (and fits the register's domain) stores it no more. States that differ
// only in dead values are then one state. The reduction is exact: no
// verdict changes, and traces are traces of the program returned.
package extract

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/fencecheck/fencecheck/extract/directive"
	"github.com/fencecheck/fencecheck/model"
)

// A System is one //fencecheck:system function, lowered.
type System struct {
	// Name is the function's name (Recv.Method for a method).
	Name string
	// Decl is the function's declaration.
	Decl *ast.FuncDecl
	// Program is the model: its positions are the Go source positions (file
	// name as in the FileSet, line, column) of the statements lowered.
	Program *model.Program
	// Origins[p][t] says where transition t of process p came from.
	Origins [][]Origin
	// Spawns[p] is the position of the go statement that spawned process p,
	// or the system function's position for the process that runs its body
	// after the spawns.
	Spawns []token.Pos
	// NoFence lists the locations after which no barrier may go: those of
	// statements marked //fencecheck:nofence.
	NoFence []model.ProcLoc
	// Vars[x] describes shared variable x of Program, and Regs[p][r]
	// register r of process p: their names in the source and where their
	// domains come from.
	Vars []Entity
	Regs [][]Entity
	// Blocking is set when the program has too many places where its
	// goroutines can wait for each combination to be a bad state: then no
	// bad state of DeadlockName or LeakName describes them, and a search
	// of the program's states looks for them.
	Blocking *BlockingSearch
	// Unstarted lists the initial locations of the processes that a
	// goroutine spawns: there a process waits for its go statement, which
	// is not a wait of the program's.
	Unstarted []model.ProcLoc
	// Stops lists the locations where a process stops for good without
	// ending normally: a panic (a bad state of its own), os.Exit (which
	// ends the program), a construct refused at run time.
	Stops []model.ProcLoc
	// Main is the process of the system function's own body (named
	// "main", unless a goroutine runs a function of that name).
	Main int
	// Clock is the process that advances the clock time.Now reads, a
	// bounded number of ticks (so a loop that waits for time to pass may
	// loop for ever in the model), or -1 when the system reads none.
	Clock int
	// Foreign maps the names of the files of other packages whose code
	// the system may run (read from source: calls into other packages of
	// the build) to those packages' import paths.
	Foreign map[string]string
	// Variant names the values the run time picked in this run of the
	// system ("runtime.GOMAXPROCS(0) = 2"), when they decide what the
	// set-up does: the function is then one System per combination, and
	// Name is the function's name followed by " with " and Variant.
	// Empty for a system with one run.
	Variant string
}

// Origin ties a model transition to the Go source it was lowered from.
type Origin struct {
	// Node is the statement or expression lowered (for a plain store, the
	// *ast.AssignStmt or *ast.IncDecStmt); nil for transitions with no source
	// (such as the end of a process).
	Node ast.Node
	// Target is, for a transition that reads or writes shared memory, the
	// whole Go expression that names the location: the left-hand side of a
	// store (f.up, not its field name up), the operand of & in a sync/atomic
	// call or the receiver of a typed atomic's method, the load expression of
	// a load. Type is that location's type; both are nil otherwise.
	Target ast.Expr
	Type   types.Type
	// Instr is, for a plain load or store of shared memory, the SSA
	// instruction lowered (to recognise what gc does to the access); nil
	// otherwise.
	Instr ssa.Instruction
	// At is, for a step of the model's own Go source (sync.Map's and
	// OnceValue's), the user's call that runs it: where the step is shown.
	// It does not name the access (the race question keys accesses by
	// their own positions).
	At token.Pos
	// Guess, when set, is the answer the transition takes to a question
	// the model does not compute (guess.go).
	Guess *Guess
}

// Diagnostic is a problem the front end found: with the directives, or
// with a system it cannot lower.
type Diagnostic = directive.Diagnostic

// HasDirectives reports whether any comment of files is a //fencecheck:
// directive or almost one (// fencecheck:system, /* fencecheck:system */,
// //Fencecheck:system), which Package reports. It builds nothing: a package
// without directives costs one pass over its comments.
func HasDirectives(files []*ast.File) bool {
	return directive.Has(files)
}

// MayHoldDirectives reports whether src, the text of a Go file, may hold a
// directive or a comment that is almost one (see [HasDirectives]): whether
// "fencecheck:" occurs in it, in any case. It lets a driver skip the files
// without directives before parsing them.
func MayHoldDirectives(src []byte) bool {
	const word = "fencecheck"
	for i := 0; i < len(src); i++ {
		j := bytes.IndexByte(src[i:], ':')
		if j < 0 {
			return false
		}
		i += j
		if i >= len(word) && src[i-1]|0x20 == 'k' && bytes.EqualFold(src[i-len(word):i], []byte(word)) {
			return true
		}
	}
	return false
}

// Package finds the //fencecheck:system functions of a type-checked package
// and lowers each one. Diagnostics report malformed or misplaced directives,
// comments that are almost directives, directives that matched nothing
// (reported only when every system was lowered) and, for each system that
// cannot be modelled, the first unsupported construct met, at its position. A system with a diagnostic is not
// returned: the systems returned lowered cleanly, and their programs pass
// [model.Program.Validate].
//
// info must hold the maps go/ssa needs (Types, Defs, Uses, Implicits,
// Instances, Scopes, Selections, FileVersions), as an analysis pass's
// TypesInfo does. A package without directives costs one pass over its
// comments: no SSA is built.
func Package(fset *token.FileSet, pkg *types.Package, files []*ast.File, info *types.Info) (systems []*System, diags []Diagnostic) {
	return PackageWith(fset, pkg, files, info, Options{})
}

// PackageWith is [Package] with options: a system whose set-up reads values
// the run time picks (runtime.GOMAXPROCS(0)) is one System per combination
// of them (see System.Variant).
func PackageWith(fset *token.FileSet, pkg *types.Package, files []*ast.File, info *types.Info, opts Options) (systems []*System, diags []Diagnostic) {
	if !HasDirectives(files) {
		return nil, nil
	}
	defer func() {
		if r := recover(); r != nil {
			pos := token.NoPos
			if len(files) > 0 {
				pos = files[0].Package
			}
			systems = nil
			diags = append(diags, Diagnostic{Pos: pos, Message: fmt.Sprintf("internal error in fencecheck's extraction: %v", r)})
		}
	}()
	// Calls into other packages of the build: everything type-checked
	// again from source (wholeprog.go).
	wp, noSource, wpErr := loadWholeProgram(fset, pkg, files, info)
	var deps []*sourcePackage
	if wp != nil {
		pkg, info, deps = wp.pkg, wp.info, wp.deps
	}
	if wpErr != nil {
		noSource = map[string]string{"": wpErr.Error()}
	}
	dirs := directive.Collect(fset, files, info, directive.Cells{Integral: isIntegral, Bool: isBool, Range: typeRange})
	diags = append(diags, dirs.Diags...)
	if len(dirs.Systems) == 0 {
		return nil, append(diags, dirs.Unmatched()...)
	}
	x := &extractor{
		fset: fset, pkg: pkg, files: files, info: info, dirs: dirs, opts: opts,
		deps: deps, noSource: noSource, foreign: foreignFiles(fset, deps),
		defs:    map[token.Pos]*types.Var{},
		debug:   map[*ssa.Function]*debugInfo{},
		hasGo:   map[*ssa.Function]int{},
		globals: map[*types.Var]int64{},
	}
	if err := x.build(); err != nil {
		return nil, append(diags, Diagnostic{Pos: dirs.Systems[0].Pos(), Message: err.Error()})
	}
	lowered := 0
	for _, decl := range dirs.Systems {
		name := decl.Name.Name
		if decl.Recv != nil && len(decl.Recv.List) == 1 {
			name = types.ExprString(decl.Recv.List[0].Type) + "." + name
			name = strings.TrimPrefix(name, "*")
		}
		obj, _ := info.Defs[decl.Name].(*types.Func)
		fn := x.ssapkg.Prog.FuncValue(obj)
		if obj == nil || fn == nil {
			diags = append(diags, Diagnostic{Pos: decl.Pos(), Message: fmt.Sprintf("internal error: no SSA function for system %s", name)})
			continue
		}
		ss, syss, d := x.lowerVariants(name, decl, fn)
		if d != nil {
			if !slices.Contains(diags, *d) {
				// Once for what stops every system (the package's
				// initialisation panics).
				diags = append(diags, *d)
			}
			continue
		}
		for i, sys := range syss {
			noteSystem(dirs, ss[i], sys)
		}
		systems = append(systems, syss...)
		lowered++
	}
	if lowered == len(dirs.Systems) {
		// A system that was not lowered may have matched any directive.
		diags = append(diags, dirs.Unmatched()...)
	}
	return systems, diags
}

// noteSystem records in dirs what lowered system sys (lowered by s)
// matched: the declared variables of its shared variables, and the nofence
// statements of its plain stores of shared memory.
func noteSystem(dirs *directive.Set, s *system, sys *System) {
	for _, v := range s.varDecl {
		if _, ok := dirs.Ranges[v]; ok && v != nil {
			dirs.UseRange(v)
		}
	}
	for pi, q := range sys.Program.Procs {
		for ti, t := range q.Trans {
			if t.Op.Kind == model.Write && pi < len(sys.Origins) && ti < len(sys.Origins[pi]) && sys.Origins[pi][ti].Instr != nil {
				dirs.StoreAt(sys.Origins[pi][ti].Instr.Pos())
			}
		}
	}
}

// build builds the package's SSA form, recovering from a panic of the
// builder (on ill-typed input).
func (x *extractor) build() (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("internal error: cannot build SSA for package %s: %v", x.pkg.Path(), r)
		}
	}()
	prog := ssa.NewProgram(x.fset, ssa.GlobalDebug|ssa.InstantiateGenerics)
	created := map[*types.Package]bool{}
	var createAll func([]*types.Package)
	createAll = func(pkgs []*types.Package) {
		for _, p := range pkgs {
			if !created[p] {
				created[p] = true
				prog.CreatePackage(p, nil, nil, true)
				createAll(p.Imports())
			}
		}
	}
	// The packages read from source first, with their syntax.
	x.srcPkgs = map[*ssa.Package]bool{}
	for _, d := range x.deps {
		created[d.pkg] = true
		x.srcPkgs[prog.CreatePackage(d.pkg, d.files, d.info, false)] = true
	}
	for _, d := range x.deps {
		createAll(d.pkg.Imports())
	}
	createAll(x.pkg.Imports())
	x.ssapkg = prog.CreatePackage(x.pkg, x.files, x.info, false)
	x.srcPkgs[x.ssapkg] = true
	for p := range x.srcPkgs {
		p.Build()
	}

	infos := []*types.Info{x.info}
	for _, d := range x.deps {
		infos = append(infos, d.info)
	}
	for _, info := range infos {
		for id, obj := range info.Defs {
			if v, ok := obj.(*types.Var); ok {
				x.defs[id.Pos()] = v
			}
		}
	}
	for _, f := range x.files {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				if len(vs.Values) != len(vs.Names) {
					continue
				}
				for i, id := range vs.Names {
					v, _ := x.info.Defs[id].(*types.Var)
					tv, ok := x.info.Types[vs.Values[i]]
					if v == nil || !ok || tv.Value == nil {
						continue
					}
					switch tv.Value.Kind() {
					case constant.Int:
						if n, ok := constant.Int64Val(tv.Value); ok {
							x.globals[v] = n
						}
					case constant.Bool:
						if constant.BoolVal(tv.Value) {
							x.globals[v] = 1
						} else {
							x.globals[v] = 0
						}
					}
				}
			}
		}
	}
	return nil
}

// lowerSystem lowers one system function, again as long as a round finds
// objects or pointer cells the previous one did not know of (pointers.go).
func (x *extractor) lowerSystem(name string, decl *ast.FuncDecl, fn *ssa.Function) (*system, *System, *Diagnostic) {
	var hint *heapHint
	// base is the round that ended the set-up earlier (splitSetup): the
	// rounds before it lowered another set-up, and do not count.
	base := 0
	allocIDs := map[string]int{}
	// stopped is the construct the last round that stopped at one
	// refused: when the rounds do not settle because they reach it only
	// every other time, it is the reason to give.
	var stopped *Diagnostic
	var inferWork int64 // the domain inference's, over the rounds
	for round := 1; ; round++ {
		s := &system{x: x, name: name, decl: decl, objName: map[string]int{}, globals: map[*ssa.Global]*object{}, allocIDs: allocIDs,
			mem: map[string]value{}, vars: map[string]int{}, inferWork: &inferWork}
		s.initHeap(hint)
		x.choices.beginRound()
		sys, d := s.lower(fn)
		if d != nil && len(hint.makeSized()) > 0 {
			// A make sized by the inference led the lowering to a construct
			// it refuses (the slice stored in shared memory): it stays a
			// run-time refusal, as in the rounds before.
			hint.sizedRefused = map[makeSite]string{}
			for site := range hint.makeLens {
				hint.sizedRefused[site] = strings.TrimPrefix(d.Message, unsupportedPrefix)
			}
			hint.makeLens, hint.noMakeLens = nil, true
			continue
		}
		if s.sizedMixed {
			// The sizes led to slices over arrays of several lengths in
			// one cell, which the model keeps as one type: the makes stay
			// run-time refusals, as before they were sized.
			hint.sizedRefused = map[makeSite]string{}
			for site := range hint.makeLens {
				hint.sizedRefused[site] = "a make whose length is known only at run time, whose slices of several lengths are stored in one cell"
			}
			hint.makeLens, hint.noMakeLens = nil, true
			continue
		}
		s.staleStatics()
		if d != nil {
			stopped = d
		}
		progress := s.heap.changed
		next := s.finishHeap(d == nil)
		if next == nil || d != nil && !progress {
			return s, sys, d
		}
		if s.splitReq != nil {
			base = round
		}
		if round-base >= maxHeapRounds && (!next.intBoxes || round-base >= maxHeapRounds+boxGrowthRounds) {
			if d == nil {
				d = stopped
			}
			if d != nil {
				return s, nil, d
			}
			return s, nil, &Diagnostic{Pos: decl.Pos(), Message: s.heapRoundsError()}
		}
		hint = next
	}
}
