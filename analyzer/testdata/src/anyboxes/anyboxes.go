// Package anyboxes holds systems whose interface values hold structs,
// arrays, functions and channels made at run time and kept in memory: a
// mailbox of any, a type switch over what it holds, a method called on a
// struct value through an interface, a function value in an any, an
// atomic.Value holding a configuration struct, and a counter kept in an
// interface value, read back, type-asserted, incremented and stored again
// (go-cache's IncrementInt), a new box each time. Each has a correct
// system and a buggy twin; comparing two such values of one dynamic type
// is refused (slices in interface values are in package anyslices, floats
// in anyfloats).
package anyboxes

import (
	"sync"
	"sync/atomic"
	"time"
)

// job is what a worker hands over: a number and the channel to close once
// it is done, as a waiter of a semaphore's queue.
type job struct {
	n    int
	done chan struct{}
}

// mailbox is one slot of any guarded by a mutex.
type mailbox struct {
	mu   sync.Mutex
	slot any
}

func (m *mailbox) put(v any) {
	m.mu.Lock()
	m.slot = v
	m.mu.Unlock()
}

func (m *mailbox) take() any {
	m.mu.Lock()
	defer m.mu.Unlock()
	v := m.slot
	m.slot = nil
	return v
}

// structHandoff: the worker puts a job (a struct value holding a number it
// computes and a channel it made) in the mailbox and waits on the channel;
// the server takes it, checks the number and closes the channel.
//
//fencecheck:system
func structHandoff() {
	var m mailbox
	var k int
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		done := make(chan struct{})
		k = 2
		m.put(job{n: k + 1, done: done})
		<-done
	}()
	go func() {
		defer wg.Done()
		for {
			if j, ok := m.take().(job); ok {
				if j.n != 3 {
					panic("wrong job")
				}
				close(j.done)
				return
			}
		}
	}()
	wg.Wait()
}

// structHandoffLost: the server never closes the job's channel when the
// number is odd, so the worker waits forever.
//
//fencecheck:system
func structHandoffLost() {
	var m mailbox
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		done := make(chan struct{})
		m.put(job{n: 3, done: done})
		<-done // want `^leak: go@\d+ blocks forever in <-done after system structHandoffLost returns`
	}()
	go func() {
		defer wg.Done()
		for {
			if j, ok := m.take().(job); ok {
				if j.n%2 == 0 {
					close(j.done)
				}
				return
			}
		}
	}()
	wg.Wait()
}

// point and pair are two dynamic types a queue of any mixes.
type point struct{ x, y int }

type pair [2]int

// typeSwitch: the producer puts a point and then a pair, both computed at
// run time; the consumer tells them apart with a type switch and sums
// them.
//
//fencecheck:system
func typeSwitch() {
	var m mailbox
	var got int
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		x := 1
		m.put(point{x, x + 1})
		for {
			m.mu.Lock()
			empty := m.slot == nil
			m.mu.Unlock()
			if empty {
				break
			}
		}
		m.put(pair{x + 2, x + 3})
	}()
	go func() {
		defer wg.Done()
		for seen := 0; seen < 2; {
			switch v := m.take().(type) {
			case point:
				got += v.x + v.y
				seen++
			case pair:
				got += v[0] + v[1]
				seen++
			case nil:
			default:
				panic("unexpected value")
			}
		}
	}()
	wg.Wait()
	if got != 10 {
		panic("wrong sum")
	}
}

// typeSwitchWrong asserts a pair where a point may be.
//
//fencecheck:system
func typeSwitchWrong() {
	var m mailbox
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		x := 1
		m.put(point{x, x})
	}()
	go func() {
		defer wg.Done()
		if v := m.take(); v != nil {
			_ = v.(pair) // want `^SC: system typeSwitchWrong is wrong even under sequential consistency: the bad state interface conversion: interface is not pair`
		}
	}()
	wg.Wait()
}

// shape has a method with a value receiver.
type shape interface{ area() int }

type rect struct{ w, h int }

func (r rect) area() int { return r.w * r.h }

// methodOnBox: a goroutine publishes a rect it computes as a shape under a
// lock; the reader calls its method.
//
//fencecheck:system
func methodOnBox() {
	var mu sync.Mutex
	var s shape
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		w := 2
		mu.Lock()
		s = rect{w, w + 1}
		mu.Unlock()
	}()
	go func() {
		defer wg.Done()
		mu.Lock()
		if s != nil && s.area() != 6 {
			panic("wrong area")
		}
		mu.Unlock()
	}()
	wg.Wait()
}

// methodOnBoxRace publishes without the lock.
//
//fencecheck:system
func methodOnBoxRace() {
	var mu sync.Mutex
	var s shape
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		w := 2
		s = rect{w, w + 1} // want `^race: go@\d+ stores s here while go@\d+ loads s`
	}()
	go func() {
		defer wg.Done()
		mu.Lock()
		if s != nil && s.area() != 6 {
			panic("wrong area")
		}
		mu.Unlock()
	}()
	wg.Wait()
}

func double(x int) int { return 2 * x }

func square(x int) int { return x * x }

// funcInAny: a goroutine picks a function at run time and hands it over
// in an any; the other asserts it back and calls it.
//
//fencecheck:system
func funcInAny() {
	var m mailbox
	var flip int
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		f := double
		if flip == 1 {
			f = square
		}
		m.put(f)
	}()
	go func() {
		defer wg.Done()
		if f, ok := m.take().(func(int) int); ok && f(3) != 6 {
			panic("not double")
		}
	}()
	wg.Wait()
}

