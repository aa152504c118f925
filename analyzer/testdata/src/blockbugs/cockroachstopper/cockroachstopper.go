// Package cockroachstopper is written in the style of CockroachDB's
// stop.Stopper, which runs a server's tasks and closes its registered
// closers on shutdown. The bug is an AB-BA lock order: Stop holds the
// stopper's lock while it closes a registered component (taking the
// component's lock), and the component, holding its own lock, starts a
// task with RunTask, which takes the stopper's.
package cockroachstopper

import "sync"

// Stopper runs tasks and stops a server's components.
type Stopper struct {
	mu       sync.Mutex
	stopping bool
	tasks    int32
	closer   *registry
}

// registry is a component that must be closed on shutdown, like a
// rangefeed registry.
type registry struct {
	mu      sync.Mutex
	stopper *Stopper
	feeds   int32
	closed  bool
}

// AddCloser registers c to be closed by Stop.
func (s *Stopper) AddCloser(c *registry) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closer = c
}

// RunTask counts a task in; it reports false when the stopper is
// stopping.
func (s *Stopper) RunTask() bool {
	s.mu.Lock() // want `^deadlock: go@\d+ and main block forever in s\.mu\.Lock\(\) and r\.mu\.Lock\(\) \(system serverShutdown\)$`
	defer s.mu.Unlock()
	if s.stopping {
		return false
	}
	s.tasks++
	return true
}

// Close releases the registry.
func (r *registry) Close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.closed = true
}

// Register adds a feed and starts its catch-up scan as a task, holding
// the registry's lock.
func (r *registry) Register() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return
	}
	if r.stopper.RunTask() {
		r.feeds++
	}
}

// Stop closes the closer under the stopper's lock.
func (s *Stopper) Stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stopping = true
	if s.closer != nil {
		s.closer.Close()
	}
}

// stopFixed takes the closer under the stopper's lock and closes it after.
func (s *Stopper) stopFixed() {
	s.mu.Lock()
	s.stopping = true
	c := s.closer
	s.mu.Unlock()
	if c != nil {
		c.Close()
	}
}

// serverShutdown: a rangefeed registers while the server shuts down.
//
//fencecheck:system
func serverShutdown() {
	s := &Stopper{}
	r := &registry{stopper: s}
	s.AddCloser(r)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); r.Register() }()
	s.Stop()
	wg.Wait()
}

// serverShutdownFixed stops with stopFixed.
//
//fencecheck:system
func serverShutdownFixed() {
	s := &Stopper{}
	r := &registry{stopper: s}
	s.AddCloser(r)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); r.Register() }()
	s.stopFixed()
	wg.Wait()
}
