// Package calls holds systems written as Go programmers write them: with
// defer, RWMutex, Once, calls into fmt, log, strconv and time, goroutines
// started by a method, generic types and goroutines that start goroutines.
package calls

import (
	"fmt"
	"log"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

type counter struct {
	mu sync.Mutex
	n  int32
}

func (c *counter) inc() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n++
}

// deferUnlock: the unlock runs when inc returns, not when the goroutine
// ends; two increments under the lock are never lost.
//
//fencecheck:system
func deferUnlock() {
	var c counter
	var wg sync.WaitGroup
	wg.Add(2)
	for i := 0; i < 2; i++ {
		go func() {
			defer wg.Done()
			c.inc()
		}()
	}
	wg.Wait()
	if c.n != 2 {
		panic("lost update")
	}
}

func (c *counter) incEarly() {
	c.mu.Lock()
	c.mu.Unlock()
	defer c.mu.Lock()
	c.n++
	c.mu.Unlock()
}

// unlockEarly unlocks before the increment: updates are lost.
//
//fencecheck:system
func unlockEarly() {
	var c counter
	var wg sync.WaitGroup
	wg.Add(2)
	for i := 0; i < 2; i++ {
		go func() {
			defer wg.Done()
			c.incEarly()
		}()
	}
	wg.Wait()
	if c.n != 2 {
		panic("lost update")
	}
}

var order int32

func twoDefers() {
	defer func() { order = order*10 + 1 }()
	defer func() { order = order*10 + 2 }()
}

// deferOrder: the last deferred call runs first (order 21, never 12).
//
//fencecheck:system
func deferOrder() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		twoDefers()
	}()
	wg.Wait()
	if order != 21 {
		panic("defers out of order")
	}
}

var src, seen int32

func record(v int32) { seen = v }

// deferArgs: the arguments of a deferred call are evaluated at the defer
// statement; the Done deferred first runs last.
//
//fencecheck:system
func deferArgs() {
	src = 1
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		v := atomic.LoadInt32(&src)
		defer record(v)
		atomic.StoreInt32(&src, 2)
	}()
	wg.Wait()
	if seen != 1 {
		panic("argument evaluated late")
	}
}

var useLock int32

func maybeLocked(c *counter) {
	if atomic.LoadInt32(&useLock) == 1 {
		c.mu.Lock()
		defer c.mu.Unlock()
	}
	c.n++
}

// conditionalDefer: the defer runs only on the path that executed it;
// with useLock set both increments are locked.
//
//fencecheck:system
func conditionalDefer() {
	useLock = 1
	var c counter
	var wg sync.WaitGroup
	wg.Add(2)
	for i := 0; i < 2; i++ {
		go func() {
			defer wg.Done()
			maybeLocked(&c)
		}()
	}
	wg.Wait()
	if c.n != 2 {
		panic("lost update")
	}
}

// conditionalNoLock: without useLock the increments race.
//
//fencecheck:system
func conditionalNoLock() {
	var c counter
	var wg sync.WaitGroup
	wg.Add(2)
	for i := 0; i < 2; i++ {
		go func() {
			defer wg.Done()
			maybeLocked(&c)
		}()
	}
	wg.Wait()
	if c.n != 2 {
		panic("lost update")
	}
}

// deferInMain: a defer of the system function executed by the setup runs
// when the system function returns, after the wait.
//
//fencecheck:system
func deferInMain() {
	var x int32
	var wg sync.WaitGroup
	defer func() {
		if x != 1 {
			panic("deferred check failed")
		}
	}()
	wg.Add(1)
	go func() {
		x = 1
		wg.Done()
	}()
	wg.Wait()
}

type pair struct {
	mu   sync.RWMutex
	a, b int32
}

// rwMutex: readers under RLock never see a half-written pair.
//
//fencecheck:system
func rwMutex() {
	var p pair
	go func() {
		p.mu.Lock()
		p.a = 1
		p.b = 1
		p.mu.Unlock()
	}()
	for i := 0; i < 2; i++ {
		go func() {
			p.mu.RLock()
			defer p.mu.RUnlock()
			if p.a != p.b {
				panic("torn read")
			}
		}()
	}
}

// rwMutexWriteUnderRLock: a write under a read lock races with another
// reader-writer.
//
//fencecheck:system
func rwMutexWriteUnderRLock() {
	var p pair
	var wg sync.WaitGroup
	wg.Add(2)
	for i := 0; i < 2; i++ {
		go func() {
			defer wg.Done()
			p.mu.RLock()
			p.a++
			p.mu.RUnlock()
		}()
	}
	wg.Wait()
	if p.a != 2 {
		panic("lost update")
	}
}

// rUnlockUnlocked: RUnlock without RLock is a fatal error of Go.
//
//fencecheck:system
func rUnlockUnlocked() {
	var mu sync.RWMutex
	go func() {
		mu.RUnlock()
	}()
}

