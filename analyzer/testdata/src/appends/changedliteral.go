package appends

import "sync"

// appendChangedLiteral appends the elements of a slice literal changed
// after it: Go appends 3, 2. The literal's stores are not the elements,
// so the append is not read from them (it was, and the panic Go never
// reaches was reported).
//
//fencecheck:system
func appendChangedLiteral() { // want `^inconclusive: system appendChangedLiteral: a run reaches append of the elements of another slice`
	var mu sync.Mutex
	var s []int
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		xs := []int{1, 2}
		xs[0] = 3
		mu.Lock()
		s = append(s, xs...)
		mu.Unlock()
	}()
	wg.Wait()
	if s[0] != 3 {
		panic("lost the change")
	}
}
