package values

import "sync"

// Accumulators of bounded loops and makes sized by len: the values a
// goroutine computes in a loop that the program bounds (sums of constants,
// of the loop counter, of floats), and a make whose length is len of a map
// the goroutine fills, need no //fencecheck:range.

// held is an interface value published under a lock.
type held struct {
	mu  sync.Mutex
	box any
}

// tenths sums 0.1 n times.
func tenths(n int) float64 {
	s := 0.0
	for i := 0; i < n; i++ {
		s += 0.1
	}
	return s
}

// accumFloat publishes a float sum of three terms in an interface value.
//
//fencecheck:system
func accumFloat() {
	var h held
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		s := tenths(3)
		h.mu.Lock()
		h.box = any(s)
		h.mu.Unlock()
		wg.Done()
	}()
	wg.Wait()
	if v, ok := h.box.(float64); !ok || v < 0.3 || v > 0.31 {
		panic("not three tenths")
	}
}

// accumFloatExact expects the sum to be 0.3: it is 0.30000000000000004.
//
//fencecheck:system
func accumFloatExact() {
	var h held
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		s := tenths(3)
		h.mu.Lock()
		h.box = any(s)
		h.mu.Unlock()
		wg.Done()
	}()
	wg.Wait()
	if v, ok := h.box.(float64); !ok || v != 0.3 {
		panic("not three tenths") // want `^SC: system accumFloatExact is wrong even under sequential consistency: the panic is reached here$`
	}
}

// triangle sums the counter of a loop of n iterations and 7 for each.
func triangle(n int) (int, int) {
	t, u := 0, 0
	for i := 0; i < n; i++ {
		t += i
		u += 7
	}
	return t, u
}

// accumInt publishes two int sums in interface values under the lock.
//
//fencecheck:system
func accumInt() {
	var h, k held
	var wg sync.WaitGroup
	wg.Add(2)
	for g := 0; g < 2; g++ {
		go func() {
			t, u := triangle(4)
			h.mu.Lock()
			h.box = any(t)
			k.box = any(u)
			h.mu.Unlock()
			wg.Done()
		}()
	}
	wg.Wait()
	if v, ok := h.box.(int); !ok || v != 6 {
		panic("not 6")
	}
	if v, ok := k.box.(int); !ok || v != 28 {
		panic("not 28")
	}
}

// accumIntRace publishes the second sum outside the lock.
//
//fencecheck:system
func accumIntRace() {
	var h, k held
	var wg sync.WaitGroup
	wg.Add(2)
	for g := 0; g < 2; g++ {
		go func() {
			t, u := triangle(4)
			h.mu.Lock()
			h.box = any(t)
			h.mu.Unlock()
			k.box = any(u) // want `^race: go@\d+\(g=0\) and go@\d+\(g=1\) can both reach this access \(it stores k\.box\) at once, and nothing orders the two \(system accumIntRace\)$`
			wg.Done()
		}()
	}
	wg.Wait()
	if v, ok := k.box.(int); !ok || v != 28 {
		panic("not 28")
	}
}

// gather copies the values of m into a slice of len(m) elements.
func gather(m map[int]int) []int {
	b := make([]int, len(m))
	i := 0
	for _, v := range m {
		b[i] = v
		i++
	}
	return b
}

// sizedByLen: each goroutine gathers a map of two keys into a slice made
// with len of the map and adds its elements to a total under a lock.
//
//fencecheck:system
func sizedByLen() {
	var mu sync.Mutex
	var total int
	var wg sync.WaitGroup
	wg.Add(2)
	for g := 0; g < 2; g++ {
		go func() {
			b := gather(map[int]int{1: 10, 2: 20})
			mu.Lock()
			total += b[0] + b[1]
			mu.Unlock()
			wg.Done()
		}()
	}
	wg.Wait()
	if total != 60 {
		panic("lost a sum")
	}
}

