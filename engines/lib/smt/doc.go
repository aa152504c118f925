// Package smt is a small cgo binding to the C API of the Z3 theorem prover
// (the system shared library, Debian package libz3-4, loaded at run time with
// dlopen; written against Z3 4.8.12). It offers what fencecheck's predicate-abstraction engine
// needs and nothing more: Int and Bool terms, linear and nonlinear integer
// arithmetic, comparisons, Boolean connectives, quantifiers over constants,
// incremental solvers with models and unsat cores, simplification, substitution
// (for weakest preconditions) and quantifier elimination through Z3 tactics.
//
// # Contexts and concurrency
//
// A [Context] owns one Z3 context. Z3 contexts are not thread safe, so every
// call into Z3 made through a Context, its terms, solvers and models takes the
// Context's mutex: a Context may be shared by goroutines, but they take turns.
// For parallel solving use one Context per goroutine; terms of different
// Contexts never mix (combining them is an error, not a crash).
// [Context.Interrupt] is the exception: it stops a running check from
// another goroutine without waiting, so a deadline can end a long query.
//
// # Memory
//
// The Context is created with Z3_mk_context_rc, so every Z3 object the
// package hands out is reference counted. Each Go value ([Expr], [Solver],
// [Model]) holds exactly one Z3 reference, taken when the value is made and
// given back after the Go value becomes unreachable: a cleanup registered with
// [runtime.AddCleanup] puts the object on the Context's release list, and the
// next call into the Context (which holds the mutex) drops the references on
// that list. Exprs are allocated 64 to a slab with one cleanup per slab
// (registering a cleanup costs more than making a small term), so a term's
// reference is given back once no Expr of its slab is reachable. The cleanups therefore never block on a running solver and never
// touch Z3 themselves. Internal objects (goals, tactics, vectors, parameter
// sets) are released before the call that made them returns.
//
// [Context.Close] deletes the Z3 context at once, with everything in it; a
// Context that is never closed is deleted by a cleanup once it and all its
// terms, solvers and models are unreachable. After Close every operation
// reports [ErrClosed]. Z3 interns symbol names for the life of the process,
// so names should come from a bounded set (variable names, indexed copies).
//
// Because Go's collector does not see Z3's native memory, a long run keeps
// a backlog of unreleased terms between collections, bounded by the pace of
// the collector and of its cleanups. TestMemoryFlat runs 100,000 small
// queries (a million with -long) and checks that Z3's allocation estimate
// and the resident set stay flat.
//
// # Errors
//
// The Context installs an error handler that returns, so Z3 reports a
// failure (a sort mismatch, an unknown tactic, a pop below the base scope)
// through its error code instead of aborting the process. Every call checks
// that code and turns it into a Go error that names the operation and carries
// Z3's message.
//
// Term constructors ([Context.Add], [Context.Le], [Context.And], ...) return
// a *Expr and no error, so formulas read as they are written; a failing
// constructor returns an Expr that carries its error ([Expr.Err]), every
// constructor given such an operand passes the first error on, and every
// operation that runs a procedure or leaves the package ([Solver.Assert],
// [Solver.Check], [Context.Simplify], [Context.QE], [Model.Int], ...) returns
// it. A nil operand or one from another Context is such an error as well.
//
// # Builds without Z3
//
// The binding is compiled only when cgo is enabled and the build tag
// fencecheck_noz3 is not set. It needs neither the Z3 headers nor linking
// with libz3: the shared library (libz3.so.4, else libz3.so) is opened with
// dlopen by the first [NewContext], so a process that never makes a Context
// never loads it, and if it is missing NewContext fails with an error
// wrapping [ErrUnavailable]. Otherwise (CGO_ENABLED=0, a cross build, or
// go build -tags fencecheck_noz3) the package
// is a pure-Go build with the same API in which Z3 is absent: [Available] is
// false, and [NewContext], like every other operation that returns an
// error, fails with an error wrapping [ErrUnavailable]. The rest of
// fencecheck builds and runs; only the predicate engine reports that it is
// unavailable.
package smt
