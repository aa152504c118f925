package slicecells

import "sync"

// Queues kept in a slice field: a FIFO that pops with q.items[1:] (the
// waiting queue of k8s client-go's workqueue, of worker pools), a list
// that removes an element with append(s[:i], s[i+1:]...) (asaskevich's
// EventBus handlers), and a list the set-up fills with append before the
// goroutines grow it. A slice resliced from the front shares its array:
// a later append writes after it there when Go left room, or moves the
// elements to a new array; both are runs of the model.

// fifo is a queue of ints guarded by a mutex.
type fifo struct {
	mu    sync.Mutex
	items []int
}

func (q *fifo) push(v int) {
	q.mu.Lock()
	q.items = append(q.items, v) // want `^race: go@\d+ stores q\.items here while main loads q\.items at queues\.go:\d+:\d+, and nothing orders the two \(system fifoRace\)`
	q.mu.Unlock()
}

func (q *fifo) pop() (int, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.items) == 0 {
		return 0, false
	}
	v := q.items[0]
	q.items = q.items[1:]
	return v, true
}

// popUnlocked forgets the mutex.
func (q *fifo) popUnlocked() (int, bool) {
	if len(q.items) == 0 {
		return 0, false
	}
	v := q.items[0]
	q.items = q.items[1:]
	return v, true
}

// popEarly reslices before it reads: with one element left it indexes an
// empty slice.
func (q *fifo) popEarly() (int, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.items) == 0 {
		return 0, false
	}
	q.items = q.items[1:]
	return q.items[0], true // want `^SC: system fifoPopEarly is wrong even under sequential consistency: the bad state index out of range is reached here`
}

// fifoOrder: one producer, one consumer; the consumer sees the values in
// the order they were pushed, and every one of them.
//
//fencecheck:system
func fifoOrder() {
	q := &fifo{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		q.push(1)
		q.push(2)
		q.push(3)
		wg.Done()
	}()
	last, sum := 0, 0
	for range 4 {
		if v, ok := q.pop(); ok {
			if v <= last {
				panic("out of order")
			}
			last, sum = v, sum+v
		}
	}
	wg.Wait()
	for {
		v, ok := q.pop()
		if !ok {
			break
		}
		sum += v
	}
	if sum != 6 {
		panic("lost an item")
	}
}

// fifoRace pops without the mutex.
//
//fencecheck:system
func fifoRace() {
	q := &fifo{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		q.push(1)
		q.push(2)
		wg.Done()
	}()
	for range 3 {
		q.popUnlocked()
	}
	wg.Wait()
}

// fifoPopEarly reaches the index out of range of popEarly.
//
//fencecheck:system
func fifoPopEarly() {
	q := &fifo{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		q.push(1)
		q.push(2)
		wg.Done()
	}()
	q.popEarly()
	wg.Wait()
}

// subList is a list of ids guarded by a mutex.
type subList struct {
	mu  sync.Mutex
	ids []int
}

func (s *subList) add(id int) {
	s.mu.Lock()
	s.ids = append(s.ids, id)
	s.mu.Unlock()
}

func (s *subList) remove(id int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, x := range s.ids {
		if x == id {
			s.ids = append(s.ids[:i], s.ids[i+1:]...)
			return
		}
	}
}

// removeTwo forgets to keep the element after the one it removes.
func (s *subList) removeTwo(id int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, x := range s.ids {
		if x == id {
			s.ids = append(s.ids[:i], s.ids[i+2:]...)
			return
		}
	}
}

func (s *subList) has(id int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, x := range s.ids {
		if x == id {
			return true
		}
	}
	return false
}

// removeOne: the set-up subscribes three ids; one goroutine removes the
// middle one while another subscribes a fourth.
//
//fencecheck:system
func removeOne() {
	s := &subList{}
	s.add(1)
	s.add(2)
	s.add(3)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		s.remove(2)
		wg.Done()
	}()
	go func() {
		s.add(4)
		wg.Done()
	}()
	wg.Wait()
	if s.has(2) || !s.has(1) || !s.has(3) || !s.has(4) {
		panic("wrong subList")
	}
}

// removeTwoBug removes 3 with 2.
//
//fencecheck:system
func removeTwoBug() {
	s := &subList{}
	s.add(1)
	s.add(2)
	s.add(3)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		s.removeTwo(2)
		wg.Done()
	}()
	go func() {
		s.add(4)
		wg.Done()
	}()
	wg.Wait()
	if s.has(2) || !s.has(1) || !s.has(3) || !s.has(4) {
		panic("wrong subList") // want `^SC: system removeTwoBug is wrong even under sequential consistency: the panic is reached here`
	}
}
