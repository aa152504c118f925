package unsupported

// A request carries the channel of its reply.
type request struct {
	n     int
	reply chan int
}

//fencecheck:system
func channels() {
	reqs := make(chan request) // want `unsupported in a fencecheck system: a channel of unsupported\.request, whose elements hold a channel \(reply chan int\): a channel sent on a channel is not modelled`
	go func() {
		r := <-reqs
		r.reply <- r.n * 2
	}()
	reply := make(chan int)
	reqs <- request{1, reply}
	<-reply
}

// A struct element with a slice in it.
type batch struct {
	id    int
	items []int
}

//fencecheck:system
func batches() {
	b := make(chan batch, 1) // want `unsupported in a fencecheck system: a channel of unsupported\.batch, whose elements hold a value of type \[\]int \(items\)`
	b <- batch{1, nil}
	go func() { <-b }()
}
