package values

import (
	"sync"
	"sync/atomic"
)

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

// A value receiver's copy of a struct holding a slice: the copy's slice is
// the set-up's, indexed at run time.

type ringView struct {
	buf  []int32
	mask int
}

func (w ringView) load(i int) int32 { return atomic.LoadInt32(&w.buf[i&w.mask]) }

func (w ringView) peek(i int) int32 { return w.buf[i&w.mask] } // want `^race: go@\d+ loads w.buf\[1\] here while go@\d+ atomically updates w.buf\[1\]`

// windowCopies stores atomically and loads through the copy atomically.
//
//fencecheck:system
func windowCopies() {
	w := &ringView{buf: make([]int32, 4), mask: 3}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		atomic.StoreInt32(&w.buf[1], 7)
	}()
	go func() {
		defer wg.Done()
		if v := w.load(5); v != 0 && v != 7 {
			panic("torn")
		}
	}()
	wg.Wait()
}

// windowCopiesPlain peeks without an atomic load: it races with the store.
//
//fencecheck:system
func windowCopiesPlain() {
	w := &ringView{buf: make([]int32, 4), mask: 3}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		atomic.StoreInt32(&w.buf[1], 7)
	}()
	go func() {
		defer wg.Done()
		_ = w.peek(5)
	}()
	wg.Wait()
}
