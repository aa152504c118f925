package runtimecalls

import "sync"

// Deferred calls through function values, deferred calls that panic, and
// range expressions over fields of nil pointers, each against what Go
// does.

var deferRecovers int

// deferReceived runs the function it receives as a deferred call of a
// panicking function; an earlier deferred call recovers only when
// deferRecovers is 1.
func deferReceived(ch chan func()) {
	defer func() {
		if deferRecovers == 1 {
			recover()
		}
	}()
	f := <-ch
	defer f()
	panic("A") // want `^SC: system receivedRecoversItsOwn is wrong even under sequential consistency: the panic is reached here`
}

// receivedRecoversItsOwn: the received function panics and recovers its
// own panic, which leaves A going: nothing recovers A.
//
//fencecheck:system
func receivedRecoversItsOwn() {
	ch := make(chan func(), 1)
	ch <- func() {
		defer func() { recover() }()
		panic("B")
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		deferReceived(ch)
	}()
	wg.Wait()
}

func deferReceivedOnly(ch chan func()) {
	f := <-ch
	defer f()
	panic("A")
}

// receivedRecovers: the received function is the deferred call, and its
// recover stops A.
//
//fencecheck:system
func receivedRecovers() {
	ch := make(chan func(), 1)
	ch <- func() { recover() }
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		deferReceivedOnly(ch)
	}()
	wg.Wait()
}

type stepper struct{ mu sync.Mutex }

// step locks mu only when lock is set, and defers an Unlock that then
// panics; the earlier deferred recover catches it. Go takes a deferred
// call off its list before it runs it.
func (s *stepper) step(lock bool) {
	defer func() { recover() }()
	if lock {
		s.mu.Lock()
		defer func() {
			s.mu.Unlock()
			panic("after unlock")
		}()
	}
}

// panickingDeferOnce: the second step locks nothing and unlocks nothing.
//
//fencecheck:system
func panickingDeferOnce() {
	s := &stepper{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; i < 2; i++ {
			s.step(i == 0)
		}
	}()
	wg.Wait()
}

type fixedArray struct{ arr [4]int }

// rangeOverNilField: range p.arr with a nil p and one iteration variable
// evaluates neither p.arr nor p.
//
//fencecheck:system
func rangeOverNilField() {
	var p *fixedArray
	var wg sync.WaitGroup
	var n int
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := range p.arr {
			n += i
		}
	}()
	wg.Wait()
}
