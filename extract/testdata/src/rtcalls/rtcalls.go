// Package rtcalls holds systems that call into the run time: the verdicts
// of extract's tests say what Go allows for each (its comment says why).
package rtcalls

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
	_ "unsafe" // for go:linkname
)

//go:linkname osyield runtime.osyield
func osyield()

//go:linkname cheaprandn runtime.cheaprandn
func cheaprandn(n uint32) uint32

// yieldSpin spins with yields on an atomic flag that the other goroutine
// sets: the yields change nothing, the data is published by the flag.
//
//fencecheck:system
func yieldSpin() {
	var ready atomic.Bool
	data := 0
	go func() {
		data = 1
		ready.Store(true)
	}()
	for !ready.Load() {
		runtime.Gosched()
		osyield()
	}
	if data != 1 {
		panic("data not published")
	}
}

// pick: cheaprandn(3) is any of 0, 1 and 2, so 2 is reachable.
//
//fencecheck:system
func pick() {
	var got atomic.Int32
	done := make(chan struct{})
	go func() {
		got.Store(int32(cheaprandn(3)))
		close(done)
	}()
	<-done
	if got.Load() == 2 {
		panic("picked 2")
	}
}

// goexitDefers: Goexit runs the deferred Done and the deferred store.
//
//fencecheck:system
func goexitDefers() {
	var wg sync.WaitGroup
	var cleaned atomic.Bool
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer cleaned.Store(true)
		runtime.Goexit()
	}()
	wg.Wait()
	if !cleaned.Load() {
		panic("deferred call skipped")
	}
}

// goexitSkipsRest: nothing after Goexit runs.
//
//fencecheck:system
func goexitSkipsRest() {
	var wg sync.WaitGroup
	var after atomic.Bool
	wg.Add(1)
	go func() {
		defer wg.Done()
		runtime.Goexit()
		after.Store(true)
	}()
	wg.Wait()
	if after.Load() {
		panic("ran past Goexit")
	}
}

// recovered: the deferred call stops the panic, so the goroutine ends
// normally.
//
//fencecheck:system
func recovered() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer func() { recover() }()
		panic("stopped")
	}()
	wg.Wait()
}

// notRecovered: recover in a function the deferred call calls returns
// nil, so the panic goes on.
//
//fencecheck:system
func notRecovered() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer func() { helper() }()
		panic("goes on")
	}()
	wg.Wait()
}

func helper() { recover() }

// recoverValue: recover returns the panic's value, which is not nil.
//
//fencecheck:system
func recoverValue() {
	var wg sync.WaitGroup
	var sawNil atomic.Bool
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer func() {
			if recover() == nil {
				sawNil.Store(true)
			}
		}()
		panic("value")
	}()
	wg.Wait()
	if sawNil.Load() {
		panic("recover returned nil while panicking")
	}
}

// recoverNotPanicking: without a panic, recover returns nil.
//
//fencecheck:system
func recoverNotPanicking() {
	var wg sync.WaitGroup
	var sawValue atomic.Bool
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer func() {
			if recover() != nil {
				sawValue.Store(true)
			}
		}()
	}()
	wg.Wait()
	if sawValue.Load() {
		panic("recover returned a value without a panic")
	}
}

func namedResult() (n int) {
	defer func() { recover() }()
	n = 7
	panic("after n is set")
}

// namedResults: a function that recovered returns its named results'
// current values.
//
//fencecheck:system
func namedResults() {
	var got atomic.Int32
	done := make(chan struct{})
	go func() {
		got.Store(int32(namedResult()))
		close(done)
	}()
	<-done
	if got.Load() != 7 {
		panic("lost the named result")
	}
}

// nilDerefRecovered: a nil dereference is a panic like any other.
//
//fencecheck:system
func nilDerefRecovered() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer func() { recover() }()
		var p *int32
		atomic.AddInt32(p, 1)
	}()
	wg.Wait()
}

// monotonic: a reading made after another, by any goroutine, is not
// before it.
//
//fencecheck:system
func monotonic() {
	readings := make(chan time.Time, 1)
	go func() { readings <- time.Now() }()
	first := <-readings
	if time.Now().Before(first) {
		panic("time went backwards")
	}
}

