package values

import (
	"errors"
	"sync"
	"sync/atomic"
	"unsafe"
)

var errEmpty = errors.New("empty")

// box is a counter that take empties one unit at a time.
type box struct {
	mu sync.Mutex
	n  int
}

func (b *box) take() (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.n == 0 { // want `^race: go@\d+ loads b\.n here while go@\d+ stores b\.n`
		return 0, errEmpty
	}
	b.n--
	return 1, nil
}

// takeNoLock checks and takes without the lock.
func (b *box) takeNoLock() (int, error) {
	if b.n == 0 {
		return 0, errEmpty
	}
	b.n--
	return 1, nil
}

// errorByPath takes from a box of one unit in two goroutines: one gets
// the unit, the other errEmpty, whichever runs first.
//
//fencecheck:system
func errorByPath() {
	b := &box{n: 1}
	var got, empty atomic.Int32
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			defer wg.Done()
			n, err := b.take()
			switch {
			case errors.Is(err, errEmpty):
				empty.Add(1)
			case err == nil:
				got.Add(int32(n))
			}
		}()
	}
	wg.Wait()
	if got.Load() != 1 || empty.Load() != 1 {
		panic("the unit was taken twice or not at all")
	}
}

// errorByPathWrong takes without the lock in one goroutine.
//
//fencecheck:system
func errorByPathWrong() {
	b := &box{n: 1}
	var got atomic.Int32
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		if n, err := b.take(); err == nil {
			got.Add(int32(n))
		}
	}()
	go func() {
		defer wg.Done()
		if n, err := b.takeNoLock(); err == nil {
			got.Add(int32(n))
		}
	}()
	wg.Wait()
	if got.Load() > 1 {
		panic("the unit was taken twice") // want `^SC: system errorByPathWrong is wrong even under sequential consistency`
	}
}

// growQueue is a ring that doubles its buffer when it is full, with a
// make whose length is known only at run time, as a resizing queue does.
type growQueue struct {
	mu          sync.Mutex
	buf         []int
	head, count int
}

func (q *growQueue) add(v int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.count == len(q.buf) {
		nb := make([]int, q.count*2)
		for i := range q.count {
			nb[i] = q.buf[(q.head+i)%len(q.buf)]
		}
		q.buf, q.head = nb, 0
	}
	q.buf[(q.head+q.count)%len(q.buf)] = v
	q.count++ // want `^race: go@\d+ stores q\.count here while go@\d+ loads q\.count`
}

// lazyMake adds two values to a queue of four: the resize is never run,
// and the system is decided.
//
//fencecheck:system
func lazyMake() {
	q := &growQueue{buf: make([]int, 4)}
	var wg sync.WaitGroup
	wg.Add(2)
	for i := range 2 {
		go func() {
			defer wg.Done()
			q.add(i)
		}()
	}
	wg.Wait()
	if q.count != 2 {
		panic("lost a value")
	}
}

// lazyMakeWrong reads the count without the lock.
//
//fencecheck:system
func lazyMakeWrong() {
	q := &growQueue{buf: make([]int, 4)}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		q.add(1)
	}()
	go func() {
		defer wg.Done()
		if q.count > 1 {
			panic("more values than adds")
		}
	}()
	wg.Wait()
}

// lazyMakeTaken fills the queue: the resize runs, and the answer says so
// (the inference finds eleven counts, not one, where the buffer is
// resized: its length is not found).
//
//fencecheck:system
func lazyMakeTaken() { // want `^inconclusive: system lazyMakeTaken: a run reaches make\(\[\]int, n\) with a length known only at run time \(paths.go:\d+:\d+\), which fencecheck does not model`
	q := &growQueue{buf: make([]int, 1)}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		q.add(1)
		q.add(2)
	}()
	wg.Wait()
}

type pair struct{ a, b int }

type other struct{ x int }

// punOK publishes a pair through an unsafe.Pointer cell that also held an
// int: the reader converts what it loads by what the writer stored.
//
//fencecheck:system
func punOK() {
	var cur unsafe.Pointer
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		atomic.StorePointer(&cur, unsafe.Pointer(&pair{a: 1, b: 2}))
	}()
	go func() {
		defer wg.Done()
		if p := (*pair)(atomic.LoadPointer(&cur)); p != nil && p.a+p.b != 3 {
			panic("torn pair")
		}
	}()
	wg.Wait()
}

// punWrong reads the pair as another type.
//
//fencecheck:system
func punWrong() {
	var cur unsafe.Pointer
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		atomic.StorePointer(&cur, unsafe.Pointer(&pair{a: 1}))
	}()
	go func() {
		defer wg.Done()
		if o := (*other)(atomic.LoadPointer(&cur)); o != nil {
			_ = o.x // want `^SC: system punWrong is wrong even under sequential consistency: the bad state an unsafe.Pointer holding a \*pair dereferenced as a \*other`
		}
	}()
	wg.Wait()
}
