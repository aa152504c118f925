// Package stdcalls checks systems whose goroutines call the standard
// library's code, followed from source as the program's own: math's
// functions whose amd64 code is assembly (Ceil, Floor, Trunc, Max) run
// their Go twins, Sqrt its Go code; a constant string is indexed at run
// time (a digit's lookup); sort.Sort and slices.Sort sort a small
// slice under a mutex (a recursion no run takes is refused only where a
// run reaches it); errors.Join, and fmt.Errorf wrapping an error itself
// wrapped at run time, keep the tree errors.Is walks. Each correct system
// is silent; its twin's race or wrong outcome is found.
package stdcalls

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"sort"
	"sync"
)

// quantile picks the sample of rank ⌈n·q⌉ as perks' quantile stream does
// before its first flush.
func quantile(samples []float64, q float64) float64 {
	i := int(math.Ceil(float64(len(samples)) * q))
	if i > 0 {
		i--
	}
	return samples[i]
}

// rounding: one goroutine scales x under the lock, the other rounds it
// every way; each result is Go's for 1.5 or 4.5.
//
//fencecheck:system
func rounding() {
	var mu sync.Mutex
	x := 1.5
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { mu.Lock(); x *= 3; mu.Unlock(); wg.Done() }()
	go func() {
		mu.Lock()
		c, f, t := math.Ceil(x), math.Floor(x), math.Trunc(-x)
		if c-f != 1 || t != -f || math.Max(c, f) != c {
			panic("rounded wrong")
		}
		if x == 4.5 && (c != 5 || math.Sqrt(x*8) != 6) {
			panic("wrong value")
		}
		mu.Unlock()
		wg.Done()
	}()
	wg.Wait()
}

// roundingWrong expects math.Ceil(4.5) to be 4: found.
//
//fencecheck:system
func roundingWrong() {
	var mu sync.Mutex
	x := 1.5
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { mu.Lock(); x *= 3; mu.Unlock(); wg.Done() }()
	go func() {
		mu.Lock()
		if x == 4.5 && math.Ceil(x) != 4 {
			panic("not 4") // want `^SC: system roundingWrong is wrong even under sequential consistency: the panic is reached here`
		}
		mu.Unlock()
		wg.Done()
	}()
	wg.Wait()
}

// samples sorts through sort.Interface.
type samples []float64

func (s samples) Len() int           { return len(s) }
func (s samples) Less(i, j int) bool { return s[i] < s[j] }      // want `^race: go@\d+ loads s\[0\] here while go@\d+ stores s\[0\] at stdcalls\.go:\d+:\d+, and nothing orders the two \(system sortRacy\)`
func (s samples) Swap(i, j int)      { s[i], s[j] = s[j], s[i] } // want `^race: go@\d+ stores s\[0\] here while go@\d+ stores s\[0\] at stdcalls\.go:\d+:\d+, and nothing orders the two \(system sortRacy\)`

// sortLocked: a goroutine records a sample, another sorts them and takes
// the median, both under the lock: sort.Sort runs as written (insertion
// sort for fewer than 13 elements).
//
//fencecheck:system
func sortLocked() {
	var mu sync.Mutex
	s := samples{3, 1, 2}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { mu.Lock(); s[0] = 0.5; mu.Unlock(); wg.Done() }()
	go func() {
		mu.Lock()
		sort.Sort(s)
		if s[0] > s[1] || s[1] > s[2] || quantile(s, 0.5) != 2 && quantile(s, 0.5) != 1 {
			panic("not sorted")
		}
		mu.Unlock()
		wg.Done()
	}()
	wg.Wait()
}

// sortRacy records the sample without the lock.
//
//fencecheck:system
func sortRacy() {
	var mu sync.Mutex
	s := samples{3, 1, 2}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { s[0] = 0.5; wg.Done() }()
	go func() {
		mu.Lock()
		sort.Sort(s)
		mu.Unlock()
		wg.Done()
	}()
	wg.Wait()
}

