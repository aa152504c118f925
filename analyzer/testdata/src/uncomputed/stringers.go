package uncomputed

import (
	"errors"
	"fmt"
	"sync"
)

// Values whose String or Error method the program declares: fmt calls
// the method, which may touch memory, lock or panic; fencecheck does not
// run it there, so a run that formats one is refused (it was taken as a
// call that touches nothing: a race inside String was missed).

// counted counts how often it is formatted.
type counted int

var formatted int

func (c counted) String() string {
	formatted++
	return "c"
}

// stringerRace: two goroutines format a counted: String races on
// formatted.
//
//fencecheck:system
func stringerRace() { // want `^inconclusive: system stringerRace: a run reaches passing a value of type uncomputed\.counted, whose method String formatting calls`
	var wg sync.WaitGroup
	wg.Add(2)
	for i := range 2 {
		go func() {
			defer wg.Done()
			_ = fmt.Sprint(counted(i))
		}()
	}
	wg.Wait()
}

// joinedNil: errors.Join of nil errors is nil, and calling its Error
// panics: a finding with its system, where Go panics.
//
//fencecheck:system
func joinedNil() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		err := errors.Join(nil, nil)
		_ = err.Error() // want `^SC: system joinedNil is wrong even under sequential consistency: the bad state a method call on a nil interface value is reached here`
	}()
	wg.Wait()
}

// stringerElements: fmt calls String on each element of a slice and on
// an exported field of a struct.
//
//fencecheck:system
func stringerElements() { // want `^inconclusive: system stringerElements: a run reaches passing a value of type \[\]uncomputed\.counted, whose method String formatting calls`
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		_ = fmt.Sprint([]counted{1, 2})
	}()
	go func() {
		defer wg.Done()
		_ = fmt.Sprint(struct{ C counted }{3})
	}()
	wg.Wait()
}
