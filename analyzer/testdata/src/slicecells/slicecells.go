// Package slicecells holds systems whose goroutines store slice headers in
// shared memory: a stack trace kept in a field, a []byte built by append
// and published, a buffer with room appended to under a mutex (as
// beorn7/perks' quantile stream does), a buffer reset by reslicing, a
// slice a goroutine makes and hands over, slices made in each round of a
// goroutine's loop, stored and boxed, and makes of a few sizes. Each
// correct system has a buggy twin whose race on the header (or its
// elements) or bad state is found; a slice grown in a loop and stored
// there is refused where a run reaches it. Goroutines append to a nil
// field under a mutex, once, three times, and in a loop: each append to
// the slice loaded back has room or grows it into a new array (one of
// three in a loop).
package slicecells

import (
	"runtime/debug"
	"sync"
)

// report is what a goroutine leaves for the main one.
type report struct {
	mu    sync.Mutex
	stack []byte
	data  []byte
	nums  []int
	box   any
}

// stackField: a goroutine records its stack under the mutex; it is read
// after the wait.
//
//fencecheck:system
func stackField() {
	var r report
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		st := debug.Stack()
		r.mu.Lock()
		r.stack = st
		r.mu.Unlock()
	}()
	wg.Wait()
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stack == nil {
		panic("no stack")
	}
	println(string(r.stack))
}

// stackFieldRacy reads the field without waiting.
//
//fencecheck:system
func stackFieldRacy() {
	var r report
	go func() {
		r.stack = debug.Stack() // want `^race: go@\d+ stores r\.stack here while main loads r\.stack`
	}()
	if r.stack != nil {
		println(string(r.stack))
	}
}

// builtBytes: a goroutine builds a []byte by append and publishes it
// under the mutex.
//
//fencecheck:system
func builtBytes() {
	var r report
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var b []byte
		b = append(b, 'o')
		b = append(b, 'k')
		r.mu.Lock()
		r.data = b
		r.mu.Unlock()
	}()
	wg.Wait()
	if len(r.data) != 2 || r.data[1] != 'k' {
		panic("lost the bytes")
	}
}

// builtBytesEarly publishes the slice before writing its last byte.
//
//fencecheck:system
func builtBytesEarly() {
	var r report
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var b []byte
		b = append(b, 'o', '?')
		r.mu.Lock()
		r.data = b
		r.mu.Unlock()
		b[1] = 'k' // want `^race: go@\d+ stores b\[1\] here while main loads b\[1\]`
	}()
	r.mu.Lock()
	d := r.data
	r.mu.Unlock()
	if len(d) == 2 && d[1] != 'k' {
		panic("half-built bytes") // want `^SC: system builtBytesEarly is wrong even under sequential consistency`
	}
	wg.Wait()
}

// stream keeps a buffer with room, appended to in place.
type stream struct {
	mu sync.Mutex
	b  []int
}

func (s *stream) insert(v int) {
	s.b = append(s.b, v) // want `^race: go@\d+ stores s\.b here while go@\d+ loads s\.b`
}

// sharedBuffer: two goroutines append under the mutex.
//
//fencecheck:system
func sharedBuffer() {
	s := &stream{b: make([]int, 0, 500)}
	var wg sync.WaitGroup
	wg.Add(2)
	for i := range 2 {
		go func() {
			defer wg.Done()
			s.mu.Lock()
			s.insert(i + 1)
			s.mu.Unlock()
		}()
	}
	wg.Wait()
	if len(s.b) != 2 || s.b[0]+s.b[1] != 3 {
		panic("lost an insert")
	}
}

// sharedBufferRacy: one goroutine appends without the mutex, and an
// insert is lost.
//
//fencecheck:system
func sharedBufferRacy() {
	s := &stream{b: make([]int, 0, 500)}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		s.insert(1)
	}()
	go func() {
		defer wg.Done()
		s.mu.Lock()
		s.insert(2)
		s.mu.Unlock()
	}()
	wg.Wait()
	if len(s.b) != 2 {
		panic("lost an insert") // want `^SC: system sharedBufferRacy is wrong even under sequential consistency`
	}
}

// resetBuffer: one goroutine appends, the other empties the buffer by
// reslicing it; either order leaves a consistent buffer.
//
//fencecheck:system
func resetBuffer() {
	s := &stream{b: make([]int, 1, 4)}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		s.mu.Lock()
		s.b = append(s.b, 5)
		s.mu.Unlock()
	}()
	go func() {
		defer wg.Done()
		s.mu.Lock()
		s.b = s.b[:0]
		s.mu.Unlock()
	}()
	wg.Wait()
	if n := len(s.b); n > 1 || n == 1 && s.b[0] != 5 {
		panic("inconsistent buffer")
	}
}

// handOver: a goroutine makes a slice, fills it and stores it.
//
//fencecheck:system
func handOver() {
	var r report
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		n := make([]int, 2)
		n[0], n[1] = 1, 2
		r.mu.Lock()
		r.nums = n
		r.mu.Unlock()
	}()
	wg.Wait()
	if r.nums[0]+r.nums[1] != 3 {
		panic("short sum")
	}
}

