// Package sentinellist keeps a list whose sentinel is a field of the list,
// linked to itself on first use (&l.root stored in l.root.next), as
// container/list does; the second goroutine reads the length without the lock.
//
// Expected: racy.
package sentinellist

import "sync"

type elem struct {
	next, prev *elem
	val        int
}

type list struct {
	root elem
	len  int
}

func (l *list) pushBack(e *elem) {
	if l.root.next == nil {
		l.root.next = &l.root
		l.root.prev = &l.root
	}
	at := l.root.prev
	e.prev = at
	e.next = &l.root
	at.next = e
	l.root.prev = e
	l.len++
}

// system: one push under the lock, and a second goroutine.
//
//fencecheck:system
func system() {
	var mu sync.Mutex
	var l list
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		mu.Lock()
		l.pushBack(&elem{val: 1})
		mu.Unlock()
		wg.Done()
	}()
	go func() {
		if l.len > 1 {
			panic("more elements than pushes")
		}
		wg.Done()
	}()
	wg.Wait()
}
