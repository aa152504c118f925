package stdcalls

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// Keys formatted from integers known only at run time, as a worker names
// the jobs of its loop: each round of the loop formats its counter, and the
// string is a map key that Go compares as it formats it.

// jobKeys: two workers each record two jobs by name under a lock; the
// names differ, so the map ends with four keys.
//
//fencecheck:system
func jobKeys() {
	var mu sync.Mutex
	seen := map[string]int{}
	var wg sync.WaitGroup
	for w := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 2; i++ {
				key := fmt.Sprintf("job-%d", 2*w+i)
				mu.Lock()
				seen[key]++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if len(seen) != 4 || seen["job-3"] != 1 {
		panic("a job was lost")
	}
}

// jobKeysClash: the workers name their jobs by the loop's counter alone,
// so both record "1": the count says so.
//
//fencecheck:system
func jobKeysClash() {
	var mu sync.Mutex
	seen := map[string]int{}
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 2; i++ {
				key := strconv.Itoa(i)
				mu.Lock()
				seen[key]++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if seen["1"] != 1 {
		panic("a name was taken twice") // want `^SC: system jobKeysClash is wrong even under sequential consistency`
	}
}

// formattedLoad: main formats a value it loads, which is 0 or 1: the
// string is "1" exactly when the value is 1, as Go formats it, so the
// check never fires (where the string was not computed, whether Go's
// answer is "1" was a guess).
//
//fencecheck:system
func formattedLoad() {
	var x atomic.Int32
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { x.Store(1); wg.Done() }()
	v := x.Load()
	if s := fmt.Sprint(v); (s == "1") != (v == 1) {
		panic("mismatch")
	}
	wg.Wait()
}

// badBase formats in base 1, which strconv refuses with a panic.
//
//fencecheck:system
func badBase() {
	done := make(chan string)
	go func() {
		for i := 0; i < 2; i++ {
			done <- strconv.FormatInt(int64(i), 1) // want `^SC: system badBase is wrong even under sequential consistency: the bad state strconv: illegal AppendInt/FormatInt base is reached here`
		}
	}()
	<-done
}

// labelBytes: a worker builds labels "k95" to "k105" from its counter and
// folds their second bytes and lengths; Go's fold is 60, so the check
// that it is not fires never, and the check that it is 60 would.
//
//fencecheck:system
func labelBytes() {
	var out atomic.Int32
	done := make(chan bool)
	go func() {
		var b byte
		for n := 95; n < 106; n++ {
			s := "k" + strconv.Itoa(n)
			b ^= s[1] + byte(len(s))
		}
		out.Store(int32(b))
		done <- true
	}()
	<-done
	if v := out.Load(); v != 60 {
		panic("the fold differs from Go's")
	}
}

// padBelowZero pads by a count its loop takes below zero, where
// strings.Repeat panics.
//
//fencecheck:system
func padBelowZero() {
	done := make(chan int)
	go func() {
		n := 0
		for i := 1; i > -2; i-- {
			n += i
			_ = strings.Repeat("ab", i) // want `^SC: system padBelowZero is wrong even under sequential consistency: the bad state strings: negative Repeat count is reached here`
		}
		done <- n
	}()
	<-done
}

// padAboveZero stops the count at zero: no panic, and the receive ends.
//
//fencecheck:system
func padAboveZero() {
	done := make(chan bool)
	go func() {
		for i := 2; i >= 0; i-- {
			_ = strings.Repeat("ab", i)
		}
		done <- true
	}()
	<-done
}

// growBelowZero grows a goroutine's Builder by a count its loop takes
// below zero, where Grow panics.
//
//fencecheck:system
func growBelowZero() {
	done := make(chan int)
	go func() {
		var b strings.Builder
		for i := 1; i > -2; i-- {
			b.Grow(i) // want `^SC: system growBelowZero is wrong even under sequential consistency: the bad state strings\.Builder\.Grow: negative count is reached here`
			b.WriteString("x")
		}
		done <- 1
	}()
	<-done
}

// growAboveZero stops the count at zero: no panic, and the receive ends.
//
//fencecheck:system
func growAboveZero() {
	done := make(chan int)
	go func() {
		var b strings.Builder
		for i := 2; i >= 0; i-- {
			b.Grow(i)
		}
		done <- 1
	}()
	<-done
}

// replacerOdd builds a Replacer from an odd number of strings in a
// goroutine, which panics.
//
//fencecheck:system
func replacerOdd() {
	done := make(chan string)
	go func() {
		r := strings.NewReplacer("a", "b", "c") // want `^SC: system replacerOdd is wrong even under sequential consistency: the bad state strings\.NewReplacer: odd argument count is reached here`
		done <- r.Replace("abc")
	}()
	<-done
}
