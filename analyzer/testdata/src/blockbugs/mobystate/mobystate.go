// Package mobystate is written in the style of Docker/moby's container
// state (container.State), which the daemon's exit monitor and the API
// handlers both lock. The bug is double locking: SetStopped, holding the
// state's lock, marks a container whose removal is in progress dead with
// SetDead, which takes the lock again. It happens only when `docker rm -f`
// marked the removal before the monitor saw the process exit.
package mobystate

import "sync"

// State is the run state of one container.
type State struct {
	mu                sync.Mutex
	Running           bool
	Dead              bool
	RemovalInProgress bool
	ExitCode          int32
}

// SetRemovalInProgress marks the container as being removed; it reports
// whether it was already.
func (s *State) SetRemovalInProgress() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.RemovalInProgress {
		return true
	}
	s.RemovalInProgress = true
	return false
}

// SetDead marks the container dead.
func (s *State) SetDead() {
	s.mu.Lock() // want `^deadlock: go@\d+ and main block forever in s\.mu\.Lock\(\) and wg\.Wait\(\) \(system containerExit\)$`
	s.Dead = true
	s.mu.Unlock()
}

// SetStopped records the exit of the container's process.
func (s *State) SetStopped(exitCode int32) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.Running = false
	s.ExitCode = exitCode
	if s.RemovalInProgress {
		s.SetDead()
	}
}

// setStoppedFixed sets Dead itself, under the lock it holds.
func (s *State) setStoppedFixed(exitCode int32) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.Running = false
	s.ExitCode = exitCode
	if s.RemovalInProgress {
		s.Dead = true
	}
}

// containerExit: the process exits (the monitor) while the user removes
// the container.
//
//fencecheck:system
func containerExit() {
	s := &State{Running: true}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); s.SetStopped(137) }()
	go func() { defer wg.Done(); s.SetRemovalInProgress() }()
	wg.Wait()
}

// containerExitFixed stops with setStoppedFixed.
//
//fencecheck:system
func containerExitFixed() {
	s := &State{Running: true}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); s.setStoppedFixed(137) }()
	go func() { defer wg.Done(); s.SetRemovalInProgress() }()
	wg.Wait()
}
