// Package realcalls holds systems written as Go programmers write them:
// defer, RWMutex, Once, fmt and time in goroutines, a method that starts
// the goroutines, a generic spin lock.
package realcalls

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

type counter struct {
	mu sync.Mutex
	n  int
}

func (c *counter) inc() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n++
}

//fencecheck:system
func deferUnlock() {
	var c counter
	var wg sync.WaitGroup
	wg.Add(2)
	for i := 0; i < 2; i++ {
		go func() {
			defer wg.Done()
			c.inc()
		}()
	}
	wg.Wait()
	if c.n != 2 {
		panic("lost update")
	}
}

func (c *counter) incUnlocked() {
	c.mu.Lock()
	c.mu.Unlock()
	c.n++ // want `^race: go@\d+\(i=0\) stores c\.n here while go@\d+\(i=1\) loads c\.n`
}

//fencecheck:system
func unlockFirst() {
	var c counter
	var wg sync.WaitGroup
	wg.Add(2)
	for i := 0; i < 2; i++ {
		go func() {
			defer wg.Done()
			c.incUnlocked()
		}()
	}
	wg.Wait()
	if c.n != 2 {
		panic("lost update") // want `^SC: system unlockFirst is wrong even under sequential consistency`
	}
}

type table struct {
	mu   sync.RWMutex
	a, b int
}

//fencecheck:system
func readersWriter() {
	var t table
	var wg sync.WaitGroup
	wg.Add(3)
	go func() {
		defer wg.Done()
		t.mu.Lock()
		defer t.mu.Unlock()
		t.a = 1
		t.b = 1
	}()
	for i := 0; i < 2; i++ {
		go func() {
			defer wg.Done()
			t.mu.RLock()
			defer t.mu.RUnlock()
			if t.a != t.b {
				panic("torn read")
			}
		}()
	}
	wg.Wait()
}

var config int

//fencecheck:system
func onceInit() {
	var once sync.Once
	var wg sync.WaitGroup
	wg.Add(2)
	for i := 0; i < 2; i++ {
		go func() {
			defer wg.Done()
			once.Do(func() { config = 42 })
			if config != 42 {
				panic("not initialised")
			}
		}()
	}
	wg.Wait()
}

//fencecheck:system
func handRolledOnce() {
	var started atomic.Bool
	var value int
	var wg sync.WaitGroup
	wg.Add(2)
	for i := 0; i < 2; i++ {
		go func() {
			defer wg.Done()
			if started.CompareAndSwap(false, true) {
				value = 42 // want `^race: go@\d+\(i=0\) stores value here while go@\d+\(i=1\) loads value`
			}
			if value != 42 {
				panic("not initialised") // want `^SC: system handRolledOnce is wrong even under sequential consistency`
			}
		}()
	}
	wg.Wait()
}

//fencecheck:system
func printing() {
	var data int
	var ready atomic.Bool
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		data = 42
		fmt.Println("published", 42)
		ready.Store(true)
	}()
	go func() {
		defer wg.Done()
		for !ready.Load() {
			time.Sleep(time.Millisecond)
		}
		if data != 42 {
			panic(fmt.Sprintf("stale data %d", 0))
		}
	}()
	wg.Wait()
}

type server struct {
	mu    sync.Mutex
	hits  int
	wg    sync.WaitGroup
	ready atomic.Bool
}

func (s *server) handle() {
	defer s.wg.Done()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.hits++
}

func (s *server) start() {
	s.wg.Add(2)
	go s.handle()
	go s.handle()
}

//fencecheck:system
func wrapperSpawns() {
	var s server
	s.start()
	s.wg.Wait()
	if s.hits != 2 {
		panic("lost hit")
	}
}

type spinLock[T any] struct {
	held atomic.Int32
	val  T
}

func (l *spinLock[T]) lock() {
	for !l.held.CompareAndSwap(0, 1) {
	}
}

func (l *spinLock[T]) unlock() { l.held.Store(0) }

func (l *spinLock[T]) update(f func(T) T) {
	l.lock()
	defer l.unlock()
	l.val = f(l.val)
}

//fencecheck:system
func genericSpin() {
	var l spinLock[int]
	var wg sync.WaitGroup
	wg.Add(2)
	for i := 0; i < 2; i++ {
		go func() {
			defer wg.Done()
			l.update(func(v int) int { return v + 1 })
		}()
	}
	wg.Wait()
	if l.val != 2 {
		panic("lost update")
	}
}

