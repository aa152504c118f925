// Package syncmappublish publishes an entry through a sync.Map: the
// reader touches it only after the Load that sees the Store.
//
// Expected: race-free.
package syncmappublish

import "sync"

type entry struct{ n int }

// system: the writer fills the entry, then stores it; the reader loads.
//
//fencecheck:system
func system() {
	var m sync.Map
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		e := &entry{}
		e.n = 5
		m.Store("k", e)
		wg.Done()
	}()
	go func() {
		if v, ok := m.Load("k"); ok {
			_ = v.(*entry).n
		}
		wg.Done()
	}()
	wg.Wait()
}
