// Package floats checks systems that compute with float64 and float32
// values: a counter that adds a float with a compare-and-swap loop over its
// bits (math.Float64bits, Float64frombits), a float field guarded by a
// mutex, and comparisons where NaN and negative zero decide the outcome.
// fencecheck computes every value as Go does (IEEE 754): a correct system
// is silent; a lost update, a racy field, a NaN that a negated comparison
// lets through and a negative zero are found.
package floats

import (
	"math"
	"sync"
	"sync/atomic"
)

// counter holds a float64 as its bits, updated atomically.
type counter struct{ bits uint64 }

// add adds delta with a compare-and-swap loop: no update is lost.
func (c *counter) add(delta float64) {
	for {
		old := atomic.LoadUint64(&c.bits)
		next := math.Float64bits(math.Float64frombits(old) + delta)
		if atomic.CompareAndSwapUint64(&c.bits, old, next) {
			return
		}
	}
}

// addLossy loads and stores atomically, but not as one step.
func (c *counter) addLossy(delta float64) {
	old := atomic.LoadUint64(&c.bits)
	atomic.StoreUint64(&c.bits, math.Float64bits(math.Float64frombits(old)+delta))
}

func (c *counter) value() float64 { return math.Float64frombits(atomic.LoadUint64(&c.bits)) }

// casCounter is correct: both additions land, in either order 0.1 + 0.2
// and 0.2 + 0.1 round to the same float64.
//
//fencecheck:system
func casCounter() {
	var c counter
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { c.add(0.1); wg.Done() }()
	go func() { c.add(0.2); wg.Done() }()
	wg.Wait()
	if c.value() != 0.30000000000000004 {
		panic("lost update")
	}
}

// lostUpdate adds without the loop: one addition can overwrite the other.
//
//fencecheck:system
func lostUpdate() {
	var c counter
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { c.addLossy(1.5); wg.Done() }()
	go func() { c.addLossy(2.25); wg.Done() }()
	wg.Wait()
	if c.value() != 3.75 {
		panic("lost update") // want `^SC: system lostUpdate is wrong even under sequential consistency: the panic is reached here`
	}
}

// gauge is a plain float field.
type gauge struct{ v float64 }

// racyGauge updates a plain float field from two goroutines.
//
//fencecheck:system
func racyGauge() {
	var g gauge
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { g.v += 0.5; wg.Done() }() // want `^race: go@\d+ stores g\.v here while go@\d+ loads g\.v at floats\.go:\d+:\d+, and nothing orders the two \(system racyGauge\)`
	go func() { g.v -= 0.25; wg.Done() }()
	wg.Wait()
}

// stats is a float32 mean guarded by a mutex.
type stats struct {
	mu    sync.Mutex
	sum   float32
	count int
}

func (s *stats) observe(v float32) {
	s.mu.Lock()
	s.sum += v
	s.count++
	s.mu.Unlock()
}

// mean is sum/count: NaN (0/0) before the first observation.
func (s *stats) mean() float32 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sum / float32(s.count)
}

// meanInRange is correct: the mean of 0.25 and 0.75 is in [0, 1], and
// before any observation the mean is NaN, for which both comparisons are
// false, so nothing panics.
//
//fencecheck:system
func meanInRange() {
	var s stats
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { s.observe(0.25); wg.Done() }()
	go func() {
		if m := s.mean(); m < 0 || m > 1 {
			panic("mean out of range")
		}
		s.observe(0.75)
		wg.Done()
	}()
	wg.Wait()
}

// meanNaN negates the test: a NaN mean, read before the first
// observation, fails !(m >= 0 && m <= 1).
//
//fencecheck:system
func meanNaN() {
	var s stats
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { s.observe(0.25); wg.Done() }()
	go func() {
		if m := s.mean(); !(m >= 0 && m <= 1) {
			panic("mean not in [0, 1]") // want `^SC: system meanNaN is wrong even under sequential consistency: the panic is reached here`
		}
		wg.Done()
	}()
	wg.Wait()
}

// scaled is a float guarded by a mutex that one goroutine scales.
type scaled struct {
	mu sync.Mutex
	v  float64
}

// negativeZero scales 0 by -1 before or after 2 is added: -0 equals 0,
// but its sign bit is set, and 1/-0 is -Inf.
//
//fencecheck:system
func negativeZero() {
	var s scaled
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { s.mu.Lock(); s.v *= -1; s.mu.Unlock(); wg.Done() }()
	go func() { s.mu.Lock(); s.v += 2; s.mu.Unlock(); wg.Done() }()
	wg.Wait()
	if s.v == 0 {
		panic("the sum is lost")
	}
	if 1/s.v < -1 {
		panic("never: -0 was replaced by a sum")
	}
	if s.v != 2 && s.v != -2 {
		panic("never")
	}
}

// signedZero checks the sign of a zero that scaling made negative.
//
//fencecheck:system
func signedZero() {
	var s scaled
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { s.mu.Lock(); s.v *= -1; s.mu.Unlock(); wg.Done() }()
	wg.Wait()
	if s.v == 0 && math.Signbit(s.v) {
		panic("negative zero") // want `^SC: system signedZero is wrong even under sequential consistency: the panic is reached here`
	}
}

// truncate converts a float to an integer as Go does: toward zero.
//
//fencecheck:system
func truncate() {
	var c counter
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { c.add(-2.5); wg.Done() }()
	go func() { c.add(0.75); wg.Done() }()
	wg.Wait()
	if n := int(c.value()); n != -1 {
		panic("int(-1.75) is -1")
	}
	if u := uint8(int8(c.value() * 100)); u != 81 {
		panic("uint8(int8(-175)) is 81")
	}
}
