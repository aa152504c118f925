// Package atomicfloat follows go.uber.org/atomic's Float64: a wrapper
// type around an atomic Uint64 of the float's bits, with Load, Store, Add
// and Sub, and a CompareAndSwap that compares bits, not floats. The
// library's documentation says why: NaN != NaN, so a loop that loads the
// value, computes and swaps would never succeed once a NaN is stored;
// comparing bits lets a stored NaN equal the NaN just loaded.
//
// Expected, by hand: ratioThenAdd is correct: one goroutine stores a ratio
// that is 0/0, NaN, before or after the other adds 1; the add's loop ends
// whatever it loads (NaN + 1 is the same NaN), so both goroutines finish
// and the value is NaN or, when the store comes last, NaN too. floatCAS
// compares the loaded value with == before swapping, as a first version
// of such a wrapper might: once the NaN is stored the comparison is always
// false, and the add spins forever; wg.Wait never returns (a deadlock
// finding: the adder spins in its load while the value is the NaN, and main
// waits).
package atomicfloat

import (
	"math"
	"sync"
	"sync/atomic"
)

// Uint64 is an atomic uint64.
type Uint64 struct {
	v uint64
}

func (i *Uint64) Load() uint64     { return atomic.LoadUint64(&i.v) } // want `^deadlock: go@\d+ and main block forever in atomic\.LoadUint64\(&i\.v\) and wg\.Wait\(\) \(system floatCAS\)`
func (i *Uint64) Store(val uint64) { atomic.StoreUint64(&i.v, val) }
func (i *Uint64) CAS(old, new uint64) bool {
	return atomic.CompareAndSwapUint64(&i.v, old, new)
}

// Float64 is an atomic float64.
type Float64 struct {
	v Uint64
}

func (f *Float64) Load() float64     { return math.Float64frombits(f.v.Load()) }
func (f *Float64) Store(val float64) { f.v.Store(math.Float64bits(val)) }

// CompareAndSwap compares bits: a stored NaN equals the same NaN.
func (f *Float64) CompareAndSwap(old, new float64) bool {
	return f.v.CAS(math.Float64bits(old), math.Float64bits(new))
}

// Add adds delta and returns the new value.
func (f *Float64) Add(delta float64) float64 {
	for {
		old := f.Load()
		new := old + delta
		if f.CompareAndSwap(old, new) {
			return new
		}
	}
}

func (f *Float64) Sub(delta float64) float64 { return f.Add(-delta) }

// ratio is hits/total, NaN when both are 0.
func ratio(hits, total float64) float64 { return hits / total }

//fencecheck:system
func ratioThenAdd() {
	var f Float64
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		f.Store(ratio(0, 0))
		wg.Done()
	}()
	go func() {
		f.Add(1)
		f.Sub(0.5)
		wg.Done()
	}()
	wg.Wait()
	if v := f.Load(); !math.IsNaN(v) {
		panic("the NaN was lost")
	}
}

// casFloat compares the loaded value as a float before it swaps.
func (f *Float64) casFloat(old, new float64) bool {
	cur := f.v.Load()
	if math.Float64frombits(cur) != old {
		return false
	}
	return f.v.CAS(cur, math.Float64bits(new))
}

func (f *Float64) addFloatCAS(delta float64) {
	for {
		old := f.Load()
		if f.casFloat(old, old+delta) {
			return
		}
	}
}

//fencecheck:system
func floatCAS() {
	var f Float64
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		f.Store(ratio(0, 0))
		wg.Done()
	}()
	go func() {
		f.addFloatCAS(1)
		wg.Done()
	}()
	wg.Wait()
}
