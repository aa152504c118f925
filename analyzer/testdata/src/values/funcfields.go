package values

import "sync"

// A struct with a function field, copied by a value receiver in a
// goroutine (concurrent-map's ConcurrentMap and its sharding function):
// the copy's field holds the function the set-up stored.

type sharded struct {
	shards   [2]int32
	sharding func(k int) uint32
}

func identityHash(k int) uint32 { return uint32(k) }

func (m sharded) pick(k int) uint32 { return m.sharding(k) % 2 }

// pickedShard calls the sharding function through the copy: key 1 is
// shard 1, never a nil function.
//
//fencecheck:system
func pickedShard() {
	m := &sharded{sharding: identityHash}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		if m.pick(1) != 1 {
			panic("wrong shard")
		}
	}()
	wg.Wait()
}

// pickedShardWrong expects shard 0.
//
//fencecheck:system
func pickedShardWrong() {
	m := &sharded{sharding: identityHash}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		if m.pick(1) != 0 {
			panic("wrong shard") // want `^SC: system pickedShardWrong is wrong even under sequential consistency: the panic is reached here`
		}
	}()
	wg.Wait()
}