// sizedByLenLost adds without the lock.
//
//fencecheck:system
func sizedByLenLost() {
	var total int
	var wg sync.WaitGroup
	wg.Add(2)
	for g := 0; g < 2; g++ {
		go func() {
			b := gather(map[int]int{1: 10, 2: 20})
			total += b[0] + b[1] // want `^race: go@\d+\(g=0\) and go@\d+\(g=1\) can both reach this access \(it stores total\) at once, and nothing orders the two \(system sizedByLenLost\)$`
			wg.Done()
		}()
	}
	wg.Wait()
	if total != 60 {
		panic("lost a sum") // want `^SC: system sizedByLenLost is wrong even under sequential consistency: the panic is reached here$`
	}
}

// accumUnbounded sums until another goroutine says stop: the sum grows
// without bound, and the answer names it.
//
//fencecheck:system
func accumUnbounded() { // want `^inconclusive: system accumUnbounded: h\.box \(accum\.go:\d+:\d+\) takes the value -1, outside the domain .*; t \(accum\.go:\d+:\d+\) grows without bound: a search of the runs under sequential consistency saw it take \d+ values and more`
	var h held
	var stop bool
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		t := 0
		for {
			h.mu.Lock()
			if stop {
				h.mu.Unlock()
				break
			}
			h.mu.Unlock()
			t += 7
		}
		h.mu.Lock()
		h.box = any(t)
		h.mu.Unlock()
		wg.Done()
	}()
	go func() {
		h.mu.Lock()
		stop = true
		h.mu.Unlock()
		wg.Done()
	}()
	wg.Wait()
	if v, ok := h.box.(int); ok && v%7 != 0 {
		panic("not a multiple of 7")
	}
}

// window sums the first n elements of a buffer made for them, its length
// and the loop's bound both n.
func window(n int, vals []int) int {
	b := make([]int, n)
	copy(b, vals)
	t := 0
	for i := 0; i < len(b); i++ {
		t += b[i]
	}
	return t
}

// sizedByParam: two goroutines make buffers of 2 and 3 elements, sized by
// a parameter, and publish their sums in interface values.
//
//fencecheck:system
func sizedByParam() {
	var h, k held
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		t := window(2, []int{1, 2, 3})
		h.mu.Lock()
		h.box = any(t)
		h.mu.Unlock()
		wg.Done()
	}()
	go func() {
		t := window(3, []int{1, 2, 3})
		h.mu.Lock()
		k.box = any(t)
		h.mu.Unlock()
		wg.Done()
	}()
	wg.Wait()
	if x, ok := h.box.(int); !ok || x != 3 {
		panic("not 3")
	}
	if y, ok := k.box.(int); !ok || y != 6 {
		panic("not 6")
	}
}

// sizedByParamShort expects the second sum to be that of two elements.
//
//fencecheck:system
func sizedByParamShort() {
	var h held
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		t := window(3, []int{1, 2, 3})
		h.mu.Lock()
		h.box = any(t)
		h.mu.Unlock()
		wg.Done()
	}()
	wg.Wait()
	if y, ok := h.box.(int); !ok || y != 3 {
		panic("not 3") // want `^SC: system sizedByParamShort is wrong even under sequential consistency: the panic is reached here$`
	}
}

// sizedByLenTwo: two goroutines gather maps of two and three keys at the
// same make, each with its own size.
//
//fencecheck:system
func sizedByLenTwo() {
	var mu sync.Mutex
	var total int
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		b := gather(map[int]int{1: 10, 2: 20})
		mu.Lock()
		total += b[0] + b[1]
		mu.Unlock()
		wg.Done()
	}()
	go func() {
		b := gather(map[int]int{1: 1, 2: 2, 3: 3})
		mu.Lock()
		total += b[0] + b[1] + b[2]
		mu.Unlock()
		wg.Done()
	}()
	wg.Wait()
	if total != 36 {
		panic("lost a sum")
	}
}
