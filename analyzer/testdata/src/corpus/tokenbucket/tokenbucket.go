// Package tokenbucket follows golang.org/x/time/rate's reserveN: a
// reservation is a struct whose cells depend on the path taken (the zero
// Reservation when no token is left; ok, the tokens, the limiter and the
// time to act otherwise), computed under the limiter's mutex.
//
// Expected, by hand: reserve is correct and race-free: of two goroutines
// that reserve the one token, exactly one gets it, with the time to act.
// The mutant reserveUnlocked takes the token without the mutex, as a
// "fast path" that checks the count first might: the two goroutines'
// updates of tokens race (one finding), so do their stores of last (one
// more), and both can get the token (SC).
package tokenbucket

import (
	"sync"
	"time"
)

// Reservation is what a reservation gets.
type Reservation struct {
	ok        bool
	lim       *Limiter
	tokens    int32
	timeToAct time.Time
}

// Limiter hands out tokens.
type Limiter struct {
	mu     sync.Mutex
	tokens int32
	last   time.Time
}

func (lim *Limiter) reserveN(t time.Time, n int32, locked bool) Reservation {
	if locked {
		lim.mu.Lock()
		defer lim.mu.Unlock()
	}
	if lim.tokens < n { // want `^race: go@\d+\(i=1\) loads lim.tokens here while go@\d+\(i=0\) stores lim.tokens at tokenbucket.go:\d+:\d+, and nothing orders the two \(system reserveUnlocked\)`
		return Reservation{}
	}
	lim.tokens -= n
	lim.last = t // want `^race: go@\d+\(i=0\) and go@\d+\(i=1\) can both reach this access \(it stores lim.last\) at once, and nothing orders the two \(system reserveUnlocked\)`
	return Reservation{ok: true, lim: lim, tokens: n, timeToAct: t}
}

//fencecheck:system
func reserve() {
	lim := &Limiter{tokens: 1}
	var got [2]Reservation
	var wg sync.WaitGroup
	wg.Add(2)
	for i := range 2 {
		go func() {
			got[i] = lim.reserveN(time.Now(), 1, true)
			wg.Done()
		}()
	}
	wg.Wait()
	if got[0].ok == got[1].ok {
		panic("the token given twice or never")
	}
	for i := range 2 {
		if r := &got[i]; r.ok && (r.lim != lim || r.tokens != 1 || r.timeToAct.IsZero()) {
			panic("a torn reservation")
		}
	}
}

//fencecheck:system
func reserveUnlocked() {
	lim := &Limiter{tokens: 1}
	var got [2]Reservation
	var wg sync.WaitGroup
	wg.Add(2)
	for i := range 2 {
		go func() {
			got[i] = lim.reserveN(time.Now(), 1, false)
			wg.Done()
		}()
	}
	wg.Wait()
	if got[0].ok && got[1].ok {
		panic("the token given twice") // want `^SC: system reserveUnlocked is wrong even under sequential consistency: the panic is reached here`
	}
}