// handOverEarly stores the slice before filling it.
//
//fencecheck:system
func handOverEarly() {
	var r report
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		n := make([]int, 2)
		r.mu.Lock()
		r.nums = n
		r.mu.Unlock()
		n[0], n[1] = 1, 2 // want `^race: go@\d+ stores n\[0\] here while main loads n\[0\]`
	}()
	r.mu.Lock()
	n := r.nums
	r.mu.Unlock()
	if n != nil && n[0]+n[1] != 3 {
		panic("short sum") // want `^SC: system handOverEarly is wrong even under sequential consistency`
	}
	wg.Wait()
}

// loopBoxed makes a slice in each round of a goroutine's loop and boxes
// it: each round's array is its own (one of three, as for any allocation
// in a loop), and the last one boxed is read back.
//
//fencecheck:system
func loopBoxed() {
	var r report
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; i < 3; i++ {
			b := make([]int, 2)
			b[0] = i
			r.mu.Lock()
			r.box = b
			r.mu.Unlock()
		}
	}()
	wg.Wait()
	if b := r.box.([]int); b[0] != 2 {
		panic("not the last round's")
	}
}

// loopBoxedFirst expects the first round's slice.
//
//fencecheck:system
func loopBoxedFirst() {
	var r report
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; i < 3; i++ {
			b := make([]int, 2)
			b[0] = i
			r.mu.Lock()
			r.box = b
			r.mu.Unlock()
		}
	}()
	wg.Wait()
	if b := r.box.([]int); b[0] != 0 {
		panic("not the first round's") // want `^SC: system loopBoxedFirst is wrong even under sequential consistency`
	}
}

// loopField stores a slice made in each round of a loop in a field, filled
// first; the reader sees a whole round's slice.
//
//fencecheck:system
func loopField() {
	var r report
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for i := 0; i < 3; i++ {
			n := make([]int, 2)
			n[0], n[1] = i, i
			r.mu.Lock()
			r.nums = n
			r.mu.Unlock()
		}
	}()
	go func() {
		defer wg.Done()
		r.mu.Lock()
		n := r.nums
		r.mu.Unlock()
		if n != nil && n[0] != n[1] {
			panic("torn round")
		}
	}()
	wg.Wait()
}

// loopFieldEarly fills each round's slice after storing it.
//
//fencecheck:system
func loopFieldEarly() {
	var r report
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for i := 0; i < 3; i++ {
			n := make([]int, 2)
			r.mu.Lock()
			r.nums = n
			r.mu.Unlock()
			n[0], n[1] = i, i // want `^race: go@\d+ stores \w+(#\d)?\[0\] here while go@\d+ loads \w+(#\d)?\[0\]`
		}
	}()
	go func() {
		defer wg.Done()
		r.mu.Lock()
		n := r.nums
		r.mu.Unlock()
		if n != nil && n[0] != n[1] {
			panic("torn round") // want `^SC: system loopFieldEarly is wrong even under sequential consistency`
		}
	}()
	wg.Wait()
}

// grownInLoop stores, in a loop, a slice it grows: refused where a run
// reaches the store.
//
//fencecheck:system
func grownInLoop() { // want `^inconclusive: system grownInLoop: a run reaches storing in memory, in a loop, a slice grown by append`
	var r report
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var b []byte
		for i := range 2 {
			b = append(b, byte(i))
			r.mu.Lock()
			r.data = b
			r.mu.Unlock()
		}
	}()
	wg.Wait()
}

// sizes makes buffers of a few sizes: one per round of a loop, and one
// per call of a helper.
//
//fencecheck:system
func sizes() {
	var mu sync.Mutex
	total := 0
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for i := 1; i <= 3; i++ {
			a := make([]int, i)
			a[i-1] = i
			mu.Lock()
			total += len(a) + a[i-1]
			mu.Unlock()
		}
	}()
	go func() {
		defer wg.Done()
		n := len(grow(1)) + len(grow(2))
		mu.Lock()
		total += n
		mu.Unlock()
	}()
	wg.Wait()
	if total != 12+5 {
		panic("wrong total")
	}
}

// grow returns a buffer of n cells with room for one more, and appends to
// it.
func grow(n int) []int {
	b := make([]int, n, n+1)
	return append(b, 7)
}

// sizesRacy adds without the mutex in one goroutine.
//
//fencecheck:system
func sizesRacy() {
	var mu sync.Mutex
	total := 0
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for i := 1; i <= 2; i++ {
			a := make([]int, i)
			total += len(a) // want `^race: go@\d+ stores total here while go@\d+ loads total`
		}
	}()
	go func() {
		defer wg.Done()
		mu.Lock()
		total += len(grow(1))
		mu.Unlock()
	}()
	wg.Wait()
}

