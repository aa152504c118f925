//go:build cgo && !fencecheck_noz3

package smt

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fencecheck/fencecheck/internal/longtest"
)

var long = flag.Bool("long", false, "run the million-query memory test")

// collect runs the collector and gives the cleanups of unreachable values a
// chance to run.
func collect() {
	for range 3 {
		runtime.GC()
		time.Sleep(5 * time.Millisecond)
	}
}

// settle releases the Z3 references whose Go values are unreachable. The
// runtime offers no way to wait for cleanups, so it collects and drains the
// release list until two rounds in a row find it empty.
func settle(t testing.TB, c *Context) {
	t.Helper()
	for quiet, i := 0, 0; quiet < 2; i++ {
		if i == 200 {
			t.Fatalf("references keep arriving on the release list")
		}
		runtime.GC()
		time.Sleep(5 * time.Millisecond)
		if c.pendingReleases() == 0 {
			quiet++
		} else {
			quiet = 0
		}
		if err := c.core.lock(); err != nil { // drains the list
			t.Fatal(err)
		}
		c.core.unlock()
	}
}

// rss returns the resident set size of the process in bytes, or 0 where
// /proc is not available.
func rss() uint64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	pages, err := strconv.ParseUint(f[1], 10, 64)
	if err != nil {
		return 0
	}
	return pages * uint64(os.Getpagesize())
}

// queries runs the queries numbered from..to-1 against c: an implication
// check per query (with numerals that differ between queries), and now and
// then a model, a quantifier elimination and a fresh solver.
func queries(c *Context, s *Solver, from, to int64) error {
	x := c.Int("x")
	for i := from; i < to; i++ {
		a, b := implicationQuery(c, i)
		ok, err := s.Implies(a, b)
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("query %d: implication not valid", i)
		}
		if i%16 == 0 {
			if err := modelQuery(c, s, x, i); err != nil {
				return err
			}
		}
		if i%1000 == 0 {
			q := c.Exists([]*Expr{c.Int("y")}, c.And(c.Eq(x, c.Add(c.Int("y"), c.IntVal(i))), c.Ge(c.Int("y"), c.Int("z"))))
			if _, err := c.QE(q); err != nil {
				return err
			}
			fresh, err := c.NewSolver()
			if err != nil {
				return err
			}
			if _, err := fresh.Satisfiable(a); err != nil {
				return err
			}
		}
	}
	return nil
}

func modelQuery(c *Context, s *Solver, x *Expr, i int64) error {
	if err := s.Push(); err != nil {
		return err
	}
	if err := s.Assert(c.Eq(c.Mul(c.IntVal(2), x), c.IntVal(2*i))); err != nil {
		return err
	}
	r, err := s.Check()
	if err != nil {
		return err
	}
	if r != Sat {
		return fmt.Errorf("model query %d: %v", i, r)
	}
	m, err := s.Model()
	if err != nil {
		return err
	}
	v, err := m.Int(x)
	if err != nil {
		return err
	}
	if v != i {
		return fmt.Errorf("model query %d: x = %d", i, v)
	}
	return s.Pop(1)
}

// TestMemoryFlat runs many small queries and checks that neither Z3's
// allocation estimate nor the resident set grows after a warm-up: every
// reference the binding takes is given back. 100,000 queries by default,
// a million with -long.
func TestMemoryFlat(t *testing.T) {
	n := int64(100_000)
	if *long {
		n = 1_000_000
	}
	if longtest.Quick() {
		n = 10_000
	}
	c := newContext(t, Config{})
	s := newSolver(t, c)
	warm := n / 10
	start := time.Now()
	if err := queries(c, s, 0, warm); err != nil {
		t.Fatal(err)
	}
	settle(t, c)
	z1, r1 := EstimatedAllocSize(), rss()
	var peak uint64
	const chunk = 10_000
	for from := warm; from < n; from += chunk {
		if err := queries(c, s, from, min(from+chunk, n)); err != nil {
			t.Fatal(err)
		}
		peak = max(peak, EstimatedAllocSize())
	}
	elapsed := time.Since(start)
	settle(t, c)
	z2, r2 := EstimatedAllocSize(), rss()
	t.Logf("%d queries in %v (%.0f queries/s)", n, elapsed.Round(time.Millisecond), float64(n)/elapsed.Seconds())
	t.Logf("Z3 allocation estimate: %.1f MB after warm-up, %.1f MB at the end, %.1f MB peak between collections",
		mb(z1), mb(z2), mb(peak))
	t.Logf("resident set: %.1f MB after warm-up, %.1f MB at the end", mb(r1), mb(r2))
	const slack = 2 << 20
	if z2 > z1+z1/10+slack {
		t.Errorf("Z3 memory grew from %.1f MB to %.1f MB", mb(z1), mb(z2))
	}
	if r1 > 0 && r2 > r1+r1/4+16*slack {
		t.Errorf("resident set grew from %.1f MB to %.1f MB", mb(r1), mb(r2))
	}
}

