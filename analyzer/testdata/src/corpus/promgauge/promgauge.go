// Package promgauge follows the counters and gauges of
// github.com/prometheus/client_golang: a gauge holds its float64 value as
// the bits of a uint64 (Set stores math.Float64bits, Add loops on a
// compare-and-swap of the bits), and a counter keeps whole increments in an
// integer word (atomic.AddUint64) and the others in float bits, its value
// the sum of the two.
//
// Expected, by hand: scrapeWhileUpdating is correct and race-free: the
// gauge's two adds both land (0.5 - 0.25 and -0.25 + 0.5 are both 0.25
// exactly), the counter's integer and float parts add up to 3.5, and the
// scraper, reading while the updates run, sees only values the updates can
// make. lostGaugeUpdate adds to the gauge with a load and a separate store
// of the bits: both adds can load 0 and one store overwrites the other (a
// lost update under sequential consistency, SC finding on the panic; every
// access is atomic, so no race).
package promgauge

import (
	"math"
	"sync"
	"sync/atomic"
)

// gauge is a float64 that goes up and down.
type gauge struct {
	valBits uint64
}

func (g *gauge) Set(val float64) {
	atomic.StoreUint64(&g.valBits, math.Float64bits(val))
}

func (g *gauge) Add(val float64) {
	for {
		oldBits := atomic.LoadUint64(&g.valBits)
		newBits := math.Float64bits(math.Float64frombits(oldBits) + val)
		if atomic.CompareAndSwapUint64(&g.valBits, oldBits, newBits) {
			return
		}
	}
}

func (g *gauge) Sub(val float64) { g.Add(val * -1) }

func (g *gauge) get() float64 { return math.Float64frombits(atomic.LoadUint64(&g.valBits)) }

// counter only goes up: whole increments go to valInt, the rest to
// valBits.
type counter struct {
	valBits uint64
	valInt  uint64
}

func (c *counter) Add(v float64) {
	if v < 0 {
		panic("counter cannot decrease in value")
	}
	ival := uint64(v)
	if float64(ival) == v {
		atomic.AddUint64(&c.valInt, ival)
		return
	}
	for {
		oldBits := atomic.LoadUint64(&c.valBits)
		newBits := math.Float64bits(math.Float64frombits(oldBits) + v)
		if atomic.CompareAndSwapUint64(&c.valBits, oldBits, newBits) {
			return
		}
	}
}

func (c *counter) Inc() { atomic.AddUint64(&c.valInt, 1) }

func (c *counter) get() float64 {
	fval := math.Float64frombits(atomic.LoadUint64(&c.valBits))
	ival := atomic.LoadUint64(&c.valInt)
	return fval + float64(ival)
}

//fencecheck:system
func scrapeWhileUpdating() {
	var g gauge
	var c counter
	g.Set(0)
	var wg sync.WaitGroup
	wg.Add(3)
	go func() {
		g.Add(0.5)
		c.Add(2)
		wg.Done()
	}()
	go func() {
		g.Sub(0.25)
		c.Add(1.5)
		wg.Done()
	}()
	go func() {
		// A scrape while the updates run.
		if v := g.get(); v != 0 && v != 0.5 && v != -0.25 && v != 0.25 {
			panic("gauge value no update makes")
		}
		if v := c.get(); v < 0 || v > 3.5 {
			panic("counter out of range")
		}
		wg.Done()
	}()
	wg.Wait()
	if g.get() != 0.25 || c.get() != 3.5 {
		panic("lost an update")
	}
}

// addLoadStore adds with a load and a store of the bits.
func (g *gauge) addLoadStore(val float64) {
	oldBits := atomic.LoadUint64(&g.valBits)
	atomic.StoreUint64(&g.valBits, math.Float64bits(math.Float64frombits(oldBits)+val))
}

//fencecheck:system
func lostGaugeUpdate() {
	var g gauge
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		g.addLoadStore(0.5)
		wg.Done()
	}()
	go func() {
		g.addLoadStore(-0.25)
		wg.Done()
	}()
	wg.Wait()
	if g.get() != 0.25 {
		panic("lost an update") // want `^SC: system lostGaugeUpdate is wrong even under sequential consistency: `
	}
}
