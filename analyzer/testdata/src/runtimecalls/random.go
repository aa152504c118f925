package runtimecalls

import (
	"math/rand/v2"
	"sync"
	"sync/atomic"
	_ "unsafe" // for go:linkname
)

// fastrand is the run time's random number generator, reached as sharded
// counters do to pick a shard.
//
//go:linkname fastrand runtime.fastrand
func fastrand() uint32

// shardedCounter adds to a shard that fastrand picks, atomically.
//
//fencecheck:system
func shardedCounter() {
	var shards [4]atomic.Int32
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			defer wg.Done()
			shards[fastrand()%4].Add(1)
		}()
	}
	wg.Wait()
	if shards[0].Load()+shards[1].Load()+shards[2].Load()+shards[3].Load() != 2 {
		panic("lost an increment")
	}
}

// shardedCounterWrong adds without atomics: two goroutines can pick one
// shard.
//
//fencecheck:system
func shardedCounterWrong() {
	var shards [4]int32
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			defer wg.Done()
			shards[fastrand()&3]++ // want `^race: go@\d+ stores shards\[0\] here while go@\d+#2 loads shards\[0\]`
		}()
	}
	wg.Wait()
}

// jitter picks a back-off with math/rand/v2: any value of its range.
//
//fencecheck:system
func jitter() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		if d := rand.Int64() % 3; d > 2 {
			panic("back-off out of range")
		}
	}()
	wg.Wait()
}

// jitterWrong expects the back-off never to be 0.
//
//fencecheck:system
func jitterWrong() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		if d := rand.Uint32() % 3; d == 0 {
			panic("no back-off") // want `^SC: system jitterWrong is wrong even under sequential consistency`
		}
	}()
	wg.Wait()
}
