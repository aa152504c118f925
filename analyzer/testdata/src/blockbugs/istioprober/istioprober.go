// Package istioprober is written in the style of Istio's pilot-agent
// readiness prober, which runs the application's probe in a goroutine and
// gives up after a timeout. The bug is the classic leak of a timeout
// select: the probe's result channel is unbuffered, so when the timeout
// wins, the probe goroutine blocks forever on its send.
package istioprober

import "time"

// prober checks the application's readiness.
type prober struct {
	timeout time.Duration
}

// check runs the application's probe.
func (p *prober) check() bool {
	return true
}

// Probe runs check, giving up after p.timeout.
func (p *prober) Probe(result chan bool) bool {
	go func() {
		result <- p.check() // want `^leak: go@\d+ blocks forever in result <- p\.check\(\) after system readiness returns$`
	}()
	select {
	case ok := <-result:
		return ok
	case <-time.After(p.timeout):
		return false
	}
}

// readiness probes with an unbuffered result channel.
//
//fencecheck:system
func readiness() {
	p := &prober{timeout: time.Millisecond}
	result := make(chan bool)
	p.Probe(result)
}

// readinessFixed gives the result channel room for the late result.
//
//fencecheck:system
func readinessFixed() {
	p := &prober{timeout: time.Millisecond}
	result := make(chan bool, 1)
	p.Probe(result)
}