// ticks: a later reading may be after an earlier one.
//
//fencecheck:system
func ticks() {
	start := time.Now()
	done := make(chan struct{})
	go func() { close(done) }()
	<-done
	if time.Now().After(start) {
		panic("time passed")
	}
}

type stamped struct {
	mu sync.Mutex
	at time.Time
}

// zeroTime: a time.Time field nobody set is the zero Time, and one set
// by time.Now is not.
//
//fencecheck:system
func zeroTime() {
	var s stamped
	if !s.at.IsZero() {
		panic("not zero")
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		s.mu.Lock()
		s.at = time.Now()
		s.mu.Unlock()
	}()
	wg.Wait()
	if s.at.IsZero() {
		panic("still zero")
	}
}

// timeout: a duration is compared with a constant as any positive
// amount of time may make it: both outcomes once a tick passed.
//
//fencecheck:system
func timeout() {
	var timedOut atomic.Bool
	start := time.Now()
	done := make(chan struct{})
	go func() {
		if time.Since(start) > 5*time.Second {
			timedOut.Store(true)
		}
		close(done)
	}()
	<-done
	if timedOut.Load() {
		panic("timed out")
	}
}

// noTimeout: no duration is negative.
//
//fencecheck:system
func noTimeout() {
	start := time.Now()
	done := make(chan struct{})
	go func() {
		if time.Since(start) < 0 {
			panic("negative duration")
		}
		close(done)
	}()
	<-done
}

type item struct{ v int32 }

// poolReturnsPut: what Get returns is what a Put gave, or New's.
//
//fencecheck:system
func poolReturnsPut() {
	p := &sync.Pool{New: func() any { return &item{v: 1} }}
	p.Put(&item{v: 2})
	got := make(chan int32, 1)
	go func() {
		it := p.Get().(*item)
		got <- it.v
	}()
	if v := <-got; v != 1 && v != 2 {
		panic("an item from nowhere")
	}
}

// poolMayIgnore: Get may ignore an object that was put and call New.
//
//fencecheck:system
func poolMayIgnore() {
	p := &sync.Pool{New: func() any { return &item{v: 1} }}
	p.Put(&item{v: 2})
	got := make(chan int32, 1)
	go func() {
		it := p.Get().(*item)
		got <- it.v
	}()
	if <-got == 1 {
		panic("New was called")
	}
}

// poolHandsOver: a Put is ordered before the Get that returns its object,
// so the object's field is not raced on.
//
//fencecheck:system
func poolHandsOver() {
	var p sync.Pool
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		it := &item{}
		it.v = 5
		p.Put(it)
	}()
	go func() {
		defer wg.Done()
		if x := p.Get(); x != nil && x.(*item).v != 5 {
			panic("saw the item before its Put")
		}
	}()
	wg.Wait()
}

type caught struct {
	first atomic.Pointer[panicked]
}

type panicked struct{ value any }

func (c *caught) catch() {
	if v := recover(); v != nil {
		c.first.CompareAndSwap(nil, &panicked{value: v})
	}
}

// recoverStores keeps the recovered value, as conc's catcher does: it is
// the panic's.
//
//fencecheck:system
func recoverStores() {
	var c caught
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer c.catch()
		panic("boom")
	}()
	wg.Wait()
	p := c.first.Load()
	if p == nil {
		panic("lost the panic")
	}
	if s, ok := p.value.(string); !ok || s != "boom" {
		panic("another value")
	}
}

// recoverStoresWrong expects another value.
//
//fencecheck:system
func recoverStoresWrong() {
	var c caught
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer c.catch()
		panic("boom")
	}()
	wg.Wait()
	if p := c.first.Load(); p != nil && p.value != "bang" {
		panic("another value")
	}
}

// otherTimes: a time.Time that is no reading of the clock (time.Unix's)
// goes, with what is computed from it, to calls that cannot touch the
// system, as before the clock.
//
//fencecheck:system
func otherTimes() {
	done := make(chan struct{})
	go func() {
		d := time.Unix(5, 0).Sub(time.Unix(3, 0))
		fmt.Println(d, time.Now().UnixNano())
		close(done)
	}()
	<-done
}
