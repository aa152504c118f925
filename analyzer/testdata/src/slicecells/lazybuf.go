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
