package runtimecalls

import (
	"sync"
	"sync/atomic"
)

// highWater keeps the highest value observed, with a compare-and-swap loop
// over the built-in max of values known only at run time, as metrics
// libraries keep a gauge's peak.
type highWater struct{ v atomic.Int64 }

func (h *highWater) observe(x int64) {
	for {
		old := h.v.Load()
		next := max(old, x)
		if next == old || h.v.CompareAndSwap(old, next) {
			return
		}
	}
}

// observeLossy stores the maximum with a load and a separate store: an
// observation made between the two is lost.
func (h *highWater) observeLossy(x int64) {
	h.v.Store(max(h.v.Load(), x))
}

//fencecheck:system
func highWaterSystem() {
	var h highWater
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); h.observe(3) }()
	go func() { defer wg.Done(); h.observe(5) }()
	wg.Wait()
	if h.v.Load() != 5 {
		panic("lost the maximum")
	}
}

//fencecheck:system
func highWaterLossy() {
	var h highWater
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); h.observeLossy(3) }()
	go func() { defer wg.Done(); h.observeLossy(5) }()
	wg.Wait()
	if h.v.Load() != 5 {
		panic("lost the maximum") // want `^SC: system highWaterLossy is wrong even under sequential consistency`
	}
}

// unsignedMinMax compares values of 2^63 and more as unsigned, as Go does.
//
//fencecheck:system
func unsignedMinMax() {
	var x atomic.Uint64
	done := make(chan struct{})
	go func() { x.Store(1 << 63); close(done) }()
	<-done
	v := x.Load()
	if min(v, 7) != 7 || max(v, 7, 3) != 1<<63 || min(int64(v), 7) != -1<<63 {
		panic("compared as signed")
	}
}
