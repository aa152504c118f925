// Package batcher follows the batching pattern of eapache/go-resiliency's
// batcher: the calls of Run that arrive within one window share a single
// call of the work function. The first call of a window makes the
// window's channel, starts the goroutine that collects it and arms a
// time.AfterFunc that closes it; every caller then waits on a reply
// channel of its own for the batch's error, which the collector sends
// once the work function returns. Flush closes the window early and stops
// its timer, under the same lock.
//
// Expected, by hand: twoCallers is correct (whether the callers share a
// window or the timer closes the first window between them, each answer
// comes and the sum is 3; a window's work runs under the caller's lock).
// twoCallersUnlocked sums without the lock: two windows' work may run at
// once (the timer may close the first window before the second caller
// comes), so the sum races, and a lost update reaches the panic (race and
// SC findings). staleWindow's flush closes the window's channel but keeps
// it, so the next caller sends on a closed channel (SC finding on the
// send's panic).
package batcher

import (
	"sync"
	"time"
)

// call is one caller's argument and the channel of its answer.
type call struct {
	arg  any
	done chan error
}

// Batcher runs the work function once per window of calls.
type Batcher struct {
	wait time.Duration
	work func(args []any) error

	mu     sync.Mutex
	window chan *call
	timer  *time.Timer
	// keepClosed marks the flawed flush that closes the window's channel
	// without clearing it.
	keepClosed bool
}

// New returns a Batcher whose windows last wait.
func New(wait time.Duration, work func(args []any) error) *Batcher {
	return &Batcher{wait: wait, work: work}
}

// Run adds arg to the current window, opening one if there is none, and
// returns the error of the window's work.
func (b *Batcher) Run(arg any) error {
	c := &call{arg: arg, done: make(chan error, 1)}
	b.enqueue(c)
	return <-c.done
}

func (b *Batcher) enqueue(c *call) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.window == nil {
		b.window = make(chan *call, 4)
		go b.collect(b.window)
		b.timer = time.AfterFunc(b.wait, b.Flush)
	}
	b.window <- c // want `^SC: system staleWindow is wrong even under sequential consistency: the run-time panic "panic: send on closed channel" is reached here`
}

// collect gathers a window's calls until it closes, runs the work once
// and answers every caller.
func (b *Batcher) collect(window <-chan *call) {
	var args []any
	var waiting []chan error
	for c := range window {
		args = append(args, c.arg)
		waiting = append(waiting, c.done)
	}
	err := b.work(args)
	for _, done := range waiting {
		done <- err
		close(done)
	}
}

// Flush closes the current window, if any, and stops its timer.
func (b *Batcher) Flush() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.window == nil {
		return
	}
	b.timer.Stop()
	close(b.window)
	if !b.keepClosed {
		b.window = nil
	}
}

//fencecheck:system
func twoCallers() {
	var mu sync.Mutex
	sum := 0
	b := New(10*time.Millisecond, func(args []any) error {
		mu.Lock()
		defer mu.Unlock()
		for _, a := range args {
			sum += a.(int)
		}
		return nil
	})
	var wg sync.WaitGroup
	for i := 1; i <= 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := b.Run(i); err != nil {
				panic(err)
			}
		}()
	}
	wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	if sum != 3 {
		panic("a call's argument was lost")
	}
}

//fencecheck:system
func twoCallersUnlocked() {
	var mu sync.Mutex
	sum := 0
	b := New(10*time.Millisecond, func(args []any) error {
		for _, a := range args {
			sum += a.(int) // want `^race: `
		}
		return nil
	})
	var wg sync.WaitGroup
	for i := 1; i <= 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := b.Run(i); err != nil {
				panic(err)
			}
		}()
	}
	wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	if sum != 3 {
		panic("a call's argument was lost") // want `^SC: system twoCallersUnlocked is wrong even under sequential consistency`
	}
}

//fencecheck:system
func staleWindow() {
	b := New(10*time.Millisecond, func(args []any) error { return nil })
	b.keepClosed = true
	var wg sync.WaitGroup
	for i := 1; i <= 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b.Run(i)
		}()
	}
	wg.Wait()
}
