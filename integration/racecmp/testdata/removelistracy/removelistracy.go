// Package removelistracy is removelist (subscriber ids in a slice field the
// set-up fills by append, one removed with append(s.ids[:i], s.ids[i+1:]...)
// as asaskevich's EventBus removes a handler) with the removal made without
// the mutex, while another goroutine appends under it.
//
// Expected: racy.
package removelistracy

import "sync"

type subs struct {
	mu  sync.Mutex
	ids []int
}

func (s *subs) add(id int) {
	s.mu.Lock()
	s.ids = append(s.ids, id)
	s.mu.Unlock()
}

func (s *subs) remove(id int) {
	for i, x := range s.ids {
		if x == id {
			s.ids = append(s.ids[:i], s.ids[i+1:]...)
			return
		}
	}
}

func (s *subs) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.ids)
}

// system: one goroutine removes 2 while another adds 4.
//
//fencecheck:system
func system() {
	s := &subs{}
	s.add(1)
	s.add(2)
	s.add(3)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { s.remove(2); wg.Done() }()
	go func() { s.add(4); wg.Done() }()
	wg.Wait()
	if s.count() != 3 {
		panic("wrong count")
	}
}
