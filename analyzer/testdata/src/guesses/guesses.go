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
	"sync/atomic"
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

// parsedLoaded: main parses a label it formats from a value it loads;
// whether it parses is not computed, and the panic needs the error:
// inconclusive, naming the answer and its input.
//
//fencecheck:system
func parsedLoaded() { // want `^inconclusive: system parsedLoaded: the panic at guesses\.go:\d+:\d+ is reached when .strconv\.Atoi\(label\). \(guesses\.go:\d+:\d+, in main, with s\.n = 1\) returns an error, and not when .strconv\.Atoi\(label\). \(guesses\.go:\d+:\d+, in main, with s\.n = 1\) returns no error; fencecheck does not compute the result of strconv\.Atoi`
	s := &stats{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		s.mu.Lock()
		s.n++
		s.mu.Unlock()
	}()
	wg.Wait()
	label := digits(s.n)
	if _, err := strconv.Atoi(label); err != nil {
		panic(err)
	}
}

// parsedFromMemory: the label is kept in memory, so what Go's answer
// depends on is not followed.
//
//fencecheck:system
func parsedFromMemory() { // want `^inconclusive: system parsedFromMemory: the panic at guesses\.go:\d+:\d+ is reached when .strconv\.Atoi\(s\.label\). \(guesses\.go:\d+:\d+, in main\) returns an error, and fencecheck does not follow what Go's answer depends on`
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
			name := strconv.Itoa(s.n) // want `^race: go@\d+\(i=1\) loads s\.n here while go@\d+\(i=0\) stores s\.n`
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
func raceOneWay() { // want `^inconclusive: system raceOneWay: a data race is reached when .strings\.HasPrefix\(name, "1"\). \(guesses\.go:\d+:\d+, in go@\d+\(i=0\), with s\.n = 1\) returns true`
	s := &stats{}
	var wg sync.WaitGroup
	wg.Add(2)
	for i := range 2 {
		go func() {
			defer wg.Done()
			s.mu.Lock()
			s.n++
			name := digits(s.n)
			s.mu.Unlock()
			if strings.HasPrefix(name, "1") {
				s.label = name
			}
			_ = i
		}()
	}
	wg.Wait()
}

// labelInLoop: a worker compares labels it formats in a loop; at each
// round's input Go's answer is one, and the panic needs "1" == "7":
// inconclusive.
//
//fencecheck:system
func labelInLoop() { // want `^inconclusive: system labelInLoop: the panic at guesses\.go:\d+:\d+ is reached when .name == "7". \(guesses\.go:\d+:\d+, in go@\d+, with s\.n = 1\) is true, and not when`
	s := &stats{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for range 3 {
			s.mu.Lock()
			s.n++
			name := digits(s.n)
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

// answerOfTheRun: the answer Go gives is a function of what the run
// loaded: "1" exactly when v is 1. Holding one answer for both runs would
// find the panic; at each input the answer is fixed, and the panic is
// never reached, so it is not reported (the model does not know which
// answer Go gives at v = 1).
//
//fencecheck:system
func answerOfTheRun() { // want `^inconclusive: system answerOfTheRun: the panic at guesses\.go:\d+:\d+ is reached when .s == "1". \(guesses\.go:\d+:\d+, in main, with v = \d\) is (true|false), and not when`
	var x atomic.Int32
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { x.Store(1); wg.Done() }()
	v := x.Load()
	s := digits(int(v))
	if (s == "1") != (v == 1) {
		panic("mismatch")
	}
	wg.Wait()
}

// varargsChanged: the arguments of Sprint are changed after the literal
// that makes them: the result is not computed from the literal (Go's is
// "3 2").
//
//fencecheck:system
func varargsChanged() { // want `^inconclusive: system varargsChanged: the panic at guesses\.go:\d+:\d+ is reached when .fmt\.Sprint\(args\.\.\.\) != "1 2". \(guesses\.go:\d+:\d+, in go@\d+\) is true, and fencecheck does not follow what Go's answer depends on`
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		args := []any{1, 2}
		args[0] = 3
		if fmt.Sprint(args...) != "1 2" {
			panic("changed")
		}
	}()
	wg.Wait()
}

// shorterOnOnePath: a formatted label of at least four bytes on one path,
// of any length on the other: the least length of the first is not the
// join's, and the panic Go reaches on the second is not missed.
//
//fencecheck:system
func shorterOnOnePath() { // want `^inconclusive: system shorterOnOnePath: the panic at guesses\.go:\d+:\d+ is reached when .len\(r\). \(guesses\.go:\d+:\d+, in main\) is 0`
	var x atomic.Int32
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { wg.Done() }()
	var b strings.Builder
	r := fmt.Sprintf("abcd%s", b.String())
	if x.Load() == 0 {
		r = fmt.Sprintf("%s", b.String())
	}
	if len(r) < 4 {
		panic("short")
	}
	wg.Wait()
}

// everyPathPanics: whatever Go's answers are, a panic is reached: with
// the prefix, the first; without it, the suffix check (a question the
// first run did not ask) leads to one of the other two.
//
//fencecheck:system
func everyPathPanics() {
	var x atomic.Int32
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { x.Store(1); wg.Done() }()
	s := fmt.Sprint(x.Load())
	if strings.HasPrefix(s, "1") {
		panic("prefix") // want `^SC: system everyPathPanics is wrong even under sequential consistency: the panic is reached here`
	}
	if strings.HasSuffix(s, "1") {
		panic("suffix")
	} else {
		panic("neither")
	}
}

// errorfNeverNil: fmt.Errorf returns an error, never nil, even with a nil
// %w operand.
//
//fencecheck:system
func errorfNeverNil() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		if err := fmt.Errorf("x %w", nil); err == nil {
			panic("nil error")
		}
	}()
	wg.Wait()
}

// digits formats n as strconv.Itoa does for n below 8, in a base that
// depends on n: fencecheck computes the formatting of one integer known
// only at run time beside constants, not of two, so the string is one it
// does not compute.
func digits(n int) string { return strconv.FormatInt(int64(n), n+8) }
