package pointersdiag

import (
	"sync/atomic"
	"unsafe"
)

type pair struct{ a, b int }

type other struct{ x int }

//fencecheck:system
func interior() {
	var cur atomic.Pointer[int]
	go func() {
		p := &pair{}
		cur.Store(&p.b)
	}()
	go func() {
		if q := cur.Load(); q != nil {
			*q = 1
		}
	}()
}

//fencecheck:system
func pun() {
	var cur unsafe.Pointer
	go func() {
		atomic.StorePointer(&cur, unsafe.Pointer(&pair{a: 1}))
	}()
	go func() {
		o := (*other)(atomic.LoadPointer(&cur))
		_ = o
	}()
}

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
