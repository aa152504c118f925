package slicecells

import "sync"

// lazyRing makes its buffer on first use, of a size a field holds (0 means
// the default), as gammazero/deque's growIfFull does: the make's size is
// one of a few values, each a capacity the header in memory may hold.
type lazyRing struct {
	mu     sync.Mutex
	minCap int
	buf    []int
}

func (r *lazyRing) ensure() {
	if len(r.buf) == 0 { // want `^race: go@\d+ loads r\.buf here while go@\d+ stores r\.buf at lazybuf\.go:\d+:\d+, and nothing orders the two \(system lazyBufferRace\)`
		if r.minCap == 0 { // want `^race: go@\d+ loads r\.minCap here while go@\d+ stores r\.minCap at lazybuf\.go:\d+:\d+, and nothing orders the two \(system lazyBufferRace\)`
			r.minCap = 4
		}
		r.buf = make([]int, r.minCap)
	}
}

// lazyBuffer: two goroutines make the buffer on first use and fill their
// slots under the mutex.
//
//fencecheck:system
func lazyBuffer() {
	r := &lazyRing{}
	var wg sync.WaitGroup
	wg.Add(2)
	for k := range 2 {
		go func() {
			r.mu.Lock()
			r.ensure()
			r.buf[k] = k + 1
			r.mu.Unlock()
			wg.Done()
		}()
	}
	wg.Wait()
	if r.buf[0] != 1 || r.buf[1] != 2 || cap(r.buf) != 4 {
		panic("a slot lost")
	}
}

// lazyBufferRace: the second goroutine forgets the mutex.
//
//fencecheck:system
func lazyBufferRace() {
	r := &lazyRing{}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		r.mu.Lock()
		r.ensure()
		r.buf[0] = 1
		r.mu.Unlock()
		wg.Done()
	}()
	go func() {
		r.ensure()
		r.buf[1] = 2
		wg.Done()
	}()
	wg.Wait()
}

// mailbox hands batches over in a field.
type mailbox struct {
	mu    sync.Mutex
	size  int
	batch []int
}

// batchesInLoop: a producer makes a batch of a size the mailbox holds in
// each round of its loop (a new array each time, one of three) and hands
// it over under the mutex; the consumer never sees an unfilled batch.
//
//fencecheck:system
func batchesInLoop() {
	m := &mailbox{size: 2}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		for i := range 2 {
			m.mu.Lock()
			b := make([]int, m.size)
			b[0] = i + 1
			m.batch = b
			m.mu.Unlock()
		}
		wg.Done()
	}()
	m.mu.Lock()
	if b := m.batch; b != nil && b[0] == 0 {
		panic("an unfilled batch")
	}
	m.mu.Unlock()
	wg.Wait()
}

// batchesInLoopEarly publishes each batch before it fills it.
//
//fencecheck:system
func batchesInLoopEarly() {
	m := &mailbox{size: 2}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		for i := range 2 {
			b := make([]int, m.size)
			m.mu.Lock()
			m.batch = b
			m.mu.Unlock()
			b[0] = i + 1 // want `^race: go@\d+ stores obj\[0\] here while main loads obj\[0\] at lazybuf\.go:\d+:\d+`
		}
		wg.Done()
	}()
	m.mu.Lock()
	if b := m.batch; b != nil && b[0] == 0 {
		panic("an unfilled batch") // want `^SC: system batchesInLoopEarly is wrong even under sequential consistency: the panic is reached here`
	}
	m.mu.Unlock()
	wg.Wait()
}
