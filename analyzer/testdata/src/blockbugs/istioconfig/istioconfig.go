// Package istioconfig is written in the style of Istio's config
// controller, whose HasSynced the discovery server checks before it
// pushes the configuration. The bug is an order violation with no data
// race (every access is atomic, so the race detector stays silent): the
// controller marks its cache synced before it stores the initial list of
// configs, so the discovery server can see a synced but empty cache and
// push an empty configuration.
package istioconfig

import (
	"sync"
	"sync/atomic"
)

// controller caches the configs of the cluster.
type controller struct {
	synced  atomic.Bool
	configs atomic.Int32
}

// run lists the configs and marks the cache synced, in the wrong order.
func (c *controller) run() {
	c.synced.Store(true)
	c.configs.Store(3)
}

// runFixed stores the configs first.
func (c *controller) runFixed() {
	c.configs.Store(3)
	c.synced.Store(true)
}

// push pushes the configuration once the cache has synced.
func push(c *controller) {
	if c.synced.Load() && c.configs.Load() == 0 {
		panic("pushed an empty configuration") // want `^SC: system startup is wrong even under sequential consistency: the panic is reached here`
	}
}

// startup runs the controller while the discovery server starts.
//
//fencecheck:system
func startup() {
	c := &controller{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); c.run() }()
	push(c)
	wg.Wait()
}

// startupFixed runs with runFixed.
//
//fencecheck:system
func startupFixed() {
	c := &controller{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); c.runFixed() }()
	push(c)
	wg.Wait()
}
