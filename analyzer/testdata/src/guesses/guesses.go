// Package guesses holds systems whose runs pass answers the model does not
// compute: comparisons with strings built from values known only at run
// time, the bool and the error of strconv and strings calls on them. A
// finding is reported only when the bad state is reached whatever Go's
// answers are; otherwise the system is inconclusive, naming the answer.
// fmt and strconv of constants are computed, and need no guess.
package guesses

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
)

// stats counts what workers record.
type stats struct {
	mu    sync.Mutex
	n     int
	label string
}

// parsedConstant: strconv.Atoi of a constant is computed; it is 5, so
// the check never fires.
//
//fencecheck:system
func parsedConstant() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		v, err := strconv.Atoi("5")
		if err != nil || v != 5 {
			panic("bad parse")
		}
	}()
	wg.Wait()
}

// parsedLoaded: a worker parses a label that another goroutine formats
// from a value it loads; whether it parses is not computed, and the panic
// needs the error: inconclusive, naming the answer.
//
//fencecheck:system
func parsedLoaded() { // want `^inconclusive: system parsedLoaded: the panic at guesses\.go:\d+:\d+ is reached when .strconv\.Atoi\(s\.label\). \(guesses\.go:\d+:\d+, in main\) returns an error, and not when .strconv\.Atoi\(s\.label\). \(guesses\.go:\d+:\d+, in main\) returns no error; fencecheck does not compute the result of strconv\.Atoi`
	s := &stats{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		s.mu.Lock()
		s.n++
		s.label = strconv.Itoa(s.n)
		s.mu.Unlock()
	}()
	wg.Wait()
	if _, err := strconv.Atoi(s.label); err != nil {
		panic(err)
	}
}

// raceEitherWay: whichever way the prefix check answers, both workers
// then count without the lock: the race is reported, its run showing
// the answer it took.
//
//fencecheck:system
func raceEitherWay() {
	s := &stats{}
	var wg sync.WaitGroup
	wg.Add(2)
	for i := range 2 {
		go func() {
			defer wg.Done()
			s.mu.Lock()
			s.label = strconv.Itoa(s.n) // want `^race: go@\d+\(i=1\) loads s\.n here while go@\d+\(i=0\) stores s\.n`
			name := s.label
			s.mu.Unlock()
			if strings.HasPrefix(name, "1") {
				name = "one"
			}
			_ = name
			s.n += i
		}()
	}
	wg.Wait()
}

// raceOneWay: the race is on the path where the label has the prefix,
// which the model does not compute: inconclusive, naming the answer.
//
//fencecheck:system
func raceOneWay() { // want `^inconclusive: system raceOneWay: a data race is reached when .strings\.HasPrefix\(name, "1"\). \(guesses\.go:\d+:\d+, in go@\d+\(i=0\)\) returns true`
	s := &stats{}
	var wg sync.WaitGroup
	wg.Add(2)
	for i := range 2 {
		go func() {
			defer wg.Done()
			s.mu.Lock()
			s.n++
			name := strconv.Itoa(s.n)
			s.mu.Unlock()
			if strings.HasPrefix(name, "1") {
				s.label = name
			}
			_ = i
		}()
	}
	wg.Wait()
}

// labelInLoop: a worker compares labels it formats in a loop; Go's answer
// may change from round to round, so a panic that needs one is not a
// finding.
//
//fencecheck:system
func labelInLoop() { // want `^inconclusive: system labelInLoop: the panic at guesses\.go:\d+:\d+ is reached when .*, inside a loop, where Go's answer may change from one round to the next`
	s := &stats{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for range 3 {
			s.mu.Lock()
			s.n++
			name := fmt.Sprint(s.n)
			s.mu.Unlock()
			if name == "7" {
				panic("seven")
			}
		}
	}()
	wg.Wait()
}

// formattedConstants: labels of constants (a goroutine's constant
// argument) are computed, so comparisons of them are decided: no finding.
//
//fencecheck:system
func formattedConstants() {
	var wg sync.WaitGroup
	wg.Add(2)
	labels := [2]string{}
	for i := range 2 {
		go func(id int) {
			defer wg.Done()
			labels[id] = fmt.Sprintf("worker-%d/%s", id, strconv.Quote("q"))
		}(i)
	}
	wg.Wait()
	if labels[0] != `worker-0/"q"` || labels[1] == labels[0] {
		panic("labels")
	}
}

// lengthOfFormat: a label formatted from a loaded value has at least the
// bytes of its format: it is never empty, so the check never fires.
//
//fencecheck:system
func lengthOfFormat() {
	s := &stats{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		s.mu.Lock()
		s.n++
		label := fmt.Sprintf("job-%d", s.n)
		s.mu.Unlock()
		if len(label) == 0 {
			panic("empty label")
		}
	}()
	wg.Wait()
}
