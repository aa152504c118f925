package zone

import (
	"math"
	"slices"
)

// inf is the absent bound of a difference-bound matrix.
const inf = math.MaxInt32

// maxBound bounds the magnitude of a finite bound: an upper bound beyond
// it is taken as none, a lower one as −maxBound (weaker zones, so still
// sound). Bounds are int32, which halves the memory of the zones.
const maxBound = 1 << 28

// dbm is a difference-bound matrix over n variables x_1..x_{n-1} and x_0 =
// 0: m[i*n+j] is a bound c with x_i − x_j ≤ c, or inf (Dill; Miné, "A New
// Numerical Abstract Domain Based on Difference-Bound Matrices", 2001).
type dbm struct {
	n int
	m []int32
}

// newDBM returns the zone of n−1 unconstrained variables.
func newDBM(n int) dbm {
	d := dbm{n: n, m: make([]int32, n*n)}
	for i := range d.m {
		d.m[i] = inf
	}
	for i := range n {
		d.m[i*n+i] = 0
	}
	return d
}

// clone returns a copy of d.
func (d dbm) clone() dbm { return dbm{n: d.n, m: slices.Clone(d.m)} }

// add adds two bounds, inf absorbing and sums beyond maxBound weakened.
func add(a, b int32) int32 {
	if a == inf || b == inf {
		return inf
	}
	return clamp(int64(a) + int64(b))
}

// clamp returns the bound c as a bound of the matrix: inf beyond
// maxBound, −maxBound below −maxBound.
func clamp(c int64) int32 {
	switch {
	case c > maxBound:
		return inf
	case c < -maxBound:
		return -maxBound
	}
	return int32(c)
}

// close computes the shortest-path closure (Floyd–Warshall); it reports
// false when the zone is empty (a negative cycle).
func (d dbm) close() bool {
	n, m := d.n, d.m
	for k := range n {
		for i := range n {
			ik := m[i*n+k]
			if ik == inf {
				continue
			}
			for j := range n {
				if s := add(ik, m[k*n+j]); s < m[i*n+j] {
					m[i*n+j] = s
				}
			}
		}
	}
	for i := range n {
		if m[i*n+i] < 0 {
			return false
		}
	}
	return true
}

// constrain adds x_i − x_j ≤ c to a closed zone and closes it again; it
// reports false when the zone becomes empty.
func (d dbm) constrain(i, j int, c64 int64) bool {
	n, m := d.n, d.m
	c := clamp(c64)
	if c == inf {
		return true
	}
	if add(c, m[j*n+i]) < 0 {
		return false
	}
	if c >= m[i*n+j] {
		return true
	}
	for a := range n {
		ai := m[a*n+i]
		if ai == inf {
			continue
		}
		aic := add(ai, c)
		for b := range n {
			if s := add(aic, m[j*n+b]); s < m[a*n+b] {
				m[a*n+b] = s
			}
		}
	}
	return true
}

// forget removes every bound on x_i (a closed zone stays closed).
func (d dbm) forget(i int) {
	n := d.n
	for j := range n {
		if j != i {
			d.m[i*n+j], d.m[j*n+i] = inf, inf
		}
	}
}

// assign sets x_i := x_j + c (j = 0: the constant c) in a closed zone.
func (d dbm) assign(i, j int, c64 int64) {
	n := d.n
	if c64 > maxBound/4 || c64 < -maxBound/4 {
		// Beyond the bounds the matrix holds: no bound on x_i.
		d.forget(i)
		return
	}
	c := int32(c64)
	if i == j {
		for k := range n {
			if k == i {
				continue
			}
			if d.m[i*n+k] != inf {
				d.m[i*n+k] = add(d.m[i*n+k], c)
			}
			if d.m[k*n+i] != inf {
				d.m[k*n+i] = add(d.m[k*n+i], -c)
			}
		}
		return
	}
	d.forget(i)
	for k := range n {
		if k == i {
			continue
		}
		d.m[i*n+k] = add(c, d.m[j*n+k])
		d.m[k*n+i] = add(d.m[k*n+j], -c)
	}
	d.m[i*n+j], d.m[j*n+i] = c, -c
}

// joinInto sets d to the least zone holding d and e (both closed) and
// reports whether d grew.
func (d dbm) joinInto(e dbm) bool {
	grew := false
	for k, v := range e.m {
		if v > d.m[k] {
			d.m[k] = v
			grew = true
		}
	}
	return grew
}

// widenInto sets d to the widening of d by e with thresholds (sorted):
// every bound of d that e exceeds moves up to the least threshold at or
// above e's, or is dropped beyond the last. It reports whether d changed.
func (d dbm) widenInto(e dbm, thresholds []int64) bool {
	changed := false
	for k, v := range e.m {
		if v <= d.m[k] || d.m[k] == inf {
			continue
		}
		t, _ := slices.BinarySearch(thresholds, int64(v))
		if t < len(thresholds) {
			d.m[k] = clamp(thresholds[t])
		} else {
			d.m[k] = inf
		}
		changed = true
	}
	return changed
}

// includes reports whether d holds every point of e (both closed).
func (d dbm) includes(e dbm) bool {
	for k, v := range e.m {
		if v > d.m[k] {
			return false
		}
	}
	return true
}
