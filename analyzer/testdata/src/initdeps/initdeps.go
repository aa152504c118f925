// Package initdeps has package-level variables whose initial values the
// model cannot compute: a compiled regexp, a table built from the run
// time's metrics, and settings that a helper of an init function writes
// before it branches on the environment. The initialisation goes on past
// each of them; the systems that do not use them are checked as usual, and
// a system whose goroutines use one is refused at the variable.
package initdeps

import (
	"os"
	"regexp"
	"runtime/metrics"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
)

// names is built by ranging over a slice the model cannot compute.
var names = cumulative()

func cumulative() []string {
	var out []string
	for _, d := range metrics.All() {
		if d.Cumulative {
			out = append(out, d.Name)
		}
	}
	return out
}

// re is compiled from a constant: Go's regexp package computes its
// matches of constants.
var re = regexp.MustCompile(`^[a-z_]+$`)

// pattern comes from the environment: nothing it matches is known.
var pattern = regexp.MustCompile(os.Getenv("INITDEPS_PATTERN"))

// counter is a metric registered by name, as metrics libraries do from
// package-level variables: the name is checked, then the counter appended
// to the registry.
type counter struct {
	name string
	n    atomic.Int64
}

var (
	regMu    sync.Mutex
	registry []*counter
)

func register(name string) *counter {
	if len(name) == 0 || strings.IndexByte(name, '{') >= 0 || !re.MatchString(name) {
		panic("invalid metric name")
	}
	c := &counter{name: name}
	regMu.Lock()
	registry = append(registry, c)
	regMu.Unlock()
	return c
}

var requests = register("requests_total")

// Metric is what callers see of a counter.
type Metric interface{ Inc() }

func (c *counter) Inc() { c.n.Add(1) }

// fullName joins a namespace and a name with a strings.Builder of its own,
// which the initialisation writes as Go does.
func fullName(ns, name string) string {
	var b strings.Builder
	b.WriteString(ns)
	b.WriteByte('_')
	b.WriteString(name)
	return b.String()
}

// handled is an interface value of known dynamic type, registered under a
// built name.
var handled Metric = register(fullName("app", "handled"))

// v2 has a single value, which no code can change.
type v2 struct{}

func (v2) inc(n *int) { *n++ } // want `^race: go@\d+ and go@\d+#2 can both reach this access \(it stores n\) at once, and nothing orders the two \(system lostUpdate\)$`

var V2 = v2{}

var budget int32 = 2

var mode int32

// limit is only read by configure: it keeps its value.
var limit int32 = 4

type config struct{ workers int32 }

// cfg is only read by configure too, but configure writes the object it
// points to.
var cfg = &config{workers: 2}

func init() { configure() }

// configure writes budget, V2 and cfg's workers, then branches on the
// environment.
func configure() {
	budget = limit
	V2 = v2{}
	cfg.workers = 3
	if os.Getenv("INITDEPS_MODE") != "" {
		mode = 1
	}
}

// comparisons counts the comparisons of byName's sorts: a sort the
// initialisation cannot run may change it, through the interface value it
// gives sort.Sort.
var comparisons int32

type byName []string

func (b byName) Len() int           { return len(b) }
func (b byName) Less(i, j int) bool { comparisons++; return b[i] < b[j] }
func (b byName) Swap(i, j int)      { b[i], b[j] = b[j], b[i] }

func init() {
	if os.Getenv("INITDEPS_SORT") != "" {
		sort.Sort(byName(names))
	}
}

// meta keeps a value the initialisation cannot compute beside a count.
type meta struct {
	pid   int64
	count atomic.Int64
}

// stats' pid is not known; its count is.
var stats = &meta{pid: int64(os.Getpid())}

// lock is initialised after all of the above.
var lock = &sync.Mutex{}

// unhooked compares an interface variable that nothing sets with nil.
var hook any

var unhooked = hook == nil

// lostUpdate increments a counter from two goroutines without the lock.
//
//fencecheck:system
func lostUpdate() {
	n := 0
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			V2.inc(&n)
			wg.Done()
		}()
	}
	wg.Wait()
}

// lockedUpdate is lostUpdate's fixed twin.
//
//fencecheck:system
func lockedUpdate() {
	n := 0
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			lock.Lock()
			V2.inc(&n)
			lock.Unlock()
			wg.Done()
		}()
	}
	wg.Wait()
	if n != 2 || !unhooked {
		panic("lost update under the lock")
	}
}

// matchesName checks a name against re in a goroutine: the answer is Go's.
//
//fencecheck:system
func matchesName() {
	ok := false
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		ok = re.MatchString("go_gc")
		wg.Done()
	}()
	wg.Wait()
	if !ok {
		panic("no match")
	}
}

// matchesDash is matchesName with a name that re does not match.
//
//fencecheck:system
func matchesDash() {
	ok := false
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		ok = re.MatchString("go-gc")
		wg.Done()
	}()
	wg.Wait()
	if !ok {
		panic("no match") // want `^SC: system matchesDash is wrong even under sequential consistency`
	}
}

