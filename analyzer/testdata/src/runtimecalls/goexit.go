package runtimecalls

import (
	"runtime"
	"sync"
)

// stopWorker ends a worker with runtime.Goexit, as t.FailNow does: its
// deferred calls run, so the mutex is unlocked and the group is done.
//
//fencecheck:system
func stopWorker() {
	var mu sync.Mutex
	var wg sync.WaitGroup
	steps := 0
	wg.Add(2)
	for i := range 2 {
		go func() {
			defer wg.Done()
			mu.Lock()
			defer mu.Unlock()
			steps++
			if i == 1 {
				runtime.Goexit()
			}
			steps++
		}()
	}
	wg.Wait()
	if steps != 3 {
		panic("Goexit did not stop the worker")
	}
}

// stopWorkerWrong calls Done at the end rather than in a defer: the worker
// that exits never does, and Wait waits forever.
//
//fencecheck:system
func stopWorkerWrong() {
	var mu sync.Mutex
	var wg sync.WaitGroup
	wg.Add(2)
	for i := range 2 {
		go func() {
			mu.Lock()
			defer mu.Unlock()
			if i == 1 {
				runtime.Goexit()
			}
			wg.Done()
		}()
	}
	wg.Wait() // want `^deadlock: main blocks forever in wg\.Wait\(\) \(system stopWorkerWrong\)`
}
