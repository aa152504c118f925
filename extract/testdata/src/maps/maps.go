// Package maps has systems over maps: made by the set-up or by a
// goroutine, read, written, deleted, cleared and ranged over.
package maps

import "sync"

// guarded: two goroutines insert under a mutex; the map holds both keys
// after the wait.
//
//fencecheck:system
func guarded() {
	var mu sync.Mutex
	m := make(map[string]int32)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		mu.Lock()
		m["a"] = 1
		mu.Unlock()
		wg.Done()
	}()
	go func() {
		mu.Lock()
		m["b"] = m["a"] + 1
		mu.Unlock()
		wg.Done()
	}()
	wg.Wait()
	if len(m) != 2 {
		panic("lost a key")
	}
	if v, ok := m["a"]; !ok || v != 1 {
		panic("lost a")
	}
}

// unguarded: the same without the mutex: the two writes race.
//
//fencecheck:system
func unguarded() {
	m := map[string]int32{}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		m["a"] = 1
		wg.Done()
	}()
	go func() {
		m["b"] = 2
		wg.Done()
	}()
	wg.Wait()
}

// readOnly: the set-up fills the map; goroutines read it.
//
//fencecheck:system
func readOnly() {
	m := map[int]int32{0: 10, 1: 20, 2: 30}
	var sum [2]int32
	var wg sync.WaitGroup
	wg.Add(2)
	for i := range 2 {
		go func() {
			sum[i] = m[i] + m[i+1]
			wg.Done()
		}()
	}
	wg.Wait()
	if sum[0] != 30 || sum[1] != 50 {
		panic("wrong sum")
	}
}

// nilMap: a goroutine writes to a nil map.
//
//fencecheck:system
func nilMap() {
	var m map[string]bool
	done := make(chan struct{})
	go func() {
		if !m["x"] {
			m["x"] = true
		}
		close(done)
	}()
	<-done
}

// rangeSum: every order of a range gives the same sum.
//
//fencecheck:system
func rangeSum() {
	m := map[string]int32{"a": 1, "b": 2, "c": 4}
	var total int32
	done := make(chan struct{})
	go func() {
		for _, v := range m {
			total = total*0 + total + v
		}
		close(done)
	}()
	<-done
	if total != 7 {
		panic("wrong total")
	}
}

// rangeFirst: the first key a range visits depends on the order.
//
//fencecheck:system
func rangeFirst() {
	m := map[string]int32{"a": 1, "b": 2}
	var first int32
	done := make(chan struct{})
	go func() {
		for _, v := range m {
			first = v
			break
		}
		close(done)
	}()
	<-done
	if first != 1 {
		panic("b came first")
	}
}

// local: a goroutine's own map with keys known at run time.
//
//fencecheck:system
func local() {
	var out int32
	done := make(chan struct{})
	go func() {
		seen := map[int]bool{}
		for i := range 3 {
			seen[i%2] = true
		}
		delete(seen, 0)
		out = int32(len(seen))
		close(done)
	}()
	<-done
	if out != 1 {
		panic("wrong count")
	}
}
