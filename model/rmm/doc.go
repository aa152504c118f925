// Package rmm reads programs written in RMM, the modelling language of the
// Memorax verification tool, and translates them into [model.Program], so
// that published Memorax models run unchanged.
//
// [Parse] is the entry point. Every error it returns is an [*Error] that
// prints as file:line:col: message, with 1-based lines and columns counted in
// bytes. It never panics and its work is bounded by the size of the input.
//
// # The language
//
// A file declares the forbidden states, then optional global data, then one
// or more processes:
//
//	/* a comment */
//	forbidden
//	  CS CS                   /* one label (or *) per process; tuples are separated by ; */
//	data
//	  x = 0 : [0:1]           /* initial value (a number or *) and domain */
//	  y = * : [0:3]
//	  z = 0 : Z               /* Z, also the default, is every integer */
//	process                   /* process(N) stands for N copies of the process */
//	data
//	  flag = 0 : [0:1]        /* one copy per process: flag[my], flag[0], ... */
//	registers
//	  $r = 0 : [0:1]
//	text
//	  L0: write: flag[my] := 1;
//	  read: $r := flag[0];
//	  if $r = 0 then goto L0;
//	  CS: write: flag[my] := 0;
//	  goto L0
//
// A declaration without a domain has the domain Z, every integer, as
// Memorax's manual specifies. Engines that need finite domains reject such a
// program, so models meant for them declare [LO:HI] domains. The integers
// are mathematical, as in Memorax ([model.Mathematical]): no sum wraps
// around, unlike Go's, so an engine that computes with unbounded integers
// needs no argument about 64-bit wrap-around to prove such a model safe.
//
// A forbidden tuple names one label per process, in the order the processes
// are declared (after process(N) is expanded), or * for any location; the
// program is unsafe when every process can be at its label at once. A label
// names the control location just before the statement it precedes.
//
// Per-process variables are addressed as in Memorax: process p writes
// v[my] for its own copy and v[i] for the copy of process i if i < p, of
// process i+1 otherwise (the other processes, numbered from 0, skipping p).
// A pointer [e] denotes the global variable numbered e (from 0, in
// declaration order).
//
// Statements: nop; $r := e; assume: b; read: x = e (enabled only when x
// holds e); read: $r := x; write: x := e; locked write: x := e; cas(x, e, e2)
// (a locked read that requires x = e, then writes e2; it blocks when x != e);
// locked { ... or ... } (one alternative executes atomically); fence;
// if b then s [else s]; while b do s; goto L; either { ... or ... };
// { s; s }. Expressions over registers and integers use + and - (binary and
// unary); conditions compare them with =, !=, <, >, <= and >=, and combine
// comparisons, true and false with &&, ||, not and [ ] for grouping. Shared
// variables never occur in expressions. The 'predicates' section (hints for
// Memorax's predicate abstraction) is checked and ignored.
//
// ssfence is a store-store fence (model.SSFence: stores before it reach
// memory before stores after it under PSO; nothing under TSO, which keeps
// stores in order). The instructions of Memorax's other memory models are
// read by their meaning under TSO and PSO: syncwr (a write that reaches
// memory directly) and syncrd as locked accesses, llfence as a nop (both
// models keep loads in order), slocked write as a plain write.
//
// This reader also accepts, beyond Memorax: // comments to the end of the
// line, a ';' after the last statement of a list or the last forbidden
// tuple, commas between declarations (as Memorax's grammar, but not its
// parser, has them), several labels before one statement, and labelled
// gotos.
//
// Macros are expanded on tokens before parsing, as Memorax's preprocessor
// does: a definition "macro NAME(P0, ..., Pn) BODY endmacro" may stand
// anywhere outside a macro, and a later call NAME(A0, ..., An), anywhere
// (in a domain, a statement, another macro's body or argument), stands for
// BODY with each parameter replaced by the tokens of its argument. An
// argument is balanced in parentheses and split at the commas outside them.
// A macro that calls itself, directly or through others, is an error, and
// so is an expansion beyond 262,144 tokens.
//
// Not supported, as in Memorax: the expressions 'me', 'other' and '@'. Not
// supported by this reader: a locked block that writes nothing yet reads two
// shared variables in one alternative (Memorax reads them atomically through
// the store buffer, which the model cannot express).
//
// # Translation
//
// Each process becomes a [model.Process] named P0, P1, ... in declaration
// order; its per-process variables become shared variables named v[P0],
// v[P1], .... Control flow is lowered to locations and transitions: an if
// or while becomes two guards (the condition and its negation), either a
// choice of transitions, a goto is merged into its target (or, where it
// must, a nop). Labelled locations carry their labels as names, others are
// named q<N>, numbered in the order of the text. Every transition and
// location has the position of the statement (or label) it comes from.
//
// In Memorax an assignment, read or write whose value falls outside the
// domain of its target is not enabled, whereas in the model it faults.
// The translation keeps Memorax's meaning: such an assignment or write is
// preceded by a guard that the value is in the domain (only where the
// domains of the registers involved do not already ensure it), and a read
// into a register whose domain does not contain the variable's is split
// into one read per value the register can hold (beyond 64 values the read
// is kept whole, and an out-of-domain value faults). Inside locked
// transitions these checks are guards of the locked body. The extra guards
// are local steps, which do not change which combinations of labels are
// reachable.
//
// A locked block that writes is one [model.Locked] transition per
// alternative (it drains the store buffer, as in Memorax). One that writes
// nothing does not drain the buffer in Memorax; it becomes plain
// transitions, which is equivalent as long as each alternative reads at most
// one shared variable.
package rmm
