package blocking

import (
	"os"
	"sync/atomic"
	"time"
)

// Blocking bugs that only a search of the states finds: a goroutine that
// serves requests on a ticker for ever can write the channel that another
// waits on, so no bad state made of places is one; but in the runs that
// lead there, nothing will ever make it write.

// serve replies to each request with its value, and ticks between them,
// for ever.
func serve(req <-chan int, res chan<- int) {
	t := time.NewTicker(time.Millisecond)
	for {
		select {
		case <-t.C:
		case v := <-req:
			res <- v
		}
	}
}

// replyNeverAsked: main waits for a reply to a request it never sends,
// while the server ticks on.
//
//fencecheck:system
func replyNeverAsked() {
	req := make(chan int)
	res := make(chan int)
	go serve(req, res)
	<-res // want `^deadlock: main blocks forever in <-res \(system replyNeverAsked\)$`
}

// replyAsked: main sends its request, and the server replies: no bug.
//
//fencecheck:system
func replyAsked() {
	req := make(chan int)
	res := make(chan int)
	go serve(req, res)
	req <- 1
	<-res
}

// workerNeverAsks: a worker waits for a reply that no request leads to,
// after main has returned.
//
//fencecheck:system
func workerNeverAsks() {
	req := make(chan int)
	res := make(chan int)
	go serve(req, res)
	go func() {
		<-res // want `^leak: go@\d+ blocks forever in <-res after system workerNeverAsks returns$`
	}()
}

// replyTakenTwice: two workers ask once each, and the first receives
// twice: it takes the other's reply, or waits for good for a third.
//
//fencecheck:system
func replyTakenTwice() {
	req := make(chan int)
	res := make(chan int)
	go serve(req, res)
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

// spinStores loops for ever; a refusal (os.Getpid, which fencecheck does
// not model) sits on a path no run takes.
func spinStores(v *atomic.Int32) {
	for {
		v.Store(1)
		if v.Load() == 7 {
			os.Getpid()
		}
	}
}

// neverStarted: a goroutine that another starts only when v is 5 never
// starts; it is no leak (it once was one, as a goroutine waiting for its
// go statement).
//
//fencecheck:system
func neverStarted() {
	v := new(atomic.Int32)
	go spinStores(v)
	go func() {
		if v.Load() == 5 {
			go func() { v.Store(2) }()
		}
	}()
}

func main() {}

// goMain starts a goroutine that runs a function called main: the system
// function's body is still the one whose wait is a deadlock.
//
//fencecheck:system
func goMain() {
	go main()
	req := make(chan int)
	res := make(chan int)
	go serve(req, res)
	<-res // want `^deadlock: main#2 blocks forever in <-res \(system goMain\)$`
}
