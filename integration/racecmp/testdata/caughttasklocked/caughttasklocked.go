// Package caughttasklocked has a worker, run under a recovering wrapper in
// the style of sourcegraph/conc's panics.Catcher, take tasks from a
// channel; a task that panics ends it. The wrapper records the panic in a
// plain field that the submitter reads after Wait.
//
// Expected: race-free.
package caughttasklocked

import "sync"

type catcher struct{ caught bool }

func (c *catcher) try(f func()) {
	defer func() {
		if r := recover(); r != nil {
			c.caught = true
		}
	}()
	f()
}

// system: the submitter reads caught after Wait.
//
//fencecheck:system
func system() {
	var c catcher
	tasks := make(chan func(), 2)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		c.try(func() {
			for f := range tasks {
				f()
			}
		})
	}()
	tasks <- func() {}
	tasks <- func() { panic("task failed") }
	close(tasks)
	wg.Wait()
	_ = c.caught
}