func mb(b uint64) float64 { return float64(b) / (1 << 20) }

// TestCleanupReleases checks that terms are given back to Z3 once their Go
// values are unreachable, and kept while they are reachable. Z3's node
// allocator keeps freed memory for reuse, so its estimate does not fall when
// terms are released; instead, rounds of making and dropping 20,000 terms
// must reuse the memory of the first round (a leak would add megabytes per
// round).
func TestCleanupReleases(t *testing.T) {
	c := newContext(t, Config{})
	x := c.Int("x")
	const n, rounds = 20_000, 5
	var after [rounds]uint64
	for r := range int64(rounds) {
		before := EstimatedAllocSize()
		keep := make([]*Expr, 0, n)
		for i := range int64(n) {
			k := r*n + i
			keep = append(keep, c.Le(c.Add(x, c.IntVal(k)), c.IntVal(3*k)))
		}
		settle(t, c)
		// Reachable terms survive collections intact.
		k := r*n + 12345
		if got, want := keep[12345].String(), fmt.Sprintf("(<= (+ x %d) %d)", k, 3*k); got != want {
			t.Fatalf("live term = %s, want %s", got, want)
		}
		if r == 0 && EstimatedAllocSize() < before+n*100 {
			t.Fatalf("%d live terms use only %d bytes", n, EstimatedAllocSize()-before)
		}
		keep = nil
		settle(t, c)
		after[r] = EstimatedAllocSize()
	}
	t.Logf("Z3 allocation estimate after each round: %.2f MB, ..., %.2f MB", mb(after[0]), mb(after[rounds-1]))
	if after[rounds-1] > after[0]+1<<20 {
		t.Errorf("released terms are not reused: %.2f MB after round 1, %.2f MB after round %d",
			mb(after[0]), mb(after[rounds-1]), rounds)
	}
}

// TestSlabRelease checks the release of Exprs allocated in slabs: once the
// Exprs of a slab are unreachable its terms are released, while one
// reachable Expr keeps its slab, and only its slab, alive and usable.
func TestSlabRelease(t *testing.T) {
	c, err := NewContext(Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	x := c.Int("x")
	const n = 20 * slabSize
	kept := make([]*Expr, 0, 2)
	for i := range n {
		e := c.Add(x, c.IntVal(int64(i)))
		if i == 3 || i == n/2 {
			kept = append(kept, e)
		}
	}
	collect()
	settle(t, c)
	// The kept Exprs' two slabs, x's and the one being filled.
	if got := len(c.core.slabs); got > 4 {
		t.Errorf("%d slabs hold terms after the collection, want at most 4", got)
	}
	for i, e := range kept {
		want := []string{"(+ x 3)", fmt.Sprintf("(+ x %d)", n/2)}[i]
		if got := e.String(); got != want {
			t.Errorf("kept term %d is %q, want %q", i, got, want)
		}
	}
	runtime.KeepAlive(x)
}

// TestSlabStress checks the slabs under concurrent use: goroutines share a
// Context, keep one term in 50 and drop the rest, with collections in
// between, and the kept terms must stay intact.
func TestSlabStress(t *testing.T) {
	c, err := NewContext(Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			x := c.Int(fmt.Sprintf("x%d", g))
			type kept struct {
				e *Expr
				k int64
			}
			var keep []kept
			for i := range int64(4000) {
				e := c.Add(x, c.IntVal(i))
				if i%50 == 7 {
					keep = append(keep, kept{e, i})
				}
				if i%500 == 0 {
					runtime.GC()
				}
				if i%97 == 0 && len(keep) > 0 {
					kk := keep[len(keep)/2]
					if got, want := kk.e.String(), fmt.Sprintf("(+ x%d %d)", g, kk.k); got != want {
						t.Errorf("%s, want %s", got, want)
						return
					}
					if a := kk.e.Args(); len(a) != 2 || !a[0].Equal(x) {
						t.Errorf("args of %s: %v", kk.e, a)
						return
					}
				}
			}
			runtime.GC()
			for _, kk := range keep {
				if got, want := kk.e.String(), fmt.Sprintf("(+ x%d %d)", g, kk.k); got != want {
					t.Errorf("%s, want %s", got, want)
					return
				}
			}
		})
	}
	wg.Wait()
}
