package channels

// Channels sent on channels: the request/reply idiom, where a request
// carries the channel its answer goes back on.

type request struct {
	n     int
	reply chan int
}

// answer serves requests until their channel is closed.
func answer(reqs <-chan request) {
	for r := range reqs {
		r.reply <- r.n * 2
	}
}

// requestReply: each client waits on a reply channel of its own.
//
//fencecheck:system
func requestReply() {
	reqs := make(chan request)
	go answer(reqs)
	done := make(chan bool)
	go func() {
		reply := make(chan int)
		reqs <- request{n: 1, reply: reply}
		if <-reply != 2 {
			panic("wrong answer for 1")
		}
		done <- true
	}()
	reply := make(chan int)
	reqs <- request{n: 2, reply: reply}
	if <-reply != 4 {
		panic("wrong answer for 2")
	}
	<-done
	close(reqs)
}

// sharedReply is its buggy twin: two clients share one reply channel and
// may take each other's answers.
//
//fencecheck:system
func sharedReply() {
	reqs := make(chan request)
	go answer(reqs)
	reply := make(chan int, 2)
	done := make(chan bool)
	go func() {
		reqs <- request{n: 1, reply: reply}
		if <-reply != 2 {
			panic("got the other client's answer") // want `^SC: system sharedReply is wrong even under sequential consistency`
		}
		done <- true
	}()
	reqs <- request{n: 2, reply: reply}
	<-reply
	<-done
	close(reqs)
}

// streamReplies: the server closes each reply channel when it has sent
// the answer; the client ranges over it.
//
//fencecheck:system
func streamReplies() {
	reqs := make(chan request, 1)
	go func() {
		r := <-reqs
		r.reply <- r.n
		close(r.reply)
	}()
	reply := make(chan int, 1)
	reqs <- request{n: 3, reply: reply}
	sum := 0 //fencecheck:range 0..3
	for v := range reply {
		sum += v
	}
	if sum != 3 {
		panic("lost the answer")
	}
}

// closedTwice: a server closes the reply channel of a request, and the
// client closes it too once the server is done.
//
//fencecheck:system
func closedTwice() {
	reqs := make(chan request, 1)
	done := make(chan bool)
	go func() {
		r := <-reqs
		close(r.reply)
		done <- true
	}()
	reply := make(chan int)
	reqs <- request{n: 1, reply: reply}
	<-done
	close(reply) // want `^SC: system closedTwice is wrong even under sequential consistency: the run-time panic "panic: close of closed channel"`
}

// handOff passes a channel on a channel: the receiver closes it, which
// releases the sender.
//
//fencecheck:system
func handOff() {
	ready := make(chan chan struct{}, 1)
	go func() {
		c := <-ready
		close(c)
	}()
	c := make(chan struct{})
	ready <- c
	<-c
}

// handOffLost is its buggy twin: the receiver gets a channel of its own,
// so the sender's is never closed.
//
//fencecheck:system
func handOffLost() {
	ready := make(chan chan struct{}, 1)
	go func() {
		<-ready
		c := make(chan struct{})
		close(c)
	}()
	c := make(chan struct{})
	ready <- c
	<-c // want `^deadlock: main blocks forever in <-c \(system handOffLost\)$`
}
