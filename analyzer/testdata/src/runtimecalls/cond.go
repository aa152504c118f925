package runtimecalls

import "sync"

// condOwnMutex waits on a Cond made with a mutex of its own
// (sync.NewCond(&sync.Mutex{})), locked through c.L.
//
//fencecheck:system
func condOwnMutex() {
	c := sync.NewCond(&sync.Mutex{})
	ready := false
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		c.L.Lock()
		ready = true
		c.L.Unlock()
		c.Signal()
		wg.Done()
	}()
	c.L.Lock()
	for !ready {
		c.Wait()
	}
	c.L.Unlock()
	wg.Wait()
}

// condOwnMutexWrong sets ready without the lock: the store races with the
// check, and the Signal can come between the check and the Wait.
//
//fencecheck:system
func condOwnMutexWrong() {
	c := sync.NewCond(&sync.Mutex{})
	ready := false
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		ready = true // want `^race: go@\d+ stores ready here while main loads ready`
		c.Signal()
		wg.Done()
	}()
	c.L.Lock()
	for !ready {
		c.Wait() // want `^deadlock: main blocks forever in c\.Wait\(\) \(system condOwnMutexWrong\)`
	}
	c.L.Unlock()
	wg.Wait()
}

// jobs is a Cond that the package's initialisation makes, on a mutex of
// its own.
var jobs = sync.NewCond(&sync.Mutex{})

var queued int

// condPackageLevel takes a job that another goroutine queues.
//
//fencecheck:system
func condPackageLevel() {
	queued = 0
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		jobs.L.Lock()
		queued++
		jobs.L.Unlock()
		jobs.Broadcast()
		wg.Done()
	}()
	jobs.L.Lock()
	for queued == 0 {
		jobs.Wait()
	}
	queued--
	jobs.L.Unlock()
	wg.Wait()
}

// condPackageLevelWrong's consumers wait once, with if, for one job: the
// one that comes second waits forever when the first took the job before
// it looked.
//
//fencecheck:system
func condPackageLevelWrong() {
	queued = 0
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			jobs.L.Lock()
			if queued == 0 {
				jobs.Wait() // want `^deadlock: go@\d+#2 and main block forever in jobs\.Wait\(\) and wg\.Wait\(\) \(system condPackageLevelWrong\)`
			}
			if queued > 0 {
				queued--
			}
			jobs.L.Unlock()
			wg.Done()
		}()
	}
	jobs.L.Lock()
	queued++
	jobs.L.Unlock()
	jobs.Broadcast()
	wg.Wait()
}
