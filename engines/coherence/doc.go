// Package coherence is the partial-coherence engine: reachability of bad
// states under x86-TSO and PSO by abstract interpretation of the store
// buffers, after Kuperstein, Vechev and Yahav, "Partial-Coherence
// Abstractions for Relaxed Memory Models" (PLDI 2011).
//
// Store buffers grow without bound in spin loops; the abstractions keep a
// bounded part of their order. A buffer is one per process under TSO and
// one per process and variable under PSO (its key); its pending stores are
// (variable, value) pairs. The abstractions ([Abstraction]):
//
//   - Set: the pairs as a set, without order or count. A read of a
//     variable with pending stores returns any of their values; a flush
//     writes any pair to memory and keeps it (another store of the pair
//     may be left) or removes it.
//   - FD_k (fully disjunctive): the k oldest stores in order (the head),
//     the others as the exact set of their pairs, and for every variable
//     the newest pending store (recency), which a read returns. A store
//     goes to the head while the set is empty and the head is shorter than
//     k; a flush takes the head's first store, or, when the head is empty,
//     any pair of the set, non-destructively (FLUSH-SN) or destructively
//     (FLUSH-SD, which for the newest store of a variable requires it to
//     be the variable's only pair: the paper's pruning of states that
//     concretise to nothing).
//   - PD_k (partially disjunctive): FD_k's states that differ only in
//     their non-empty sets are one state whose sets are the union; a flush
//     from the set leaves the buffer non-empty (FLUSH-NE, any pair of the
//     set) or flushes its only store (FLUSH-E, the newest).
//
// Under TSO one buffer holds the stores of all variables: the recency is
// kept per variable, and a flush that may take a variable's last pending
// store splits into the cases the abstraction allows. Fences and locked
// operations wait until every buffer of their process is empty. Every
// concrete execution is covered by an abstract one, so a search that
// reaches no abstract bad state proves the program safe for unbounded
// buffers (the result carries no bound).
//
// Program steps are executed by the concrete semantics of package model
// under SC on the abstract state's control, registers and memory (a read
// of a buffered variable sees the value the abstraction gives it, a write
// goes to its buffer), so that expressions, guards and faults mean what
// they mean everywhere else. Abstract states are keyed compactly (the
// visited set of engines/lib/explore) and searched breadth first.
//
// An abstract counterexample is checked by a concrete search that takes
// its program steps in order, with flushes wherever the concrete semantics
// allows them (the abstract path's own flushes first): an execution it
// finds is replayed by [model.Program.Replay] and reported unsafe;
// otherwise the counterexample is spurious, and the engine refines the
// abstraction (Set, then FD_1, FD_2, … up to Engine.MaxK; PD_k, then FD_k)
// or, when it may not, answers inconclusive naming the abstraction to try
// next.
package coherence
