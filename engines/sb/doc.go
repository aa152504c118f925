// Package sb decides exactly whether a finite-state program reaches a bad
// state under x86-TSO, with no bound on the store buffers, by the
// Single-Buffer (SB) semantics of Abdulla, Atig, Chen, Leonardsson and Rezine
// ("Counter-Example Guided Fence Insertion under TSO", TACAS 2012): §4 (the
// SB semantics), §5 (the well-quasi-ordering ⊑ and backward reachability,
// Algorithm 1).
//
// # Configurations and the ordering
//
// An SB configuration has the processes' locations and registers, one buffer
// of messages shared by all processes, and one pointer per process into it.
// A message is a memory snapshot tagged with the process that wrote it and
// the variable written (a locked operation appends one message for all its
// stores, tagged with each variable it wrote, and leaves its process's
// pointer there). A write appends a message; a flush of process p moves
// p's pointer one message to the right; a read by p of x returns x in the
// newest message written by p to x at or after p's pointer, or else in the
// message at p's pointer; a fence and a locked operation need p's pointer at
// the last message.
//
// # Representation of upward-closed sets
//
// The engine works, as Memorax does, with minimal constraints rather than
// the paper's SB-automata: a constraint fixes every location, fixes some
// registers, and lists a word of messages whose snapshots are partial (some
// variables unknown) and whose writer may be unknown (with the set of
// processes it is known not to be). It denotes every configuration that
// embeds it by the paper's ordering: a strictly increasing map of its
// messages into the active part of the configuration's buffer that keeps the
// pointers and every process's last-write positions. An unknown writer is
// split lazily, exactly when a pointer moves to before the message, so that
// last-write positions are always determined by the constraint.
//
// Pre is computed per operation on constraints (local operations, read,
// write, fence, locked read-modify-write, flush), with the finite domains of
// registers and variables enumerated where an expression ties them together.
// A new constraint is dropped when an analysed one subsumes it (a subword
// embedding with pointers and last writes kept), and analysed constraints
// that it subsumes are retired. Termination follows from the
// well-quasi-ordering (Lemma 1 of the paper). The analysed constraints are
// indexed by their locations and the order of their pointers (which an
// embedding keeps), and each carries a word of hashed features (known
// registers, message values and writers, length) that a subsumer's must be
// contained in: most candidates are rejected by one AND (index.go).
//
// A constraint is also dropped when the control flow of a process rules it
// out (pending.go): the messages of a process after its pointer are its
// pending stores, so their variables, order and values must fit the
// stores the process can have made since its last fence or locked
// operation on a path to its location; the writers that splitting an
// unknown message tries are limited the same way.
//
// A constraint may leave the location of a process free (wild): it then
// denotes configurations with that process at any location. The bad states'
// constraints leave free every process they do not name, instead of
// materialising the product of those processes' locations, and they are
// generated lazily, a few thousand at a time, when the work list runs dry:
// the best-first order then chooses among the bad states (a fault a few
// steps from the initial configurations comes before the saturation of an
// unreachable bad state). Pre of a
// free process by one of its transitions is Pre of the constraint with the
// process at the transition's target: the process becomes fixed. A
// constraint is subsumed by one that leaves free at least its free processes
// and agrees with it elsewhere.
//
// A process at a location from which it can read again only through a
// fence or a locked operation (a free location; every location of a
// process that never reads) has a pointer that matters to nothing until
// that operation, which needs it at the newest message (a pointer serves
// its own process's reads, fences and locked operations only), and so has
// a process after its last step. The search keeps such a pointer pinned at
// the newest message, as if the process caught up after every step (those
// catch-up flushes are SB steps, and every SB run is matched by one with
// them and the same local states): its flushes are never explored, its
// messages obey no last-write condition (so the newest message before a
// write may be anyone's; after the fence or locked operation they all lie
// at or before its pointer, where only their values matter), and a
// constraint's newest message then maps to the newest. The bad states'
// constraints pin every process they leave free or name at a free location.
// A process leaves a free location only by a fence or a locked operation,
// and Pre by one pins its pointer again. (A process that stores in a loop
// and fences before it reads, as a lock's acquire path does, is pinned all
// along the loop, and the layouts of its pointer among its pending stores
// are never explored.)
// Backward, Pre of a pinned process by a transition from a location that
// is not free (into a free location, or its last step when the constraint
// leaves it free) undoes the catch-up that follows the transition:
//   - after a fence or a locked operation the pointer is at the newest
//     message already;
//   - the catch-up after a local step can take place before the step, and
//     so can all but the last flush of the catch-up after a write (the one
//     to the process's own new message, which Pre takes back first): the
//     step is then preceded by the process's flushes;
//   - after a read the pointer may lag behind: the constraint is copied
//     with the pointer unpinned at the newest message, in transit, and the
//     only predecessors of that copy are the process's flushes and its
//     reads into the location. A constraint in transit is indexed apart
//     from the others, as it does not stand for all its predecessors.
//
// # Symmetry
//
// Processes that run the same code (explore.Classes, on the program with
// its fault locations, so that the faults' bad states count) and start at
// the same location with the same registers are interchangeable: a
// permutation π within such classes maps SB configurations to SB
// configurations (locations, registers, pointers and message writers
// renamed), commutes with every SB step (π(Pre(C)) = Pre(π(C))), and maps
// the bad states and the initial configurations onto themselves. Every
// part of the search's own conventions is defined per process alike (the
// pending stores, the free locations, the lazy flushes of mayFlush, the
// transit copies, subsumption, pruning), so the search's expansion of a
// constraint commutes with π too. push therefore replaces every new
// constraint by the canonical member of its orbit: the members of each
// class sorted by a key of all the constraint says of them (location or
// wild, pointer or pinned, in transit, may flush, known registers, and per
// message whether the process wrote it, with what header, or is known not
// to have), which names every constraint of an orbit alike (two members
// with equal keys can be exchanged without changing the constraint).
// Subsumption compares canonical forms only, which loses some subsumptions
// between orbits but none the argument needs. Completeness: let A be the
// analysed constraints when the search saturates, and Π(A) their orbits.
// Every successor the search generates from a c in A is π(d) for the
// canonical form d it pushed, which some member of A subsumes (or which
// pruning proved unreachable, and so is π of it); so the set Π(A) has the
// closure property that the search's argument asks of A, and it covers the
// bad states. An initial configuration in some π(a) gives, by π⁻¹, one in
// a (the initial set is symmetric), which the search would have seen.
// Counterexamples: a constraint records the permutation that made it
// canonical (cons.perm); the Pre step from c_i to c_{i+1} is taken by
// process proc_i of c_{i+1}'s frame, which in the frame of the run that
// starts in c_0 is π_1(π_2(…π_i(proc_i))), where π_k is c_k's permutation
// (realProcs). The per-process sequences handed to the concrete search
// are those of real processes, and the trace is replayed as before.
//
// # Partial-order reduction
//
// A constraint c, not in transit, with a process p at a location l that is
// not p's initial one and that only local steps enter (nops, assignments
// and guards on p's registers) is expanded by p's steps into l and by the
// flushes c allows (mayFlush), and not by the other processes' steps. The
// argument keeps the search's induction: call a run prefix γ_0…γ_i from an
// initial configuration lazy when each of its flushes is followed by a
// flush or a read, fence or locked operation of the same process, but for
// a final block of flushes, and a pinned process catches up after every
// step (the engine's normal form: a pinned process's step and its catch-up
// form one macro-step). If an analysed c contains γ_i and admits the last
// step of a lazy prefix (a flush only when c's mayFlush allows it), some
// analysed constraint contains an initial configuration; by induction on
// i. When c is expanded fully, the Pre step by the last step contains
// γ_{i-1}, and the constraint pushed for it (or its subsumer, which admits
// at least as much) admits step i-1. When c is reduced and the last step
// is a flush c allows, it is expanded. Otherwise the last step is another
// process's read, write, fence, locked operation or local step (or
// macro-step). p is at l and l is not initial, so p's last step j was a
// local step into l. No step of p but flushes follows it: if p is not
// pinned, none at all (a lazy prefix's flushes of p would need a later
// pointer operation of p, and the last step is not a flush); if it is, its
// catch-up flushes, which move only p's pointer, stay enabled when moved
// later (messages are only appended) and change nothing another process's
// step depends on. The steps after j touch neither p's location nor its
// registers, and step j touches nothing else, so moving step j, preceded
// by p's flushes that followed it, to the end gives a lazy prefix to the
// same γ_i (step j-1 was no flush: it was followed by p's local step) whose
// last macro-step is p's step into l, with its catch-up before it when p
// was not pinned before it: exactly what c's reduced expansion explores
// for p, pinned or not; its Pre contains γ_{i-1} and admits the new step
// i-1, which is no flush but p's own catch-up. The fault locations are
// entered only by guards: a constraint with a process at its fault is
// expanded by that process's fault steps alone.
//
// # Budgets
//
// Every elementary step of the SB search (a valuation enumerated by a Pre
// step, a constraint generated or compared) counts as work: the context is
// polled every few thousand steps, inside enumerations too, and the search
// ends inconclusive beyond WorkPerConstraint steps per constraint of its
// budget. An enumeration larger than the remaining work budget (a domain of
// 2^63 values) is refused at once, with a reason that says so; so are
// programs with more initial states than the budget and reads that can
// fault on more than a few thousand values.
//
// # Counterexamples
//
// A constraint that contains an initial configuration ends the search. The
// chain of Pre steps from it to the bad states gives, per process, the
// sequence of transitions taken; a small forward search under the concrete
// TSO semantics of package model finds an interleaving of exactly those
// sequences, with flushes, that reaches the bad state. That concrete trace is
// replayed by model.Replay before it is returned.
//
// Domain faults (a value written, assigned or read outside its finite
// domain, a division by zero) are bad states too: the engine adds, per
// transition that can fault, transitions to a fault location guarded by the
// fault's condition, and searches for those locations along with the
// program's own bad states.
//
// # Three searches, one exact answer
//
// Alone, the backward search can be slow: it saturates sets of constraints
// that differ in pointer layouts and unobserved pending messages, and an
// unsafe program with a long counterexample (Lamport's bakery) needs
// hundreds of thousands of constraints before one reaches an initial
// configuration. Check therefore runs
// it inside a schedule of rounds k = 1, 2, 4, ... with budgets that grow four
// times per round; in round k:
//
//  1. The explicit-state search (engines/lib/explore, the search of the
//     explicit engine) searches TSO with store buffers bounded by k. A
//     counterexample it finds is a real TSO run (replayed). For a loop-free
//     program with at most k writes per path its Safe answer is exact. A
//     round whose bound is the last round's resumes that round's search
//     with its larger budget (explore.Search) instead of starting again.
//     When the budget stops that breadth-first search (and fences do not
//     bound the buffers, where the exact search ends the rounds), a
//     depth-first hunt
//     for a bad state (explore.Hunt) gets the same budget with the same
//     bound, resumed from round to round: it answers only when it finds a
//     bug (a replayed TSO run), and finds first the bugs that show at the
//     end of a long run (a lost update checked after two loops of 100
//     rounds: a run of some 2,600 steps, found in 10,207 states), which
//     breadth first are reached only after nearly every state.
//  2. A forward over-approximation of TSO (forward.go) keeps, per buffer,
//     an exact suffix of k blocks (a block is a store or a run of equal
//     stores) and, for the older stores, the oldest and newest exactly and
//     supersets of the stores and of the adjacent pairs among them. It
//     simulates every TSO run through states with the same locations,
//     registers, memory, fault and buffer emptiness, so when it reaches no
//     bad state the program is safe under TSO (a proof, with no bound on
//     the buffers). When it is complete but reaches a bad state (possibly
//     spuriously), its reachable local states (locations and registers)
//     contain every reachable local state of the program. While no
//     abstraction has completed and k exceeds DefaultPruneSuffix, the
//     abstraction with that suffix runs too with the same budget: it
//     completes sooner, to prune (or prove the program safe).
//  3. The backward SB search resumes where the previous round stopped, with
//     a larger constraint budget, and discards every new constraint whose
//     local state and newest memory the last complete over-approximation
//     does not reach with every buffer empty; before one completes, the
//     depths of the states the last one reached order its search (best
//     first, worklist.go).
//
// Exactness: an Unsafe answer is always a concrete TSO trace that
// model.Replay accepts; a Safe answer comes from a sound over-approximation
// or from the saturated SB search. Pruning keeps the SB search complete. If
// an SB configuration with local states L and newest message M is
// reachable, so is the TSO configuration with L, memory M and every buffer
// empty: number the messages 0..n; a process's events run in TSO in epochs,
// an event in the epoch of the message its pointer is at when it runs (its
// pointer only moves right, so the epochs of its events rise); in epoch i
// memory holds message i and a process's buffer its stores of messages
// after i, and the store of message i+1 is flushed between epochs i and
// i+1. Each read then returns what it returned in SB, each fence and locked
// operation finds its buffer empty, and after epoch n every store is
// flushed. (This extends Theorem 1 of the paper, which relates local
// states, to the newest memory.) A constraint denotes configurations whose
// newest message is the image of its own newest message (the ordering keeps
// every process's last writes, so a message after that image would be
// a last write that the constraint does not have), so a constraint whose
// fixed locations, known registers and newest message's known variables
// match no drained state of the abstraction denotes no reachable
// configuration, and the usual induction (every configuration of a run to
// a bad state lies above some analysed constraint) never needs one. A
// constraint that leaves a process free is pruned by its local state
// alone; one with a process at a fault location by the transitions into
// it whose fault the abstraction reaches (it records each) and the local
// state one step earlier, with that process at the faulting step's source.
// The same epochs give one more condition per process p whose pointer is
// not at the newest message and that has no message after its pointer:
// after epoch i, where i is p's pointer, p is at its current location with
// its current registers and an empty buffer, and memory holds message i; a
// constraint is pruned when the complete abstraction has no state with p's
// buffer empty, p's location and known registers, and a memory that agrees
// with the message at p's pointer. The depths of the matching states order
// the search (worklist.go). Termination: the forward searches are
// finite; the SB search terminates by the well-quasi-ordering, and the
// schedule gives it an ever larger budget, so some round answers unless
// MaxConstraints or the context ends the search first (Inconclusive, never
// a guess). The forward searches' budgets stop growing at MaxRoundStates
// (or MaxConstraints); from then on the SB search alone goes on. Both
// forward searches keep the registers that are dead at a process's location
// reset (facts.Dead), which merges states with the same future.
// Engine.Backward makes the SB search give every answer (the
// over-approximation then only prunes and guides it, with budgets that grow
// in turns with the SB search's); Engine.NoPrune turns pruning off, and
// Engine.NoSymmetry and Engine.NoPOR the symmetry and partial-order
// reductions.
//
// Under SC the engine runs the explicit-state search of package explore,
// which is complete for finite programs.
package sb
