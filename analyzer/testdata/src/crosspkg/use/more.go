package use

import (
	"context"
	"math/bits"
	"sync"

	"crosspkg/conf"
	"crosspkg/spin"
	"crosspkg/stripe"
)

// workersFromConf starts as many goroutines as another package's
// initialisation says; each records the largest value seen through a
// generic function of that package.
//
//fencecheck:system
func workersFromConf() {
	var mu sync.Mutex
	var best, done int32
	var wg sync.WaitGroup
	if conf.Workers != 2 {
		panic("the initialisation of conf did not run")
	}
	wg.Add(2)
	for i := range 2 {
		go func() {
			defer wg.Done()
			mu.Lock()
			best = conf.Max(best, int32(i+1))
			done++
			mu.Unlock()
		}()
	}
	wg.Wait()
	if best != 2 || done != 2 {
		panic("lost update")
	}
}

// backgroundInGoroutine makes a context in the goroutine that uses it: a
// Background context is never done.
//
//fencecheck:system
func backgroundInGoroutine() {
	ch := make(chan int, 1)
	go func() {
		ctx := context.Background()
		select {
		case ch <- 1:
		case <-ctx.Done():
			panic("a Background context is never done")
		}
	}()
	if <-ch != 1 {
		panic("wrong value")
	}
}

// plainIncrements increments a counter of another package from two
// goroutines: the race is in the other package's code, so it is reported
// here, with both of its accesses (the load of c.n++ too) at their places
// there.
//
//fencecheck:system
func plainIncrements() { // want `race: go@\d+ stores c\.n here while go@\d+#2 loads c\.n at spin\.go:\d+:\d+, .*\(system plainIncrements; at spin\.go:\d+:\d+ in package crosspkg/spin\)`
	var c spin.Counter
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			c.Inc()
			wg.Done()
		}()
	}
	wg.Wait()
}

// stripedCounter counts on a counter of another package whose stripes
// math/bits sizes and a linknamed random number picks; the bits of its
// total are counted with math/bits.
//
//fencecheck:system
func stripedCounter() {
	c := stripe.New(3)
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			c.Add(1)
			wg.Done()
		}()
	}
	wg.Wait()
	if bits.Len64(uint64(c.Value())) != 2 || bits.OnesCount64(uint64(c.Value())) != 1 {
		panic("lost increment")
	}
}

//fencecheck:system
func stripedPlain() { // want `race: go@\d+ stores c.stripes\[0\].c .*stripe.go`
	c := stripe.New(2)
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			c.AddPlain(1)
			wg.Done()
		}()
	}
	wg.Wait()
}
