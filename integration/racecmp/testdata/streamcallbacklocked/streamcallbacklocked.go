// Package streamcallbacklocked runs tasks on a worker and their
// callbacks, in the order the tasks came, on one callback goroutine, in
// the style of sourcegraph/conc's stream: each task returns the closure
// that records its result, and the submitter reads the results after
// Wait.
//
// Expected: race-free.
package streamcallbacklocked

import "sync"

// system: two tasks; the results are read after Wait.
//
//fencecheck:system
func system() {
	tasks := make(chan func() func(), 2)
	slots := make(chan chan func(), 2)
	var wg sync.WaitGroup
	var results [2]int
	wg.Add(2)
	go func() {
		defer wg.Done()
		for t := range tasks {
			slot := make(chan func(), 1)
			slots <- slot
			slot <- t()
		}
		close(slots)
	}()
	go func() {
		defer wg.Done()
		for slot := range slots {
			(<-slot)()
		}
	}()
	for i := range 2 {
		tasks <- func() func() {
			v := i * 10
			return func() { results[i] = v }
		}
	}
	close(tasks)
	wg.Wait()
	if results[1] != 10 {
		panic("lost a result")
	}
}
