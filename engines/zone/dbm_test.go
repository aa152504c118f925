package zone

import (
	"math/rand/v2"
	"testing"
)

// contains reports whether the integer point pt (pt[0] = 0) satisfies d.
func (d dbm) contains(pt []int64) bool {
	for i := range d.n {
		for j := range d.n {
			if c := d.m[i*d.n+j]; c != inf && pt[i]-pt[j] > int64(c) {
				return false
			}
		}
	}
	return true
}

// points calls f with every point of [-r, r]^(n−1).
func points(n int, r int64, f func(pt []int64)) {
	pt := make([]int64, n)
	var rec func(k int)
	rec = func(k int) {
		if k == n {
			f(pt)
			return
		}
		for v := -r; v <= r; v++ {
			pt[k] = v
			rec(k + 1)
		}
	}
	rec(1)
}

func randomZone(rng *rand.Rand, n int) (dbm, bool) {
	d := newDBM(n)
	for range 1 + rng.IntN(5) {
		i, j := rng.IntN(n), rng.IntN(n)
		if i != j {
			d.m[i*n+j] = min(d.m[i*n+j], int32(rng.IntN(7)-3))
		}
	}
	return d, !d.close()
}

// TestOperations checks constrain, assign, shift and join against the
// integer points they denote.
func TestOperations(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n, r, wide = 4, 4, 24
	for iter := range 2000 {
		d, empty := randomZone(rng, n)
		if empty {
			continue
		}
		i, j := 1+rng.IntN(n-1), rng.IntN(n)
		c := int64(rng.IntN(7) - 3)
		switch op := rng.IntN(4); op {
		case 0:
			e := d.clone()
			ok := e.constrain(i, j, c)
			points(n, r, func(pt []int64) {
				want := d.contains(pt) && pt[i]-pt[j] <= c
				if ok && e.contains(pt) != want || !ok && want {
					t.Fatalf("iteration %d: constrain x%d - x%d <= %d wrong at %v", iter, i, j, c, pt)
				}
			})
			if f := e.clone(); ok && (!f.close() || !f.includes(e) || !e.includes(f)) {
				t.Fatalf("iteration %d: constrain left the zone not closed", iter)
			}
		case 1, 2:
			if op == 2 {
				j = i
			}
			e := d.clone()
			e.assign(i, j, c)
			points(n, r, func(pt []int64) {
				if !d.contains(pt) {
					return
				}
				q := append([]int64(nil), pt...)
				q[i] = pt[j] + c
				if !e.contains(q) {
					t.Fatalf("iteration %d: x%d := x%d + %d loses %v -> %v", iter, i, j, c, pt, q)
				}
			})
			points(n, r, func(q []int64) {
				if !e.contains(q) {
					return
				}
				pre := append([]int64(nil), q...)
				found := false
				for v := int64(-wide); v <= wide && !found; v++ {
					pre[i] = v
					if i == j {
						found = v+c == q[i] && d.contains(pre)
					} else {
						found = q[i] == q[j]+c && d.contains(pre)
					}
				}
				if !found {
					t.Fatalf("iteration %d: x%d := x%d + %d adds %v", iter, i, j, c, q)
				}
			})
		case 3:
			e, empty := randomZone(rng, n)
			if empty {
				continue
			}
			u := d.clone()
			u.joinInto(e)
			w := d.clone()
			w.widenInto(e, []int64{-1, 0, 1})
			points(n, r, func(pt []int64) {
				if (d.contains(pt) || e.contains(pt)) && !u.contains(pt) {
					t.Fatalf("iteration %d: the join loses %v", iter, pt)
				}
				if (d.contains(pt) || e.contains(pt)) && !w.contains(pt) {
					t.Fatalf("iteration %d: the widening loses %v", iter, pt)
				}
			})
		}
	}
}
