package runtimecalls

import (
	"math"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// Edges of times in nanoseconds: each system was once answered wrongly
// (a missed panic or a false one) and is kept as its regression test.

type swapStamp struct{ last int64 }

// swapBackwards: the value a Swap returns is a time too; a goroutine's
// older reading can come back after a newer one was stored.
//
//fencecheck:system
func swapBackwards() {
	s := &swapStamp{}
	var wg sync.WaitGroup
	wg.Add(2)
	f := func() {
		defer wg.Done()
		now := time.Now().UnixNano()
		runtime.Gosched()
		prev := atomic.SwapInt64(&s.last, now)
		if now < prev {
			panic("clock went backwards") // want `^SC: system swapBackwards is wrong even under sequential consistency`
		}
	}
	go f()
	go f()
	wg.Wait()
}

type seenStamp struct{ ts int64 }

// setupNonzeroStamp: the set-up stores 1 where goroutines store times;
// fencecheck keeps only times and 0 there.
//
//fencecheck:system
func setupNonzeroStamp() { // want `^inconclusive: system setupNonzeroStamp: a run reaches s\.ts holds nanoseconds of times \(t\.UnixNano\(\)\), but the set-up leaves 1 there`
	s := &seenStamp{ts: 1}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); atomic.StoreInt64(&s.ts, time.Now().UnixNano()) }()
	if atomic.LoadInt64(&s.ts) == 1 {
		panic("initial seen")
	}
	wg.Wait()
}

// stampOverChannel: a time sent on a channel of int64 is refused.
//
//fencecheck:system
func stampOverChannel() { // want `^inconclusive: system stampOverChannel: a run reaches nanoseconds of a time \(t\.UnixNano\(\)\) passed or joined where fencecheck keeps them as a plain integer`
	ch := make(chan int64, 1)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); ch <- time.Now().UnixNano() }()
	go func() {
		defer wg.Done()
		seen := <-ch
		if time.Now().UnixNano() <= seen {
			panic("no time passed since send")
		}
	}()
	wg.Wait()
}

type zeroRec struct{ t time.Time }

// zeroTimeNanos: the zero Time's nanoseconds are negative; UnixNano of a
// time that may be the zero Time is refused.
//
//fencecheck:system
func zeroTimeNanos() { // want `^inconclusive: system zeroTimeNanos: a run reaches t\.UnixNano\(\) of a time\.Time that may be the zero Time`
	r := &zeroRec{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); mu.Lock(); r.t = time.Now(); mu.Unlock() }()
	mu.Lock()
	n := r.t.UnixNano()
	mu.Unlock()
	if n < 0 {
		panic("zero time is negative nanos")
	}
	wg.Wait()
}

// farPast: sixty years back is before the epoch; moves that far are
// refused.
//
//fencecheck:system
func farPast() { // want `^inconclusive: system farPast: a run reaches moving nanoseconds of a time \(t\.UnixNano\(\)\) by more than 2\^58 ns`
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		cutoff := time.Now().UnixNano() - int64(60*365*24*time.Hour)
		if cutoff < 0 {
			panic("before epoch")
		}
	}()
	wg.Wait()
}

type connDeadline struct{ deadline int64 }

// extendByAdd: adding to a time kept in an atomic is refused.
//
//fencecheck:system
func extendByAdd() { // want `^inconclusive: system extendByAdd: a run reaches AddInt64 on deadline, which holds nanoseconds of times`
	c := &connDeadline{}
	t0 := time.Now().UnixNano()
	atomic.StoreInt64(&c.deadline, t0+int64(time.Second))
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); atomic.AddInt64(&c.deadline, int64(time.Second)) }()
	wg.Wait()
	if atomic.LoadInt64(&c.deadline)-t0 == int64(2*time.Second) {
		panic("extended to 2s")
	}
}

// eightReadings: eight readings can all differ.
//
//fencecheck:system
func eightReadings() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		r1 := time.Now().UnixNano()
		r2 := time.Now().UnixNano()
		r3 := time.Now().UnixNano()
		r4 := time.Now().UnixNano()
		r5 := time.Now().UnixNano()
		r6 := time.Now().UnixNano()
		r7 := time.Now().UnixNano()
		r8 := time.Now().UnixNano()
		if r1 < r2 && r2 < r3 && r3 < r4 && r4 < r5 && r5 < r6 && r6 < r7 && r7 < r8 {
			panic("all distinct") // want `^SC: system eightReadings is wrong even under sequential consistency`
		}
	}()
	wg.Wait()
}

// nineReadings: a ninth site is more than the clock's ticks can tell
// apart, and is refused.
//
//fencecheck:system
func nineReadings() { // want `^inconclusive: system nineReadings: a run reaches more than 8 readings of the clock outside loops`
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		r1 := time.Now().UnixNano()
		r2 := time.Now().UnixNano()
		r3 := time.Now().UnixNano()
		r4 := time.Now().UnixNano()
		r5 := time.Now().UnixNano()
		r6 := time.Now().UnixNano()
		r7 := time.Now().UnixNano()
		r8 := time.Now().UnixNano()
		r9 := time.Now().UnixNano()
		if r1 < r2 && r2 < r3 && r3 < r4 && r4 < r5 && r5 < r6 && r6 < r7 && r7 < r8 && r8 < r9 {
			panic("all distinct")
		}
	}()
	wg.Wait()
}

type deadlineHolder struct{ last int64 }

// deadlineMovedBack: a deadline a second ahead, moved two seconds back,
// is before any later reading.
//
//fencecheck:system
func deadlineMovedBack() {
	h := &deadlineHolder{}
	h.last = time.Now().Add(time.Second).UnixNano()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		if time.Now().UnixNano() < atomic.LoadInt64(&h.last)-int64(2*time.Second) {
			panic("impossible")
		}
	}()
	wg.Wait()
}

// loopReadingsTime: nine readings in a loop, each compared with the one
// before (the zero Time first): the clock's eight values cannot make all
// nine later than the one before.
//
//fencecheck:system
func loopReadingsTime() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var prev time.Time
		cnt := 0
		for i := 0; i < 9; i++ {
			t := time.Now()
			if t.After(prev) {
				cnt++
			}
			prev = t
		}
		if cnt == 8 {
			panic("eight later readings") // want `^SC: system loopReadingsTime is wrong even under sequential consistency`
		}
	}()
	wg.Wait()
}

type neverConf struct{ never int64 }

// neverSentinel: math.MaxInt64 is beyond every reading; comparing a
// reading with an integer of 2^60 or more is refused.
//
//fencecheck:system
func neverSentinel() { // want `^inconclusive: system neverSentinel: a run reaches comparing nanoseconds of a time \(t\.UnixNano\(\)\) with an integer of 2\^60 or more`
	c := &neverConf{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); atomic.StoreInt64(&c.never, math.MaxInt64) }()
	wg.Wait()
	if time.Now().UnixNano() >= atomic.LoadInt64(&c.never) {
		panic("past never")
	}
}

type idleRec struct{ n int64 }

// centuryIdle: a reading minus 0 is about 56 years, not more than any
// duration: comparing it with a century is refused.
//
//fencecheck:system
func centuryIdle() { // want `^inconclusive: system centuryIdle: a run reaches comparing nanoseconds of a time \(t\.UnixNano\(\)\), or a difference of them, with a constant of 2\^60 or more`
	r := &idleRec{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		last := atomic.LoadInt64(&r.n)
		if time.Now().UnixNano()-last > int64(100*365*24*time.Hour) {
			panic("a century idle")
		}
	}()
	atomic.StoreInt64(&r.n, time.Now().UnixNano())
	wg.Wait()
}
