// Package closeonce follows the idempotent Close of code built on
// go.uber.org/atomic (an atomic.Bool closed, and `if
// !s.closed.CompareAndSwap(false, true) { return errClosed }` before
// releasing anything; go.uber.org/atomic spelled it CAS before it followed
// the standard library's name), here with the standard library's
// atomic.Bool.
//
// Expected, by hand: closeTwice is correct and race-free (one CAS
// succeeds, so the resources are released once). checkThenSet tests the
// flag with Load and sets it with Store: both callers can see false and
// release twice (SC finding on the panic; every access is atomic, so no
// race). The package-level error made by errors.New is an object compared
// by identity; package closeoncebool is the same idiom with a bool result.
package closeonce

import (
	"errors"
	"sync"
	"sync/atomic"
)

var errClosed = errors.New("server closed")

// Server is something with an idempotent Close.
type Server struct {
	closed   atomic.Bool
	releases atomic.Int32
}

func (s *Server) Close() error {
	if !s.closed.CompareAndSwap(false, true) {
		return errClosed
	}
	s.releases.Add(1)
	return nil
}

//fencecheck:system
func closeTwice() {
	var s Server
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			_ = s.Close()
			wg.Done()
		}()
	}
	wg.Wait()
	if s.releases.Load() != 1 {
		panic("released twice")
	}
}

// closeLoadStore checks and sets the flag in two steps.
func (s *Server) closeLoadStore() error {
	if s.closed.Load() {
		return errClosed
	}
	s.closed.Store(true)
	s.releases.Add(1)
	return nil
}

//fencecheck:system
func checkThenSet() {
	var s Server
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			_ = s.closeLoadStore()
			wg.Done()
		}()
	}
	wg.Wait()
	if s.releases.Load() != 1 {
		panic("released twice") // want `^SC: system checkThenSet is wrong even under sequential consistency`
	}
}
