// Package supervisor follows thejerf/suture's Supervisor starting its
// services: the set-up ranges over the services by name and starts a
// goroutine per service, each of which reports that it runs to the
// supervisor under its lock.
//
// Expected, by hand: serve is correct and race-free (the range may visit
// the services in either order, and each reports once under the lock).
// The mutant serveUnlocked counts the running services without the lock:
// the two services' increments race (one finding, on running), and one
// can be lost (SC).
package supervisor

import "sync"

// Service is one service of a supervisor.
type Service struct {
	name string
	runs int32
}

// Supervisor keeps the services by name and the number running.
type Supervisor struct {
	mu       sync.Mutex
	services map[string]*Service
	running  int32
}

func (s *Supervisor) started(svc *Service, locked bool) {
	if !locked {
		s.running++ // want `^race: go@\d+\(#0\) stores sup.running here while go@\d+\(#1\) loads sup.running at supervisor.go:\d+:\d+, and nothing orders the two \(system serveUnlocked\)`
		return
	}
	s.mu.Lock()
	s.running++
	svc.runs++
	s.mu.Unlock()
}

func newSupervisor() *Supervisor {
	return &Supervisor{services: map[string]*Service{"http": {name: "http"}, "grpc": {name: "grpc"}}}
}

//fencecheck:system
func serve() {
	sup := newSupervisor()
	var wg sync.WaitGroup
	for _, svc := range sup.services {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sup.started(svc, true)
		}()
	}
	wg.Wait()
	if sup.running != 2 || sup.services["http"].runs != 1 || sup.services["grpc"].runs != 1 {
		panic("a service started twice or never")
	}
}

//fencecheck:system
func serveUnlocked() {
	sup := newSupervisor()
	var wg sync.WaitGroup
	for _, svc := range sup.services {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sup.started(svc, false)
		}()
	}
	wg.Wait()
	if sup.running != 2 {
		panic("a start lost") // want `^SC: system serveUnlocked is wrong even under sequential consistency: the panic is reached here`
	}
}
