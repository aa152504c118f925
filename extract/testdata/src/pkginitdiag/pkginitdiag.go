// Package pkginitdiag holds package-level variables whose initial values
// fencecheck cannot compute: a system that uses one gets a diagnostic at
// the variable; a system that does not is lowered.
package pkginitdiag

import (
	"flag"
	"os"
	"sync"
	"sync/atomic"
)

// start's initialiser calls into another package.
var start = int32(os.Getpid())

//fencecheck:system
func usesStart() {
	go func() {
		if atomic.LoadInt32(&start) == 0 {
			panic("no pid")
		}
	}()
}

// workers is given to a call that may change it.
var workers int32 = 2

func init() {
	flag.Var(nil, "unused", "")
	flag.Int64Var(new(int64), "other", 0, "")
	registerWorkers(&workers)
}

func registerWorkers(p *int32) {
	flag.Func("workers", "", func(string) error { atomic.StoreInt32(p, 3); return nil })
}

//fencecheck:system
func usesWorkers() {
	go func() {
		if atomic.LoadInt32(&workers) != 2 {
			panic("workers changed")
		}
	}()
}

var once sync.Once

// viaOnce is set by a closure that a call into another package runs.
var viaOnce int32

func init() {
	once.Do(func() { viaOnce = 3 })
}

//fencecheck:system
func usesOnce() {
	go func() {
		if viaOnce != 3 {
			panic("once did not run")
		}
	}()
}

var mode int32

// The initialisation cannot go past this branch: mode may be 0 or 1.
func init() {
	if os.Getenv("PKGINITDIAG_MODE") != "" {
		mode = 1
	}
}

//fencecheck:system
func usesMode() {
	go func() {
		if mode != 0 {
			panic("mode set")
		}
	}()
}

// lock is initialised before the branch above and used by no code after it.
var lock = &sync.Mutex{}

var hits int32 //fencecheck:range 0..2

// clean uses only what the initialisation computes.
//
//fencecheck:system
func clean() {
	var wg sync.WaitGroup
	wg.Add(2)
	for i := 0; i < 2; i++ {
		go func() {
			lock.Lock()
			hits++
			lock.Unlock()
			wg.Done()
		}()
	}
	wg.Wait()
}
