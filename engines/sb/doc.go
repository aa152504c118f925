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
// the variable written. A write appends a message; a flush of process p moves
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
// well-quasi-ordering (Lemma 1 of the paper).
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
// # Status
//
// The engine is exact and agrees with the explicit engine wherever both
// answer, but it is not yet fast: the backward search produces many
// constraints that differ only in pointer positions and in unseen pending
// messages, and a two-process litmus test with fences can take seconds.
// Budgets end such searches as inconclusive. The constraint budget is the
// knob until the representation is tightened.
//
// Under SC the engine delegates to the explicit engine, which is complete for
// finite programs.
package sb
