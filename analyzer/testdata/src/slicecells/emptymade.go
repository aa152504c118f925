package slicecells

import "sync"

// A registry whose list the constructor makes empty but not nil, as
// jellydator/ttlcache's expiration queue (make(expirationQueue, 0)) and
// many a subscriber list ([]chan T{}) are: goroutines append to it under
// the registry's mutex, and each first append moves to a new array.
type registry struct {
	mu   sync.Mutex
	subs []int
}

func (r *registry) add(x int) {
	r.mu.Lock()
	r.subs = append(r.subs, x)
	r.mu.Unlock()
}

func (r *registry) addUnlocked(x int) {
	r.subs = append(r.subs, x) // want `^race: go@\d+ stores r\.subs here while go@\d+ loads r\.subs` `^race: go@\d+ and go@\d+ can both reach this access \(it stores subs\[0\]\)`
}

//fencecheck:system
func appendToMadeEmpty() {
	r := &registry{subs: make([]int, 0)}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { r.add(1); wg.Done() }()
	go func() { r.add(2); wg.Done() }()
	wg.Wait()
	if len(r.subs) != 2 || r.subs[0]+r.subs[1] != 3 {
		panic("an element was lost")
	}
}

//fencecheck:system
func appendToEmptyLiteralOrder() {
	r := &registry{subs: []int{}}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { r.add(1); wg.Done() }()
	go func() { r.add(2); wg.Done() }()
	wg.Wait()
	if r.subs[0] == 2 {
		panic("the second goroutine came first") // want `^SC: system appendToEmptyLiteralOrder is wrong even under sequential consistency: the panic is reached here`
	}
}

//fencecheck:system
func appendToMadeEmptyUnlocked() {
	r := &registry{subs: make([]int, 0)}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { r.addUnlocked(1); wg.Done() }()
	go func() { r.addUnlocked(2); wg.Done() }()
	wg.Wait()
}

//fencecheck:system
func madeEmptyIsNotNil() {
	r := &registry{subs: make([]int, 0)}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { r.add(1); wg.Done() }()
	go func() {
		r.mu.Lock()
		if r.subs == nil || len(r.subs) > 1 {
			panic("nil, or too long")
		}
		r.mu.Unlock()
		wg.Done()
	}()
	wg.Wait()
}

//fencecheck:system
func madeEmptyFirstRead() {
	r := &registry{subs: make([]int, 0)}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { r.add(1); wg.Done() }()
	go func() {
		r.mu.Lock()
		_ = r.subs[0] // want `^SC: system madeEmptyFirstRead is wrong even under sequential consistency: the bad state index out of range`
		r.mu.Unlock()
		wg.Done()
	}()
	wg.Wait()
}

//fencecheck:system
func madeEmptyResliced() {
	r := &registry{subs: make([]int, 0)}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { r.add(1); r.add(3); wg.Done() }()
	go func() {
		r.mu.Lock()
		r.subs = r.subs[:0]
		r.mu.Unlock()
		r.add(2)
		wg.Done()
	}()
	wg.Wait()
	if len(r.subs) == 0 || r.subs[len(r.subs)-1] == 1 && len(r.subs) == 1 {
		panic("the reset lost the last append")
	}
}

// window holds an empty window at the end of an array the set-up keeps
// too: appends to it grow, and never write the array's cells.
type window struct {
	mu   sync.Mutex
	s    []int
	keep []int
}

//fencecheck:system
func appendToTailWindow() {
	arr := make([]int, 2)
	w := &window{s: arr[len(arr):], keep: arr}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { w.mu.Lock(); w.s = append(w.s, 7); w.mu.Unlock(); wg.Done() }()
	go func() {
		if w.keep[0] == 7 || w.keep[1] == 7 {
			panic("the append wrote the kept array")
		}
		wg.Done()
	}()
	wg.Wait()
}

//fencecheck:system
func extendMadeEmpty() {
	r := &registry{subs: make([]int, 0)}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { r.add(1); wg.Done() }()
	go func() {
		r.mu.Lock()
		r.subs = r.subs[:1] // want `^SC: system extendMadeEmpty is wrong even under sequential consistency: the bad state slice bounds out of range`
		r.mu.Unlock()
		wg.Done()
	}()
	wg.Wait()
}
