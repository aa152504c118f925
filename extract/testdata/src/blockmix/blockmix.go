// Package blockmix has systems that block forever in many ways, and some
// that do not: the search for blocking bugs is checked against the
// enumeration of their places on them.
package blockmix

import (
	"sync"
	"time"
)

//fencecheck:system
func lockOrder() {
	var a, b sync.Mutex
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		a.Lock()
		b.Lock()
		b.Unlock()
		a.Unlock()
	}()
	go func() {
		defer wg.Done()
		b.Lock()
		a.Lock()
		a.Unlock()
		b.Unlock()
	}()
	wg.Wait()
}

//fencecheck:system
func leakedSender() {
	ch := make(chan int)
	go func() { ch <- 1 }()
	go func() { ch <- 2 }()
	<-ch
}

//fencecheck:system
func janitor() {
	stop := make(chan struct{})
	work := make(chan int)
	go func() {
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-t.C:
			case <-stop:
				return
			}
		}
	}()
	go func() { <-work }()
	work <- 1
	close(stop)
}

//fencecheck:system
func forgottenClose() {
	jobs := make(chan int, 2)
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range jobs {
			}
		}()
	}
	jobs <- 1
	jobs <- 2
	wg.Wait()
}

//fencecheck:system
func selectBoth() {
	a, b := make(chan int), make(chan int)
	done := make(chan bool)
	go func() {
		select {
		case <-a:
		case <-b:
		}
		done <- true
	}()
	a <- 1
	<-done
	close(b)
}

//fencecheck:system
func condWait() {
	var mu sync.Mutex
	c := sync.NewCond(&mu)
	ready := false
	go func() {
		mu.Lock()
		for !ready {
			c.Wait()
		}
		mu.Unlock()
	}()
	mu.Lock()
	ready = true
	mu.Unlock()
}

//fencecheck:system
func lateStart() {
	ch := make(chan int)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		ch <- 1
	}()
	if len(ch) == 0 {
		<-ch
	}
	wg.Wait()
	go func() { <-ch }()
}
