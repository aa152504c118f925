// Package uncomputed holds systems that keep strings the model does not
// compute in memory: recovered panic messages and stacks, labels built with
// a strings.Builder, the results of strings.IndexByte and fmt.Sprint that
// steer control flow, their lengths, errors made of them in goroutines,
// and a type assertion on a value a goroutine stores.
package uncomputed

import (
	"errors"
	"fmt"
	"runtime/debug"
	"strconv"
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
// fmt.Sprint(1) equals: fmt of constants is computed, so the panic is
// found.
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

// lenOfMessage: the length of a string the model does not compute is any
// length; Go's fmt.Sprint(123456) has six bytes, so the panic is real.
//
//fencecheck:system
func lenOfMessage() {
	var r rec
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		r.msg = fmt.Sprint(123456)
	}()
	wg.Wait()
	if len(r.msg) > 5 {
		panic("long") // want `^SC: system lenOfMessage is wrong even under sequential consistency`
	}
}

// journal keeps the last message two jobs report.
type journal struct {
	mu  sync.Mutex
	msg string
	n   int
}

// lenGuarded: each job formats its message and keeps it when it is not
// empty; either way of len is taken, under the lock.
//
//fencecheck:system
func lenGuarded() {
	l := &journal{}
	var wg sync.WaitGroup
	wg.Add(2)
	for i := range 2 {
		go func() {
			defer wg.Done()
			msg := fmt.Sprintf("job %d", i)
			if n := len(msg); n > 0 && n < 80 {
				l.mu.Lock()
				l.msg = msg
				l.n++
				l.mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if l.n > 2 {
		panic("counted twice")
	}
}

// lenGuardedRacy: the same without the lock: the race is on the path where
// the message is not empty.
//
//fencecheck:system
func lenGuardedRacy() {
	l := &journal{}
	var wg sync.WaitGroup
	wg.Add(2)
	for i := range 2 {
		go func() {
			defer wg.Done()
			msg := fmt.Sprintf("job %d", i)
			if len(msg) > 0 {
				l.msg = msg // want `^race: go@\d+\(i=0\) and go@\d+\(i=1\) can both reach this access \(it stores l\.msg\)`
			}
		}()
	}
	wg.Wait()
}

// setLabel stores one of two labels under the lock.
func (l *journal) setLabel(long bool) {
	l.mu.Lock()
	if long {
		l.msg = "abc"
	} else {
		l.msg = "ab"
	}
	l.mu.Unlock()
}

// lenOfLabels: a string loaded from memory that holds one of the system's
// constants has that constant's length, also in arithmetic: both labels
// have two bytes or more.
//
//fencecheck:system
func lenOfLabels() {
	l := &journal{msg: "abcd"}
	var wg sync.WaitGroup
	wg.Add(2)
	for i := range 2 {
		go func() {
			defer wg.Done()
			l.setLabel(i == 1)
		}()
	}
	wg.Wait()
	if 2*len(l.msg) < 4 {
		panic("short label")
	}
}

// lenOfLabelsShort: the short label is the last one stored in some runs.
//
//fencecheck:system
func lenOfLabelsShort() {
	l := &journal{msg: "abcd"}
	var wg sync.WaitGroup
	wg.Add(2)
	for i := range 2 {
		go func() {
			defer wg.Done()
			l.setLabel(i == 1)
		}()
	}
	wg.Wait()
	if len(l.msg) < 3 {
		panic("short label") // want `^SC: system lenOfLabelsShort is wrong even under sequential consistency`
	}
}

// lenOfLaterLabel: the goroutine that takes the length is lowered before
// the one that stores the label, whose string the next round interns
// first: its length is found.
//
//fencecheck:system
func lenOfLaterLabel() {
	l := &journal{}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		l.mu.Lock()
		defer l.mu.Unlock()
		if len(l.msg) == 5 {
			panic("five") // want `^SC: system lenOfLaterLabel is wrong even under sequential consistency`
		}
	}()
	go func() {
		defer wg.Done()
		l.mu.Lock()
		l.msg = "hello"
		l.mu.Unlock()
	}()
	wg.Wait()
}

// lenArithmetic: the length of a string the model does not compute, used
// other than in a comparison with a constant, is refused where a run
// reaches it.
//
//fencecheck:system
func lenArithmetic() { // want `^inconclusive: system lenArithmetic: a run reaches len of a string fencecheck does not compute, used other than compared with constants`
	l := &journal{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		l.mu.Lock()
		msg := digits(l.n)
		l.n += len(msg)
		l.mu.Unlock()
	}()
	wg.Wait()
}

// shared keeps a strings.Builder that two goroutines write.
type shared struct {
	b strings.Builder
}

// builderShared: a Builder in shared memory is refused.
//
//fencecheck:system
func builderShared() { // want `^inconclusive: system builderShared: a run reaches WriteString on a strings\.Builder that is not a variable of the goroutine's own`
	s := &shared{}
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			defer wg.Done()
			s.b.WriteString("x")
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
func keyedByMessage() { // want `^inconclusive: system keyedByMessage: a run reaches a map key that fencecheck does not compute`
	b := &byName{m: map[string]int{"1": 1}}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		b.mu.Lock()
		b.last = digits(b.m["1"])
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
func formatReached() { // want `^inconclusive: system formatReached: a run reaches passing a value of type \*uncomputed\.kinded \(it may point into the system.s memory\) to fmt\.Println`
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
func formatWithoutMemory() { // want `^inconclusive: system formatWithoutMemory: a run reaches passing a value of type \*int32`
	go func() {
		fmt.Println(&printed)
	}()
}

// errStop is a sentinel no job returns.
var errStop = errors.New("stop")

// outcome keeps the first error of the jobs.
type outcome struct {
	mu   sync.Mutex
	err  error
	prev error
	msg  string
}

// job fails for odd numbers with an error of its own, formatted at run
// time.
func job(i int) error {
	if i%2 == 1 {
		return fmt.Errorf("job %d failed", i)
	}
	return nil
}

// keep records err under the lock, and its message.
func (o *outcome) keep(err error) {
	o.mu.Lock()
	o.prev, o.err = o.err, err
	o.msg = err.Error()
	o.mu.Unlock()
}

// errorsOfJobs: two jobs, one fails; main finds its error, which is not the
// sentinel, and prints its message.
//
//fencecheck:system
func errorsOfJobs() {
	o := &outcome{}
	var wg sync.WaitGroup
	wg.Add(2)
	for i := range 2 {
		go func() {
			defer wg.Done()
			if err := job(i); err != nil {
				o.keep(err)
			}
		}()
	}
	wg.Wait()
	if o.err == nil || o.err == errStop || errors.Is(o.err, errStop) {
		panic("lost the error")
	}
	fmt.Println(o.err.Error(), o.msg)
}

// errorsOfJobsRacy: the jobs store their errors without the lock.
//
//fencecheck:system
func errorsOfJobsRacy() {
	o := &outcome{}
	var wg sync.WaitGroup
	wg.Add(2)
	for i := range 2 {
		go func() {
			defer wg.Done()
			o.err = fmt.Errorf("job %d", i) // want `^race: go@\d+\(i=0\) and go@\d+\(i=1\) can both reach this access \(it stores o\.err\)`
		}()
	}
	wg.Wait()
}

// errorOfFormatted: errors.New of a formatted string; its message is that
// string, which Go's (and fencecheck's) equals "1": the panic is real.
//
//fencecheck:system
func errorOfFormatted() {
	o := &outcome{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		o.keep(errors.New(fmt.Sprint(1)))
	}()
	wg.Wait()
	if o.err.Error() == "1" {
		panic("formatted one") // want `^SC: system errorOfFormatted is wrong even under sequential consistency`
	}
}

// errorsInLoop: a job that fails twice in a loop makes two errors, which
// are not equal.
//
//fencecheck:system
func errorsInLoop() {
	o := &outcome{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := range 4 {
			if err := job(i); err != nil {
				o.keep(err)
			}
		}
	}()
	wg.Wait()
	if o.prev == o.err {
		panic("one error twice")
	}
}

// errorsInLoopDiffer: main wrongly expects the two errors to be one.
//
//fencecheck:system
func errorsInLoopDiffer() {
	o := &outcome{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := range 4 {
			if err := job(i); err != nil {
				o.keep(err)
			}
		}
	}()
	wg.Wait()
	if o.prev != o.err {
		panic("two errors") // want `^SC: system errorsInLoopDiffer is wrong even under sequential consistency`
	}
}

// errorsInLongLoop: more errors in a loop than fencecheck models: the
// answer is inconclusive, naming the count.
//
//fencecheck:system
func errorsInLongLoop() { // want `^inconclusive: system errorsInLongLoop: the number of objects fmt\.Errorf\("job %d failed", \.\.\.\) allocates in a loop of goroutine go@\d+ \(fencecheck models 3\)`
	o := &outcome{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := range 10 {
			if err := job(i); err != nil {
				o.keep(err)
			}
		}
	}()
	wg.Wait()
}

// parsed keeps the message of a parse error.
//
//fencecheck:system
func parsedMessage() {
	o := &outcome{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		if _, err := strconv.Atoi(fmt.Sprint(1)); err != nil {
			o.mu.Lock()
			o.msg = err.Error()
			o.mu.Unlock()
		}
	}()
	wg.Wait()
}

// box holds a value a goroutine stores.
type box struct {
	mu sync.Mutex
	v  any
}

// assertAfterStore: a goroutine asserts the value another stores, after it
// is told so; the asserting goroutine is lowered first, when the cell still
// holds the set-up's nil.
//
//fencecheck:system
func assertAfterStore() {
	b := &box{}
	ready := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		<-ready
		if b.v.(int) != 5 {
			panic("wrong value")
		}
	}()
	go func() {
		defer wg.Done()
		b.v = 5
		close(ready)
	}()
	wg.Wait()
}

// assertBeforeStore: without the signal, the assertion may run before the
// store, on nil, and panic.
//
//fencecheck:system
func assertBeforeStore() {
	b := &box{}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		b.mu.Lock()
		defer b.mu.Unlock()
		_ = b.v.(int) // want `^SC: system assertBeforeStore is wrong even under sequential consistency: the bad state interface conversion`
	}()
	go func() {
		defer wg.Done()
		b.mu.Lock()
		b.v = 5
		b.mu.Unlock()
	}()
	wg.Wait()
}

// errMissing is the sentinel a lookup fails with.
var errMissing = errors.New("missing")

// find fails for key 1 with the sentinel.
func find(k int) (int, error) {
	if k == 1 {
		return 0, errMissing
	}
	return 10 * k, nil
}

// fetch wraps find's error with the key (%w).
func fetch(k int) error {
	if _, err := find(k); err != nil {
		return fmt.Errorf("fetch %d: %w", k, err)
	}
	return nil
}

// wrappedSentinel: two goroutines fetch, one fails; its error wraps the
// sentinel, which errors.Is finds, and is not the sentinel itself.
//
//fencecheck:system
func wrappedSentinel() {
	o := &outcome{}
	var wg sync.WaitGroup
	wg.Add(2)
	for i := range 2 {
		go func() {
			defer wg.Done()
			if err := fetch(i); err != nil {
				o.keep(err)
			}
		}()
	}
	wg.Wait()
	if o.err == errMissing || !errors.Is(o.err, errMissing) || errors.Is(o.err, errStop) {
		panic("not the wrapped sentinel")
	}
}

// wrappedNotOther: main expects another sentinel, which the wrapped error
// does not hold.
//
//fencecheck:system
func wrappedNotOther() {
	o := &outcome{}
	var wg sync.WaitGroup
	wg.Add(2)
	for i := range 2 {
		go func() {
			defer wg.Done()
			if err := fetch(i); err != nil {
				o.keep(err)
			}
		}()
	}
	wg.Wait()
	if !errors.Is(o.err, errStop) {
		panic("not stopped") // want `^SC: system wrappedNotOther is wrong even under sequential consistency`
	}
}

// attempt fails with an error wrapping the sentinel on its first tries.
func attempt(k, n int) error {
	if n < 2 {
		return fmt.Errorf("attempt %d of %d: %w", n, k, errMissing)
	}
	return nil
}

// wrappedRetries: a job retries and wraps the last error, which wraps the
// sentinel: errors.Is follows the two levels (an error wrapping one known
// only at run time that wraps another).
//
//fencecheck:system
func wrappedRetries() {
	o := &outcome{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var err error
		for n := range 2 {
			if err = attempt(1, n); err == nil {
				return
			}
		}
		o.keep(fmt.Errorf("gave up: %w", err))
	}()
	wg.Wait()
	if !errors.Is(o.err, errMissing) || errors.Is(o.err, errStop) {
		panic("lost the cause")
	}
}

// digits formats n as strconv.Itoa does for n below 8, in a base that
// depends on n: fencecheck computes the formatting of one integer known
// only at run time beside constants, not of two, so the string is one it
// does not compute.
func digits(n int) string { return strconv.FormatInt(int64(n), n+8) }
