// Package gauge is a float gauge in the style of prometheus/client_golang:
// New returns an interface whose methods add to the float's bits with a
// compare-and-swap loop, or (AddRacy) with a load and a separate store.
package gauge

import (
	"math"
	"sync/atomic"

	"example.com/dep/wire"
)

// Gauge is a float that goroutines add to.
type Gauge interface {
	Add(v float64)
	AddRacy(v float64)
	Value() float64
}

type gauge struct {
	bits  uint64
	label wire.Label
}

// New returns a gauge named name.
func New(name string) Gauge {
	if err := wire.Check(name); err != nil {
		panic(err)
	}
	return &gauge{label: wire.Label{Name: name}}
}

func (g *gauge) Add(v float64) {
	for {
		old := atomic.LoadUint64(&g.bits)
		if atomic.CompareAndSwapUint64(&g.bits, old, math.Float64bits(math.Float64frombits(old)+v)) {
			return
		}
	}
}

func (g *gauge) AddRacy(v float64) {
	old := atomic.LoadUint64(&g.bits)
	atomic.StoreUint64(&g.bits, math.Float64bits(math.Float64frombits(old)+v))
}

func (g *gauge) Value() float64 { return math.Float64frombits(atomic.LoadUint64(&g.bits)) }
