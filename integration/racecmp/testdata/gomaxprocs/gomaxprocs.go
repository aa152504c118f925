// Package gomaxprocs sizes its shards from runtime.GOMAXPROCS(0) and lets
// each worker write its own shard: disjoint memory, no race.
//
// Expected: race-free.
package gomaxprocs

import (
	"runtime"
	"sync"
)

// system: one shard per worker, at most two workers.
//
//fencecheck:system
func system() {
	n := min(runtime.GOMAXPROCS(0), 2)
	var shards [2]int32
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			shards[i]++
			runtime.Gosched()
			wg.Done()
		}()
	}
	wg.Wait()
	if shards[0] != 1 {
		panic("lost shard")
	}
}
