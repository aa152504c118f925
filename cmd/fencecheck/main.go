// Command fencecheck reports the memory barriers that lock-free Go code needs
// on x86-TSO, and proves the rest correct.
//
// It checks the functions marked //fencecheck:system in the packages named
// on its command line:
//
//	fencecheck ./...
//	go vet -vettool=$(which fencecheck) ./...
//
// Run standalone, it exits with status 3 when it reports a finding; under
// go vet, go vet exits with status 1. Flags (-engine, -fences, -placement,
// -budget, -witness) are described in the documentation of package analyzer
// and by fencecheck -help.
package main

import (
	"golang.org/x/tools/go/analysis/singlechecker"

	"github.com/fencecheck/fencecheck/analyzer"
)

func main() { singlechecker.Main(analyzer.Analyzer) }
