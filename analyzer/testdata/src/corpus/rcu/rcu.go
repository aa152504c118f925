// Package rcu follows the read-copy-update configuration reload of many Go
// servers (the pattern sync.Map uses for its read-only map, and that
// servers use to hot-swap settings): readers Load an atomic.Pointer to an
// immutable config and use it without a lock; a reloader builds a fresh
// copy, fills it, and Stores the pointer.
//
// Expected, by hand: reload is correct and race-free (the config's fields
// are written before the Store that publishes it and read after the Load
// that returns it). editInPlace updates the published config instead of a
// copy: the reader loads the fields while the reloader stores them (races
// on cfg.port and cfg.limit) and can see the new port with the old limit
// (SC finding on the panic).
package rcu

import (
	"sync"
	"sync/atomic"
)

type Config struct {
	port  int
	limit int
}

// Holder serves the current config.
type Holder struct {
	current atomic.Pointer[Config]
}

func (h *Holder) Get() *Config { return h.current.Load() }

func (h *Holder) Reload(port, limit int) {
	c := &Config{}
	c.port = port
	c.limit = limit
	h.current.Store(c)
}

//fencecheck:system
func reload() {
	var h Holder
	h.current.Store(&Config{port: 80, limit: 8})
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		h.Reload(81, 9)
		wg.Done()
	}()
	go func() {
		c := h.Get()
		if c.limit-c.port != -72 {
			panic("mixed configs")
		}
		wg.Done()
	}()
	wg.Wait()
}

// editInPlace changes the published config.
func (h *Holder) editInPlace(port, limit int) {
	c := h.current.Load()
	c.port = port   // want `^race: go@\d+ stores Config\.port here`
	c.limit = limit // want `^race: go@\d+ stores Config\.limit here`
}

//fencecheck:system
func inPlace() {
	var h Holder
	h.current.Store(&Config{port: 80, limit: 8})
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		h.editInPlace(81, 9)
		wg.Done()
	}()
	go func() {
		c := h.Get()
		if c.limit-c.port != -72 {
			panic("mixed configs") // want `^SC: system inPlace is wrong even under sequential consistency: `
		}
		wg.Done()
	}()
	wg.Wait()
}
