// Package initpanic's initialisation always panics: the program stops
// before its system starts, which is reported once, at the panic.
package initpanic

import "sync"

var workers = 2

func init() {
	if workers > 1 {
		panic("one worker only") // want `^SC: the package's initialisation always reaches panic\("one worker only"\) here, so the program stops before any system starts$`
	}
}

//fencecheck:system
func counter() {
	var mu sync.Mutex
	n := 0
	var wg sync.WaitGroup
	wg.Add(workers)
	for range workers {
		go func() {
			mu.Lock()
			n++
			mu.Unlock()
			wg.Done()
		}()
	}
	wg.Wait()
}

//fencecheck:system
func another() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { wg.Done() }()
	wg.Wait()
}
