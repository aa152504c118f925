package blocking

import "sync"

// A sync.Once whose function panics is done all the same: Go's Do marks it
// on the way out, and later Do calls return at once without running it.

type lazyTable struct {
	once sync.Once
	m    map[string]int
}

func (l *lazyTable) load(fail bool) {
	l.once.Do(func() {
		if fail {
			panic("init failed")
		}
		l.m = map[string]int{}
	})
}

func (l *lazyTable) tryLoad(fail bool) {
	defer func() { _ = recover() }()
	l.load(fail)
}

// oncePanicDone: the first Do panics and is recovered, the second returns
// at once; nobody blocks.
//
//fencecheck:system
func oncePanicDone() {
	l := &lazyTable{}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { l.tryLoad(true); wg.Done() }()
	go func() { l.tryLoad(false); wg.Done() }()
	wg.Wait()
}

// oncePanicNilMap writes the table after the loads: when the panicking Do
// came first, the table was never made.
//
//fencecheck:system
func oncePanicNilMap() {
	l := &lazyTable{}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { l.tryLoad(true); wg.Done() }()
	go func() { l.tryLoad(false); wg.Done() }()
	wg.Wait()
	l.m["k"] = 1 // want `^SC: system oncePanicNilMap is wrong even under sequential consistency: the bad state assignment to entry in nil map`
}
