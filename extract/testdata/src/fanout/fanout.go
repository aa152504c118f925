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

// capturedSum: the workers' closures capture the loop variable, each its
// own copy since Go 1.22: the sum is 0+1+2.
//
//fencecheck:system
func capturedSum() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var inner sync.WaitGroup
		for i := 0; i < 3; i++ {
			inner.Add(1)
			go func() {
				defer inner.Done()
				atomic.AddInt32(&sum, int32(i))
			}()
		}
		inner.Wait()
		if atomic.LoadInt32(&sum) != 3 {
			panic("lost a worker")
		}
	}()
	wg.Wait()
}

// capturedShared expects the workers to see one variable, the last value
// of i: with a copy per iteration, the sum is 0+1+2, never 9.
//
//fencecheck:system
func capturedShared() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var inner sync.WaitGroup
		for i := 0; i < 3; i++ {
			inner.Add(1)
			go func() {
				defer inner.Done()
				atomic.AddInt32(&sum, int32(i))
			}()
		}
		inner.Wait()
		if atomic.LoadInt32(&sum) != 9 {
			panic("each worker saw its own i")
		}
	}()
	wg.Wait()
}

// capturedRange: a range over an integer, whose variable the workers
// capture; the worker of i = 1 panics.
//
//fencecheck:system
func capturedRange() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var inner sync.WaitGroup
		for i := range 3 {
			inner.Add(1)
			go func() {
				defer inner.Done()
				if i == 1 {
					panic("one")
				}
			}()
		}
		inner.Wait()
	}()
	wg.Wait()
}

// capturedParent: the parent reads the loop variable too, in the
// iteration's block: the workers add 1 and 2, as the parent does.
//
//fencecheck:system
func capturedParent() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var inner sync.WaitGroup
		for i := 1; i < 3; i++ {
			atomic.AddInt32(&x, int32(i))
			inner.Add(1)
			go func() {
				defer inner.Done()
				atomic.AddInt32(&sum, int32(i))
			}()
		}
		inner.Wait()
		if atomic.LoadInt32(&sum) != atomic.LoadInt32(&x) {
			panic("different values")
		}
	}()
	wg.Wait()
}

// fanIn: a goroutine makes a channel, and the workers it starts send on
// it: the results are 0 and 2.
//
//fencecheck:system
func fanIn() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		results := make(chan int)
		for i := 0; i < 2; i++ {
			go func(n int) { results <- n * 2 }(i)
		}
		if <-results+<-results != 2 {
			panic("wrong sum")
		}
	}()
	wg.Wait()
}

// fanInFirst expects the first result to be the first worker's: either
// worker may send first.
//
//fencecheck:system
func fanInFirst() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		results := make(chan int, 2)
		for i := 0; i < 2; i++ {
			go func() { results <- i }()
		}
		if <-results != 0 {
			panic("the second worker sent first")
		}
		<-results
	}()
	wg.Wait()
}

// chanTwice: the channel variable changes after the worker captured it;
// the worker may send on either channel (a race on c), and on the first
// the goroutine waits for ever on the second.
//
//fencecheck:system
func chanTwice() {
	go func() {
		c := make(chan int, 1)
		go func() { c <- 1 }()
		c = make(chan int, 1)
		<-c
	}()
}