// desc is configured by functional options, passed to a variadic function
// whose code the set-up runs.
type desc struct{ limit int32 }

type descOpt func(*desc)

func withLimit(n int32) descOpt { return func(d *desc) { d.limit = n } }

func newDesc(opts ...descOpt) *desc {
	d := &desc{limit: 1}
	for _, o := range opts {
		o(d)
	}
	return d
}

// admit lets goroutines in while the limit its option sets allows.
func admit(limit int32) {
	d := newDesc(withLimit(limit))
	var n atomic.Int32
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			if n.Add(1) > d.limit {
				panic("over the limit") // want `^SC: system optionTooLow is wrong even under sequential consistency`
			}
			wg.Done()
		}()
	}
	wg.Wait()
}

//fencecheck:system
func optionLimit() { admit(2) }

//fencecheck:system
func optionTooLow() { admit(1) }

// fqName builds a metric's full name as metrics libraries do, with a
// strings.Builder of its own: the set-up computes it.
func fqName(ns, sub, name string) string {
	var b strings.Builder
	if ns != "" {
		b.WriteString(ns)
		b.WriteByte('_')
	}
	if sub != "" {
		b.WriteString(sub)
		b.WriteString("_")
	}
	b.WriteString(name)
	return b.String()
}

// countByName counts hits under their metric's name, its label names
// sorted by the set-up; locked says whether the goroutines take the lock.
func countByName(locked bool) {
	name := fqName("app", "", "hits")
	labels := []string{"zone", "code"}
	sort.Strings(labels)
	known := len(name) == 8 && labels[0] == "code" && labels[1] == "zone"
	var mu sync.Mutex
	seen := map[string]int{}
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			if locked {
				mu.Lock()
			}
			seen[name]++ // want `^race: `
			if locked {
				mu.Unlock()
			}
			wg.Done()
		}()
	}
	wg.Wait()
	if !known || seen["app_hits"] != 2 {
		panic("wrong name or count") // want `^SC: system countUnlocked is wrong even under sequential consistency`
	}
}

//fencecheck:system
func countLocked() { countByName(true) }

//fencecheck:system
func countUnlocked() { countByName(false) }

// sortBetweenSpawns sorts a slice whose length the first goroutine reads
// before it starts the second: not computed in the set-up, whose stores
// come before every goroutine; sort's code, followed, compares the strings
// as Go does, and writes only the elements.
//
//fencecheck:system
func sortBetweenSpawns() {
	labels := []string{"zone", "code"}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		_ = len(labels) == 2
		wg.Done()
	}()
	sort.Strings(labels)
	go func() { wg.Done() }()
	wg.Wait()
	if labels[0] != "code" {
		panic("not sorted")
	}
}

// pairs is sorted through sort.Interface.
type pairs []string

func (p pairs) Len() int           { return len(p) }
func (p pairs) Less(i, j int) bool { return p[i] < p[j] }
func (p pairs) Swap(i, j int)      { p[i], p[j] = p[j], p[i] }

// sortNoPairs sorts an empty list through sort.Sort in its set-up: Len,
// run as written, is 0, and the sort calls nothing else.
//
//fencecheck:system
func sortNoPairs() {
	var ps pairs
	sort.Sort(ps)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { wg.Done() }()
	wg.Wait()
}

// sortTwoPairs sorts two: sort's code, followed, calls Less, which
// compares the strings as Go does.
//
//fencecheck:system
func sortTwoPairs() {
	ps := pairs{"b", "a"}
	sort.Sort(ps)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { wg.Done() }()
	wg.Wait()
}

// guarded is a value behind a mutex whose getter returns early, before it
// locks and defers the unlock, when the caller does not need the value.
type guarded struct {
	mu sync.Mutex
	n  int
}

func (g *guarded) get(skip bool) int {
	if skip {
		return 0
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.n
}

// earlyReturnInLoop calls get in a loop: the second call returns before
// its defer statement, so it must not run the first call's deferred
// unlock.
//
//fencecheck:system
func earlyReturnInLoop() {
	g := &guarded{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		g.mu.Lock()
		g.n = 1
		g.mu.Unlock()
		wg.Done()
	}()
	for i := range 2 {
		g.get(i == 1)
	}
	wg.Wait()
}
