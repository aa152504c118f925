package fanoutdiag

import "sync/atomic"

var x int32
var pair [2]int32

func set(p *int32) { atomic.StoreInt32(p, 1) }

//fencecheck:system
func tooMany() {
	go func() {
		for i := 0; i < 9; i++ {
			go set(&x) // tooMany
		}
	}()
}

//fencecheck:system
func runTimePointer() {
	go func() {
		go set(&pair[atomic.LoadInt32(&x)&1])
	}()
}
