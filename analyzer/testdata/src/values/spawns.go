package values

import "sync"

// spawnInGoroutine starts two workers from a goroutine in a loop with a
// constant bound; they count under a lock.
//
//fencecheck:system
func spawnInGoroutine() {
	var mu sync.Mutex
	var n int
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		for range 2 {
			go func() {
				mu.Lock()
				n++
				mu.Unlock()
				wg.Done()
			}()
		}
	}()
	wg.Wait()
	if n != 2 {
		panic("lost update")
	}
}

// spawnInGoroutineWrong counts without the lock.
//
//fencecheck:system
func spawnInGoroutineWrong() {
	var n int
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		for range 2 {
			go func() {
				n++ // want `^race: go@\d+\(#0\) and go@\d+\(#1\) can both reach this access \(it stores n\)`
				wg.Done()
			}()
		}
	}()
	wg.Wait()
	if n != 2 {
		panic("lost update") // want `^SC: system spawnInGoroutineWrong is wrong even under sequential consistency`
	}
}

// config is set up by the system after it started a reader.
type config struct {
	mu    sync.Mutex
	limit int
}

// storeBetweenSpawns starts a goroutine, then sets up what it reads
// under the lock, then starts another.
//
//fencecheck:system
func storeBetweenSpawns() {
	var c config
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		c.mu.Lock()
		_ = c.limit
		c.mu.Unlock()
	}()
	c.mu.Lock()
	c.limit = 4
	c.mu.Unlock()
	go func() {
		defer wg.Done()
		c.mu.Lock()
		c.limit--
		c.mu.Unlock()
	}()
	wg.Wait()
}

// storeBetweenSpawnsWrong sets it up without the lock: the goroutine
// already started may be reading.
//
//fencecheck:system
func storeBetweenSpawnsWrong() {
	var c config
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		c.mu.Lock()
		_ = c.limit // want `^race: go@\d+ loads c\.limit here while main stores c\.limit`
		c.mu.Unlock()
	}()
	c.limit = 4
	go func() {
		defer wg.Done()
		c.mu.Lock()
		c.limit--
		c.mu.Unlock()
	}()
	wg.Wait()
}
