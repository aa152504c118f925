package extract

import (
	"fmt"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// WaitGroup.Go run by a goroutine (or by the system function after the
// set-up): the model lowers it from Go source of its own, which is what
// package sync's is: Add(1), then a go statement whose goroutine runs f
// and, unless f panicked, Done. The go statement is then one of the
// process's (fanout.go): in a counted loop or a range over a map, one
// goroutine per iteration. The set-up's WaitGroup.Go is a spawn of its own
// (setup.go).

// wgGoSrc is the model's WaitGroup.Go.
const wgGoSrc = `package sync

import "sync"

// WaitGroupGo is wg.Go(f).
func WaitGroupGo(wg *sync.WaitGroup, f func()) {
	wg.Add(1)
	go func() {
		defer func() {
			if x := recover(); x != nil {
				panic(x)
			}
			wg.Done()
		}()
		f()
	}()
}
`

// isWaitGroupGo reports whether fn is (*sync.WaitGroup).Go.
func isWaitGroupGo(fn *ssa.Function) bool {
	recv := fn.Signature.Recv()
	return recv != nil && isNamed(deref(recv.Type()), "sync", "WaitGroup") && fn.Name() == "Go"
}

// wgGoShim returns the function of the model's source that stands for
// (*sync.WaitGroup).Go, fn (made once).
func (x *extractor) wgGoShim(fn *ssa.Function) (*ssa.Function, error) {
	if sh, ok := x.shims[fn]; ok {
		return sh, nil
	}
	obj, _ := fn.Object().(*types.Func)
	if obj == nil || obj.Pkg() == nil {
		return nil, fmt.Errorf("the model of %s: no package", fn)
	}
	imp := importerFunc(func(path string) (*types.Package, error) {
		if path == "sync" {
			return obj.Pkg(), nil
		}
		return nil, fmt.Errorf("no package %s", path)
	})
	sp, err := x.modelSource("sync.WaitGroup.Go", "sync·waitgroupgo", wgGoSrc, imp)
	if err != nil {
		return nil, fmt.Errorf("the model of %s: %w", fn, err)
	}
	sh := sp.Func("WaitGroupGo")
	if x.shims == nil {
		x.shims = map[*ssa.Function]*ssa.Function{}
	}
	x.shims[fn] = sh
	return sh, nil
}
