package blocking

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// A pool whose Cond wraps a spin lock of its own, as ants' pool does
// (sync.NewCond(p.lock) with p.lock a CAS loop with backoff): Wait calls
// the spin lock's Unlock, waits, and calls its Lock.

type condSpinLock uint32

func (sl *condSpinLock) Lock() {
	backoff := 1
	for !atomic.CompareAndSwapUint32((*uint32)(sl), 0, 1) {
		for i := 0; i < backoff; i++ {
			runtime.Gosched()
		}
		if backoff < 4 {
			backoff <<= 1
		}
	}
}

func (sl *condSpinLock) Unlock() { atomic.StoreUint32((*uint32)(sl), 0) }

func newCondSpinLock() sync.Locker { return new(condSpinLock) }

type condSpinPool struct {
	lock  sync.Locker
	cond  *sync.Cond
	free  int
	taken int
}

func newCondSpinPool(free int) *condSpinPool {
	p := &condSpinPool{lock: newCondSpinLock(), free: free}
	p.cond = sync.NewCond(p.lock)
	return p
}

func (p *condSpinPool) get() {
	p.lock.Lock()
	for p.free == 0 { // want `^race: go@\d+ loads p\.free here while go@\d+ stores p\.free at condspin\.go:\d+:\d+, and nothing orders the two \(system spinCondUnlocked\)`
		p.cond.Wait() // want `^deadlock: go@\d+#2 and main block forever in p\.cond\.Wait\(\) and wg\.Wait\(\) \(system spinCondKept\)` `^deadlock: go@\d+ and main block forever in p\.cond\.Wait\(\) and wg\.Wait\(\) \(system spinCondUnlocked\)`
	}
	p.free--
	p.taken++
	p.lock.Unlock()
}

func (p *condSpinPool) put() {
	p.lock.Lock()
	p.free++
	p.cond.Signal()
	p.lock.Unlock()
}

// spinCondPool: two workers share one slot; each returns it.
//
//fencecheck:system
func spinCondPool() {
	p := newCondSpinPool(1)
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			defer wg.Done()
			p.get()
			p.put()
		}()
	}
	wg.Wait()
	if p.taken != 2 {
		panic("lost a get")
	}
}

// spinCondKept: a worker keeps its slot: the other waits forever.
//
//fencecheck:system
func spinCondKept() {
	p := newCondSpinPool(1)
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			defer wg.Done()
			p.get()
		}()
	}
	wg.Wait()
}

// spinCondUnlocked: a worker returns its slot without the lock.
//
//fencecheck:system
func spinCondUnlocked() {
	p := newCondSpinPool(1)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		p.get()
		p.free++
		p.cond.Signal()
	}()
	go func() {
		defer wg.Done()
		p.get()
	}()
	wg.Wait()
}
