package stdcalls

import (
	"errors"
	"sync"
)

// Errors gathered by goroutines into one errors.Join under a mutex, as
// sourcegraph/conc's ErrorPool gathers its tasks' errors: each goroutine
// joins the errors so far with its own. Two goroutines started by one go
// statement in a loop run the same join, and each may find the other's
// error in the field.

type errAcc struct {
	mu   sync.Mutex
	errs error
}

func (a *errAcc) add(err error) {
	a.mu.Lock()
	a.errs = errors.Join(a.errs, err)
	a.mu.Unlock()
}

var errFlaky = errors.New("flaky")

//fencecheck:system
func joinAcrossGoroutines() {
	var a errAcc
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if i == 1 {
				a.add(errFlaky)
			} else {
				a.add(nil)
			}
		}()
	}
	wg.Wait()
	if !errors.Is(a.errs, errFlaky) {
		panic("lost the task's error")
	}
}

//fencecheck:system
func joinAcrossGoroutinesWrong() {
	var a errAcc
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if i == 1 {
				a.add(errFlaky)
			} else {
				a.add(nil)
			}
		}()
	}
	wg.Wait()
	if errors.Is(a.errs, errFlaky) {
		panic("an error was kept") // want `^SC: system joinAcrossGoroutinesWrong is wrong even under sequential consistency`
	}
}
