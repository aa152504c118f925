// Package pipeline collects the channel, mutex and condition-variable
// patterns of everyday Go (a worker pool, a pipeline stage that honours
// cancellation, a bounded buffer on a sync.Cond), each with a
// //fencecheck:system function in two versions: with a blocking bug as it
// is often written, and fixed.
//
// fencecheck reports the goroutines of a buggy version that block forever:
// deadlock: when every goroutine waits (Go's "all goroutines are asleep",
// found in every interleaving rather than in the one that ran), leak: when
// the system function returns and leaves a goroutine waiting for good. The
// fixed versions are proved free of both, of data races and of panics.
//
// Run fencecheck on it from the examples directory:
//
//	go vet -vettool=$(which fencecheck) ./...
package pipeline
