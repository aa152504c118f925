// Package uncomputed holds systems that keep strings the model does not
// compute in memory: recovered panic messages and stacks, labels built with
// a strings.Builder, and the results of strings.IndexByte and fmt.Sprint
// that steer control flow.
package uncomputed

import (
	"fmt"
	"runtime/debug"
	"strings"
	"sync"
)

// rec is what a worker records of a panic it recovers.
type rec struct {
	msg   string
	stack string
	done  bool
}

// recordPanic: a worker recovers its panic and records its message and
// stack; main reads them after Wait.
//
//fencecheck:system
func recordPanic() {
	var r rec
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer func() {
			if e := recover(); e != nil {
				r.msg = fmt.Sprint(e)
				r.stack = string(debug.Stack())
			}
			r.done = true
		}()
		panic("x")
	}()
	wg.Wait()
	if !r.done {
		panic("lost")
	}
	fmt.Println(r.msg, r.stack)
}

// recordPanicRacy: main reads the message without waiting for the worker.
//
//fencecheck:system
func recordPanicRacy() {
	var r rec
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer func() {
			if e := recover(); e != nil {
				r.msg = fmt.Sprint(e) // want `^race: go@\d+ stores r\.msg here while main loads r\.msg`
			}
		}()
		panic("x")
	}()
	fmt.Println(r.msg)
	wg.Wait()
}

// registry holds the last label a goroutine registered.
type registry struct {
	mu    sync.Mutex
	label string
	n     int
}

// name builds a label with a goroutine's own strings.Builder.
func name(k int) string {
	var b strings.Builder
	b.WriteString("req")
	b.WriteByte('_')
	b.WriteString(fmt.Sprint(k))
	return b.String()
}

// labelsLocked: two goroutines build labels and store them under a mutex;
// whichever way strings.IndexByte answers, a label is stored and counted.
// (Comparing a label with "" would be either answer: the model does not
// know that a built label is never empty.)
//
//fencecheck:system
func labelsLocked() {
	r := &registry{}
	var wg sync.WaitGroup
	wg.Add(2)
	for i := range 2 {
		go func() {
			defer wg.Done()
			n := name(i)
			r.mu.Lock()
			if strings.IndexByte(n, '_') >= 0 {
				r.label = n
			} else {
				r.label = "plain"
			}
			r.n++
			r.mu.Unlock()
		}()
	}
	wg.Wait()
	if r.n != 2 {
		panic("a label lost")
	}
}

// labelsRacy: the same without the mutex.
//
//fencecheck:system
func labelsRacy() {
	r := &registry{}
	var wg sync.WaitGroup
	wg.Add(2)
	for i := range 2 {
		go func() {
			defer wg.Done()
			r.label = name(i) // want `^race: go@\d+\(i=0\) and go@\d+\(i=1\) can both reach this access \(it stores r\.label\)`
		}()
	}
	wg.Wait()
}

// sprintPrinted: a goroutine formats a number into a field that main
// prints after Wait.
//
//fencecheck:system
func sprintPrinted() {
	var r rec
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		r.msg = fmt.Sprint(1)
	}()
	wg.Wait()
	fmt.Println(r.msg)
}

// sprintCompared: main compares the formatted number with "1", which Go's
// fmt.Sprint(1) equals: the model, which does not compute it, takes both
// answers, so the panic is found.
//
//fencecheck:system
func sprintCompared() {
	var r rec
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		r.msg = fmt.Sprint(1)
	}()
	wg.Wait()
	if r.msg == "1" {
		panic("formatted one") // want `^SC: system sprintCompared is wrong even under sequential consistency`
	}
}

// lenOfMessage: the length of a string the model does not compute is
// refused where a run reaches it.
//
//fencecheck:system
func lenOfMessage() { // want `^inconclusive: system lenOfMessage: the number of runs of len of a string known only at run time`
	var r rec
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		r.msg = fmt.Sprint(1)
	}()
	wg.Wait()
	if len(r.msg) > 5 {
		panic("long")
	}
}

