package fanout

import (
	"sync"
	"sync/atomic"
)

var sum, x int32

func add(i int, wg *sync.WaitGroup) {
	defer wg.Done()
	atomic.AddInt32(&sum, int32(i))
}

// fanOutSum: a goroutine starts one worker per iteration of a counted loop,
// each given its iteration's i, and waits for them: the sum is 0+1+2.
//
//fencecheck:system
func fanOutSum() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var inner sync.WaitGroup
		for i := 0; i < 3; i++ {
			inner.Add(1)
			go add(i, &inner)
		}
		inner.Wait()
		if atomic.LoadInt32(&sum) != 3 {
			panic("lost a worker")
		}
	}()
	wg.Wait()
}

// fanOutEarly reads the sum before waiting for the workers.
//
//fencecheck:system
func fanOutEarly() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var inner sync.WaitGroup
		for i := range 3 {
			inner.Add(1)
			go add(i, &inner)
		}
		if atomic.LoadInt32(&sum) != 3 {
			panic("read too early")
		}
		inner.Wait()
	}()
	wg.Wait()
}

// fanOutDown counts down by two from 6: the workers add 6 and 4 and 2.
//
//fencecheck:system
func fanOutDown() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var inner sync.WaitGroup
		for i := 6; i > 0; i -= 2 {
			inner.Add(1)
			go add(i, &inner)
		}
		inner.Wait()
		if atomic.LoadInt32(&sum) != 12 {
			panic("lost a worker")
		}
	}()
	wg.Wait()
}

// runTimeCapture: the child captures a local of its parent that the parent
// computed at run time; the go statement orders the parent's store before
// the child's load.
//
//fencecheck:system
func runTimeCapture() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		n := atomic.LoadInt32(&x) + 2
		go func() {
			if n != 2 {
				panic("lost the captured value")
			}
			wg.Done()
		}()
	}()
	wg.Wait()
}
