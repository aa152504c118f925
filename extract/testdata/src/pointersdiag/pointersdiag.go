package pointersdiag

import (
	"sync/atomic"
	"unsafe"
)

type pair struct{ a, b int }

type other struct{ x int }

//fencecheck:system
func address() {
	var cur unsafe.Pointer
	var n atomic.Uintptr
	go func() {
		atomic.StorePointer(&cur, unsafe.Pointer(&pair{a: 1}))
	}()
	go func() {
		n.Store(uintptr(atomic.LoadPointer(&cur)))
	}()
}
