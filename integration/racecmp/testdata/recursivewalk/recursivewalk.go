// Package recursivewalk has a goroutine count a list's links recursively
// while another appends a link, without the lock the appender takes.
//
// Expected: racy.
package recursivewalk

import "sync"

type link struct{ next *link }

func depth(l *link) int {
	if l.next == nil {
		return 0
	}
	return 1 + depth(l.next)
}

// system: the walk reads head.next while the appender writes it.
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
		_ = depth(head)
	}()
	wg.Wait()
}
