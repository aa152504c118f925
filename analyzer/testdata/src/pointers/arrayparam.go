package pointers

// An array of pointers passed by value to a helper that indexes it at run
// time (orcaman/concurrent-map's `type cmap [N]*shard` with a value
// receiver): the helper's copy is goroutine-local memory, read through
// the index as it was written. It was read from variables nothing wrote,
// and a nil dereference Go never reaches was reported.

type paramShard struct{ n int }

func shardAt(c [2]*paramShard, i int) *paramShard { return c[i] }

// arrayParamIndex: the goroutine takes the index from main and counts in
// that shard.
//
//fencecheck:system
func arrayParamIndex() {
	var c [2]*paramShard
	c[0] = &paramShard{}
	c[1] = &paramShard{}
	done := make(chan int)
	go func() {
		i := <-done
		shardAt(c, i).n++
	}()
	done <- 1
}

// arrayLocalCopy: a local copy of the array, indexed in a loop.
//
//fencecheck:system
func arrayLocalCopy() {
	var c [2]*paramShard
	c[0] = &paramShard{n: 1}
	c[1] = &paramShard{n: 2}
	sums := make(chan int, 1)
	go func() {
		snap := c
		t := 0
		for i := 0; i < 2; i++ {
			t += snap[i].n
		}
		sums <- t
	}()
	if <-sums != 3 {
		panic("wrong sum")
	}
}