// slicesSorted sorts a []int with slices.Sort under the lock.
//
//fencecheck:system
func slicesSorted() {
	var mu sync.Mutex
	s := []int{3, 1, 2}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { mu.Lock(); s[2] = 0; mu.Unlock(); wg.Done() }()
	go func() {
		mu.Lock()
		slices.Sort(s)
		if s[0] > s[1] || s[1] > s[2] {
			panic("not sorted")
		}
		mu.Unlock()
		wg.Done()
	}()
	wg.Wait()
}

// slicesSortedWrong expects 3 first: found.
//
//fencecheck:system
func slicesSortedWrong() {
	var mu sync.Mutex
	s := []int{3, 1, 2}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { mu.Lock(); s[2] = 0; mu.Unlock(); wg.Done() }()
	go func() {
		mu.Lock()
		slices.Sort(s)
		if s[0] != 3 {
			panic("not 3") // want `^SC: system slicesSortedWrong is wrong even under sequential consistency: the panic is reached here`
		}
		mu.Unlock()
		wg.Done()
	}()
	wg.Wait()
}

// sortBig sorts 13 elements: pdqsort partitions and calls itself, a
// function too large to copy per call, refused where the run reaches the
// recursion.
//
//fencecheck:system
func sortBig() { // want `^inconclusive: system sortBig: a run reaches recursion of a function of more than 120 instructions \(pdqsortOrdered\[int\] calls itself\)`
	s := []int{13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { slices.Sort(s); wg.Done() }()
	wg.Wait()
}

// walk counts the levels below n of a list of links, recursively, as
// getContext in cenkalti/backoff unwraps a BackOff.
func walk(l *link) int {
	if l.next == nil {
		return 0
	}
	return 1 + walk(l.next)
}

type link struct{ next *link }

// shallowRecursion: walk calls itself once on a list another goroutine
// extends by one link under the lock.
//
//fencecheck:system
func shallowRecursion() {
	var mu sync.Mutex
	head := &link{}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		mu.Lock()
		head.next = &link{}
		mu.Unlock()
	}()
	go func() {
		defer wg.Done()
		mu.Lock()
		n := walk(head)
		mu.Unlock()
		if n > 1 {
			panic("two levels")
		}
	}()
	wg.Wait()
}

// shallowRecursionWrong: the same, expecting no link added.
//
//fencecheck:system
func shallowRecursionWrong() {
	var mu sync.Mutex
	head := &link{}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		mu.Lock()
		head.next = &link{}
		mu.Unlock()
	}()
	go func() {
		defer wg.Done()
		mu.Lock()
		n := walk(head)
		mu.Unlock()
		if n == 1 {
			panic("one level") // want `^SC: system shallowRecursionWrong is wrong even under sequential consistency: the panic is reached here`
		}
	}()
	wg.Wait()
}

// deepRecursion: a list of three links needs a third call of walk, past
// what fencecheck follows: refused where the run makes it.
//
//fencecheck:system
func deepRecursion() { // want `^inconclusive: system deepRecursion: a run reaches recursion more than 2 calls deep \(walk calls itself\)`
	var mu sync.Mutex
	head := &link{next: &link{}}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		mu.Lock()
		head.next.next = &link{}
		mu.Unlock()
	}()
	go func() {
		defer wg.Done()
		mu.Lock()
		n := walk(head)
		mu.Unlock()
		if n > 3 {
			panic("four levels")
		}
	}()
	wg.Wait()
}

// bitLength: the digit of bits.Len8 of a value another goroutine sets
// under the lock, looked up in a constant string at a run-time index.
//
//fencecheck:system
func bitLength() {
	var mu sync.Mutex
	var x uint8 = 3
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { mu.Lock(); x = 200; mu.Unlock(); wg.Done() }()
	go func() {
		mu.Lock()
		n := bits.Len8(x)
		if n != 2 && n != 8 || "0123456789"[n] != byte('0'+n) {
			panic("wrong length")
		}
		mu.Unlock()
		wg.Done()
	}()
	wg.Wait()
}

