// Package handlerlist keeps handlers in a slice of functions that
// subscribers grow by append under a mutex and a publisher ranges over and
// calls, as asaskevich's EventBus keeps its handlers.
//
// Expected: race-free.
package handlerlist

import "sync"

type bus struct {
	mu sync.Mutex
	hs []func(int) int
}

func incr(x int) int   { return x + 1 }
func double(x int) int { return x * 2 }

func (b *bus) subscribe(f func(int) int) {
	b.mu.Lock()
	b.hs = append(b.hs, f)
	b.mu.Unlock()
}

func (b *bus) publish(x int) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	t := 0
	for _, h := range b.hs {
		t += h(x)
	}
	return t
}

// system: two subscribers, then a publish of 3.
//
//fencecheck:system
func system() {
	b := &bus{}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { b.subscribe(incr); wg.Done() }()
	go func() { b.subscribe(double); wg.Done() }()
	wg.Wait()
	if b.publish(3) != 10 {
		panic("lost a handler")
	}
}
