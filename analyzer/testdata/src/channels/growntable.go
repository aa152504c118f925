package channels

import (
	"sync"
	"sync/atomic"
)

// grownTable's job is made by a function that another goroutine calls
// through a channel, after the first worker's call of its jobs was
// lowered: that call gets the job too (it was missed, and the system
// called correct, while a third goroutine called another channel's
// functions of the same type).
//
//fencecheck:system
func grownTable() {
	jobs := make(chan func(), 1)
	makers := make(chan func(int), 1)
	other := make(chan func(), 1)
	var hit atomic.Bool
	var wg sync.WaitGroup
	wg.Add(3)
	go func() {
		defer wg.Done()
		for f := range jobs {
			f()
		}
	}()
	go func() {
		defer wg.Done()
		for g := range makers {
			g(1)
		}
		close(jobs)
	}()
	go func() {
		defer wg.Done()
		for f := range other {
			f()
		}
	}()
	makers <- func(n int) {
		jobs <- func() { hit.Store(n == 1) }
	}
	close(makers)
	other <- func() {}
	close(other)
	wg.Wait()
	if hit.Load() {
		panic("the made job ran") // want `^SC: system grownTable is wrong even under sequential consistency`
	}
}

// A stream of tasks whose results are callbacks that one goroutine runs
// in the order the tasks came, the shape of sourcegraph/conc's stream: a
// task is called through a channel and returns a function, which another
// goroutine receives and calls through a channel of the same type.

type streamTask func() func()

//fencecheck:system
func callbackOrder() {
	tasks := make(chan streamTask, 2)
	slots := make(chan chan func(), 2)
	var wg sync.WaitGroup
	var last atomic.Int32
	var bad atomic.Bool
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
	for i := range int32(2) {
		tasks <- func() func() {
			return func() {
				if last.Load() != i {
					bad.Store(true)
				}
				last.Store(i + 1)
			}
		}
	}
	close(tasks)
	wg.Wait()
	if bad.Load() {
		panic("a callback ran out of order")
	}
}

// callbackOrderWrong expects the callbacks in the reverse order.
//
//fencecheck:system
func callbackOrderWrong() {
	tasks := make(chan streamTask, 2)
	slots := make(chan chan func(), 2)
	var wg sync.WaitGroup
	var last atomic.Int32
	var bad atomic.Bool
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
	for i := range int32(2) {
		tasks <- func() func() {
			return func() {
				if last.Load() != 1-i {
					bad.Store(true)
				}
				last.Store(i + 1)
			}
		}
	}
	close(tasks)
	wg.Wait()
	if bad.Load() {
		panic("a callback ran out of order") // want `^SC: system callbackOrderWrong is wrong even under sequential consistency`
	}
}
