// Package gcpattern decides whether a plain (non-atomic) memory access in
// go/ssa form is one that the gc compiler rewrites, and says in one sentence
// what gc does to it. The analyzer appends that sentence to a race
// diagnostic, so that a programmer sees why a racy access is harmful on
// amd64 today and not only in theory (docs/design.md §4).
//
// Five patterns of gc 1.26 (amd64, optimisations on) are recognised, each
// from the go/ssa form of the function that holds the access:
//
//   - [DeadStore]: a store that a later store to the same address in the
//     same block overwrites, with no load, call or atomic operation in
//     between (gc's dead-store elimination works across stores to other
//     addresses);
//   - [MergedLoad]: a load that reads the same memory state as an earlier,
//     dominating load of the same address, so gc's common-subexpression
//     elimination reuses the earlier value (across blocks, and into loops
//     that store nothing);
//   - [ForwardedLoad]: a load whose memory state is a store to the same
//     address, through at most three stores to provably different addresses,
//     so gc uses the stored value;
//   - [ReorderedLoads]: a load that gc's scheduler may emit before an earlier
//     load of another address in the same block;
//   - [LoopStore]: a store after which every path stays in a loop with no
//     exit, call, atomic operation or branch on a loaded value, so no live
//     value ever reads the memory it writes and gc deletes it.
//
// The package models gc's view of memory as a chain of memory states: every
// store, call or other instruction that may write memory starts a new one,
// and a block's entry state is the one all its predecessors agree on, found
// the way gc removes trivial memory phis. It assumes that
//
//   - every call, including calls gc would inline, and every sync/atomic,
//     sync.Mutex or sync.WaitGroup operation (all calls in go/ssa), may read
//     and write any memory;
//   - two addresses are the same only when they are the same go/ssa value or
//     FieldAddr/IndexAddr chains with the same base value and the same field
//     and index operands, and provably different only when they are distinct
//     package-level variables or differ in a constant field or index on the
//     same base;
//   - a go/ssa block is at most one gc block: anything that makes gc branch
//     (a bounds, division or conversion check) ends the block for the
//     patterns that need one, and a pointer dereference that gc cannot prove
//     non-nil reads memory (its nil check);
//   - only one-word values (integers, floats, booleans, pointers, maps,
//     channels, funcs) are accessed by a single load or store.
//
// Where the model does not apply, the answer is "no pattern": the package
// reports only what gc is known to do, never the reverse.
package gcpattern
