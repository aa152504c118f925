// Package cgocall calls C through cgo in a goroutine: the call is refused
// at its position in this file, not in cgo's generated code.
package cgocall

/*
static int add(int a, int b) { return a + b; }
*/
import "C"

import "sync"

//fencecheck:system
func sumInC() { // want `^inconclusive: system sumInC: a run reaches a call of C\.add through cgo \(C code has no Go source to model\)`
	var n int32
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		n = int32(C.add(1, 2))
		wg.Done()
	}()
	wg.Wait()
	if n != 3 {
		panic("wrong sum")
	}
}