// rec collects numbers under its mutex.
type rec struct {
	mu   sync.Mutex
	nums []int
}

func (r *rec) add(x int) {
	r.mu.Lock()
	r.nums = append(r.nums, x)
	r.mu.Unlock()
}

func (r *rec) addRacy(x int) {
	r.nums = append(r.nums, x) // want `^race: go@\d+\S* stores r\.nums here while go@\d+\S* loads r\.nums` `^race: go@\d+\S* and go@\d+\S* can both reach this access \(it stores nums\[0\]\)`
}

// collect has two goroutines append to a nil field under the mutex: the
// first grows a slice of its own, the second appends to that one, in
// place or moving the element to a new array (the runtime's choice).
//
//fencecheck:system
func collect() {
	var r rec
	var wg sync.WaitGroup
	wg.Add(2)
	for i := range 2 {
		go func() {
			defer wg.Done()
			r.add(i + 1)
		}()
	}
	wg.Wait()
	if len(r.nums) != 2 || r.nums[0]+r.nums[1] != 3 || r.nums[0] == r.nums[1] {
		panic("lost a number")
	}
}

// collectRacy appends without the mutex: a number may be lost.
//
//fencecheck:system
func collectRacy() {
	var r rec
	var wg sync.WaitGroup
	wg.Add(2)
	for i := range 2 {
		go func() {
			defer wg.Done()
			r.addRacy(i + 1)
		}()
	}
	wg.Wait()
	if len(r.nums) != 2 {
		panic("lost a number") // want `^SC: system collectRacy is wrong even under sequential consistency`
	}
}

// collectThree has each goroutine append three numbers.
//
//fencecheck:system
func collectThree() {
	var r rec
	var wg sync.WaitGroup
	wg.Add(2)
	for i := range 2 {
		go func() {
			defer wg.Done()
			r.add(10 * i)
			r.add(10*i + 1)
			r.add(10*i + 2)
		}()
	}
	wg.Wait()
	sum := 0
	for _, x := range r.nums {
		sum += x
	}
	if len(r.nums) != 6 || sum != 36 {
		panic("lost a number")
	}
}

// collectThreeWrong expects the numbers of one goroutine first.
//
//fencecheck:system
func collectThreeWrong() {
	var r rec
	var wg sync.WaitGroup
	wg.Add(2)
	for i := range 2 {
		go func() {
			defer wg.Done()
			r.add(10 * i)
			r.add(10*i + 1)
			r.add(10*i + 2)
		}()
	}
	wg.Wait()
	if r.nums[1] != r.nums[0]+1 {
		panic("interleaved") // want `^SC: system collectThreeWrong is wrong even under sequential consistency`
	}
}

// collectLoop appends in a loop of three rounds: each growth takes one of
// the three arrays of the append.
//
//fencecheck:system
func collectLoop() {
	var r rec
	var wg sync.WaitGroup
	wg.Add(2)
	for i := range 2 {
		go func() {
			defer wg.Done()
			for k := range 3 {
				r.add(10*i + k)
			}
		}()
	}
	wg.Wait()
	if len(r.nums) != 6 {
		panic("lost a number")
	}
}

// collectLoopFour appends in a loop of four rounds: a run in which every
// append of a goroutine grows the slice takes one more array than the
// three fencecheck keeps for the append.
//
//fencecheck:system
func collectLoopFour() { // want `^inconclusive: system collectLoopFour: the number of objects append\(r\.nums, x\) allocates in a loop of goroutine go@\d+\S* \(fencecheck models 3\)`
	var r rec
	var wg sync.WaitGroup
	wg.Add(2)
	for i := range 2 {
		go func() {
			defer wg.Done()
			for k := range 4 {
				r.add(10*i + k)
			}
		}()
	}
	wg.Wait()
}

// collectTwice appends twice to the slice loaded back before storing it:
// the second growth would take the array of the first, refused.
//
//fencecheck:system
func collectTwice() { // want `^inconclusive: system collectTwice: a run reaches append to the result of an append to a slice loaded from memory`
	var r rec
	var wg sync.WaitGroup
	wg.Add(2)
	for i := range 2 {
		go func() {
			defer wg.Done()
			r.mu.Lock()
			s := append(r.nums, i)
			s = append(s, i)
			r.nums = s
			r.mu.Unlock()
		}()
	}
	wg.Wait()
}

// loopBoxedFour boxes a slice made in each of four rounds: one more than
// the three arrays fencecheck keeps for an allocation in a loop.
//
//fencecheck:system
func loopBoxedFour() { // want `^inconclusive: system loopBoxedFour: the number of objects make\(\[\]int, 2\) allocates in a loop of goroutine go@\d+ \(fencecheck models 3\)`
	var r report
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; i < 4; i++ {
			b := make([]int, 2)
			b[0] = i
			r.mu.Lock()
			r.box = b
			r.mu.Unlock()
		}
	}()
	wg.Wait()
	if b := r.box.([]int); b[0] != 3 {
		panic("not the last round's")
	}
}
