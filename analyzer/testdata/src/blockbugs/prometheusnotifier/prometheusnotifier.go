// Package prometheusnotifier is written in the style of Prometheus'
// alert notifier: Send queues alerts and wakes the sending loop through
// the more channel; Stop closes that channel when the manager shuts down.
// The bug is a send on a closed channel: Send checks that the notifier is
// not stopping and lets go of the lock before it wakes the loop, so Stop
// can close the channel in between, and the send panics.
package prometheusnotifier

import "sync"

// Manager queues alerts for the Alertmanagers.
type Manager struct {
	mu       sync.Mutex
	stopping bool
	queued   int32
	more     chan struct{}
}

// setMore wakes the sending loop, unless it is already woken.
func (n *Manager) setMore() {
	select { // want `^SC: system ruleAlerts is wrong even under sequential consistency: the run-time panic "panic: send on closed channel"`
	case n.more <- struct{}{}:
	default:
	}
}

// Send queues alerts.
func (n *Manager) Send(alerts int32) {
	n.mu.Lock()
	if n.stopping {
		n.mu.Unlock()
		return
	}
	n.queued += alerts
	n.mu.Unlock()
	n.setMore()
}

// sendFixed wakes the loop before it lets go of the lock.
func (n *Manager) sendFixed(alerts int32) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.stopping {
		return
	}
	n.queued += alerts
	n.setMore()
}

// Stop stops the notifier.
func (n *Manager) Stop() {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.stopping = true
	close(n.more)
}

// ruleAlerts: the rule manager sends alerts while Prometheus shuts down.
//
//fencecheck:system
func ruleAlerts() {
	n := &Manager{more: make(chan struct{}, 1)}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); n.Send(2) }()
	n.Stop()
	wg.Wait()
}

// ruleAlertsFixed sends with sendFixed.
//
//fencecheck:system
func ruleAlertsFixed() {
	n := &Manager{more: make(chan struct{}, 1)}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); n.sendFixed(2) }()
	n.Stop()
	wg.Wait()
}
