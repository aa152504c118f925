// Package mapbatch hands batches of counts from producers to a merger
// over a channel of maps, in the style of a map-reduce stage (the
// word-count pipelines of Go's concurrency tutorials): each producer
// fills its map, sends it and never touches it again.
//
// Expected: race-free.
package mapbatch

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
	}()
	go func() {
		defer wg.Done()
		m := map[string]int{}
		m["a"]++
		m["b"]++
		ch <- m
	}()
	wg.Wait()
	total := map[string]int{}
	for range 2 {
		for k, v := range <-ch {
			total[k] += v
		}
	}
	if total["a"] != 2 || total["b"] != 1 {
		panic("lost counts")
	}
}
