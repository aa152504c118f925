// Package pkginit uses package-level variables that the package's
// initialisation sets: they have their Go values when the systems start,
// so the systems are correct and there is nothing to report.
package pkginit

import "sync"

// lock is a pointer that only its initialiser sets: not nil.
var lock = &sync.Mutex{}

var counter int32 //fencecheck:range 0..2

// lockedCounter increments counter under lock.
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

var workers = 2

var limit int32

func init() {
	limit = 3
}

// initLimit spawns workers goroutines, which read limit.
//
//fencecheck:system
func initLimit() {
	var wg sync.WaitGroup
	wg.Add(workers)
	for i := 0; i < workers; i++ {
		go func() {
			if limit != 3 {
				panic("limit not initialised")
			}
			wg.Done()
		}()
	}
	wg.Wait()
}