// matchesEnv uses pattern, which the initialisation cannot compute.
//
//fencecheck:system
func matchesEnv() { // want `^inconclusive: system matchesEnv: a run reaches the initial value of package-level variable pattern, which depends on a call of regexp\.MustCompile \(used at initdeps\.go:\d+\)`
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		_ = pattern.MatchString("go_gc")
		wg.Done()
	}()
	wg.Wait()
}

// served counts requests in the counter the initialisation registered.
//
//fencecheck:system
func served() {
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			requests.n.Add(1)
			wg.Done()
		}()
	}
	wg.Wait()
	if requests.n.Load() != 2 || len(registry) != 2 || registry[0] != requests {
		panic("lost request")
	}
}

// servedTwice also reads the registered counter's count with a plain
// load of a field written atomically: the comparison is racy.
//
//fencecheck:system
func servedRacy() {
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			if requests.n.Add(1) == 2 {
				requests.name = "done" // want `^race: `
			}
			wg.Done()
		}()
	}
	go func() {
		_ = requests.name == "done"
	}()
	wg.Wait()
}

// spends reads budget, which configure may have changed.
//
//fencecheck:system
func spends() { // want `^inconclusive: system spends: a run reaches the initial value of package-level variable budget, which depends on code of the package's initialisation that cannot be run \(initdeps\.go:\d+: a branch on a call of os\.Getenv\), which may change it \(used at initdeps\.go:\d+\)`
	var mu sync.Mutex
	left := 0
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		mu.Lock()
		left = int(budget)
		mu.Unlock()
		wg.Done()
	}()
	wg.Wait()
	if left > 4 {
		panic("over budget")
	}
}

// limited reads limit, which nothing but its initialiser writes.
//
//fencecheck:system
func limited() {
	var n atomic.Int32
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			if n.Add(1) > limit {
				panic("over the limit")
			}
			wg.Done()
		}()
	}
	wg.Wait()
}

// staffed reads cfg's workers, which configure may have changed.
//
//fencecheck:system
func staffed() { // want `^inconclusive: system staffed: a run reaches the initial value of the object that package-level variable cfg points to, which depends on code of the package's initialisation that cannot be run \(initdeps\.go:\d+: a branch on a call of os\.Getenv\), which may change it \(used at initdeps\.go:\d+\)`
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		if cfg.workers > 3 {
			panic("too many workers")
		}
		wg.Done()
	}()
	wg.Wait()
}

// compared reads comparisons.
//
//fencecheck:system
func compared() { // want `^inconclusive: system compared: a run reaches the initial value of package-level variable comparisons, which depends on code of the package's initialisation that cannot be run \(initdeps\.go:\d+: a branch on a call of os\.Getenv\), which may change it \(used at initdeps\.go:\d+\)`
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		if atomic.LoadInt32(&comparisons) != 0 {
			panic("sorted")
		}
		wg.Done()
	}()
	wg.Wait()
}

// serving increments handled through its interface.
//
//fencecheck:system
func serving() {
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			handled.Inc()
			wg.Done()
		}()
	}
	wg.Wait()
	if registry[1].n.Load() != 2 || registry[1].name != "app_handled" {
		panic("lost a request")
	}
}

// counted increments stats' count: its pid does not matter.
//
//fencecheck:system
func counted() {
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			stats.count.Add(1)
			wg.Done()
		}()
	}
	wg.Wait()
	if stats.count.Load() != 2 {
		panic("lost count")
	}
}

// reportsPid reads stats' pid.
//
//fencecheck:system
func reportsPid() { // want `^inconclusive: system reportsPid: a run reaches the initial value of stats\.pid, part of the object that package-level variable stats points to, which depends on a call of os\.Getpid \(used at initdeps\.go:\d+\)`
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		if stats.pid == 0 {
			panic("no pid")
		}
		wg.Done()
	}()
	wg.Wait()
}

// recovered is 2 only when riskyEnv does not panic: the initialisation
// cannot tell, so it does not go on after riskyEnv in setRecovered, whose
// caller recovers.
var recovered int32 = 1

func init() {
	defer func() { _ = recover() }()
	setRecovered()
}

func setRecovered() {
	riskyEnv()
	recovered = 2
}

func riskyEnv() {
	if os.Getenv("INITDEPS_PANIC") != "" {
		panic("boom")
	}
}

// recovers reads recovered.
//
//fencecheck:system
func recovers() { // want `^inconclusive: system recovers: a run reaches the initial value of package-level variable recovered, which depends on code of the package's initialisation that cannot be run \(initdeps\.go:\d+: a call of os\.Getenv, which may panic, below a deferred call that may recover\), which may change it \(used at initdeps\.go:\d+\)`
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		if atomic.LoadInt32(&recovered) != 2 {
			panic("recovered from a panic")
		}
		wg.Done()
	}()
	wg.Wait()
}
