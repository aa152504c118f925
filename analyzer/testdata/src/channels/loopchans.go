package channels

import "sync"

// Channels made in a loop of a goroutine: a client that makes a reply
// channel for each request it sends a server (the request/response idiom
// of actor-style Go), and a worker per job whose channel's capacity the
// package's initialisation computes, as panjf2000/ants sizes its workers'
// task channels (workerChanCap; ants asks runtime.GOMAXPROCS, which would
// make every system of this package a variant per value).

type loopRequest struct {
	n     int
	reply chan int
}

func loopServer(reqs chan loopRequest) {
	for r := range reqs {
		r.reply <- r.n * 2
	}
}

// perRequestReply: each request carries a fresh reply channel.
//
//fencecheck:system
func perRequestReply() {
	reqs := make(chan loopRequest)
	go loopServer(reqs)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := range 2 {
			reply := make(chan int)
			reqs <- loopRequest{n: i, reply: reply}
			if v := <-reply; v != i*2 {
				panic("a reply for another request")
			}
		}
	}()
	wg.Wait()
	close(reqs)
}

// perRequestReplyLost: the server answers one request only; the client
// waits for the second reply forever.
//
//fencecheck:system
func perRequestReplyLost() {
	reqs := make(chan loopRequest, 2)
	go func() {
		r := <-reqs
		r.reply <- r.n
	}()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := range 2 {
			reply := make(chan int)
			reqs <- loopRequest{n: i, reply: reply}
			<-reply // want `^deadlock: go@\d+ and main block forever in <-reply and wg\.Wait\(\) \(system perRequestReplyLost\)`
		}
	}()
	wg.Wait()
}

const taskProcs = 2

var taskChanCap = func() int {
	if taskProcs == 1 {
		return 0
	}
	return 1
}()

// workerPerJob: each job gets a worker with a task channel of its own,
// which a closure captures.
//
//fencecheck:system
func workerPerJob() {
	done := make(chan bool)
	go func() {
		for range 2 {
			tasks := make(chan int, taskChanCap)
			go func() { tasks <- 1 }()
			<-tasks
		}
		done <- true
	}()
	<-done
}
