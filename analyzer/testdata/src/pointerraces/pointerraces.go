// Package pointerraces holds a stack whose head is a plain pointer: one
// goroutine pushes while another walks the list. The walk races with the
// pushes; making head atomic fixes it.
package pointerraces

import "sync"

type node struct {
	val  int
	next *node
}

type stack struct {
	head *node
}

func (s *stack) push(v int) {
	n := &node{val: v} // want `^race: go@\d+ stores n\.val here while go@\d+ loads n\.val`
	n.next = s.head    // want `^race: go@\d+ stores n\.next here while go@\d+ loads n\.next`
	s.head = n         // want `^race: go@\d+ stores s\.head here while go@\d+ loads s\.head`
}

//fencecheck:system
func walkWhilePushing() {
	var s stack
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		s.push(1)
		s.push(2)
		wg.Done()
	}()
	go func() {
		for p := s.head; p != nil; p = p.next {
			if p.val == 0 {
				panic("an unfilled node")
			}
		}
		wg.Done()
	}()
	wg.Wait()
}
