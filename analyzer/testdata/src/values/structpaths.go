package values

import (
	"sync"
	"time"
)

// grant is what a reservation hands out.
type grant struct{ v int32 }

// reservation is a struct result whose cells depend on the path taken,
// as golang.org/x/time/rate's reserveN returns its Reservation: the zero
// value when refused, the token, a pointer and the time it was granted
// when not.
type reservation struct {
	ok     bool
	tokens int32
	slot   *grant
	at     time.Time
}

type bucket struct {
	mu     sync.Mutex
	tokens int32
	last   time.Time
	slots  [2]grant
}

func (b *bucket) reserve(now time.Time) reservation {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.tokens == 0 {
		return reservation{}
	}
	b.tokens--
	b.last = now
	return reservation{ok: true, tokens: b.tokens, slot: &b.slots[b.tokens], at: now}
}

// structByPath: of two goroutines that reserve the one token, one gets
// it, with the slot and a time, and the other the zero reservation.
//
//fencecheck:system
func structByPath() {
	b := &bucket{tokens: 1}
	var wg sync.WaitGroup
	var got [2]reservation
	wg.Add(2)
	for i := range 2 {
		go func() {
			got[i] = b.reserve(time.Now())
			wg.Done()
		}()
	}
	wg.Wait()
	if got[0].ok == got[1].ok {
		panic("both or neither")
	}
	for i := range 2 {
		r := &got[i]
		if r.ok && (r.slot != &b.slots[0] || r.tokens != 0 || r.at.IsZero()) {
			panic("a wrong reservation")
		}
		if !r.ok && (r.slot != nil || !r.at.IsZero()) {
			panic("a refusal that holds a slot")
		}
	}
}

// structByPathWrong: the same, expecting the refused reservation to
// carry a time.
//
//fencecheck:system
func structByPathWrong() {
	b := &bucket{tokens: 1}
	var wg sync.WaitGroup
	var got [2]reservation
	wg.Add(2)
	for i := range 2 {
		go func() {
			got[i] = b.reserve(time.Now())
			wg.Done()
		}()
	}
	wg.Wait()
	for i := range 2 {
		if r := &got[i]; r.at.IsZero() {
			panic("a reservation without a time") // want `^SC: system structByPathWrong is wrong even under sequential consistency: the panic is reached here`
		}
	}
}
