// Package syncmapotherkey publishes data through one key of a sync.Map
// and reads it after a Load of another key, which orders nothing.
//
// Expected: racy.
package syncmapotherkey

import "sync"

var shared int

// system: the writer stores key a; the reader loads key b, which the
// set-up stored.
//
//fencecheck:system
func system() {
	var m sync.Map
	m.Store("b", 2)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		shared = 5
		m.Store("a", 1)
		wg.Done()
	}()
	go func() {
		if _, ok := m.Load("b"); ok {
			_ = shared
		}
		wg.Done()
	}()
	wg.Wait()
}
