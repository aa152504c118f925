// Package analyzer defines the fencecheck analyzer: it finds the functions of
// a Go package marked //fencecheck:system, lowers each into the automata model
// (package extract), decides with a reachability engine whether a bad state is
// reachable under x86-TSO, and reports the memory barriers that make the
// system correct.
//
// # Analyzer fencecheck
//
// fencecheck: report data races, and the memory barriers that lock-free Go code needs on x86-TSO
//
// A system is a function marked //fencecheck:system whose body allocates
// shared state and spawns goroutines that communicate through plain fields
// and sync/atomic values. Its bad states are reachable panics and two
// goroutines at //fencecheck:critical points at once. For every system the
// analyzer first decides its data races under the Go memory model: two
// accesses to one variable from different goroutines, at least one a write
// and at least one plain (not sync/atomic), that nothing orders. Each racing
// field or variable gets one diagnostic starting "race:", at its first racing
// access, with the other racing accesses as related information, the
// interleaving that reaches them, and what gc does to the access when it is
// one of the forms gc rewrites (a dead store, merged or reordered loads, a
// forwarded store), and a suggested fix that makes every access to it
// atomic: its type becomes the matching sync/atomic type (atomic.Int32,
// atomic.Bool, atomic.Pointer[T]) and each access a method call, or, where
// the type cannot change, each access calls a sync/atomic function. A
// race-free system behaves as under sequential consistency on every
// architecture, so for it that is the whole question. A racy system is also
// judged for the x86-TSO memory model of amd64 (every core has a FIFO store
// buffer, so a plain store can still be invisible to other cores when a
// later load of the same goroutine reads memory):
//
//   - correct: nothing is reported;
//   - fixable: one diagnostic per barrier of a cheapest minimal set, at the
//     store after which it goes (a barrier belongs to one store: where
//     several stores reach the same point, such as a loop head or the join
//     after an if, each one that needs a barrier is named), starting
//     "x86-TSO:", naming the load that overtakes the store and the bad state
//     it leads to, with a suggested fix that makes the store a sync/atomic
//     store (an XCHG, which drains the store buffer) where the type allows
//     it;
//   - wrong even under sequential consistency: one diagnostic at the bad
//     state, starting "SC:", with the interleaving; no barrier can fix it;
//     when the bad state is a value outside a //fencecheck:range, the
//     diagnostic starts "range:" and names the variable and the value;
//   - inconclusive: the engine ran out of its work bound (the same on every
//     machine), the wall-clock budget or the memory limit, or the system
//     needs an engine that is not available; the diagnostic says which
//     bound was hit and its flag, why the system went to that engine, and
//     the variables a //fencecheck:range LO..HI would bound.
//
// Integers behave as Go defines them: arithmetic wraps in the width of its
// type (uint64 0 - 1 is 2^64-1), a conversion truncates, and a division by
// zero or a shift by a negative count is a panic, a bad state. The domains
// fencecheck infers for variables without a //fencecheck:range are its own
// abstraction: a value outside one is never a verdict. The analysis widens
// the domain to the range of the Go type and starts again (the predicate
// engine takes domains too large for the others), or says it is
// inconclusive, naming the variable and its position.
//
// Every diagnostic's Category is its finding kind: race, x86-TSO, SC,
// range, deadlock, leak or inconclusive (the word its message starts with),
// unsupported, directive, or internal. fencecheck -explain KIND prints what
// a kind means, an example, how to fix it and how to silence it
// (docs/findings/KIND.md in the repository).
//
// Packages without //fencecheck: directives cost one pass over their
// comments.
//
// # Flags
//
//	-engine=auto|explicit|sb|pred|bmc
//	                                reachability engine (auto: explicit for
//	                                finite loop-free systems, sb for finite
//	                                systems with loops, pred for unbounded
//	                                data; bmc first from three goroutines;
//	                                the engines and the plan are those of
//	                                engines/registry)
//	-fences=cheapest|all            report one cheapest minimal barrier set,
//	                                or name every minimal set
//	-placement=after-writes|anywhere where barriers may go
//	-maxwork=6000000                work per system: states and constraints
//	                                of the engines, 4 per abstract state of
//	                                the predicate engine, 200 per solver
//	                                call; an answer it cuts is the same on
//	                                any machine
//	-budget=2m                      wall-clock time per system, a safety net
//	                                behind -maxwork
//	-memory=2048                    MiB of heap the analysis may use
//	-witness                        include the interleaving as a table (one
//	                                column per goroutine, and the store buffers)
//	-races=true|false               report data races under the Go memory
//	                                model (false: judge plain accesses as amd64
//	                                MOVs in program order, which gc does not
//	                                promise for racy code)
//	-maxprocs=4                     the largest value runtime.GOMAXPROCS(0),
//	                                NumCPU and the set-up's NumGoroutine may return; a
//	                                set-up that reads one is checked once per
//	                                value, and a finding names the value
//	-blocking=true|false            report goroutines that can block forever
//	                                (deadlock: and leak: findings)
//	-unfixed                        report only the findings without a
//	                                suggested fix (what -fix leaves)
//
// # Annotations
//
// //fencecheck:system marks a system function; //fencecheck:critical marks
// the point where the next statement begins as a critical section;
// //fencecheck:range LO..HI bounds a variable, field or local variable (a
// value outside the range is a finding); //fencecheck:nofence on a statement
// forbids a barrier after it. A comment may follow a directive on its line
// (//fencecheck:range 0..3 // the ring's size). A comment that is almost a
// directive (// fencecheck:system, //Fencecheck:system, /* fencecheck:system
// */, //fencecheck:sytem) is reported with the directive to write, and so is
// a directive that matches nothing: a range on a variable no system uses, a
// critical or nofence on a statement no goroutine of a system runs, a
// nofence on a statement without a plain store of shared memory.
package analyzer
