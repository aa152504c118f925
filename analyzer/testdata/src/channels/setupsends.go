package channels

import "sync"

// sendBetweenGos: the set-up sends on a channel after it started a
// goroutine that polls it, so the goroutine may look before the send and
// take its default. The send is modelled where it is: the set-up ends at
// the first go statement.
//
//fencecheck:system
func sendBetweenGos() {
	ch := make(chan int, 1)
	got := 0
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		select {
		case v := <-ch:
			got = v
		default:
		}
		wg.Done()
	}()
	ch <- 1
	go func() { wg.Done() }()
	wg.Wait()
	if got != 1 {
		panic("the worker looked before the send") // want `^SC: system sendBetweenGos is wrong even under sequential consistency`
	}
}

// sendOwnChannel: a channel made after the first go statement is the
// set-up's alone until it passes it on: its send runs in the set-up, and
// the second goroutine always finds the value.
//
//fencecheck:system
func sendOwnChannel() {
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { wg.Done() }()
	ch := make(chan int, 1)
	ch <- 1
	go func() {
		select {
		case v := <-ch:
			if v != 1 {
				panic("wrong value")
			}
		default:
			panic("the value was not there")
		}
		wg.Done()
	}()
	wg.Wait()
}
