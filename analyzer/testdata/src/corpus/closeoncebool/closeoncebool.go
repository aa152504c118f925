// Package closeoncebool is the idempotent Close of package closeonce with
// the error replaced by a bool result (the form `func (s *Server) Close()
// bool` some code on go.uber.org/atomic uses, reporting whether this call
// closed), so that no package-level error value is needed.
//
// Expected, by hand: as for closeonce. closeTwice is correct and race-free;
// checkThenSet releases twice under sequential consistency (SC finding on
// the panic, no race).
package closeoncebool

import (
	"sync"
	"sync/atomic"
)

// Server is something with an idempotent Close.
type Server struct {
	closed   atomic.Bool
	releases atomic.Int32
}

func (s *Server) Close() bool {
	if !s.closed.CompareAndSwap(false, true) {
		return false
	}
	s.releases.Add(1)
	return true
}

//fencecheck:system
func closeTwice() {
	var s Server
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			s.Close()
			wg.Done()
		}()
	}
	wg.Wait()
	if s.releases.Load() != 1 {
		panic("released twice")
	}
}

func (s *Server) closeLoadStore() bool {
	if s.closed.Load() {
		return false
	}
	s.closed.Store(true)
	s.releases.Add(1)
	return true
}

//fencecheck:system
func checkThenSet() {
	var s Server
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			s.closeLoadStore()
			wg.Done()
		}()
	}
	wg.Wait()
	if s.releases.Load() != 1 {
		panic("released twice") // want `^SC: system checkThenSet is wrong even under sequential consistency: `
	}
}
