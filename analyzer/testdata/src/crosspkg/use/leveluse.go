package use

import (
	"sync"

	"crosspkg/level"
)

// levelSeenEarly expects the reader to see the level the writer sets: it
// may read before the store.
//
//fencecheck:system
func levelSeenEarly() {
	v := level.New()
	var wg sync.WaitGroup
	var seen int32
	wg.Add(2)
	go func() { v.Set(2); wg.Done() }()
	go func() { seen = v.Get(); wg.Done() }()
	wg.Wait()
	if seen != 2 {
		panic("saw the old level") // want `^SC: system levelSeenEarly is wrong even under sequential consistency`
	}
}
