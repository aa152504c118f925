package slicecells

import "sync"

// Handler lists: a slice of functions that subscribers grow by append
// under a lock and that a publisher ranges over and calls, in the style of
// asaskevich/EventBus's handler slices.

type hbus struct {
	mu sync.Mutex
	hs []func(int) int
}

func incr(x int) int   { return x + 1 }
func double(x int) int { return x * 2 }

func (b *hbus) subscribe(f func(int) int) {
	b.mu.Lock()
	b.hs = append(b.hs, f) // want `^race: go@\d+ stores b\.hs here while go@\d+ loads b\.hs .*\(system unlockedSubscribe\)` `^race: go@\d+ loads hs\[0\] here while go@\d+ stores hs\[0\] .*\(system unlockedSubscribe\)`
	b.mu.Unlock()
}

func (b *hbus) publish(x int) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	t := 0
	for _, h := range b.hs {
		t += h(x)
	}
	return t
}

// twoSubscribers: both handlers are in the list once the subscribers are
// done, whichever order they ran in.
//
//fencecheck:system
func twoSubscribers() {
	b := &hbus{}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { b.subscribe(incr); wg.Done() }()
	go func() { b.subscribe(double); wg.Done() }()
	wg.Wait()
	if b.publish(3) != 10 {
		panic("lost a handler")
	}
}

// publishEarly publishes while the subscribers run: it may see one
// handler only.
//
//fencecheck:system
func publishEarly() {
	b := &hbus{}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { b.subscribe(incr); wg.Done() }()
	go func() { b.subscribe(double); wg.Done() }()
	if b.publish(3) == 4 {
		panic("saw incr alone") // want `^SC: system publishEarly is wrong even under sequential consistency`
	}
	wg.Wait()
}

// unlockedSubscribe appends without the lock in one subscriber.
//
//fencecheck:system
func unlockedSubscribe() {
	b := &hbus{}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { b.hs = append(b.hs, incr); wg.Done() }()
	go func() { b.subscribe(double); wg.Done() }()
	wg.Wait()
}
