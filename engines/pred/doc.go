// Package pred decides reachability of bad states in programs with unbounded
// integers under TSO (and SC) by k-abstraction of the store buffers combined
// with predicate abstraction of the data, refined by a counterexample-guided
// loop: the method of Abdulla, Atig, Chen, Leonardsson and Rezine, "Automatic
// fence insertion in integer programs via predicate abstraction" (SAS 2012).
//
// # Abstraction
//
// A comb-abstract configuration has an exact control part — every process's
// location, the variables of the k stores of its buffer kept in order, and
// the set S(p) of the variables of the stores abstracted away — and a data
// part: a conjunction of predicate instances and their negations over the
// data variables (memory, registers, the values of the kept stores, and for
// each x in S(p) the last value written to x in the abstracted part). By
// default the newest k stores are kept in order, as in the paper's
// implementation; Engine.Oldest keeps the oldest k, as in its §4.
//
// Each abstract step is a guard and a simultaneous assignment over the data
// variables (rules READ-M/READ-B, WRITE-L/WRITE-G, UPDATE-NE/AM/AS, FENCE,
// ARW for locked blocks, ASSIGN, GUARD; under SC writes go to memory). The
// abstract post of a data part f is computed predicate by predicate: an
// instance π holds afterwards when f ∧ guard ∧ ¬π[sub] is unsatisfiable,
// which needs no primed variables or quantifiers. Literals whose pre-image
// is already decided by f need no solver call; the others are asked, on the
// part of f that shares variables with them, to the oracle, which decides a
// question in integer difference logic itself (Bellman-Ford on its
// constraint graph, difflogic.go) and any other with Z3 (package smt), and
// every answer is cached. Each abstract configuration carries a concrete witness,
// values of its data variables that satisfy its data part; its image under
// the step satisfies one polarity of every instance, so only the other is
// asked (and most enabledness questions need no solver at all). Literals are
// still only ever added on a proof of unsatisfiability. The analyses
// of programs with the same variables and registers (the copies that fence
// inference checks) share the term table and the cache of answers.
//
// Algorithm 1 explores the comb-abstract system breadth first. Visited keeps,
// per control part, the disjunction of the data parts seen, as a list of
// cubes; a new configuration is covered when its cube implies one of them.
//
// The search compresses local steps (compress.go): a step that touches only
// its own process's registers commutes with every other process's steps, so
// a process that enters a location all of whose transitions are such steps
// (with guards that cover every valuation, at a location no bad state names,
// assigning no register a bad condition reads) takes them at once, and only
// the configuration it settles in is kept. Back edges among such locations
// stop a compressed step, so each is finite. Engine.NoCompression turns it
// off.
//
// # Predicates
//
// Predicates are parameterized (§8 of the paper): a template over registers
// and holes for shared variables, instantiated in every control part with
// each data variable holding a value of the hole's variable — memory, kept
// stores, last-write variables. The first templates are the atoms of the
// program's guards, required read values and bad-state conditions.
//
// Processes of one family — the same locations, transitions and registers,
// as goroutines started in a loop are — usually need the same relations with
// their indices exchanged. So a template is added together with its images
// under the exchanges of a family's members (family.go; every permutation of
// a family of up to three, the rotations of a larger one): the registers of
// one process become those of the other, and a variable named x[i], for i a
// member's position in its family, becomes x[j]. This is a matter of
// precision only. Engine.NoFamilies turns it off.
//
// # Refinement
//
// A counterexample of the abstraction is analysed as in §7: (1) replayed
// symbolically under SC — if feasible, the program is wrong under SC, and
// the trace is returned (under TSO as a TSO trace whose stores land at
// once); (2) replayed under TSO — if feasible, its values come from the
// model Z3 gives, and it is returned; (3) replayed under the k-abstraction
// with exact data — if feasible, k is raised to the least value whose
// abstraction cannot replay it; (4) otherwise the data abstraction was too
// coarse. Z3 4.8 has no interpolation, so (4) takes the weakest
// preconditions of the counterexample's end along it (the pre-image of the
// bad condition step by step, with quantifier elimination for the values
// UPDATE-AM invents) and adds their atoms as templates; if that does not
// remove the counterexample, the preconditions themselves, which always do.
//
// Every counterexample returned has been replayed by model.Program.Replay.
// Every Z3 check runs under a resource limit (2^27 of Z3's units, counted
// the same on every machine); a check that exceeds it, or that Z3 answers
// unknown for a reason of its own, makes the answer Inconclusive. A model
// Z3 gives with values beyond int64 is asked again within int64.
// Integers are mathematical integers, which are the model's int64 values
// only as long as no value crosses ±2^63. Before it calls a program safe,
// the engine bounds, by the growth of the values along the program's data
// flow (wrapfree.go), how many operations every run performs before a sum,
// difference, product, negation or quotient could leave int64: a ticket
// that grows by one per lock takes about 2^63. Where that bound is below
// [MinWrapFreeOps] (2^60) — a product of two values that grow, a counter
// that steps by 2^62 — the engine computes the parts of expressions that
// may wrap as Go does, reduced modulo 2^64 into int64 (wrap64.go), and
// the others keep their bound; only when that does not bring every bound
// to MinWrapFreeOps is the answer Inconclusive, naming the expression, as
// is a counterexample that does not replay because one of its values
// wrapped.
//
// A quotient or remainder by a value known only at run time is Go's
// truncated division (Z3's Euclidean div and mod, corrected for a
// negative dividend); a step that divides by zero has a fault move,
// enabled where the divisor is zero (with && and || evaluated as Go does,
// so that d != 0 && x/d > 1 never faults), as Go panics there. Such
// questions are non-linear: Z3 may need long for them, within the
// resource limit of each check.
//
// # Choices split
//
// A term that chooses between values — a comparison or a negation used as
// a number, a product by one, as Go code lowered without branches has —
// is an if-then-else. A product by one is the choice of the products with
// its branches ((a < b)·c is if a < b then c else 0, linear); a linear atom
// over choices is the disjunction of its cases, whose atoms are linear in
// the branches; and a step whose guard, assignment or recorded value
// chooses is split into one move per case, with the case's condition in
// its guard (up to three conditions a step). The abstract post decides
// each predicate on its own, so m := max(a, b) unsplit proves neither
// m == a nor m == b when no predicate orders a and b before the step;
// split, each case proves one. A [model.Wrap] to fewer bits is exact:
// a Euclidean remainder by its constant modulus, which Z3 decides; the wraps
// of sums of values already in range become single corrections (wrap.go).
// A program with counters of such a type (x := uint32(x + 1), an unbounded
// domain) is analysed twice at once, with the counters reduced at every
// update and with them kept unreduced and reduced only where the program
// looks at them (lazy.go); the first conclusive answer is the answer.
// The bitwise operators and shifts are exact where one operand is a
// constant (bits as Euclidean remainders, shifts as products and quotients
// by powers of two; bitops.go); on two values known only at run time, and
// for a shift by such a count, the analysis is Inconclusive and names the
// construct.
//
// # Zones first
//
// Under SC, and under TSO when no read can find a store of its own process
// pending, the engine first asks the zone abstraction of package zone
// (Engine.Zones, which the registry sets), within ZoneWork units: a safe answer from it (with the wrap-around bound
// above) is the answer; anything else leaves the question to the
// refinement loop, with the work it spent charged. Zones prove Lamport's
// bakery with three goroutines and unbounded tickets, where the
// refinement keeps adding predicates with new constants.
//
// # Builds without Z3
//
// In a build without Z3 (cgo disabled or build tag fencecheck_noz3; see
// package smt) the engine still compiles, and every check that the zones
// do not prove ends Inconclusive with a reason that says the predicate engine is unavailable in this build
// and how to enable it.
package pred
