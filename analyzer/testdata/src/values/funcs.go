package values

import (
	"errors"
	"sync"
)

var errNoValue = errors.New("no value")

// result is what a worker keeps of the last task it ran.
type result struct {
	mu  sync.Mutex
	v   any
	err error
}

// tasksOfAny sends tasks that return an interface value and an error to a
// worker, which runs each and keeps its results under a lock, as a
// call-coalescing group keeps what its function returned.
//
//fencecheck:system
func tasksOfAny() {
	tasks := make(chan func() (any, error), 2)
	var r result
	var wg sync.WaitGroup
	wg.Add(1)
	tasks <- func() (any, error) { return 7, nil }
	tasks <- func() (any, error) { return nil, errNoValue }
	close(tasks)
	go func() {
		defer wg.Done()
		for task := range tasks {
			v, err := task()
			r.mu.Lock()
			r.v, r.err = v, err
			r.mu.Unlock()
		}
	}()
	r.mu.Lock()
	if r.err == nil && r.v != nil && r.v.(int) != 7 {
		panic("a value no task returned")
	}
	r.mu.Unlock()
	wg.Wait()
}

// tasksOfAnyWrong reads the results without the lock.
//
//fencecheck:system
func tasksOfAnyWrong() {
	tasks := make(chan func() (any, error), 2)
	var r result
	var wg sync.WaitGroup
	wg.Add(1)
	tasks <- func() (any, error) { return 7, nil }
	tasks <- func() (any, error) { return nil, errNoValue }
	close(tasks)
	go func() {
		defer wg.Done()
		for task := range tasks {
			v, err := task()
			r.mu.Lock()
			r.v, r.err = v, err // want `^race: go@\d+ stores r\.v here while main loads r\.v` `^race: go@\d+ stores r\.err here while main loads r\.err`
			r.mu.Unlock()
		}
	}()
	if r.err == nil && r.v != nil && r.v.(int) != 7 { // want `^SC: system tasksOfAnyWrong is wrong even under sequential consistency: the bad state interface conversion`
		panic("a value no task returned")
	}
	wg.Wait()
}
