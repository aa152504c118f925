// Package fence infers where memory barriers must go for a program to be
// correct under x86-TSO, over any reachability engine ([engines.Engine]).
//
// # What it decides
//
// [Infer] answers, for a program and a placement constraint G (the places
// where a barrier may go), one of: the program is already correct under TSO;
// it is fixable, with every minimal set of barriers in G that makes it correct
// (or only a cheapest one); it is wrong already under sequential consistency,
// so that no barrier can fix it; or it is not fixable by barriers in G, which
// excludes every cure. A set F is minimal when the program with barriers at F
// is correct and, for every f in F, the program with barriers at F \ {f} is
// not.
//
// Under PSO (Options.Model) the barriers may also be store-store fences,
// which order stores only and cost less ([CostUnder]); a counterexample then
// shows stores overtaken by later stores as well as by loads.
//
// # What it implements
//
// §6 of "Counter-Example Guided Fence Insertion under TSO" (Abdulla, Atig,
// Chen, Leonardsson, Rezine, TACAS 2012):
//
//   - the paper identifies fences with local states; here a barrier after a
//     write belongs to that write's own edge ([AfterWrite]), so that where
//     several writes reach one location (a loop head, the join after an if)
//     each has its own barrier, as each Go store has its own fix. [Insert]
//     builds P ⊕ F: a barrier after write (f, write, t) makes it
//     (f, write, m) and adds (m, fence, t) for a new location m; a barrier
//     after location f ([AfterLoc], placement Anywhere only) takes the
//     transitions that left f to a new location f' and adds (f, fence, f');
//   - [Overtakings] is the paper's Overtaken: from a counterexample it finds,
//     for every read, the pending writes of the same process that the read
//     overtakes, and the places at which a barrier would have drained them
//     (the paper's Barrier before the intersection with G);
//   - [Infer] is Algorithm 2: a worklist of fence sets, each checked by the
//     engine; the barrier places of a counterexample extend the set, and
//     supersets of sets already found or pending are discarded. With
//     Options.All unset it is the breadth-first variant of Remark 1, refined by
//     a cost (barriers in loops cost more; see [Cost]).
//
// # What it assumes
//
// Counterexamples are concrete TSO traces of package model (the paper reads
// them off its single-buffer semantics; a TSO trace carries the same
// information: which write sits in which buffer when a read executes). Every
// trace is replayed with [model.Program.Replay] before it is used, so the
// package does not need to know which engine produced it. The engine must
// answer Safe only when no bad state is reachable: a Safe answer qualified by a
// bound (engines.Result.Bound) qualifies the inferred verdict the same way
// (Result.Bound), and an Inconclusive answer makes the whole inference
// inconclusive.
//
// The paper's bad states are control locations only. A bad-state condition
// may also name main memory; package model lets it hold only once every store
// buffer is empty, so it overtakes no write and adds no barrier place. A
// counterexample whose reads overtake no write is, by the same token, a
// counterexample under SC (delay each process's steps until its buffered
// writes have reached memory).
package fence
