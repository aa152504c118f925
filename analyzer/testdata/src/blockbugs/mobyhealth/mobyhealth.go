// Package mobyhealth is written in the style of Docker/moby's container
// health monitor: a goroutine runs the health probe until the monitor is
// stopped. The bug is a data race on a shared flag: the stop flag is a
// plain bool, which the probe loop reads while Stop writes it.
package mobyhealth

import "sync/atomic"

// healthMonitor probes one container.
type healthMonitor struct {
	stopped bool
	probes  int32
}

// monitor probes up to three times, until stopped.
func (m *healthMonitor) monitor(done chan struct{}) {
	defer close(done)
	for i := 0; i < 3; i++ {
		if m.stopped { // want `^race: monitor loads m\.stopped here while main stores m\.stopped`
			return
		}
		m.probes++
	}
}

// Stop stops the monitor.
func (m *healthMonitor) Stop() {
	m.stopped = true
}

// atomicMonitor has an atomic stop flag: the fix.
type atomicMonitor struct {
	stopped atomic.Bool
	probes  int32
}

func (m *atomicMonitor) monitor(done chan struct{}) {
	defer close(done)
	for i := 0; i < 3; i++ {
		if m.stopped.Load() {
			return
		}
		m.probes++
	}
}

func (m *atomicMonitor) Stop() {
	m.stopped.Store(true)
}

// stopContainer stops the monitor of a running container.
//
//fencecheck:system
func stopContainer() {
	m := &healthMonitor{}
	done := make(chan struct{})
	go m.monitor(done)
	m.Stop()
	<-done
	_ = m.probes
}

// stopContainerFixed uses atomicMonitor.
//
//fencecheck:system
func stopContainerFixed() {
	m := &atomicMonitor{}
	done := make(chan struct{})
	go m.monitor(done)
	m.Stop()
	<-done
	_ = m.probes
}
