// Package facts computes static facts about a model program that the
// engines, the wrappers and the plan share: the registers dead at each
// location and the locations a bad state watches, bounds on the store
// buffers the control graph allows (the drain bound, the writes of a
// loop-free path, whether every read finds its buffer empty), the number
// of initial states, which operations may fault and whether an expression
// stays within int64, and the variables an operation acquires and releases
// under the Go memory model.
//
// Every fact is a function of the program alone: it runs no search and
// knows no engine, so that engines depend on the model and on these facts,
// not on each other.
package facts
