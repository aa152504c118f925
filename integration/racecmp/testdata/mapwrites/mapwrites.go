// Package mapwrites stores into one map from two goroutines with nothing
// ordering the writes (a cache filled by two workers).
//
// Expected: racy.
package mapwrites

import "sync"

// system: two goroutines write different keys of one map.
//
//fencecheck:system
func system() {
	m := make(map[string]int)
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
	if len(m) != 2 {
		panic("lost key")
	}
}
