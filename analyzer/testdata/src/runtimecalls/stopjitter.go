package runtimecalls

import (
	mrand "math/rand"
	"sync"
	"time"
)

// A retry policy in the style of cenkalti/backoff's WithMaxRetries over
// its exponential policy: NextBackOff gives Stop once the tries are
// spent, counted in a uint64, and a jittered interval before that (the
// interval itself when the randomization factor is 0). The join of Stop
// and a random number is kept apart, so that a retry loop's
// `next == Stop` is exact where next is Stop and the loop ends.

// backoffStop is the delay a policy gives when the tries are spent.
const backoffStop time.Duration = -1

// triesPolicy allows max tries after the first.
type triesPolicy struct {
	max, n   uint64
	interval time.Duration
	factor   float64
}

func (p *triesPolicy) nextBackOff() time.Duration {
	if p.max <= p.n {
		return backoffStop
	}
	p.n++
	if p.factor == 0 {
		return p.interval
	}
	delta := p.factor * float64(p.interval)
	return time.Duration(float64(p.interval) - delta + mrand.Float64()*(2*delta+1))
}

// nextBackOffLate is nextBackOff with the bug: it stops only past max.
func (p *triesPolicy) nextBackOffLate() time.Duration {
	if p.max < p.n {
		return backoffStop
	}
	p.n++
	return p.interval
}

// retryOp runs op until it succeeds or the policy's next delay is Stop.
func retryOp(op func() bool, next func() time.Duration) bool {
	for {
		if op() {
			return true
		}
		d := next()
		if d == backoffStop {
			return false
		}
		time.Sleep(d)
	}
}

// retriedCalls runs two goroutines that retry an operation that always
// fails, under policies that next makes, and returns how often the
// operation ran; unlocked counts without the lock.
func retriedCalls(next func(*triesPolicy) func() time.Duration, factor float64, unlocked bool) int {
	var mu sync.Mutex
	calls := 0
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := &triesPolicy{max: 2, interval: time.Millisecond, factor: factor}
			retryOp(func() bool {
				if unlocked {
					calls++ // want `^race: `
					return false
				}
				mu.Lock()
				defer mu.Unlock()
				calls++
				return false
			}, next(p))
		}()
	}
	wg.Wait()
	return calls
}

// stopAfterTries: each goroutine tries at most three times, with jittered
// waits between.
//
//fencecheck:system
func stopAfterTries() {
	if retriedCalls(func(p *triesPolicy) func() time.Duration { return p.nextBackOff }, 0.5, false) > 6 {
		panic("more tries than the policy allows")
	}
}

// stopAfterTriesUnlocked is its racy twin.
//
//fencecheck:system
func stopAfterTriesUnlocked() {
	retriedCalls(func(p *triesPolicy) func() time.Duration { return p.nextBackOff }, 0.5, true)
}

// stopExactly: without jitter every run tries exactly three times in each
// goroutine.
//
//fencecheck:system
func stopExactly() {
	if retriedCalls(func(p *triesPolicy) func() time.Duration { return p.nextBackOff }, 0, false) != 6 {
		panic("the tries are not the policy's")
	}
}

// stopLate is its buggy twin: the policy allows one try too many.
//
//fencecheck:system
func stopLate() {
	if retriedCalls(func(p *triesPolicy) func() time.Duration { return p.nextBackOffLate }, 0, false) != 6 {
		panic("the tries are not the policy's") // want `^SC: system stopLate is wrong even under sequential consistency`
	}
}
