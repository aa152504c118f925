package dd

import (
	"math/rand/v2"
	"testing"
)

// table is the truth table of a function of n variables: bit a of the
// table is its value on the assignment a (bit l of a is the variable at
// level l).
type table []bool

// build returns the diagram of t over levels 0..n-1.
func build(m *Manager, t table, n int) Node {
	r := False
	for a, v := range t {
		if !v {
			continue
		}
		c := True
		for l := n - 1; l >= 0; l-- {
			if a>>l&1 == 1 {
				c = m.Mk(l, False, c)
			} else {
				c = m.Mk(l, c, False)
			}
		}
		r = m.Or(r, c)
	}
	return r
}

func eval(m *Manager, d Node, a int) bool {
	return m.Eval(d, func(l int) bool { return a>>l&1 == 1 })
}

func random(rng *rand.Rand, n int) table {
	t := make(table, 1<<n)
	for a := range t {
		t[a] = rng.IntN(3) == 0
	}
	return t
}

// TestOperations checks every operation against truth tables on random
// functions of up to 6 variables, and that equal functions are the same
// node (canonicity).
func TestOperations(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for iter := range 300 {
		n := 1 + rng.IntN(6)
		m := New()
		if iter%2 == 1 {
			// A tiny cache and table: collisions and rehashing.
			m.cache = make([]entry, 4)
			m.table = make([]slot, 4)
		}
		ta, tb := random(rng, n), random(rng, n)
		a, b := build(m, ta, n), build(m, tb, n)
		var q []int
		for l := range n {
			if rng.IntN(2) == 0 {
				q = append(q, l)
			}
		}
		quantified := 0
		for _, l := range q {
			quantified |= 1 << l
		}
		and, or, diff := m.And(a, b), m.Or(a, b), m.Diff(a, b)
		rel := m.AndExists(a, b, m.Cube(q))
		for x := range 1 << n {
			if eval(m, and, x) != (ta[x] && tb[x]) || eval(m, or, x) != (ta[x] || tb[x]) || eval(m, diff, x) != (ta[x] && !tb[x]) {
				t.Fatalf("iteration %d: a boolean operation is wrong at %b", iter, x)
			}
			want := false
			for y := range 1 << n {
				if y&^quantified == x&^quantified && ta[y] && tb[y] {
					want = true
				}
			}
			if eval(m, rel, x) != want {
				t.Fatalf("iteration %d: AndExists over %v is %v at %b, want %v", iter, q, !want, x, want)
			}
		}
		// Canonicity: a ∧ b built twice, and through De Morgan.
		if m.Not(m.Or(m.Not(a), m.Not(b))) != and {
			t.Fatalf("iteration %d: a ∧ b and ¬(¬a ∨ ¬b) are different nodes", iter)
		}
		if got, want := m.Count(a, levels(n)), count(ta); got != want {
			t.Fatalf("iteration %d: Count = %d, want %d", iter, got, want)
		}
		if set, ok := m.SatOne(a); ok != (count(ta) > 0) || ok && !eval(m, a, assignment(set)) {
			t.Fatalf("iteration %d: SatOne = %v, %v", iter, set, ok)
		}
	}
}

func levels(n int) []int {
	l := make([]int, n)
	for i := range l {
		l[i] = i
	}
	return l
}

func count(t table) int64 {
	c := int64(0)
	for _, v := range t {
		if v {
			c++
		}
	}
	return c
}

func assignment(set []int) int {
	a := 0
	for _, l := range set {
		a |= 1 << l
	}
	return a
}

// TestRename moves a function of the even levels to the odd ones and back.
func TestRename(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 100 {
		m := New()
		const n = 4
		ta := random(rng, n)
		// Build over levels 0, 2, 4, 6.
		spread := make(table, 1<<(2*n))
		for x := range spread {
			a := 0
			for l := range n {
				a |= (x >> (2 * l) & 1) << l
			}
			spread[x] = ta[a]
		}
		d := build(m, spread, 2*n)
		up, down := make([]int, 2*n), make([]int, 2*n)
		for l := range 2 * n {
			up[l], down[l] = l, l
			if l%2 == 0 {
				up[l] = l + 1
			} else {
				down[l] = l - 1
			}
		}
		moved := m.Rename(d, m.NewRenaming(up))
		for x := range 1 << (2 * n) {
			if eval(m, moved, x<<1&0xAA) != spread[x&0x55] {
				t.Fatalf("renamed diagram differs at %b", x)
			}
		}
		if back := m.Rename(moved, m.NewRenaming(down)); back != d {
			t.Fatalf("renaming there and back gives another node")
		}
	}
}

// TestCollect keeps one diagram of many and checks that it still denotes
// the same function, renumbered, with the others gone.
func TestCollect(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	m := New()
	const n = 6
	var keep Node
	var tk table
	for i := range 50 {
		ti := random(rng, n)
		d := build(m, ti, n)
		if i == 17 {
			keep, tk = d, ti
		}
	}
	before := m.Nodes()
	m.Collect(&keep)
	if m.Nodes() >= before {
		t.Fatalf("Collect kept %d of %d nodes", m.Nodes(), before)
	}
	for x := range 1 << n {
		if eval(m, keep, x) != tk[x] {
			t.Fatalf("the kept diagram changed at %b", x)
		}
	}
	if again := build(m, tk, n); again != keep {
		t.Fatalf("building the kept function again gives another node: the unique table lost it")
	}
}

// TestNodeLimit checks that the limit stops an operation with ErrNodes.
func TestNodeLimit(t *testing.T) {
	m := New()
	m.MaxNodes = 20
	rng := rand.New(rand.NewPCG(7, 8))
	build(m, random(rng, 8), 8)
	if m.Err() != ErrNodes {
		t.Fatalf("Err = %v, want ErrNodes", m.Err())
	}
	if m.Nodes() > 20 {
		t.Fatalf("%d nodes held beyond the limit of 20", m.Nodes())
	}
}
