// Package use checks systems that call into the packages beside it.
package use

import (
	"sync"

	"crosspkg/ring"
	"crosspkg/spin"
)

type counter struct {
	mu spin.Lock
	n  int
}

//fencecheck:system
func lockedCounter() {
	var c counter
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			c.mu.Lock()
			c.n++
			c.mu.Unlock()
			wg.Done()
		}()
	}
	wg.Wait()
	if c.n != 2 {
		panic("lost update")
	}
}

type flagged struct {
	f spin.Flag
	n int
}

//fencecheck:system
func brokenFlag() {
	var c flagged
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			c.f.Acquire()
			c.n++ // want `race: .*`
			c.f.Release()
			wg.Done()
		}()
	}
	wg.Wait()
}

//fencecheck:system
func ringHandoff() {
	r := ring.New(2)
	var got int
	done := make(chan struct{})
	go func() {
		r.Push(7)
	}()
	go func() {
		defer close(done)
		for {
			if v, ok := r.Pop(); ok {
				got = v
				return
			}
		}
	}()
	<-done
	if got != 7 {
		panic("wrong value")
	}
}

//fencecheck:system
func ringUnordered() { // want `race: go@\d+ loads r\.buf\[0\] here .*\(system ringUnordered; at ring\.go:48:7 in package crosspkg/ring\)`
	r := ring.New(2)
	var got int
	done := make(chan struct{})
	go func() {
		r.PushUnordered(7)
	}()
	go func() {
		defer close(done)
		for {
			if v, ok := r.Pop(); ok {
				got = v
				return
			}
		}
	}()
	<-done
	if got != 7 {
		panic("wrong value") // want `SC: system ringUnordered is wrong even under sequential consistency`
	}
}
