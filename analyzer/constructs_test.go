package analyzer_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/fencecheck/fencecheck/analyzer"
)

// constructPackages are the testdata packages of the Go constructs the
// model takes, each system beside a buggy twin, checked under the default
// configuration (races first) against their // want comments.
var constructPackages = []struct {
	pkg  string
	what string
}{
	{"pointers", "lock-free structures that allocate nodes and publish them through pointers: a Treiber stack, RCU-style publication, a Michael–Scott queue"},
	{"ifaces", "goroutines that store interface values (a stack of any payloads, atomic.Value, errors.New sentinels) and call function values chosen at run time"},
	{"appends", "appends to slices with room"},
	{"realcalls", "defer, RWMutex, Once, fmt and time, a method that starts the goroutines and a generic spin lock; options passed and returned by value over a variadic parameter given none (ttlcache's Get): the loop that applies them never runs"},
	{"copies", "the built-in copy in goroutines: its count, memmove's order on overlapping slices, and its accesses racing; a registry's list copied from a slice grown by append in memory, of run-time length (the twin that copies from the second id, the one without the lock), and a snapshot made by make([]int, len(l.ids)) (its unlocked twin); a prefix out[:n] cut to copy's count (a list taken too early, a cut past the capacity)"},
	{"spilled", "methods whose closures capture the receiver (a sync.Once's Do in a method, from the method's goroutine too)"},
	{"values", "interface values of run-time integers, pointers into objects in memory and through unsafe.Pointer, error results by path, a make of run-time length on a path not taken, go statements in loops of goroutines, stores between go statements, sums of bounded loops in interface values and a make sized by len of a map, strings of a loop's keys that goroutines hash"},
	{"syncmaps", "sync.Map: data published through a Store and read after the Load that sees it, keys stored and deleted apart, LoadOrStore, LoadAndDelete, CompareAndSwap and CompareAndDelete that one goroutine wins, Range that visits the keys one by one; a Load of another key, a last write, a Load then a Store, a Swap race, the first key of a range"},
	{"oncefuncs", "sync.OnceFunc, OnceValue and OnceValues: a value computed once and handed to every caller, a table initialised once, a panic of the function that every call repeats; a read that bypasses the call, a read before it, a run too early, a panic expected once"},
	{"mapsys", "maps guarded by a mutex or an RWMutex, filled by the set-up and read by the goroutines, ranged over in every order, maps of slices grown by append and maps of maps made on first use, one make run twice making two maps, a map split into shards chosen by a hash of a key known only at run time, a map in one of 100 buckets chosen by a counter; unguarded writes, an append split over two critical sections, an inner map written after the unlock, a lookup beside a write, a write to a nil map, an outcome that depends on the order of a range, a shard written without its lock"},
	{"anyboxes", "interface values holding structs, arrays, functions and channels made at run time and kept in memory (assertions, type switches, method calls on them), a counter kept in an interface value, a struct error compared with a pointer error, and the comparisons that stay refused"},
	{"anyslices", "interface values holding slices kept in memory and asserted back (a buffer handed over in an any, a batch a goroutine makes, a type switch over slice types, a slice in an atomic.Value, one of two buffers of one window); comparing two of them and an assertion that may give slices of two lengths are refused"},
	{"slicecells", "slice headers goroutines store in shared memory: a stack trace kept in a field, a []byte built by append and published, a buffer with room appended to under a mutex (perks' quantile stream), a buffer reset by reslicing, a slice made and handed over, slices made in a goroutine's loop stored and boxed (each round's array one of three); the races on the header and its elements, makes of a few sizes, and a slice grown and stored in a loop refused where reached; goroutines appending to a nil field, or one made empty (make([]T, 0), []T{}: not nil, every first append grows), under a mutex (once, three times, in a loop of three rounds: room or growth into an array of the append's own, the race of an unlocked twin on the header and the elements), a fourth growth in a loop inconclusive, a second append before the store refused; FIFO queues that pop with q.items[1:] (in order, every item; the unlocked twin's race, a reslice before the read out of range) and lists that remove with append(s[:i], s[i+1:]...) after the set-up filled them by append (the twin that drops two)"},
	{"anymaps", "interface values holding maps: a copy-on-write snapshot in an atomic.Value read without a lock, a map a goroutine makes handed over in an any; writers without the lock losing a write, a write into the published snapshot racing with a reader, an assertion to another map type, and a comparison Go panics at refused"},
	{"anyfloats", "interface values holding floats computed at run time: boxes per bit pattern, comparisons with Go's float equality (a NaN box equals nothing, -0 and +0 are equal)"},
	{"floatkeys", "maps keyed by floats with Go's semantics: a histogram keyed by its bounds under a lock and its racy twin, -0 as the key +0, a NaN that no lookup or delete finds, a struct key with a float field; inserting a NaN, or -0 into a map a range visits, refused"},
	{"runtimecalls", "calls into the run time: method values, sync.NewCond on a mutex of its own, nil dereferences, GOMAXPROCS and friends, Gosched, Goexit, panic and recover, runtime.Callers into an array only sliced by its count, time.Now, sync.Pool, min and max, a rand.New generator shared under a lock and its unlocked twin (a race on its state), goroutines that run for ever beside a wait (a tick counter nothing tests, a count that decides, an exit on a random comparison or on time passing)"},
	{"initpanic", "a package whose initialisation panics"},
	{"initregexp", "a package-level regexp.MustCompile of a pattern that does not compile: the initialisation's panic"},
	{"initdeps", "package-level variables the model cannot compute (a compiled regexp, a table built from runtime/metrics, settings an init helper writes before it branches on the environment): systems that do not use them are checked, a goroutine that uses one is refused at the variable; a *log.Logger the set-up makes with log.New and keeps in a field, logged through, and refused where a goroutine compares it"},
	{"cgocall", "a system that calls C: unsupported, with the reason"},
	{"ticketonce", "a ticket lock taken once by each goroutine, whose plain release races with the next holder's atomic load"},
	{"guesses", "answers the model does not compute (strconv and strings on formatted labels, comparisons of them, their lengths), as functions of their inputs: a finding that needs one answer at an input is inconclusive naming it (in a loop, of the run's own value too); one reached with every answer stands; inputs not followed (a string from memory, ... arguments changed, strings joined from two paths) are never confirmed; fmt and strconv of constants are computed, and a format's bytes bound a length"},
	{"uncomputed", "strings the model does not compute kept in memory: recovered panic messages and stacks, labels a goroutine builds with its own strings.Builder, strings.IndexByte and fmt.Sprint results that steer control flow (either answer); len of one (any length where compared with constants, refused in arithmetic); errors.New and fmt.Errorf in goroutines (fresh errors, in loops a pool, Error giving the message); errors wrapping an errors.New error with %w, a retry's last error wrapped again (errors.Is follows the chain); a type assertion on a value a goroutine stores; a shared Builder refused"},
	{"stdcalls", "the standard library's code followed from source: math's Ceil, Floor, Trunc and Max through their Go twins of the amd64 assembly, Sqrt, a constant string indexed at run time; keys formatted by strconv.Itoa and fmt.Sprintf from a loop counter; sort.Sort and slices.Sort of a small slice under a mutex and the racy twin, a recursion refused where reached; errors.Join of two workers' errors, fmt.Errorf wrapping a retry's wrapped error and an error rewrapped in a loop, errors.Is walking the tree; a wrong expectation of each found, an error wrapped past 4 levels refused where reached; Grow by a negative count and an odd NewReplacer panic"},
	{"errorsas", "errors.As reading a worker's *opError back into a pointer target and an error target; a field written after the error is published (race), a type no worker returns, a nil target (Go's panic)"},
	{"floats", "float64 and float32 values: an atomic float counter (a compare-and-swap loop over math.Float64bits), float fields under a mutex; a lost update, a racy float field, a NaN that a negated comparison lets through, a negative zero"},
}

// TestConstructs checks the packages of constructPackages in one
// analysistest.Run, which loads the standard library they import once.
func TestConstructs(t *testing.T) {
	t.Parallel()
	var pkgs []string
	for _, c := range constructPackages {
		pkgs = append(pkgs, c.pkg)
	}
	analysistest.Run(t, analysistest.TestData(), analyzer.New(analyzer.DefaultConfig()), pkgs...)
}
