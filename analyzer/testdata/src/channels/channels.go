// Package channels holds systems that synchronise with channels, each bug
// beside its fixed twin.
package channels

import "sync"

// handoff publishes data to the system function through an unbuffered
// channel: the send happens before the receive completes.
//
//fencecheck:system
func handoff() {
	var data int32
	done := make(chan struct{})
	go func() {
		data = 42
		done <- struct{}{}
	}()
	<-done
	if data != 42 {
		panic("stale data")
	}
}

// handoffBuffered does the same through a buffered channel.
//
//fencecheck:system
func handoffBuffered() {
	var data int32
	done := make(chan bool, 1)
	go func() {
		data = 42
		done <- true
	}()
	<-done
	if data != 42 {
		panic("stale data")
	}
}

// writeAfterSend writes after its send: nothing orders that write with the
// receiver's.
//
//fencecheck:system
func writeAfterSend() {
	var x int32
	ch := make(chan int, 1)
	go func() {
		ch <- 1
		x = 1 // want `^race: go@\d+ stores x here while main stores x`
	}()
	<-ch
	x = 2
	_ = x
}

// noReceiver starts a goroutine whose result nobody collects.
//
//fencecheck:system
func noReceiver() {
	results := make(chan int)
	go func() {
		results <- 1 // want `^leak: go@\d+ blocks forever in results <- 1 after system noReceiver returns$`
	}()
}

// noReceiverFixed gives the result channel room for the one result.
//
//fencecheck:system
func noReceiverFixed() {
	results := make(chan int, 1)
	go func() {
		results <- 1
	}()
}

// waitBeforeDrain waits for the workers before it reads their results, on
// an unbuffered channel: the workers wait for a reader that waits for them.
//
//fencecheck:system
func waitBeforeDrain() {
	jobs := make(chan int, 2)
	results := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				results <- j * 2 // want `^deadlock: go@\d+\(w=0\), go@\d+\(w=1\) and main block forever in results <- j \* 2 and wg\.Wait\(\) \(system waitBeforeDrain\)$`
			}
		}()
	}
	jobs <- 1
	jobs <- 2
	close(jobs)
	wg.Wait()
	close(results)
	for r := range results {
		_ = r
	}
}

// workerPool is waitBeforeDrain with a results channel that holds every
// result.
//
//fencecheck:system
func workerPool() {
	jobs := make(chan int, 2)
	results := make(chan int, 2)
	var wg sync.WaitGroup
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				results <- j * 2
			}
		}()
	}
	jobs <- 1
	jobs <- 2
	close(jobs)
	wg.Wait()
	if sum := <-results + <-results; sum != 6 {
		panic("lost a result")
	}
}

// doubleClose closes a channel from two goroutines.
//
//fencecheck:system
func doubleClose() {
	done := make(chan struct{})
	for i := 0; i < 2; i++ {
		go func() {
			close(done) // want `^SC: system doubleClose is wrong even under sequential consistency: the run-time panic "panic: close of closed channel"`
		}()
	}
}

// doubleCloseFixed closes it once, through a sync.Once.
//
//fencecheck:system
func doubleCloseFixed() {
	done := make(chan struct{})
	var once sync.Once
	for i := 0; i < 2; i++ {
		go func() {
			once.Do(func() { close(done) })
		}()
	}
}

// cancelled selects between a result and cancellation: closing quit lets
// the worker go whether or not anybody takes its result.
//
//fencecheck:system
func cancelled() {
	out := make(chan int)
	quit := make(chan struct{})
	go func() {
		select {
		case out <- 1:
		case <-quit:
		}
	}()
	close(quit)
}

// pingPong passes a counter back and forth.
//
//fencecheck:system
func pingPong() {
	ping, pong := make(chan int), make(chan int)
	go func() {
		for i := 0; i < 2; i++ {
			v := <-ping
			pong <- v + 1
		}
	}()
	x := 0
	for i := 0; i < 2; i++ {
		ping <- x
		x = <-pong
	}
	if x != 2 {
		panic("wrong count")
	}
}

// tryReceive polls with a default case and may miss the value: the sender
// is then left behind.
//
//fencecheck:system
func tryReceive() {
	ch := make(chan int)
	got := make(chan int, 1)
	go func() {
		select {
		case v := <-ch:
			got <- v
		default:
			got <- 0
		}
	}()
	go func() {
		ch <- 5 // want `^leak: go@\d+ blocks forever in ch <- 5 after system tryReceive returns$`
	}()
	<-got
}

// closedReceive reads the zero value and false from a closed channel.
//
//fencecheck:system
func closedReceive() {
	ch := make(chan int, 1)
	ch <- 7
	close(ch)
	go func() {
		v, ok := <-ch
		if !ok || v != 7 {
			panic("the buffered value is lost")
		}
		v, ok = <-ch
		if ok || v != 0 {
			panic("a closed channel gave a value")
		}
	}()
}

// noGoroutine receives in a system that starts no goroutine: the channel
// is made by the system function's own body, and nothing ever sends.
//
//fencecheck:system
func noGoroutine() {
	ch := make(chan int)
	<-ch // want `^deadlock: main blocks forever in <-ch \(system noGoroutine\)$`
}

// nilChannel sends on a channel that was never made.
//
//fencecheck:system
func nilChannel() {
	var ch chan int
	go func() { ch <- 1 }() // want `^leak: go@\d+ blocks forever in ch <- 1 after system nilChannel returns$`
}
