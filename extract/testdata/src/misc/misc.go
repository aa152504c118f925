package misc

import (
	"sync"
	"sync/atomic"
)

var ready int32 = 1

type ring struct {
	slot [3]int32
	head int32 //fencecheck:range 0..2
}

// put writes through a run-time index: a case split.
func (r *ring) put(v int32) {
	h := r.head
	r.slot[h] = v
	r.head = (h + 1) % 3
}

//fencecheck:system
func dynamicIndex() {
	var r ring
	go func() {
		for i := 0; i < 2; i++ {
			r.put(int32(i) + 1)
		}
	}()
	go func() {
		if r.slot[2] == 1 {
			panic("slot 2 written first")
		}
	}()
}

type counter struct {
	n int32 //fencecheck:range 0..1
}

//fencecheck:system
func overflow() {
	var c counter
	for i := 0; i < 2; i++ {
		go func() { c.n++ }()
	}
}

//fencecheck:system
func unbounded() {
	var n int64
	go func() {
		for {
			n++
		}
	}()
}

type typed struct {
	n   atomic.Int32
	u   uint32
	mu  sync.Mutex
	val int32
}

func (t *typed) run(me int32) int32 {
	t.mu.Lock()
	t.val = me
	t.mu.Unlock()
	old := t.n.Add(1)
	atomic.AddUint32(&t.u, ^uint32(0))
	if old == 2 {
		return t.n.Load()
	}
	return t.n.Swap(0)
}

//fencecheck:system
func typedAtomics() {
	var t typed
	t.u = 2
	var wg sync.WaitGroup
	wg.Go(func() { t.run(1) })
	wg.Go(func() { t.run(2) })
	wg.Wait()
}

type pair struct{ a, b int32 }

//fencecheck:system
func fenceDummy() {
	var p pair
	var dummy int32
	go func() {
		p.a = 1 //fencecheck:nofence
		atomic.AddInt32(&dummy, 1)
		local := ready
		p.b = local
	}()
	go func() { p.b = 2; atomic.AddInt32(&dummy, 1) }()
}

//fencecheck:system
func loopSpawns() {
	var hits [2]int32
	for i := 0; i < 2; i++ {
		go func() { hits[i] = 1 }()
	}
	for i := 0; i < 2; i++ {
		go func(id int) { hits[id] = 2 }(i)
	}
}

// onceEach increments a counter once in each of two goroutines under a
// mutex: no write lies on a loop, so the counter's domain is finite (the
// flow-insensitive iteration alone would count on forever).
//
//fencecheck:system
func onceEach() {
	var mu sync.Mutex
	var count int
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			mu.Lock()
			count++
			mu.Unlock()
			wg.Done()
		}()
	}
	wg.Wait()
	if count != 2 {
		panic("lost update")
	}
}

// eachInLoop increments the counter in a loop: a write on a cycle, so the
// counter stays unbounded.
//
//fencecheck:system
func eachInLoop() {
	var mu sync.Mutex
	var count int
	go func() {
		for {
			mu.Lock()
			count++
			mu.Unlock()
		}
	}()
}

// countedLoop increments the counter three times in each of two goroutines,
// each time under a compare-and-swap spin lock: the loop's counter bounds
// the writes, so count's domain is finite. The failed compare-and-swap's
// retry is a loop too, but no write runs on it.
//
//fencecheck:system
func countedLoop() {
	var held int32
	var count int
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			for range 3 {
				for !atomic.CompareAndSwapInt32(&held, 0, 1) {
				}
				count++
				atomic.StoreInt32(&held, 0)
			}
			wg.Done()
		}()
	}
	wg.Wait()
	if count != 6 {
		panic("lost update")
	}
}

// resetLoop restarts its counter inside the loop, so the counter bounds
// nothing: count stays unbounded.
//
//fencecheck:system
func resetLoop() {
	var count int
	go func() {
		for i := 0; i < 3; i++ {
			count++
			if count > 1 {
				i = 0
			}
		}
	}()
}
