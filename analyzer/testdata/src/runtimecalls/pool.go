package runtimecalls

import "sync"

type scratch struct {
	n int32
}

// scratchPool hands out scratch buffers, as encoders keep theirs.
var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// pooledScratch: each goroutine takes a buffer, uses it and puts it back;
// a buffer is never in two goroutines' hands.
//
//fencecheck:system
func pooledScratch() {
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			defer wg.Done()
			b := scratchPool.Get().(*scratch)
			b.n = 0
			b.n++
			if b.n != 1 {
				panic("buffer shared")
			}
			scratchPool.Put(b)
		}()
	}
	wg.Wait()
}

// pooledScratchWrong puts the buffer back and goes on using it: another
// goroutine may have taken it.
//
//fencecheck:system
func pooledScratchWrong() {
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			defer wg.Done()
			b := scratchPool.Get().(*scratch)
			b.n = 0 // want `^race: go@\d+#2 stores scratchPool\.New\(\)\.n here while go@\d+ loads scratchPool\.New\(\)\.n`
			scratchPool.Put(b)
			b.n++
			if b.n != 1 {
				panic("buffer shared") // want `^SC: system pooledScratchWrong is wrong even under sequential consistency`
			}
		}()
	}
	wg.Wait()
}

// emptyPool has no New: Get returns nil when nothing was put.
//
//fencecheck:system
func emptyPool() {
	var p sync.Pool
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		if v := p.Get(); v != nil {
			_ = v.(*scratch)
		}
	}()
	wg.Wait()
}

// emptyPoolWrong asserts the type of what Get returns: nil when the pool
// is empty, and the assertion panics.
//
//fencecheck:system
func emptyPoolWrong() {
	var p sync.Pool
	p.Put(new(scratch))
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		_ = p.Get().(*scratch) // want `^SC: system emptyPoolWrong is wrong even under sequential consistency`
	}()
	wg.Wait()
}

// A pool whose New its constructor sets after starting a goroutine (as
// panjf2000/ants' NewPool does: the purger starts in newPool, New is set
// after it returns), reached through a field of a worker that a goroutine
// takes from a slice.

type pooledWorker struct {
	owner *scratchServer
}

type scratchServer struct {
	cache sync.Pool
	wg    sync.WaitGroup
	ticks int32
}

func newScratchServer() *scratchServer {
	s := &scratchServer{}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		s.ticks++
	}()
	s.cache.New = func() any { return new(scratch) }
	return s
}

// newAfterSpawn: New is set before the worker starts: Get never returns
// nil.
//
//fencecheck:system
func newAfterSpawn() {
	s := newScratchServer()
	workers := []*pooledWorker{{owner: s}}
	done := make(chan bool)
	go func() {
		w := workers[0]
		b := w.owner.cache.Get().(*scratch)
		b.n++
		w.owner.cache.Put(b)
		done <- true
	}()
	<-done
	s.wg.Wait()
}

// newRacing: the goroutine may call Get before main sets New: Go's Get
// reads New unsynchronised, and returns nil.
//
//fencecheck:system
func newRacing() {
	s := &scratchServer{}
	done := make(chan bool)
	go func() {
		b := s.cache.Get().(*scratch) // want `^race: go@\d+ loads s\.cache\.New here while main stores s\.cache\.New at pool\.go:\d+:\d+, and nothing orders the two \(system newRacing\)` `^SC: system newRacing is wrong even under sequential consistency: the bad state interface conversion: interface is not \*scratch is reached here`
		b.n++
		done <- true
	}()
	s.cache.New = func() any { return new(scratch) }
	<-done
}

type cachedWorker struct {
	owner *cachedWorkers
	task  chan func()
}

type cachedWorkers struct {
	cache sync.Pool
	wg    sync.WaitGroup
	ticks int
}

func newCachedWorkers() *cachedWorkers {
	c := &cachedWorkers{}
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
	}()
	c.cache.New = func() any { return &cachedWorker{owner: c, task: make(chan func(), 1)} }
	return c
}

func (w *cachedWorker) start() {
	w.owner.wg.Add(1)
	go func() {
		defer w.owner.wg.Done()
		for f := range w.task {
			f()
		}
	}()
}

// workersFromCache: each worker a goroutine with a task channel of its
// own, made by the cache's New (set after a goroutine started) in main's
// loop: ants' pool, its workers taken from its workerCache.
//
//fencecheck:system
func workersFromCache() {
	c := newCachedWorkers()
	var mu sync.Mutex
	n := 0
	var ws []*cachedWorker
	for range 2 {
		w := c.cache.Get().(*cachedWorker)
		w.start()
		w.task <- func() {
			mu.Lock()
			n++
			mu.Unlock()
		}
		ws = append(ws, w)
	}
	for _, w := range ws {
		close(w.task)
	}
	c.wg.Wait()
	if n != 2 {
		panic("lost task")
	}
}

// workersFromCacheRacy: the tasks count without the lock.
//
//fencecheck:system
func workersFromCacheRacy() {
	c := newCachedWorkers()
	n := 0
	var ws []*cachedWorker
	for range 2 {
		w := c.cache.Get().(*cachedWorker)
		w.start()
		w.task <- func() { n++ } // want `^race: go@\d+\(#0\) and go@\d+\(#1\) can both reach this access \(it stores n\) at once, and nothing orders the two \(system workersFromCacheRacy\)`
		ws = append(ws, w)
	}
	for _, w := range ws {
		close(w.task)
	}
	c.wg.Wait()
}
