// Package pkginit holds systems that use package-level variables whose
// values come from the package's initialisation: initialisers and init
// functions run before the setup of every system, as in Go.
package pkginit

import (
	"errors"
	"flag"
	"fmt"
	"sync"
	"sync/atomic"
)

// lock is a pointer that only its initialiser sets.
var lock = &sync.Mutex{}

var counter int32 //fencecheck:range 0..2

// lockedCounter increments counter under lock: correct and race-free.
//
//fencecheck:system
func lockedCounter() {
	var wg sync.WaitGroup
	wg.Add(2)
	for i := 0; i < 2; i++ {
		go func() {
			lock.Lock()
			counter++
			lock.Unlock()
			wg.Done()
		}()
	}
	wg.Wait()
	if counter != 2 {
		panic("lost update under lock")
	}
}

var n = 4

var hits [4]int32 //fencecheck:range 0..1

func hit(wg *sync.WaitGroup, i int) {
	atomic.AddInt32(&hits[i], 1)
	wg.Done()
}

// loopBound spawns n goroutines: with n treated as 0, the check in main
// would fail.
//
//fencecheck:system
func loopBound() {
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go hit(&wg, i)
	}
	wg.Wait()
	for i := 0; i < 4; i++ {
		if atomic.LoadInt32(&hits[i]) != 1 {
			panic("a goroutine is missing")
		}
	}
}

var limit int32

func init() {
	limit = 3
}

// initLimit reads a variable that an init function sets.
//
//fencecheck:system
func initLimit() {
	var done atomic.Bool
	go func() {
		if limit != 3 {
			panic("limit not initialised")
		}
		done.Store(true)
	}()
}

var maxSpins = computeMax()

func computeMax() int32 {
	m := int32(0)
	for i := 0; i < 3; i++ {
		m += 2
	}
	return m
}

type point struct{ x, y int32 }

var p = &point{x: 1}

// origin is built in a temporary and copied into the variable.
var origin = point{x: 4, y: 5}

var flags [2]int32

// fromFunction reads a variable initialised by a function of the package,
// composite literals (behind a pointer and not) and a zero array.
//
//fencecheck:system
func fromFunction() {
	var wg sync.WaitGroup
	wg.Add(2)
	for i := 0; i < 2; i++ {
		go func(k int) {
			atomic.StoreInt32(&flags[k], 1)
			if maxSpins != 6 || p.x != 1 || p.y != 0 || origin.x != 4 || origin.y != 5 {
				panic("wrong initial values")
			}
			wg.Done()
		}(i)
	}
	wg.Wait()
	if flags[0] != 1 || flags[1] != 1 {
		panic("a flag is missing")
	}
}

// What the initialisation does that the systems do not use is skipped:
// calls into other packages (which the model does not run) are no failure.
var (
	errUnused = errors.New("unused")
	verbose   = flag.Bool("pkginit.verbose", false, "unused by the systems")
)

func init() {
	fmt.Sprint("initialised", *verbose, errUnused)
}
