package unsupported

import (
	"hash/fnv"
	"sync"
)

// A helper two systems' set-ups call, with a construct the model refuses:
// each system's diagnostic names it, at the helper's line.

func shardOf(key string) uint32 {
	h := fnv.New32a() // want `^unsupported in a fencecheck system: a call of hash/fnv\.New32a \(system hashedOne\)` `^unsupported in a fencecheck system: a call of hash/fnv\.New32a \(system hashedTwo\)`
	h.Write([]byte(key))
	return h.Sum32() % 2
}

//fencecheck:system
func hashedOne() {
	n := shardOf("a")
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); _ = n }()
	wg.Wait()
}

//fencecheck:system
func hashedTwo() {
	n := shardOf("b")
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); _ = n }()
	wg.Wait()
}
