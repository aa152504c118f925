package runtimecalls

import (
	mrand "math/rand"
	"math/rand/v2"
	"sync"
	"time"
)

// A generator rand.New makes, kept by a struct for its jitter as a
// retrier keeps one: its methods give random numbers, and each call
// changes its state, which Go does not guard.

// retryer picks a jitter from its own generator, under its lock.
type retryer struct {
	mu  sync.Mutex
	rng *mrand.Rand
}

func (r *retryer) jitter() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.rng.Intn(3) // want `^race: go@\d+ and go@\d+ can both reach this access \(it stores the state of a random source\) at once, and nothing orders the two \(system twoGeneratorsOneSource\)`
}

// sharedGenerator: two goroutines draw from one generator under its
// lock; every draw is one of 0, 1 and 2.
//
//fencecheck:system
func sharedGenerator() {
	r := &retryer{rng: mrand.New(mrand.NewSource(time.Now().UnixNano()))}
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if j := r.jitter(); j < 0 || j > 2 {
				panic("a jitter out of range")
			}
		}()
	}
	wg.Wait()
}

// sharedGeneratorUnlocked is its buggy twin: the goroutines draw without
// the lock, and the generator's state races.
//
//fencecheck:system
func sharedGeneratorUnlocked() {
	r := &retryer{rng: mrand.New(mrand.NewSource(1))}
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = r.rng.Int63() // want `^race: `
		}()
	}
	wg.Wait()
}

// ownGenerators: each goroutine draws from a generator of its own (v2,
// a PCG source); the two draws may be equal.
//
//fencecheck:system
func ownGenerators() {
	a, b := rand.New(rand.NewPCG(1, 2)), rand.New(rand.NewPCG(3, 4))
	res := make(chan int, 2)
	go func() { res <- a.IntN(2) }()
	go func() { res <- b.IntN(2) }()
	if <-res == <-res {
		panic("the draws are equal") // want `^SC: system ownGenerators is wrong even under sequential consistency`
	}
}

// delay is a jittered delay as a retrier computes it: a random factor of
// the base added to it; with its lock held while it draws.
func (r *retryer) delay(base time.Duration) time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	return base + time.Duration((r.rng.Float64()*2-1)*0.25*float64(base))
}

// jitteredRetries: two goroutines each wait a jittered delay before a
// second try; the delays only set the timers, and the tries are counted
// under the lock.
//
//fencecheck:system
func jitteredRetries() {
	r := &retryer{rng: mrand.New(mrand.NewSource(7))}
	var mu sync.Mutex
	tries := 0
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 2 {
				mu.Lock()
				tries++
				mu.Unlock()
				t := time.NewTimer(r.delay(time.Millisecond))
				<-t.C
			}
		}()
	}
	wg.Wait()
	if tries != 4 {
		panic("a try was lost")
	}
}

// jitteredRetriesRacy is its buggy twin: the tries are counted without the
// lock.
//
//fencecheck:system
func jitteredRetriesRacy() {
	r := &retryer{rng: mrand.New(mrand.NewSource(7))}
	tries := 0
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 2 {
				tries++ // want `^race: `
				time.Sleep(r.delay(time.Millisecond))
			}
		}()
	}
	wg.Wait()
}

// twoGeneratorsOneSource: two generators made from one source share its
// state, so drawing from each in its own goroutine races even under
// locks of their own.
//
//fencecheck:system
func twoGeneratorsOneSource() {
	src := mrand.NewSource(1)
	a, b := &retryer{rng: mrand.New(src)}, &retryer{rng: mrand.New(src)}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); _ = a.jitter() }()
	go func() { defer wg.Done(); _ = b.jitter() }()
	wg.Wait()
}
