// Package locks collects small lock-free algorithms of the kind fencecheck is
// for, each in two versions with a //fencecheck:system function that
// exercises it: as it is often written, on plain fields, and with every
// access that goroutines share made atomic.
//
// The plain versions race under the Go memory model: fencecheck reports each
// racing field (race:), and where a plain version is also broken by amd64's
// store buffers, the stores that need a barrier (x86-TSO:). The atomic
// versions are proved correct on every architecture, except the broken lock,
// which no atomic load or store can save (SC:).
//
// Run fencecheck on it from the examples directory:
//
//	go vet -vettool=$(which fencecheck) ./...
package locks
