// Package locks collects small lock-free algorithms of the kind fencecheck is
// for, each with a //fencecheck:system function that exercises it with two
// goroutines. Some are correct on x86-TSO as written, some need a memory
// barrier that fencecheck points at, and one is wrong on any machine.
//
// Run fencecheck on it from the examples directory:
//
//	go vet -vettool=$(which fencecheck) ./...
package locks
