package runtimecalls

import "sync"

type scratch struct {
	n int32
}

// scratchPool hands out scratch buffers, as encoders keep theirs.
var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// pooledScratch: each goroutine takes a buffer, uses it and puts it back;
// a buffer is never in two goroutines' hands.
//
//fencecheck:system
func pooledScratch() {
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			defer wg.Done()
			b := scratchPool.Get().(*scratch)
			b.n = 0
			b.n++
			if b.n != 1 {
				panic("buffer shared")
			}
			scratchPool.Put(b)
		}()
	}
	wg.Wait()
}

// pooledScratchWrong puts the buffer back and goes on using it: another
// goroutine may have taken it.
//
//fencecheck:system
func pooledScratchWrong() {
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			defer wg.Done()
			b := scratchPool.Get().(*scratch)
			b.n = 0 // want `^race: go@\d+#2 stores scratchPool\.New\(\)\.n here while go@\d+ loads scratchPool\.New\(\)\.n`
			scratchPool.Put(b)
			b.n++
			if b.n != 1 {
				panic("buffer shared") // want `^SC: system pooledScratchWrong is wrong even under sequential consistency`
			}
		}()
	}
	wg.Wait()
}

// emptyPool has no New: Get returns nil when nothing was put.
//
//fencecheck:system
func emptyPool() {
	var p sync.Pool
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		if v := p.Get(); v != nil {
			_ = v.(*scratch)
		}
	}()
	wg.Wait()
}

// emptyPoolWrong asserts the type of what Get returns: nil when the pool
// is empty, and the assertion panics.
//
//fencecheck:system
func emptyPoolWrong() {
	var p sync.Pool
	p.Put(new(scratch))
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		_ = p.Get().(*scratch) // want `^SC: system emptyPoolWrong is wrong even under sequential consistency`
	}()
	wg.Wait()
}
