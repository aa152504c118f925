// Package mapbatchracy is mapbatch's twin whose producer counts one more
// word into its map after sending it, while the merger reads it.
//
// Expected: racy.
package mapbatchracy

import "sync"

// system: two producers and the merger.
//
//fencecheck:system
func system() {
	ch := make(chan map[string]int, 2)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		m := map[string]int{}
		m["a"]++
		ch <- m
		m["c"]++
	}()
	go func() {
		defer wg.Done()
		m := map[string]int{}
		m["a"]++
		m["b"]++
		ch <- m
	}()
	total := map[string]int{}
	for range 2 {
		for k, v := range <-ch {
			total[k] += v
		}
	}
	wg.Wait()
	if total["a"] != 2 || total["b"] != 1 {
		panic("lost counts")
	}
}
