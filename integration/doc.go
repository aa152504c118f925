// Package integration holds end-to-end tests that run fencecheck through the
// real programs teams use it with: a golangci-lint v2 binary with the
// fencecheck module plugin compiled in, the pre-commit framework, the plain
// git hook in scripts/pre-commit, and go vet.
//
// The tests build binaries and run external programs, so `go test ./...`
// skips them unless FENCECHECK_INTEGRATION=1 is set:
//
//	FENCECHECK_INTEGRATION=1 go test -count=1 -v ./integration/
//
// They then need git, and pre-commit for the pre-commit test (Debian's
// package: apt-get install pre-commit). FENCECHECK_GOLANGCI_LINT may name a
// golangci-lint binary built from tools/golangci; without it the test builds
// one, which takes minutes while the module and build caches are cold.
package integration
