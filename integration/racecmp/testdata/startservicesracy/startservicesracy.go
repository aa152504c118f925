// Package startservicesracy is startservices' twin whose services count
// their starts in the supervisor's counter without its mutex.
//
// Expected: racy.
package startservicesracy

import "sync"

type service struct {
	name string
	runs int
}

// system: the supervisor ranges over two services.
//
//fencecheck:system
func system() {
	services := map[string]*service{"a": {name: "a"}, "b": {name: "b"}}
	var mu sync.Mutex
	started := 0
	var wg sync.WaitGroup
	for _, s := range services {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			s.runs++
			mu.Unlock()
			started++
		}()
	}
	wg.Wait()
	if services["a"].runs != 1 || services["b"].runs != 1 {
		panic("a service ran twice or never")
	}
	_ = started
}
