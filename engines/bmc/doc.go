// Package bmc is a bounded model checker for model programs: it decides
// whether a bad state (or a fault) is reachable, and whether two
// conflicting accesses can be enabled at once (a data race), by executions
// in which every process takes at most k backward jumps, with an
// axiomatic SMT encoding checked by Z3 (package smt). It follows Sinha and
// Wang, "On interference abstractions" (POPL 2011): the interference-modular
// encoding of §3, the axioms of sequential consistency of §4, and the
// refinement of interference abstractions of §5–§7 (procedure REF). The
// engine's flag value is "bmc".
//
// # Bound
//
// [Unroll] turns each process into a DAG of copies (l, c) of its locations,
// c the number of backward jumps taken so far (back edges of a depth-first
// search from the initial location); a back edge leaving a copy with c = k
// is dropped. The executions of the unrolled program are exactly those of
// the original in which every process takes at most k backward jumps, so
// its answers are exact for that bound. A Safe answer for a program with
// loops says "none within bound k" in Result.Bound ([BoundText]); only for
// a loop-free program (or one no execution of which reaches the bound) is
// Safe unqualified. Unsafe answers are never qualified: the trace is an
// execution of the original program.
//
// # Encoding (§3)
//
// Each unrolled process is encoded in gated SSA form: a Boolean per
// transition (executed), the path condition of every location (the
// disjunction of its incoming transitions; the path is a single one, so at
// most one transition leaves a location), register values merged at joins
// by fresh constants guarded by the incoming transition (local edges, Φ_L;
// none for a register dead at the join), and for every global access (a
// read or write of a shared variable, the accesses of a locked operation, a
// fence under TSO) the tuple (Addr, Val, En) of §3.1.2 with a placeholder
// for the value of every read (unbounded until the read is linked) and an
// integer time; program order is time order of consecutive accesses (Φ_PO).
// The accesses are ordered before the end time only when a final read or a
// faulting attempt looks at it, and a final register is defined only where
// the bad state that reads it lets its process end: every arithmetic atom
// costs Z3 about 15 µs to internalize.
// A process may stop anywhere. Expressions follow model.Eval: && and ||
// short-circuit, / and % truncate (a constant divisor is encoded in linear
// arithmetic), and a division by zero or a value outside its domain is a
// fault, which is a bad state. The bitwise operators and shifts are exact:
// an operand is split into the 0/1 constants of its 64 two's complement
// bits (only the low bits a constant mask selects where one operand is
// constant), a shift by a count known only at run time is a case split over
// the counts, and a negative count faults. Integers are mathematical: int64
// overflow is not modelled. The property Φ_PRP is the disjunction of the bad states
// (every process named at a copy of its location with no transition taken
// after it, the condition on final registers and, through final reads at
// the end time, on memory) and of the faulting attempts of transitions.
// A locked operation is one event: its reads see memory before the body
// and its writes are the body's last write of each variable, all at the
// event's time.
//
// # Axioms (§4) and x86-TSO
//
// link(r, w) is en(r) ∧ sel(r) = j for w the j-th write of r's link set
// (exclusive by construction); HB is < on times. Π1: an enabled read links
// an enabled write of its link set. Π2: it reads the write's value, and
// the write reaches memory first. Π3: no other enabled write of the
// variable reaches memory between them. Redundant instances are pruned
// (§4.2): a write after the read in its process or on another branch is no
// candidate; a write its own process always overwrites before the read is
// not linked (static interference pruning, §7.1 S0); a triple whose order
// program order already fixes is not instantiated.
//
// Under x86-TSO a plain write has two times, its issue (in program order)
// and its flush (memory order): flushes of a process keep program order and
// come after the issue, and a fence or locked operation waits for the
// earlier flushes. The one relaxed pair of program order is a plain store
// followed by a load: the load may be performed before the store reaches
// memory, and reads it from the buffer when it is of the same address
// (store forwarding). Π2 and Π3 become that read rule: a read reads its own
// process's newest earlier store of the variable while that store is in
// the buffer, and memory otherwise. Every litmus test of
// the corpus gets herd7's verdict under SC and under x86-TSO (litmus_test.go).
//
// # Interference abstractions and REF (§5–§7)
//
// An interference abstraction α = (R, W, Λ, Σ) instantiates Π1 for the
// reads in R over link sets W(r) ⊆ cW(r), Π2 for the pairs in Λ and Π3 for
// the triples in Σ; [Stats] reports its size as Σ|W(r)| / |Λ| / |Σ|, the
// A / B / C of Fig. 11. Engine.Full instantiates everything (§4.1). By
// default the engine runs REF (Fig. 10) from a mixed IA:
//
//   - Static focusing: Φ_PRP is a disjunction of goals (bad states,
//     faulting attempts), decided a group at a time (goals that the same
//     reads can matter to share a group). The reads that can matter to a
//     goal are those of the transitions that may come before its locations
//     (all of a process's whose final registers it names, the final reads
//     of the variables it names), closed over the writes they may read: the
//     reads of the transitions that may come before such a write. A group
//     is decided by REF under an assumption literal; a refuted group's
//     negation is asserted, so what the solver learned carries over. The
//     groups take turns: each solver call of a turn is limited in Z3's
//     resource units, a group that runs out waits for the next round (with
//     a limit four times larger), and the last undecided group runs
//     unlimited, so that a hard proof does not hold up another group's
//     witness.
//   - Eager instantiation of a cheap partition (S3): a read of the group's
//     focus with at most four instances of Π3 (a flag or a datum written
//     once) enters R with its whole link set and every instance; refining
//     it lazily would cost more solver calls than its instances cost. Every
//     other read stays outside R (its value is free) until a model's
//     execution contradicts it, and then enters R with a biased link set
//     (S1): the writes of its own process and the initial write
//     ([BiasLocal]; [BiasSync] also every write of a synchronisation
//     variable, [BiasNone] the whole link set, an OIA), Λ = λ({r}, W(r)).
//     Engine.SyncReads starts a group with the reads of synchronisation
//     variables and the final reads of its focus instead (the
//     control-state IA of §5.3.1).
//   - A restricted W(r) is asserted under an assumption literal; an unsat
//     answer whose core contains none of them is a valid proof (Lemma 4),
//     otherwise the reads it names get W(r) = cW(r) and Λ their pairs (RED-U).
//   - A model is checked by executing its interleaving (times order the
//     steps) with the semantics of package model. If the execution reaches
//     a bad state, that trace is the witness: a Π-consistent interference
//     relation always executes (Lemma 3), and an inconsistent one may still
//     be an execution. Otherwise the reads whose model value the execution
//     contradicts are refined layer by layer (§7.2): their violated Π2
//     instances, else their violated Π3 instances (by default the whole row
//     σ({r}, {w}, cW(r)) of a violated link, Engine.Triples for single
//     triples), else they join R (RED-O).
//   - Lock lemmas (S2): the lock lemma S2a removes from a link set the
//     writes of constants that the read's event cannot accept (a
//     compare-and-swap's expected value, a required value); S2b states for
//     every lock variable (a constant initial value, written only by
//     compare-and-swaps from it and stores of it, acquired and released
//     alternately on every path) that critical sections do not overlap,
//     rel(A) < A' or rel(A') < A for acquisitions of different processes.
//     Π3 instances of lock variables are refined after the others.
//
// Every Unsafe answer carries a trace that model.Program.Replay accepts
// (engines.Verify), and the engine never reports a model it has not
// executed. Budgets: a context deadline interrupts Z3, and Engine.MaxWork
// bounds solver calls plus axiom instances; either ends in Inconclusive,
// naming the unrolling bound.
//
// # Races
//
// The race check (package race, asked of this engine) lists the races
// within the bound by asking both of its phases of [Engine.Enumerate]: the
// first (which pairs of locations of conflicting accesses, at least one a
// write and at least one plain, of different processes are reachable
// together: by Boehm and Adve, whether the program has a data race at all)
// and the second (every pair that happens-before leaves unordered), on the
// program itself instead of the query program of each round and the
// program instrumented with happens-before bits. The questions are
// engines.RaceQuestion values, so that the engine needs nothing of the
// race check's package. A question of the first phase is two processes
// ending at two locations. Happens-before is stated on the links: for an access site c, the
// knowledge K_c at a location of a process says that the last access of c
// to run happens before that point, and flows along program order and from
// a locked write to an acquisition (an atomic load, a locked operation that
// observes the variable) that links it. One encoding, one solver and one
// interference abstraction serve every question: each round asks for the
// open questions under one assumption literal, and REF checks every model
// by replaying its trace with happens-before bits; a model whose links
// give a wrong happens-before refines the acquisitions' axioms. Questions
// whose two accesses are both made while holding one spin lock are
// answered by package race before any engine is asked.
//
// # Not implemented
//
// Of the paper: fork/join and thread creation (model programs have a fixed
// set of processes), atomicity-violation properties, clustering of
// accesses, and an incremental check of Π-consistency by Π^IA(I) (the
// execution check replaces it). Lock lemma S2b is recognised only for the
// compare-and-swap spin-lock pattern above. Unsat cores are not minimised:
// RED-U expands every read Z3's core names. Faulting attempts are left out
// of the race questions (a process may stop before any step), so a race
// listing does not stop at a fault as race.Check does with other engines.
package bmc