// shared keeps a strings.Builder that two goroutines write.
type shared struct {
	b strings.Builder
}

// builderShared: a Builder in shared memory is refused.
//
//fencecheck:system
func builderShared() {
	s := &shared{}
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			defer wg.Done()
			s.b.WriteString("x") // want `^unsupported in a fencecheck system: WriteString on a strings\.Builder that is not a variable of the goroutine's own`
		}()
	}
	wg.Wait()
}

// validName checks a metric name the way a metrics library does.
func validName(s string) bool {
	n := strings.IndexByte(s, '{')
	if n < 0 {
		return s != ""
	}
	return s[len(s)-1] == '}' && strings.HasPrefix(s[n+1:], "path=")
}

// register counts a name under the registry's lock once it is valid.
func (r *registry) register(name string) {
	if !validName(name) {
		panic("invalid metric name") // want `^SC: system invalidName is wrong even under sequential consistency`
	}
	r.mu.Lock()
	r.label = name
	r.n++
	r.mu.Unlock()
}

// validatedNames: two goroutines register constant names; strings
// functions, slicing, indexing and len of constants are computed, so the
// valid names pass.
//
//fencecheck:system
func validatedNames() {
	r := &registry{}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		r.register(`requests_total{path="/a"}`)
	}()
	go func() {
		defer wg.Done()
		r.register("uptime")
	}()
	wg.Wait()
}

// invalidName: one name lacks its closing brace, and the check that Go
// makes fails.
//
//fencecheck:system
func invalidName() {
	r := &registry{}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		r.register(`requests_total{path="/a"`)
	}()
	go func() {
		defer wg.Done()
		r.register("uptime")
	}()
	wg.Wait()
}

// byName counts registrations by name.
type byName struct {
	mu   sync.Mutex
	m    map[string]int
	last string
}

// keyedByMessage: a name that fencecheck does not compute, loaded back
// and used as a map key, may be any key: where a run reaches the lookup
// the answer is inconclusive, never "absent".
//
//fencecheck:system
func keyedByMessage() { // want `^inconclusive: system keyedByMessage: the number of runs of a map key that fencecheck does not compute`
	b := &byName{m: map[string]int{"1": 1}}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		b.mu.Lock()
		b.last = fmt.Sprint(1)
		b.mu.Unlock()
	}()
	wg.Wait()
	if b.m[b.last] == 1 {
		panic("found")
	}
}

// kinded holds a metric of some kind.
type kinded struct {
	m any
	n int
}

// get returns the metric as a counter, and panics with a message that
// formats the metric (which may point into memory) when it is not one.
func (k *kinded) get() *registry {
	r, ok := k.m.(*registry)
	if !ok {
		panic(fmt.Errorf("not a registry: %T", k.m))
	}
	return r
}

// formatUnreached: the panic's message would pass a pointer to fmt, but no
// run reaches it.
//
//fencecheck:system
func formatUnreached() {
	k := &kinded{m: &registry{}}
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			defer wg.Done()
			r := k.get()
			r.mu.Lock()
			r.n++
			r.mu.Unlock()
		}()
	}
	wg.Wait()
}

// formatReached: a goroutine passes a pointer to shared memory to fmt,
// which the model cannot follow: inconclusive where a run reaches it.
//
//fencecheck:system
func formatReached() { // want `^inconclusive: system formatReached: the number of runs of passing a value of type \*uncomputed\.kinded \(it may point into the system.s memory\) to fmt\.Println`
	k := &kinded{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		fmt.Println(k)
	}()
	wg.Wait()
}

// printed is only ever passed to fmt: the system has no variable.
var printed int32

// formatWithoutMemory: the same refusal in a system whose memory is empty
// (the variable is only passed to fmt), which the widening of its domains
// once indexed out of range.
//
//fencecheck:system
func formatWithoutMemory() { // want `^inconclusive: system formatWithoutMemory: the number of runs of passing a value of type \*int32`
	go func() {
		fmt.Println(&printed)
	}()
}
