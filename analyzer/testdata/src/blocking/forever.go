package blocking

import "time"

// Blocking bugs that only a search of the states finds: a goroutine that
// serves requests on a ticker for ever can write the channel that another
// waits on, so no bad state made of places is one; but in the runs that
// lead there, nothing will ever make it write.

// replyNeverAsked: main waits for a reply to a request it never sends,
// while the server ticks on.
//
//fencecheck:system
func replyNeverAsked() {
	t := time.NewTicker(time.Millisecond)
	req := make(chan int)
	res := make(chan int)
	go func() {
		for {
			select {
			case <-t.C:
			case v := <-req:
				res <- v
			}
		}
	}()
	<-res // want `^deadlock: main blocks forever in <-res \(system replyNeverAsked\)$`
}

// replyAsked: main sends its request, and the server replies: no bug.
//
//fencecheck:system
func replyAsked() {
	t := time.NewTicker(time.Millisecond)
	req := make(chan int)
	res := make(chan int)
	go func() {
		for {
			select {
			case <-t.C:
			case v := <-req:
				res <- v
			}
		}
	}()
	req <- 1
	<-res
}

// workerNeverAsks: a worker waits for a reply that no request leads to,
// after main has returned.
//
//fencecheck:system
func workerNeverAsks() {
	t := time.NewTicker(time.Millisecond)
	req := make(chan int)
	res := make(chan int)
	go func() {
		for {
			select {
			case <-t.C:
			case v := <-req:
				res <- v
			}
		}
	}()
	go func() {
		<-res // want `^leak: go@\d+ blocks forever in <-res after system workerNeverAsks returns$`
	}()
}

// replyTakenTwice: two workers ask once each, and the first receives
// twice: it takes the other's reply, or waits for good for a third.
//
//fencecheck:system
func replyTakenTwice() {
	t := time.NewTicker(time.Millisecond)
	req := make(chan int)
	res := make(chan int)
	go func() {
		for {
			select {
			case <-t.C:
			case v := <-req:
				res <- v
			}
		}
	}()
	go func() {
		req <- 1
		<-res
		<-res // want `^leak: go@\d+ blocks forever in <-res after system replyTakenTwice returns$`
	}()
	go func() {
		req <- 2
		<-res
	}()
}
