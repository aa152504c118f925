// Package replyloop has a client make a reply channel for each request it
// sends a server, the request/response idiom of actor-style Go. The
// server records the last request it served in a field the client reads
// once its reply has come.
//
// Expected: racy.
package replyloop

import "sync"

type request struct {
	n     int
	reply chan int
}

type server struct {
	last int
}

// system: the server records the request after it replies, so the
// client's read is not ordered after the write.
//
//fencecheck:system
func system() {
	s := &server{}
	reqs := make(chan request)
	go func() {
		for r := range reqs {
			r.reply <- r.n * 2
			s.last = r.n
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
