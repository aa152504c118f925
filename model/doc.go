// Package model is the automata model of concurrent programs that every part of
// fencecheck shares, and the single source of truth for its semantics.
//
// A [Program] has shared variables (each with a [Domain] and an initial value),
// processes (finite automata whose transitions carry an [Op]), and a
// specification of bad states. The package decides nothing about reachability;
// it defines what one step is, under sequential consistency ([SC]) and under
// x86-TSO ([TSO]), following the operational model of Sewell et al. (CACM 53(7),
// 2010) as restated in §2 of the k-abstraction and single-buffer papers:
//
//   - every process has a FIFO store buffer; a plain write appends to it;
//   - a read returns the newest buffered store of the same variable in the
//     reader's own buffer, or else main memory;
//   - the oldest entry of any buffer may be flushed to memory at any time;
//   - a fence, and every locked (atomic read-modify-write) operation, is enabled
//     only when the process's buffer is empty; a locked operation then reads and
//     writes memory atomically.
//
// Under SC there are no buffers: a write updates memory at once.
//
// Under PSO (SPARC's partial store order, for model files: Go runs on no
// PSO machine) every process has one FIFO store buffer per variable: a read
// returns the newest buffered store of its variable in the reader's own
// buffer, or else memory; the oldest store of any variable may be flushed;
// a fence and every locked operation wait until all the process's buffers
// are empty. A store-store fence ([SSFence], SPARC's STBAR) makes the stores
// before it reach memory before the stores after it, without waiting; under
// TSO and SC it does nothing.
//
// Every engine's counterexample is a [Trace], and [Replay] checks it against
// these rules, naming the first step that is not a legal step.
//
// Values are int64s, and the arithmetic of expressions is int64 arithmetic,
// which wraps at 64 bits; a [Wrap] reduces a value to a narrower integer type
// (Go's int8 to uint32) where a front end asks for it. A value outside a
// variable's or register's finite domain is never wrapped: the step that
// produces it leads to a faulting state, which counts as bad, and its
// [Fault] names the variable or register.
package model