var cfg int32

// onceInit: every caller of Do sees what the first one's function did.
//
//fencecheck:system
func onceInit() {
	var once sync.Once
	for i := 0; i < 2; i++ {
		go func() {
			once.Do(func() { cfg = 42 })
			if cfg != 42 {
				panic("not initialised")
			}
		}()
	}
}

// handOnce: a hand-rolled once whose flag is set before the value.
//
//fencecheck:system
func handOnce() {
	var done int32
	var v int32
	for i := 0; i < 2; i++ {
		go func() {
			if atomic.CompareAndSwapInt32(&done, 0, 1) {
				v = 42
			}
			if atomic.LoadInt32(&done) == 1 && v != 42 {
				panic("not initialised")
			}
		}()
	}
}

// pureCalls: formatting, sleeping and parsing touch nothing shared; the
// message passing is correct.
//
//fencecheck:system
func pureCalls() {
	var data, ready int32
	go func() {
		fmt.Println("writer", strconv.Itoa(7))
		data = 42
		time.Sleep(time.Millisecond)
		atomic.StoreInt32(&ready, 1)
	}()
	go func() {
		for atomic.LoadInt32(&ready) == 0 {
			time.Sleep(time.Microsecond)
		}
		r := data
		log.Printf("read %d", r)
		if r != 42 {
			panic("stale")
		}
	}()
}

// errorResult: the error of strconv.Atoi of a string formatted from a
// loaded value may be anything, so the panic on it is reachable (the
// analyzer then asks whether Go's answer gives it; strconv.Atoi("12") is
// computed).
//
//fencecheck:system
func errorResult() {
	var n int32
	go func() {
		if _, err := strconv.Atoi(fmt.Sprint(atomic.LoadInt32(&n))); err != nil {
			panic(err)
		}
	}()
}

// fatal: a reachable log.Fatal ends the program in failure, like a panic.
//
//fencecheck:system
func fatal() {
	var x int32
	go func() { x = 1 }()
	go func() {
		if atomic.LoadInt32(&x) == 0 {
			log.Fatalf("x is %d", 0)
		}
	}()
}

// exitZero: after os.Exit(0) nothing of the process runs.
//
//fencecheck:system
func exitZero() {
	go func() {
		os.Exit(0)
		panic("after exit")
	}()
}

type sys struct {
	mu sync.Mutex
	n  int32
	wg sync.WaitGroup
}

func (s *sys) work() {
	defer s.wg.Done()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.n++
}

func (s *sys) run() {
	s.wg.Add(2)
	go s.work()
	go s.work()
	s.wg.Wait()
	if s.n != 2 {
		panic("lost update")
	}
}

// wrapper: a method starts the goroutines and waits for them.
//
//fencecheck:system
func wrapper() {
	s := &sys{}
	s.run()
}

type spin[T any] struct {
	v   atomic.Int32
	val T
}

func (l *spin[T]) lock() {
	for !l.v.CompareAndSwap(0, 1) {
	}
}

func (l *spin[T]) unlock() { l.v.Store(0) }

func add[T ~int32](p *T, d T) { *p += d }

// generic: a generic spin lock protecting a counter updated by a generic
// function.
//
//fencecheck:system
func generic() {
	var l spin[int32]
	var wg sync.WaitGroup
	wg.Add(2)
	for i := 0; i < 2; i++ {
		go func() {
			defer wg.Done()
			l.lock()
			add(&l.val, 1)
			l.unlock()
		}()
	}
	wg.Wait()
	if l.val != 2 {
		panic("lost update")
	}
}

// nested: a goroutine starts another after writing data: the go statement
// orders the write before everything the child does.
//
//fencecheck:system
func nested() {
	var data int32
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		data = 1
		go func() {
			if data != 1 {
				panic("child ran before its go statement")
			}
			wg.Done()
		}()
	}()
	wg.Wait()
}

// nestedLate: what the parent writes after the go statement is not
// ordered before the child.
//
//fencecheck:system
func nestedLate() {
	var data int32
	go func() {
		go func() {
			if atomic.LoadInt32(&data) != 1 {
				panic("not yet")
			}
		}()
		atomic.StoreInt32(&data, 1)
	}()
}

type guarded struct {
	mu sync.Mutex
	v  [2]int32
}

func (g *guarded) fill() {
	g.mu.Lock()
	defer g.mu.Unlock()
	for i := 0; i < 2; i++ {
		defer func() { g.v[i] = 1 }()
	}
}

// setupDefers: the setup runs the defers of the functions it calls, loops
// included, so the goroutine finds the mutex unlocked and the array filled.
//
//fencecheck:system
func setupDefers() {
	var g guarded
	g.fill()
	go func() {
		g.mu.Lock()
		if g.v[0] != 1 || g.v[1] != 1 {
			panic("not filled")
		}
		g.mu.Unlock()
	}()
}
