// Package startservices starts one goroutine per service of a map, in the
// style of a supervisor's Serve (thejerf/suture's services, a server's
// listeners by name): each service counts its runs under the supervisor's
// mutex.
//
// Expected: race-free.
package startservices

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
			started++
			mu.Unlock()
		}()
	}
	wg.Wait()
	if started != 2 || services["a"].runs != 1 || services["b"].runs != 1 {
		panic("a service ran twice or never")
	}
}
