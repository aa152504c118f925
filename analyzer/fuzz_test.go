package analyzer_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/fencecheck/fencecheck/analyzer"
	"github.com/fencecheck/fencecheck/internal/cputime"
)

// Limits of FuzzSystems: each system gets fuzzBudget and fuzzMemory; the
// whole analysis of one generated package must use less than fuzzDeadline
// of CPU time.
const (
	fuzzBudget   = 2 * time.Second
	fuzzMemory   = 512 // MiB
	fuzzDeadline = 2 * time.Minute
)

// fuzzStmts are the statements a generated goroutine is made of: plain and
// atomic accesses of the shared struct s, loops, branches, a mutex with a
// deferred unlock, bitwise operators, a spin that waits for another
// goroutine. K stands for a small constant taken from the input, and r is
// the goroutine's accumulated result.
var fuzzStmts = []string{
	"s.x = K",
	"r += s.y",
	"atomic.AddInt32(&s.z, 1)",
	"for i := 0; i < 2; i++ {\n\t\t\ts.x++\n\t\t}",
	"if s.y == K {\n\t\t\ts.x = 2\n\t\t} else {\n\t\t\ts.x = 3\n\t\t}",
	"func() {\n\t\t\tmu.Lock()\n\t\t\tdefer mu.Unlock()\n\t\t\ts.w += K\n\t\t}()",
	"s.y = s.x & K",
	"atomic.StoreInt32(&s.z, K)",
	"r += atomic.LoadInt32(&s.z) >> 1",
	"for atomic.LoadInt32(&s.z) == 0 {\n\t\t\truntime.Gosched()\n\t\t}",
	"r ^= s.x | K",
	"s.buf[r&1] = K",
}

// fuzzRanges are the //fencecheck:range directives the generator may put on
// the field w, among them ranges wider than 2^63 values, which must be
// neither enumerated nor mistaken for small ones.
var fuzzRanges = []string{
	"",
	"//fencecheck:range 0..3",
	"//fencecheck:range -9223372036854775808..9223372036854775807",
	"//fencecheck:range -5000000000000000000..5000000000000000000",
	"//fencecheck:range 0..9223372036854775807",
	"//fencecheck:range -2147483648..2147483647",
}

// fuzzSystem decodes data into a Go package with one system: two or three
// goroutines of up to five statements each, a final check that panics on
// one combination of their results, and a range directive on the field w.
func fuzzSystem(data []byte) string {
	next := func() int {
		if len(data) == 0 {
			return 0
		}
		b := data[0]
		data = data[1:]
		return int(b)
	}
	var body strings.Builder
	n := 2 + next()%2
	fmt.Fprintf(&body, "\twg.Add(%d)\n", n)
	for g := 0; g < n; g++ {
		fmt.Fprintf(&body, "\tgo func() {\n\t\tvar r int32\n")
		for k := next() % 6; k > 0; k-- {
			st := fuzzStmts[next()%len(fuzzStmts)]
			st = strings.ReplaceAll(st, "K", fmt.Sprint(next()%3))
			fmt.Fprintf(&body, "\t\t%s\n", st)
		}
		fmt.Fprintf(&body, "\t\tres[%d] = r\n\t\twg.Done()\n\t}()\n", g)
	}
	fmt.Fprintf(&body, "\twg.Wait()\n\tif res[0] == %d && s.x == %d {\n\t\tpanic(\"outcome\")\n\t}\n}\n", next()%3, next()%4)
	var b strings.Builder
	fmt.Fprintf(&b, `package p

import (
	"runtime"
	"sync"
	"sync/atomic"
)

var _, _ = runtime.Gosched, atomic.AddInt32

type shared struct {
	x, y, z int32
	%s
	w   int64
	buf [2]int32
}

//fencecheck:system
func system() {
	var s shared
	var mu sync.Mutex
	var wg sync.WaitGroup
	var res [3]int32
	_ = &mu
`, fuzzRanges[next()%len(fuzzRanges)])
	b.WriteString(body.String())
	return b.String()
}

// FuzzSystems generates Go systems from its input and runs the analyzer on
// each, with a small budget and memory limit: whatever the system, the
// analysis must end (within its limits plus slack), must not panic, and must
// report no internal error. The seeds are decoded in a normal test run.
func FuzzSystems(f *testing.F) {
	f.Add([]byte{0, 3, 0, 1, 1, 1, 0, 2, 2, 2, 1, 0, 1, 1})
	f.Add([]byte{1, 4, 3, 2, 5, 1, 9, 0, 4, 7, 2, 4, 6, 1, 10, 2, 11, 0, 3, 8, 1, 9, 2, 6, 0, 1, 2})
	f.Add([]byte{1, 5, 9, 1, 3, 2, 5, 0, 6, 2, 11, 1, 5, 8, 0, 4, 2, 7, 1, 10, 2, 3, 0, 5, 9, 2, 1, 0})
	// A range over all of int64 on a counter that a mutex guards: its
	// interval was once enumerated, allocating until the process died.
	f.Add([]byte{0, 1, 5, 1, 1, 5, 2, 0, 1, 2})
	f.Fuzz(func(t *testing.T, data []byte) {
		src := fuzzSystem(data)
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module fuzz\n\ngo 1.26\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(dir, "p"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "p", "p.go"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		cfg := analyzer.DefaultConfig()
		cfg.Budget = fuzzBudget
		cfg.MemoryLimit = fuzzMemory
		var diags []diag
		// CPU time (of this process; loading runs go list beside it): the
		// wall time grows with the machine's load.
		_, cpu := cputime.Measure(func() { diags = analyze(t, dir, analyzer.New(cfg)) })
		if cpu > fuzzDeadline {
			t.Errorf("the analysis took %v of CPU time (budget %v per system)\n%s", cpu.Round(time.Millisecond), fuzzBudget, src)
		}
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		if heap := ms.HeapAlloc >> 20; heap > 4*fuzzMemory {
			t.Errorf("heap of %d MiB after the analysis (limit %d MiB)\n%s", heap, fuzzMemory, src)
		}
		for _, d := range diags {
			if strings.Contains(d.msg, "internal error") {
				t.Errorf("p.go:%d: %s\n%s", d.line, d.msg, src)
			}
		}
	})
}
