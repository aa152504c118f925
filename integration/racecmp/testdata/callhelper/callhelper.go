// Package callhelper has two goroutines publish through a same-package
// helper that writes plain fields.
//
// Expected: racy.
package callhelper

import "sync"

// box is a value and a flag that says it was set.
type box struct {
	val int32
	set bool
}

// publish stores v in b and raises its flag.
func publish(b *box, v int32) {
	b.val = v
	b.set = true
}

// system: both goroutines call publish on one box.
//
//fencecheck:system
func system() {
	var b box
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		publish(&b, 1)
		wg.Done()
	}()
	go func() {
		publish(&b, 2)
		wg.Done()
	}()
	wg.Wait()
	if !b.set || b.val == 0 {
		panic("nothing published")
	}
}
