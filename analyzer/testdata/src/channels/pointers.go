package channels

import "errors"

// errBad is the error one of two workers reports.
var errBad = errors.New("bad")

// errc collects one error value from each of two workers.
//
//fencecheck:system
func errc() {
	errc := make(chan error, 2)
	go func() { errc <- nil }()
	go func() { errc <- errBad }()
	var n int //fencecheck:range 0..2
	for range 2 {
		if err := <-errc; err != nil {
			n++
		}
	}
	if n != 1 {
		panic("wrong count")
	}
}

type job struct{ id int32 }

// jobs hands a pointer to a goroutine, which writes through it before it
// closes done: the close orders the write before the system's read.
//
//fencecheck:system
func jobs() {
	jc := make(chan *job)
	done := make(chan struct{})
	go func() {
		j := <-jc
		j.id = 2
		close(done)
	}()
	j := &job{id: 1}
	jc <- j
	<-done
	if j.id != 2 {
		panic("lost")
	}
}
