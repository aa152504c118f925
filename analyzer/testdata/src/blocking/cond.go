package blocking

import "sync"

// lostWakeup signals before the waiter waits: the waiter checks the
// condition without the lock, so the signal can fall between its check and
// its Wait.
//
//fencecheck:system
func lostWakeup() {
	var mu sync.Mutex
	c := sync.NewCond(&mu)
	var ready int32
	go func() {
		mu.Lock()
		ready = 1
		mu.Unlock()
		c.Signal()
	}()
	mu.Lock()
	if ready == 0 {
		mu.Unlock()
		mu.Lock()
		c.Wait() // want `^deadlock: main blocks forever in c\.Wait\(\) \(system lostWakeup\)$`
	}
	mu.Unlock()
}

// noSignal waits for a condition nobody signals.
//
//fencecheck:system
func noSignal() {
	var mu sync.Mutex
	c := sync.NewCond(&mu)
	go func() {
		mu.Lock()
		c.Wait() // want `^leak: go@35 blocks forever in c\.Wait\(\) after system noSignal returns$`
		mu.Unlock()
	}()
}

// broadcastAll wakes two waiters with one Broadcast.
//
//fencecheck:system
func broadcastAll() {
	var mu sync.Mutex
	c := sync.NewCond(&mu)
	done := false
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			for !done {
				c.Wait()
			}
			mu.Unlock()
		}()
	}
	mu.Lock()
	done = true
	c.Broadcast()
	mu.Unlock()
	wg.Wait()
}

// signalOne wakes only one of two waiters.
//
//fencecheck:system
func signalOne() {
	var mu sync.Mutex
	c := sync.NewCond(&mu)
	done := false
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			for !done {
				c.Wait() // want `^deadlock: go@78\(i=1\) and main block forever in c\.Wait\(\) and wg\.Wait\(\) \(system signalOne\)$`
			}
			mu.Unlock()
		}()
	}
	mu.Lock()
	done = true
	c.Signal()
	mu.Unlock()
	wg.Wait()
}
