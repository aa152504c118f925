// Package methodvalue starts a goroutine through a bound method value and
// waits for it on a channel, the way servers start their loops (go s.run).
//
// Expected: race-free.
package methodvalue

type server struct {
	hits int32
	done chan struct{}
}

func (s *server) run() {
	s.hits++
	close(s.done)
}

// system: go s.run through a method value, then wait for done.
//
//fencecheck:system
func system() {
	s := &server{done: make(chan struct{})}
	run := s.run
	go run()
	<-s.done
	if s.hits != 1 {
		panic("lost hit")
	}
}
