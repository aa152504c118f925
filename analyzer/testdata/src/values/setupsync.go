package values

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// Synchronising operations of the set-up after a go statement: an atomic
// access, a lock, a Once, a cancellation, a timer's Stop, a sync.Map's
// Store. A goroutine started before it runs concurrently with it, so the
// set-up ends before the first go statement and the system function's
// goroutine makes them, as for a plain store.

// atomicAfterGo stores 1 then 2 after the goroutine started: it may see 1.
//
//fencecheck:system
func atomicAfterGo() {
	var flag atomic.Int32
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for flag.Load() == 0 {
		}
		if flag.Load() != 2 {
			panic("saw 1") // want `^SC: system atomicAfterGo is wrong even under sequential consistency`
		}
	}()
	flag.Store(1)
	flag.Store(2)
	go func() { defer wg.Done() }()
	wg.Wait()
}

// atomicBeforeGo stores 2 before any goroutine starts.
//
//fencecheck:system
func atomicBeforeGo() {
	var flag atomic.Int32
	flag.Store(1)
	flag.Store(2)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		if flag.Load() != 2 {
			panic("saw 1")
		}
	}()
	go func() { defer wg.Done() }()
	wg.Wait()
}

// onceAfterGo: the goroutine's Once.Do may run first.
//
//fencecheck:system
func onceAfterGo() {
	var once sync.Once
	var who atomic.Int32
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); once.Do(func() { who.Store(1) }) }()
	once.Do(func() { who.Store(2) })
	if who.Load() != 2 {
		panic("the goroutine's once ran") // want `^SC: system onceAfterGo is wrong even under sequential consistency`
	}
	go func() { defer wg.Done() }()
	wg.Wait()
}

// cancelAfterGo: the goroutine may look before the cancellation.
//
//fencecheck:system
func cancelAfterGo() {
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		select {
		case <-ctx.Done():
		default:
			panic("not yet cancelled") // want `^SC: system cancelAfterGo is wrong even under sequential consistency`
		}
	}()
	cancel()
	go func() { defer wg.Done() }()
	wg.Wait()
}

// stopAfterGo: the timer may fire before the set-up stops it.
//
//fencecheck:system
func stopAfterGo() {
	t := time.NewTimer(time.Millisecond)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		select {
		case <-t.C:
			panic("fired") // want `^SC: system stopAfterGo is wrong even under sequential consistency`
		default:
		}
	}()
	t.Stop()
	go func() { defer wg.Done() }()
	wg.Wait()
}

// syncMapAfterGo: the goroutine may look before the key is stored.
//
//fencecheck:system
func syncMapAfterGo() {
	var m sync.Map
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		if _, ok := m.Load("k"); !ok {
			panic("missing") // want `^SC: system syncMapAfterGo is wrong even under sequential consistency`
		}
	}()
	m.Store("k", 1)
	go func() { defer wg.Done() }()
	wg.Wait()
}

// unlockAfterGo: the goroutine's TryLock may come while the set-up holds
// the lock.
//
//fencecheck:system
func unlockAfterGo() {
	var mu sync.Mutex
	mu.Lock()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		if !mu.TryLock() {
			panic("locked") // want `^SC: system unlockAfterGo is wrong even under sequential consistency`
		}
		mu.Unlock()
	}()
	mu.Unlock()
	go func() { defer wg.Done() }()
	wg.Wait()
}

type pubNode struct{ v int }

// publishThenWrite publishes a node through an atomic pointer, then
// writes its field: a race with the goroutine that loads it.
//
//fencecheck:system
func publishThenWrite() {
	var ap atomic.Pointer[pubNode]
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		if p := ap.Load(); p != nil {
			_ = p.v // want `^race: go@\d+ loads n\.v here while main stores n\.v`
		}
	}()
	n := &pubNode{}
	ap.Store(n)
	n.v = 1
	go func() { defer wg.Done() }()
	wg.Wait()
}

// readLockAcrossGo holds a read lock across the go statement: the
// goroutine's Lock waits for the RUnlock.
//
//fencecheck:system
func readLockAcrossGo() {
	var mu sync.RWMutex
	x := 0
	mu.RLock()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		mu.Lock()
		x = 1
		mu.Unlock()
	}()
	mu.RUnlock()
	wg.Wait()
	if x != 1 {
		panic("x")
	}
}

// closerBeforeWorkers starts the goroutine that waits for the workers and
// closes their channel before the workers are added: its Wait may return
// at once, and the results are closed early.
//
//fencecheck:system
func closerBeforeWorkers() {
	var wg sync.WaitGroup
	results := make(chan int, 2)
	done := make(chan struct{})
	go func() { wg.Wait(); close(results); close(done) }()
	for i := range 2 {
		wg.Add(1)
		go func() { results <- i; wg.Done() }()
	}
	<-done
	n := 0
	for range results {
		n++
	}
	if n != 2 {
		panic("closed early") // want `^SC: system closerBeforeWorkers is wrong even under sequential consistency`
	}
}

// closerAfterWorkers adds every worker before the closer starts.
//
//fencecheck:system
func closerAfterWorkers() {
	var wg sync.WaitGroup
	results := make(chan int, 2)
	done := make(chan struct{})
	for i := range 2 {
		wg.Add(1)
		go func() { results <- i; wg.Done() }()
	}
	go func() { wg.Wait(); close(results); close(done) }()
	<-done
	n := 0
	for range results {
		n++
	}
	if n != 2 {
		panic("closed early")
	}
}
