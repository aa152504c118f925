package bakery

import (
	"runtime"
	"sync/atomic"
)

// Bakery is Lamport's bakery lock for two goroutines on plain fields, with
// tickets that grow without bound while the goroutines keep overlapping.
// Under x86-TSO it needs a barrier after the store of choosing[me] and
// after the store of the ticket.
type Bakery struct {
	choosing [2]int32
	number   [2]int64
}

func (b *Bakery) Lock(me int) {
	other := 1 - me
	b.choosing[me] = 1 // want `^x86-TSO: the store to b\.choosing\[0\] can still sit in the store buffer`
	ticket := b.number[other] + 1
	b.number[me] = ticket // want `^x86-TSO:`
	b.choosing[me] = 0
	for b.choosing[other] != 0 {
		runtime.Gosched()
	}
	// Equal tickets go to goroutine 0.
	for {
		n := b.number[other]
		if n == 0 || n >= ticket+int64(me) {
			break
		}
		runtime.Gosched()
	}
}

func (b *Bakery) Unlock(me int) {
	b.number[me] = 0
}

//fencecheck:system
func bakery() {
	var b Bakery
	for i := range 2 {
		go func(me int) {
			for {
				b.Lock(me)
				//fencecheck:critical
				b.Unlock(me)
			}
		}(i)
	}
}

// Fenced is the bakery with the two stores that the diagnostics above name
// made atomic (XCHG), as the suggested fixes make it: the predicate engine
// proves it and nothing is reported.
type Fenced struct {
	choosing [2]int32
	number   [2]int64
}

func (b *Fenced) Lock(me int) {
	other := 1 - me
	atomic.StoreInt32(&b.choosing[me], 1)
	ticket := b.number[other] + 1
	atomic.StoreInt64(&b.number[me], ticket)
	b.choosing[me] = 0
	for b.choosing[other] != 0 {
		runtime.Gosched()
	}
	for {
		n := b.number[other]
		if n == 0 || n >= ticket+int64(me) {
			break
		}
		runtime.Gosched()
	}
}

func (b *Fenced) Unlock(me int) {
	b.number[me] = 0
}

//fencecheck:system
func fenced() {
	var b Fenced
	for i := range 2 {
		go func(me int) {
			for {
				b.Lock(me)
				//fencecheck:critical
				b.Unlock(me)
			}
		}(i)
	}
}