// bitLengthWrong expects the length of 3 only.
//
//fencecheck:system
func bitLengthWrong() {
	var mu sync.Mutex
	var x uint8 = 3
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { mu.Lock(); x = 200; mu.Unlock(); wg.Done() }()
	go func() {
		mu.Lock()
		if bits.Len8(x) != 2 {
			panic("longer") // want `^SC: system bitLengthWrong is wrong even under sequential consistency: the panic is reached here`
		}
		mu.Unlock()
		wg.Done()
	}()
	wg.Wait()
}

var (
	errBusy    = errors.New("busy")
	errTimeout = errors.New("timeout")
)

// result holds an error under a lock.
type result struct {
	mu  sync.Mutex
	err error
}

func (r *result) set(err error) { r.mu.Lock(); r.err = err; r.mu.Unlock() }
func (r *result) get() error    { r.mu.Lock(); defer r.mu.Unlock(); return r.err }

// try fails with the sentinel its caller gives, wrapped.
func try(n int, fail error) error {
	if n > 0 {
		return fmt.Errorf("attempt %d: %w", n, fail)
	}
	return nil
}

// joined: two workers fail, their errors are joined; errors.Is finds each
// sentinel in the join, through the wrapping.
//
//fencecheck:system
func joined() {
	var a, b result
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { a.set(try(1, errBusy)); wg.Done() }()
	go func() { b.set(try(2, errTimeout)); wg.Done() }()
	wg.Wait()
	err := errors.Join(a.get(), b.get(), nil)
	if !errors.Is(err, errBusy) || !errors.Is(err, errTimeout) {
		panic("lost an error")
	}
	if errors.Join(nil, nil) != nil {
		panic("join of nils")
	}
}

// joinedWrong expects the timeout of a worker that did not fail.
//
//fencecheck:system
func joinedWrong() {
	var a, b result
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { a.set(try(1, errBusy)); wg.Done() }()
	go func() { b.set(try(0, errTimeout)); wg.Done() }()
	wg.Wait()
	if err := errors.Join(a.get(), b.get()); !errors.Is(err, errTimeout) {
		panic("no timeout") // want `^SC: system joinedWrong is wrong even under sequential consistency: the panic is reached here`
	}
}

// retried: a job retries, then wraps the last error, itself wrapping the
// sentinel: errors.Is follows both levels.
//
//fencecheck:system
func retried() {
	var r result
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var err error
		for n := range 2 {
			if err = try(n+1, errBusy); err == nil {
				return
			}
		}
		r.set(fmt.Errorf("gave up: %w", err))
	}()
	wg.Wait()
	if err := r.get(); !errors.Is(err, errBusy) || errors.Is(err, errTimeout) {
		panic("lost the cause")
	}
}

// retriedWrong expects the timeout.
//
//fencecheck:system
func retriedWrong() {
	var r result
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var err error
		for n := range 2 {
			if err = try(n+1, errBusy); err == nil {
				return
			}
		}
		r.set(fmt.Errorf("gave up: %w", err))
	}()
	wg.Wait()
	if !errors.Is(r.get(), errTimeout) {
		panic("no timeout") // want `^SC: system retriedWrong is wrong even under sequential consistency: the panic is reached here`
	}
}

// rewrapped wraps the last error again on each round: errors.Is finds
// the sentinel three levels down.
//
//fencecheck:system
func rewrapped() {
	var r result
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		err := try(1, errBusy)
		for n := range 2 {
			err = fmt.Errorf("round %d: %w", n, err)
		}
		r.set(err)
	}()
	wg.Wait()
	if !errors.Is(r.get(), errBusy) {
		panic("lost the cause")
	}
}

// rewrappedDeep wraps it a third time: an error 4 deep wrapped again,
// refused where a run reaches it.
//
//fencecheck:system
func rewrappedDeep() { // want `^inconclusive: system rewrappedDeep: a run reaches an error known only at run time 4 deep, wrapped \(%w\) or joined`
	var r result
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		err := try(1, errBusy)
		for n := range 3 {
			err = fmt.Errorf("round %d: %w", n, err)
		}
		r.set(err)
	}()
	wg.Wait()
}
