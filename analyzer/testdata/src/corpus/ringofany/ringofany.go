// Package ringofany follows the ring-buffer queue of
// github.com/eapache/queue: a buffer of interface{} values whose length is
// a power of two, indexed with a bit mask, that doubles with make when it
// is full and halves when it is a quarter full. The queue is not safe for
// concurrent use: its users wrap it in a mutex.
//
// Expected, by hand: lockedQueue is correct and race-free (every access
// holds the mutex; the producer adds the integers of its loop, the consumer
// sums what it removes with a type assertion; the buffer of four never
// fills, so the resize, whose make has a length known only at run time,
// is never run). peekUnlocked reads the count without the mutex: it races
// with the producer's Add (race finding), and nothing else goes wrong.
package ringofany

import "sync"

const minLen = 4

// Queue is a ring buffer of interface values.
type Queue struct {
	buf               []interface{}
	head, tail, count int
}

// New returns an empty queue.
func New() *Queue {
	return &Queue{buf: make([]interface{}, minLen)}
}

// Length is the number of elements queued.
func (q *Queue) Length() int {
	return q.count // want `^race: go@\d+ loads q\.count here while go@\d+ stores q\.count`
}

func (q *Queue) resize() {
	nb := make([]interface{}, q.count<<1)
	for i := 0; i < q.count; i++ {
		nb[i] = q.buf[(q.head+i)&(len(q.buf)-1)]
	}
	q.head, q.tail, q.buf = 0, q.count, nb
}

// Add puts an element at the tail.
func (q *Queue) Add(v interface{}) {
	if q.count == len(q.buf) {
		q.resize()
	}
	q.buf[q.tail] = v
	q.tail = (q.tail + 1) & (len(q.buf) - 1)
	q.count++
}

// Remove takes the element at the head; the queue must not be empty.
func (q *Queue) Remove() interface{} {
	if q.count <= 0 {
		panic("queue: Remove() called on empty queue")
	}
	v := q.buf[q.head]
	q.buf[q.head] = nil
	q.head = (q.head + 1) & (len(q.buf) - 1)
	q.count--
	if len(q.buf) > minLen && q.count<<2 == len(q.buf) {
		q.resize()
	}
	return v
}

//fencecheck:system
func lockedQueue() {
	q := New()
	var mu sync.Mutex
	sum := 0
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for i := 1; i <= 2; i++ {
			mu.Lock()
			q.Add(i)
			mu.Unlock()
		}
	}()
	go func() {
		defer wg.Done()
		for got := 0; got < 2; {
			mu.Lock()
			if q.Length() > 0 {
				sum += q.Remove().(int)
				got++
			}
			mu.Unlock()
		}
	}()
	wg.Wait()
	if sum != 3 {
		panic("lost an element")
	}
}

//fencecheck:system
func peekUnlocked() {
	q := New()
	var mu sync.Mutex
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for i := 1; i <= 2; i++ {
			mu.Lock()
			q.Add(i)
			mu.Unlock()
		}
	}()
	go func() {
		defer wg.Done()
		if q.Length() > 2 {
			panic("more elements than adds")
		}
	}()
	wg.Wait()
}
