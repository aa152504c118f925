// Package recursivewalklocked has a goroutine count a list's links
// recursively under the lock another takes to append a link.
//
// Expected: race-free.
package recursivewalklocked

import "sync"

type link struct{ next *link }

func depth(l *link) int {
	if l.next == nil {
		return 0
	}
	return 1 + depth(l.next)
}

// system: both hold the mutex.
//
//fencecheck:system
func system() {
	var mu sync.Mutex
	head := &link{}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		mu.Lock()
		head.next = &link{}
		mu.Unlock()
	}()
	go func() {
		defer wg.Done()
		mu.Lock()
		_ = depth(head)
		mu.Unlock()
	}()
	wg.Wait()
}
