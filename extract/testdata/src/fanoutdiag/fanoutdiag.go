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
func nestedLoops() {
	go func() {
		for j := 0; j < 2; j++ {
			for i := 0; i < 2; i++ {
				go set(&x) // nestedLoops
			}
		}
	}()
}

//fencecheck:system
func untilSet() {
	go func() {
		for atomic.LoadInt32(&x) == 0 {
			go set(&x) // untilSet
		}
	}()
}

//fencecheck:system
func runTimePointer() {
	go func() {
		go set(&pair[atomic.LoadInt32(&x)&1])
	}()
}

// The parent changes the loop variable after the go statement: the worker
// shares it.
//
//fencecheck:system
func bumpAfterGo() {
	go func() {
		for i := 0; i < 4; i++ {
			go func() { atomic.StoreInt32(&x, int32(i)) }() // bumpAfterGo
			i++
		}
	}()
}

// The worker changes the loop variable it captures.
//
//fencecheck:system
func workerWrites() {
	go func() {
		for i := 0; i < 2; i++ {
			go func() { i = 5 }() // workerWrites
		}
	}()
}
