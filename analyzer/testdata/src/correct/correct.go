package correct

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// messagePassing is correct on x86-TSO: stores are not reordered with
// stores, nor loads with loads.
//
//fencecheck:system
func messagePassing() {
	var data, ready int32
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		data = 42
		ready = 1
		wg.Done()
	}()
	go func() {
		if ready == 1 && data != 42 {
			panic("flag seen before data")
		}
		wg.Done()
	}()
	wg.Wait()
}

// spinLock is a test-and-set lock on atomics: correct.
//
//fencecheck:system
func spinLock() {
	var state atomic.Int32
	var wg sync.WaitGroup
	wg.Add(2)
	for i := 0; i < 2; i++ {
		go func() {
			for !state.CompareAndSwap(0, 1) {
				runtime.Gosched()
			}
			//fencecheck:critical
			state.Store(0)
			wg.Done()
		}()
	}
	wg.Wait()
}

// mutex protects a plain counter with a sync.Mutex: correct.
//
//fencecheck:system
func mutex() {
	var mu sync.Mutex
	var n int32 //fencecheck:range 0..2
	var wg sync.WaitGroup
	wg.Add(2)
	for i := 0; i < 2; i++ {
		go func() {
			mu.Lock()
			n++
			mu.Unlock()
			wg.Done()
		}()
	}
	wg.Wait()
	if n != 2 {
		panic("lost update")
	}
}

// sbFenced is store buffering with atomic stores: correct.
//
//fencecheck:system
func sbFenced() {
	var x, y, r0, r1 int32
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		atomic.StoreInt32(&x, 1)
		r0 = y
		wg.Done()
	}()
	go func() {
		atomic.StoreInt32(&y, 1)
		r1 = x
		wg.Done()
	}()
	wg.Wait()
	if r0 == 0 && r1 == 0 {
		panic("both loads saw 0")
	}
}
