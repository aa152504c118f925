// Package coi slices a program down to the cone of influence of its bad
// states before an engine searches it, and maps the engine's answer back.
//
// # What is removed
//
// [Reduce] computes, as a least fixpoint, the relevant processes, the
// relevant registers and the observed shared variables:
//
//   - a process is relevant when a bad state names it (a location or a
//     register), when one of its operations can fault (a value outside a
//     finite domain, a division by zero: faults are bad states), or when
//     it writes an observed variable;
//   - a variable is observed when a bad-state condition names it, or when
//     a relevant process reads it into a relevant register, reads it with
//     a required value (read x == e, a blocking read), names it in a guard
//     or in an expression of a kept operation of a locked block, or reads
//     it in a way that can fault;
//   - a register is relevant when a bad-state condition names it, or when
//     it flows into a guard, into a required value of a read, into a kept
//     write (a write to an observed variable), into a relevant register,
//     or into an expression that can fault.
//
// The reduced program has the same variables, processes, registers,
// locations and transitions, numbered alike, so that its traces are traces
// of the original after [Reduction.Lift]. In it:
//
//   - a process that is not relevant is frozen: it keeps its locations but
//     loses its transitions;
//   - a write to a variable that is not observed becomes a nop (inside a
//     locked block it is dropped from the body), unless it can fault;
//   - an assignment to, or a plain read into, a register that is not
//     relevant becomes a nop (dropped inside a locked block), unless it can
//     fault; a read with a required value keeps the requirement and loses
//     its target register;
//   - a register that is not relevant and a variable that is not observed
//     whose initial value is '*' start at one fixed value of their domain.
//
// Guards, fences and locked operations are never removed: a locked block
// whose body the reduction empties still waits for an empty store buffer.
//
// # Why it is sound, under SC and TSO
//
// Write R for the removed writes, and for a state s of the original let
// s↓ be s with the variables that are not observed, the registers that are
// not relevant and the locations of the frozen processes forgotten, and
// with every store buffer stripped of the entries that removed writes put
// there (all of them stores to variables that are not observed). Every
// step of the original maps to a step of the reduced program, or to no
// step, between states with equal ↓: a removed write or assignment to a nop
// (it changes only forgotten parts and cannot fault); the flush of an entry
// of R to nothing; any other flush to the flush of the same entry, which is
// the oldest of the stripped buffer because the entries before it in the
// original buffer have been flushed; a fence or locked operation, enabled
// only on an empty buffer, to the same step, enabled on the empty stripped
// buffer; a read of an observed variable to the same read, which finds the
// same newest own store or the same memory value; a step of a frozen
// process to nothing. Whether a state is bad depends on ↓ only (bad states
// name relevant processes, relevant registers and observed variables; a
// condition on memory needs empty buffers, which stay empty when stripped;
// faults are kept). So every bad state the original reaches is matched.
//
// Conversely a run of the reduced program lifts to a run of the original
// ([Reduction.Lift]): each step is taken by the same transition of the
// original (a removed write writes its value to a variable nothing
// observes, a removed assignment sets a register nothing relevant reads;
// neither can fault, and a read that lost its register still reads); the
// entries of R are flushed lazily, right before a flush of a later entry of
// the same buffer, before a fence or locked operation of the process (whose
// stripped buffer is empty, so the original one holds entries of R only),
// and at the end when the bad state needs empty buffers. Flushes are always
// enabled, so the lifted run exists, and it ends in a bad state of the
// original. Reachability of bad states, and so the verdict of every engine
// and of the fence inference over it, is the same for both programs.
//
// The reduction preserves reachability, not the accesses themselves: the
// data-race question (package race) needs every access and must not be
// asked of a reduced program.
package coi
