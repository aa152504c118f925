// Package configvalue follows the configuration holder of the sync/atomic
// documentation's atomic.Value example: the current configuration is
// stored in an atomic.Value, a goroutine replaces it with a new one, and
// readers Load it and assert its type, never seeing a half-written one.
//
// Expected, by hand: reload is correct and race-free (each Config is filled
// before the Store that publishes it, and never written after). editInPlace
// changes the fields of the Config already published: the reader races
// with both writes (race findings) and can see the new limit with the old
// timeout (SC finding on the panic).
package configvalue

import (
	"sync/atomic"
)

// Config is a configuration that is replaced, never edited.
type Config struct {
	limit   int
	timeout int
}

func loadConfig(gen int) *Config {
	return &Config{limit: 10 * gen, timeout: gen}
}

// Holder keeps the current configuration.
type Holder struct {
	current atomic.Value // *Config
}

func (h *Holder) Get() *Config { return h.current.Load().(*Config) }

//fencecheck:system
func reload() {
	var h Holder
	h.current.Store(loadConfig(1))
	go func() {
		h.current.Store(loadConfig(2))
	}()
	c := h.Get()
	if c.limit != 10*c.timeout {
		panic("torn configuration")
	}
}

//fencecheck:system
func editInPlace() {
	var h Holder
	h.current.Store(loadConfig(1))
	go func() {
		c := h.Get()
		c.limit = 20  // want `^race: go@\d+ stores Config\.limit here while main loads Config\.limit`
		c.timeout = 2 // want `^race: go@\d+ stores Config\.timeout here while main loads Config\.timeout`
	}()
	c := h.Get()
	if c.limit != 10*c.timeout {
		panic("torn configuration") // want `^SC: system editInPlace is wrong even under sequential consistency`
	}
}
