package realcalls

import "sync"

// inTest is a system in a test file: go vet analyses test packages too.
//
//fencecheck:system
func inTest() {
	var mu sync.RWMutex
	var n int
	var wg sync.WaitGroup
	wg.Add(2)
	for i := 0; i < 2; i++ {
		go func() {
			defer wg.Done()
			mu.RLock()
			defer mu.RUnlock()
			n++ // want `^race: go@\d+\(i=0\) and go@\d+\(i=1\) can both reach this access \(it stores n\)`
		}()
	}
	wg.Wait()
}
