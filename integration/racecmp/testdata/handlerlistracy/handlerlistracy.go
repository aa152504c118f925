// Package handlerlistracy is handlerlist (handlers in a slice of functions,
// as asaskevich's EventBus keeps them) with one subscriber appending
// without the mutex while the other holds it.
//
// Expected: racy.
package handlerlistracy

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

// system: one subscriber skips the lock.
//
//fencecheck:system
func system() {
	b := &bus{}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { b.hs = append(b.hs, incr); wg.Done() }()
	go func() { b.subscribe(double); wg.Done() }()
	wg.Wait()
}
