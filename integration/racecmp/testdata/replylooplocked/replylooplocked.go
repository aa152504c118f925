// Package replylooplocked has a client make a reply channel for each request it
// sends a server, the request/response idiom of actor-style Go. The
// server records the last request it served in a field the client reads
// once its reply has come.
//
// Expected: race-free.
package replylooplocked

import "sync"

type request struct {
	n     int
	reply chan int
}

type server struct {
	last int
}

// system: the server records the request before it replies: the reply
// orders the write before the client's read.
//
//fencecheck:system
func system() {
	s := &server{}
	reqs := make(chan request)
	go func() {
		for r := range reqs {
			s.last = r.n
			r.reply <- r.n * 2
		}
	}()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := range 2 {
			reply := make(chan int)
			reqs <- request{n: i, reply: reply}
			<-reply
			_ = s.last
		}
	}()
	wg.Wait()
	close(reqs)
}
