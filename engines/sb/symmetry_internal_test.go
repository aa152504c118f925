package sb

import (
	"bytes"
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/fencecheck/fencecheck/internal/longtest"
	"github.com/fencecheck/fencecheck/internal/progen"
	"github.com/fencecheck/fencecheck/model/native"
)

// TestCanonicalOrbit checks the canonical forms on the constraints that
// the SB search without the symmetry reduction analyses on programs with
// interchangeable processes: every permutation within the classes of a
// constraint has the same canonical form as the constraint (the key of
// procKey holds everything process-indexed), canon is idempotent, and the
// permutation it returns maps the constraint onto its canonical form.
func TestCanonicalOrbit(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 2))
	checked := 0
	for i := 0; i < 40 && checked < 5000; i++ {
		p := progen.Symmetric(rng)
		fp, err := withFaults(p)
		if err != nil {
			t.Fatal(err)
		}
		sy := newSymmetry(fp.prog)
		if sy == nil {
			continue
		}
		s := newSearch(fp, p)
		s.queue.bestFirst(s.prog)
		if _, err := s.run(context.Background(), 300); err != nil && err != errBudget {
			t.Fatal(err)
		}
		var all []*cons
		for _, bk := range s.visited {
			for _, pt := range bk.parts {
				all = append(all, pt.cons...)
			}
		}
		for _, c := range all {
			want := c.clone()
			perm := sy.canon(want)
			if perm != nil {
				moved := c.clone()
				sy.apply(moved, perm)
				if !bytes.Equal(moved.key(nil), want.key(nil)) {
					t.Fatalf("program %d: the permutation canon returned does not give its canonical form\n%s", i, native.Format(p))
				}
			}
			again := want.clone()
			if sy.canon(again) != nil {
				t.Fatalf("program %d: a canonical form is not canonical\n%s", i, native.Format(p))
			}
			for range 3 {
				d := c.clone()
				sy.apply(d, randomPerm(rng, sy.classes, len(c.locs)))
				sy.canon(d)
				if !bytes.Equal(d.key(nil), want.key(nil)) {
					t.Fatalf("program %d: two constraints of one orbit have different canonical forms\n%s", i, native.Format(p))
				}
			}
			checked++
		}
	}
	if checked < 1000 {
		t.Fatalf("only %d constraints checked", checked)
	}
}

// randomPerm returns a random permutation of n processes within classes.
func randomPerm(rng *rand.Rand, classes [][]int, n int) []int {
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	for _, class := range classes {
		to := slices.Clone(class)
		rng.Shuffle(len(to), func(a, b int) { to[a], to[b] = to[b], to[a] })
		for k, p := range class {
			perm[p] = to[k]
		}
	}
	return perm
}

// TestCounterexampleThroughPermutations checks, on unsafe programs with
// interchangeable processes, that the chain of Pre steps through canonical
// forms gives every process of the original program a path of its control
// graph from its initial location (realProcs renames each step back to the
// process that takes it), that some chains pass through a permutation, and
// that the concrete search finds the counterexample (with the partial-order
// reduction on for every other program). Before the Pre step of a write
// made its copies of a predecessor ahead of pushing it (push renames a
// constraint in place), program 40 of this sequence gave process 1 a step
// from L0 while it was at L1.
func TestCounterexampleThroughPermutations(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 40))
	found, permuted := 0, 0
	for i := range longtest.Size(41, 400) {
		p := progen.Symmetric(rng)
		fp, err := withFaults(p)
		if err != nil {
			t.Fatal(err)
		}
		s := newSearch(fp, p)
		s.sym = newSymmetry(fp.prog)
		if i%2 == 0 {
			s.localIn = localEntries(fp.prog)
		}
		s.queue.bestFirst(s.prog)
		c, err := s.run(context.Background(), 20_000)
		if err != nil || c == nil {
			continue
		}
		found++
		at := make([]int, len(fp.prog.Procs))
		for q, proc := range fp.prog.Procs {
			at[q] = proc.Init
		}
		procs := realProcs(c)
		through := false
		for d, k := c, 0; d.next != nil; d, k = d.next, k+1 {
			through = through || d.next.perm != nil
			if d.trans < 0 {
				continue
			}
			q := procs[k]
			tr := fp.prog.Procs[q].Trans[d.trans]
			if tr.From != at[q] {
				t.Fatalf("program %d: step %d of process %d leaves L%d, where the process is at L%d\n%s", i, k, q, tr.From, at[q], native.Format(p))
			}
			at[q] = tr.To
		}
		if through {
			permuted++
		}
		if _, err := concretize(context.Background(), p, fp, c); err != nil {
			t.Fatalf("program %d: %v\n%s", i, err, native.Format(p))
		}
	}
	t.Logf("%d counterexamples, %d through a permutation", found, permuted)
	if permuted == 0 {
		t.Fatal("no counterexample went through a permutation")
	}
}