// funcInAnyWrong: the function may be square, which the reader does not
// expect.
//
//fencecheck:system
func funcInAnyWrong() {
	var m mailbox
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		m.put(double)
		m.put(square)
	}()
	go func() {
		defer wg.Done()
		if f, ok := m.take().(func(int) int); ok && f(3) != 6 {
			panic("not double") // want `^SC: system funcInAnyWrong is wrong even under sequential consistency`
		}
	}()
	wg.Wait()
}

// compareBoxes compares two interface values holding structs, which Go
// does by their fields.
//
//fencecheck:system
func compareBoxes() { // want `^inconclusive: system compareBoxes: a run reaches comparing interface values that may hold a struct`
	var m mailbox
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		x := 1
		m.put(point{x, x})
	}()
	if m.take() == any(point{1, 1}) {
		panic("equal")
	}
	wg.Wait()
}

// item is a cache entry holding any value, as go-cache's Item.
type item struct {
	obj     any
	expires int64
}

// counters is a cache of items under a mutex.
type counters struct {
	mu    sync.Mutex
	items map[string]item
}

// incr adds n to the int held under k, as go-cache's IncrementInt: the
// value read back from the interface, type-asserted, incremented and
// stored back, a new value each time. An item that expires is compared
// with the clock's nanoseconds, which fencecheck does not compute: only a
// run that reaches the comparison is refused.
func (c *counters) incr(k string, n int, locked bool) {
	if locked {
		c.mu.Lock()
		defer c.mu.Unlock()
	}
	it, ok := c.items[k] // want `^race: go@\d+ loads c\.items here while go@\d+ stores c\.items`
	if !ok || it.expires > 0 && time.Now().UnixNano() > it.expires {
		return
	}
	if v, isInt := it.obj.(int); isInt {
		it.obj = v + n
		c.items[k] = it
	}
}

// anyCounter increments a counter kept in an interface value from two
// goroutines, three times in all, one of them in a loop (a new box each
// time).
//
//fencecheck:system
func anyCounter() {
	c := &counters{items: map[string]item{"hits": {obj: 0}}}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		for range 2 {
			c.incr("hits", 1, true)
		}
		wg.Done()
	}()
	go func() {
		c.incr("hits", 1, true)
		wg.Done()
	}()
	wg.Wait()
	if c.items["hits"].obj.(int) != 3 {
		panic("lost increment")
	}
}

// anyCounterUnlocked increments without the lock in one goroutine.
//
//fencecheck:system
func anyCounterUnlocked() {
	c := &counters{items: map[string]item{"hits": {obj: 0}}}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		c.incr("hits", 1, false)
		wg.Done()
	}()
	go func() {
		c.incr("hits", 1, true)
		wg.Done()
	}()
	wg.Wait()
	if c.items["hits"].obj.(int) != 2 {
		panic("lost increment") // want `^SC: system anyCounterUnlocked is wrong even under sequential consistency`
	}
}

// expiringCounter increments an item that expired long ago: the model
// does not compute time.Now().UnixNano(), so its comparison with the
// expiry takes either answer, and the increment that Go never makes is
// found missing.
//
//fencecheck:system
func expiringCounter() {
	c := &counters{items: map[string]item{"hits": {obj: 0, expires: 1}}}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		c.incr("hits", 1, true)
		wg.Done()
	}()
	wg.Wait()
	if c.items["hits"].obj.(int) != 1 {
		panic("expired") // want `^SC: system expiringCounter is wrong even under sequential consistency`
	}
}

// limits is a configuration replaced as a whole through an atomic.Value.
type limits struct {
	rate, burst int
}

// atomicConfig: a goroutine stores a new struct value it computes in an
// atomic.Value; the reader loads and asserts it, and sees one whole
// configuration or the other.
//
//fencecheck:system
func atomicConfig() {
	var v atomic.Value
	v.Store(limits{1, 2})
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		r := 3
		v.Store(limits{r, 2 * r})
		wg.Done()
	}()
	go func() {
		if c := v.Load().(limits); c.burst != 2*c.rate {
			panic("torn configuration")
		}
		wg.Done()
	}()
	wg.Wait()
}

// atomicConfigInSteps stores the new configuration in two steps: the
// reader may load the one in between.
//
//fencecheck:system
func atomicConfigInSteps() {
	var v atomic.Value
	v.Store(limits{1, 2})
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		r := 3
		v.Store(limits{r, 2})
		v.Store(limits{r, 2 * r})
		wg.Done()
	}()
	go func() {
		if c := v.Load().(limits); c.burst != 2*c.rate {
			panic("torn configuration") // want `^SC: system atomicConfigInSteps is wrong even under sequential consistency`
		}
		wg.Done()
	}()
	wg.Wait()
}

// codeError is an error held by value, as a status code error is.
type codeError struct{ code int }

func (e codeError) Error() string { return "code" }

var errClosed = &codeError{code: -1}

// compareOtherType compares an error received from a worker, a pointer,
// with a struct error: their dynamic types differ, so they are unequal in
// Go whatever the fields, as the model's boxes are.
//
//fencecheck:system
func compareOtherType() {
	ch := make(chan error, 1)
	go func() { ch <- errClosed }()
	var busy error = codeError{code: 1}
	if <-ch == busy {
		panic("a pointer equals a struct")
	}
}

//fencecheck:system
func compareOtherTypeWrong() {
	ch := make(chan error, 1)
	go func() { ch <- errClosed }()
	var busy error = codeError{code: 1}
	if <-ch != busy {
		panic("they differ") // want `^SC: system compareOtherTypeWrong is wrong even under sequential consistency`
	}
}
