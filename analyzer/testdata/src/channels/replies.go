package channels

// Requests that carry their reply channel, collected by a worker in a
// slice and answered later, as a batcher answers every caller of a batch
// (eapache/go-resiliency's batcher keeps each work item's future).

// request is a value and the channel its answer goes to.
type request struct {
	n     int
	reply chan int
}

// repliesCollected: two callers each make a request with a reply channel
// of their own; the worker gathers the channels in a slice, then answers
// each: every caller gets its answer.
//
//fencecheck:system
func repliesCollected() {
	in := make(chan *request, 2)
	for i := range 2 {
		go func() {
			r := &request{n: i, reply: make(chan int, 1)}
			in <- r
			if <-r.reply != r.n+1 {
				panic("someone else's answer")
			}
		}()
	}
	var replies []chan int
	var ns []int
	for range 2 {
		r := <-in
		replies = append(replies, r.reply)
		ns = append(ns, r.n)
	}
	for i, c := range replies {
		c <- ns[i] + 1
	}
}

// repliesFirstTwice is its buggy twin: the worker answers the first
// caller twice, and the second caller waits for good.
//
//fencecheck:system
func repliesFirstTwice() {
	in := make(chan *request, 2)
	for i := range 2 {
		go func() {
			r := &request{n: i, reply: make(chan int, 2)}
			in <- r
			<-r.reply // want `^leak: go@\d+\(i=\d\) blocks forever in <-r\.reply after system repliesFirstTwice returns`
		}()
	}
	var replies []chan int
	for range 2 {
		r := <-in
		replies = append(replies, r.reply)
	}
	for range replies {
		replies[0] <- 1
	}
}

// repliesFromSetup: the set-up makes the requests, each with its reply
// channel, and queues them; the worker reads each request's channel
// through the pointer it receives.
//
//fencecheck:system
func repliesFromSetup() {
	in := make(chan *request, 2)
	a, b := make(chan int, 1), make(chan int, 1)
	in <- &request{n: 1, reply: a}
	in <- &request{n: 2, reply: b}
	close(in)
	go func() {
		for r := range in {
			r.reply <- r.n
		}
	}()
	if <-a+<-b != 3 {
		panic("an answer went astray")
	}
}

// requestByValue: the set-up makes a request whose reply channel is a
// field, and main sends the struct by value; the worker answers on the
// copy's channel, which is the same channel.
//
//fencecheck:system
func requestByValue() {
	in := make(chan request, 1)
	r := request{n: 2, reply: make(chan int, 1)}
	done := make(chan bool)
	go func() {
		x := <-in
		x.reply <- x.n * 2
		done <- true
	}()
	in <- r
	if <-r.reply != 4 {
		panic("the answer is not twice the request")
	}
	<-done
}

// requestByValueRenewed is its broken twin: main gives the request a new
// reply channel after sending the copy, and waits on the new one, which
// no one answers.
//
//fencecheck:system
func requestByValueRenewed() {
	in := make(chan request, 1)
	r := request{n: 2, reply: make(chan int, 1)}
	go func() {
		x := <-in
		x.reply <- x.n * 2
	}()
	in <- r
	r.reply = make(chan int, 1)
	<-r.reply // want `^deadlock: main blocks forever in <-r\.reply \(system requestByValueRenewed\)`
}
