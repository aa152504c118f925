// Package quantstream follows the quantile stream of
// github.com/beorn7/perks (quantile.Stream), as client_golang's summaries
// use it: observations go to a buffer of samples with room, marked
// unsorted; a query before the first flush takes the sample of rank
// ⌈n·q⌉ (math.Ceil) of the buffer, sorted in place through sort.Interface
// (sort.Sort) first. The stream is not safe for concurrent use: its owner
// holds a mutex around every call.
//
// Expected, by hand: observeAndQuery is correct and race-free: two
// observers and a querier take the lock; the querier sees 0, 1 or 2
// samples, and its median is 0 for none and otherwise one of the samples;
// after both, the median (⌈2·0.5⌉ = 1, the first of the sorted buffer) is
// 0.5 and the 0.99 quantile 1.5. queryUnlocked queries without the lock:
// the buffer's header, its samples and the sorted flag race with the
// observers' appends (race findings on the header, the flag, and the
// second sample's value at the sort's loads and swaps).
package quantstream

import (
	"math"
	"sort"
	"sync"
)

// Sample is an observed value with its rank bounds.
type Sample struct {
	Value float64
	Width float64
	Delta float64
}

// Samples sorts by value.
type Samples []Sample

func (a Samples) Len() int           { return len(a) }
func (a Samples) Less(i, j int) bool { return a[i].Value < a[j].Value } // want `^race: go@\d+ loads s\.b\[1\]\.Value here while go@\d+ stores s\.b\[1\]\.Value at quantstream\.go:\d+:\d+, and nothing orders the two \(system queryUnlocked\)`
func (a Samples) Swap(i, j int)      { a[i], a[j] = a[j], a[i] }        // want `^race: go@\d+ stores s\.b\[1\]\.Value here while go@\d+ stores s\.b\[1\]\.Value at quantstream\.go:\d+:\d+, and nothing orders the two \(system queryUnlocked\)`

// Stream buffers observations until it is queried.
type Stream struct {
	b      Samples
	sorted bool
}

func newStream(room int) *Stream {
	return &Stream{b: make(Samples, 0, room), sorted: true}
}

// Insert records v.
func (s *Stream) Insert(v float64) {
	s.b = append(s.b, Sample{Value: v, Width: 1}) // want `^race: go@\d+ stores s\.b here while go@\d+ loads s\.b at quantstream\.go:\d+:\d+, and nothing orders the two \(system queryUnlocked\)`
	s.sorted = false                              // want `^race: go@\d+ stores s\.sorted here while go@\d+ loads s\.sorted at quantstream\.go:\d+:\d+, and nothing orders the two \(system queryUnlocked\)`
}

// Query returns the q quantile of the buffered samples.
func (s *Stream) Query(q float64) float64 {
	l := len(s.b)
	if l == 0 {
		return 0
	}
	i := int(math.Ceil(float64(l) * q))
	if i > 0 {
		i--
	}
	s.maybeSort()
	return s.b[i].Value
}

func (s *Stream) maybeSort() {
	if !s.sorted {
		s.sorted = true
		sort.Sort(s.b)
	}
}

// summary guards its stream.
type summary struct {
	mu     sync.Mutex
	stream *Stream
}

func (m *summary) Observe(v float64) {
	m.mu.Lock()
	m.stream.Insert(v)
	m.mu.Unlock()
}

func (m *summary) quantile(q float64) float64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.stream.Query(q)
}

//fencecheck:system
func observeAndQuery() {
	m := &summary{stream: newStream(4)}
	var wg sync.WaitGroup
	wg.Add(3)
	go func() { m.Observe(1.5); wg.Done() }()
	go func() { m.Observe(0.5); wg.Done() }()
	go func() {
		if v := m.quantile(0.5); v != 0 && v != 0.5 && v != 1.5 {
			panic("not a sample")
		}
		wg.Done()
	}()
	wg.Wait()
	if m.quantile(0.5) != 0.5 || m.quantile(0.99) != 1.5 {
		panic("wrong quantile")
	}
}

//fencecheck:system
func queryUnlocked() {
	m := &summary{stream: newStream(4)}
	var wg sync.WaitGroup
	wg.Add(3)
	go func() { m.Observe(1.5); wg.Done() }()
	go func() { m.Observe(0.5); wg.Done() }()
	go func() { _ = m.stream.Query(0.5); wg.Done() }()
	wg.Wait()
}
