// Package dd implements reduced ordered binary decision diagrams (Bryant,
// "Graph-Based Algorithms for Boolean Function Manipulation", 1986) for the
// symbolic engine: a manager owns the nodes of every diagram, kept unique
// (equal functions are the same node) in a hash table, with a lossy cache
// of operation results. Diagrams are node indices into the manager; there
// is no reference counting. A caller that holds many intermediate results
// calls [Manager.Collect] with its live diagrams to compact the nodes.
//
// Variables are levels 0, 1, 2, ... (level 0 at the top). A manager stops
// creating nodes at its node limit or when its stop function says so; the
// operation under way then returns False, and [Manager.Err] says why.
package dd

import (
	"errors"
	"math"
	"slices"
)

// Node is a diagram: the index of its root in the manager.
type Node int32

// The terminal diagrams.
const (
	False Node = 0
	True  Node = 1
)

// leafLevel is the level of the terminals, below every variable.
const leafLevel = math.MaxInt32

type node struct {
	level  int32
	lo, hi Node
}

// ErrNodes is the error of a manager that reached its node limit.
var ErrNodes = errors.New("the decision diagrams reached their node limit")

// Manager owns diagrams.
type Manager struct {
	nodes []node
	// table is the unique table, by open addressing: each slot holds a
	// node and its key (n = 0 when empty: terminals are never stored).
	table []slot
	cache []entry

	// MaxNodes bounds the nodes held at once (0: no bound).
	MaxNodes int
	// Stop, when set, is asked every few thousand steps whether to stop
	// (a deadline, a memory limit); its error becomes Err.
	Stop func() error

	err     error
	steps   int64
	renames [][]int32
}

type slot struct {
	node
	n Node
}

type entry struct {
	op      uint32
	a, b, c Node
	r       Node
}

const (
	opAnd uint32 = iota + 1
	opOr
	opDiff
	opRelProd
	opRename // + the index of the renaming
)

// New returns a manager with no diagrams but the terminals.
func New() *Manager {
	m := &Manager{}
	m.nodes = append(m.nodes, node{level: leafLevel}, node{level: leafLevel})
	m.table = make([]slot, 1<<16)
	m.cache = make([]entry, 1<<16)
	return m
}

// Err reports why the manager stopped, or nil.
func (m *Manager) Err() error { return m.err }

// ClearNodeLimit clears an ErrNodes stop, so that the caller may collect
// and try again, and reports whether there was one. The results of the
// operations that stopped are invalid; the cache holds none of them.
func (m *Manager) ClearNodeLimit() bool {
	if m.err != ErrNodes {
		return false
	}
	m.err = nil
	return true
}

// Nodes returns the number of nodes held.
func (m *Manager) Nodes() int { return len(m.nodes) }

// Steps returns the number of recursive steps the operations have taken
// (a measure of work that does not depend on the machine).
func (m *Manager) Steps() int64 { return m.steps }

// Level returns the level of a's root (a large value for a terminal).
func (m *Manager) Level(a Node) int { return int(m.nodes[a].level) }

// Var returns the diagram of the variable at level.
func (m *Manager) Var(level int) Node { return m.Mk(level, False, True) }

// NVar returns the diagram of the negated variable at level.
func (m *Manager) NVar(level int) Node { return m.Mk(level, True, False) }

func hash3(a, b, c uint32) uint32 {
	h := (uint64(a)<<32 | uint64(b)) * 0x9E3779B97F4A7C15
	h ^= uint64(c) * 0xC2B2AE3D27D4EB4F
	h ^= h >> 29
	h *= 0xBF58476D1CE4E5B9
	return uint32(h >> 32)
}

// Mk returns the node (level, lo, hi): lo when lo == hi, else the unique
// node with these children. The children must lie below level.
func (m *Manager) Mk(level int, lo, hi Node) Node {
	if lo == hi {
		return lo
	}
	if m.err != nil {
		return False
	}
	mask := uint32(len(m.table) - 1)
	key := node{level: int32(level), lo: lo, hi: hi}
	i := hash3(uint32(level), uint32(lo), uint32(hi)) & mask
	for {
		e := &m.table[i]
		if e.n == 0 {
			break
		}
		if e.node == key {
			return e.n
		}
		i = (i + 1) & mask
	}
	if m.MaxNodes > 0 && len(m.nodes) >= m.MaxNodes {
		m.err = ErrNodes
		return False
	}
	n := Node(len(m.nodes))
	m.nodes = append(m.nodes, key)
	m.table[i] = slot{key, n}
	if 2*len(m.nodes) > len(m.table) {
		m.rehash(2 * len(m.table))
	}
	return n
}

func (m *Manager) rehash(size int) {
	m.table = make([]slot, size)
	mask := uint32(size - 1)
	for n := 2; n < len(m.nodes); n++ {
		x := m.nodes[n]
		i := hash3(uint32(x.level), uint32(x.lo), uint32(x.hi)) & mask
		for m.table[i].n != 0 {
			i = (i + 1) & mask
		}
		m.table[i] = slot{x, Node(n)}
	}
	if len(m.cache) < size/2 && len(m.cache) < 1<<22 {
		m.cache = make([]entry, size/2)
	}
}

// step counts a recursive step and asks Stop every 2^14 of them.
func (m *Manager) step() bool {
	m.steps++
	if m.steps&(1<<14-1) == 0 && m.Stop != nil && m.err == nil {
		m.err = m.Stop()
	}
	return m.err == nil
}

func (m *Manager) lookup(op uint32, a, b, c Node) (*entry, bool) {
	e := &m.cache[hash3(op^uint32(c)*0x27D4EB2F, uint32(a), uint32(b))&uint32(len(m.cache)-1)]
	return e, e.op == op && e.a == a && e.b == b && e.c == c
}

func (m *Manager) store(e *entry, op uint32, a, b, c, r Node) {
	if m.err == nil {
		*e = entry{op: op, a: a, b: b, c: c, r: r}
	}
}

// cofactors returns the children of a with respect to level: a itself
// twice when a's root lies below it.
func (m *Manager) cofactors(a Node, level int32) (Node, Node) {
	x := &m.nodes[a]
	if x.level != level {
		return a, a
	}
	return x.lo, x.hi
}

// And returns a ∧ b.
func (m *Manager) And(a, b Node) Node { return m.apply(opAnd, a, b) }

// Or returns a ∨ b.
func (m *Manager) Or(a, b Node) Node { return m.apply(opOr, a, b) }

// Diff returns a ∧ ¬b.
func (m *Manager) Diff(a, b Node) Node { return m.apply(opDiff, a, b) }

// terminal returns op(a, b) when a terminal case decides it.
func terminal(op uint32, a, b Node) (Node, bool) {
	switch op {
	case opAnd:
		switch {
		case a == False || b == False:
			return False, true
		case a == True || a == b:
			return b, true
		case b == True:
			return a, true
		}
	case opOr:
		switch {
		case a == True || b == True:
			return True, true
		case a == False || a == b:
			return b, true
		case b == False:
			return a, true
		}
	case opDiff:
		switch {
		case a == False || b == True || a == b:
			return False, true
		case b == False:
			return a, true
		}
	}
	return 0, false
}

// apply computes a binary operation by Shannon expansion on the top
// variable, with the terminal cases and the cache.
func (m *Manager) apply(op uint32, a, b Node) Node {
	if r, ok := terminal(op, a, b); ok {
		return r
	}
	if op != opDiff && a > b {
		a, b = b, a // commutative: one cache entry for both orders
	}
	e, ok := m.lookup(op, a, b, 0)
	if ok {
		return e.r
	}
	if !m.step() {
		return False
	}
	top := min(m.nodes[a].level, m.nodes[b].level)
	a0, a1 := m.cofactors(a, top)
	b0, b1 := m.cofactors(b, top)
	lo := m.apply(op, a0, b0)
	hi := m.apply(op, a1, b1)
	r := m.Mk(int(top), lo, hi)
	m.store(e, op, a, b, 0, r)
	return r
}

// Not returns ¬a.
func (m *Manager) Not(a Node) Node { return m.Diff(True, a) }

// Cube returns the conjunction of the variables at levels (a positive
// cube), the form in which [Manager.AndExists] takes the variables it
// quantifies.
func (m *Manager) Cube(levels []int) Node {
	ls := slices.Clone(levels)
	slices.Sort(ls)
	r := True
	for i := len(ls) - 1; i >= 0; i-- {
		if i+1 < len(ls) && ls[i] == ls[i+1] {
			continue
		}
		r = m.Mk(ls[i], False, r)
	}
	return r
}

// AndExists returns ∃ cube: a ∧ b, the relational product, without
// building a ∧ b; cube is a positive cube (see [Manager.Cube]).
func (m *Manager) AndExists(a, b, cube Node) Node {
	switch {
	case a == False || b == False:
		return False
	case a == True && b == True:
		return True
	}
	top := min(m.nodes[a].level, m.nodes[b].level)
	for m.nodes[cube].level < top {
		cube = m.nodes[cube].hi
	}
	if cube == True {
		return m.And(a, b)
	}
	if a > b {
		a, b = b, a
	}
	e, ok := m.lookup(opRelProd, a, b, cube)
	if ok {
		return e.r
	}
	if !m.step() {
		return False
	}
	a0, a1 := m.cofactors(a, top)
	b0, b1 := m.cofactors(b, top)
	var r Node
	if m.nodes[cube].level == top {
		next := m.nodes[cube].hi
		r = m.AndExists(a0, b0, next)
		if r != True {
			r = m.Or(r, m.AndExists(a1, b1, next))
		}
	} else {
		lo := m.AndExists(a0, b0, cube)
		hi := m.AndExists(a1, b1, cube)
		r = m.Mk(int(top), lo, hi)
	}
	m.store(e, opRelProd, a, b, cube, r)
	return r
}

// Renaming is a registered map of levels, for [Manager.Rename].
type Renaming int

// NewRenaming registers the map that sends level l to to[l] (levels
// beyond to's length stay). It must preserve the order of the levels a
// renamed diagram depends on.
func (m *Manager) NewRenaming(to []int) Renaming {
	t := make([]int32, len(to))
	for i, l := range to {
		t[i] = int32(l)
	}
	m.renames = append(m.renames, t)
	return Renaming(len(m.renames) - 1)
}

// Rename returns a with its variables renamed by r.
func (m *Manager) Rename(a Node, r Renaming) Node {
	if a == False || a == True {
		return a
	}
	op := opRename + uint32(r)
	e, ok := m.lookup(op, a, 0, 0)
	if ok {
		return e.r
	}
	if !m.step() {
		return False
	}
	x := m.nodes[a]
	level := x.level
	if to := m.renames[r]; int(level) < len(to) {
		level = to[level]
	}
	lo := m.Rename(x.lo, r)
	hi := m.Rename(x.hi, r)
	res := m.Mk(int(level), lo, hi)
	m.store(e, op, a, 0, 0, res)
	return res
}

// Eval returns the value of a under the assignment value (by level).
func (m *Manager) Eval(a Node, value func(level int) bool) bool {
	for a != False && a != True {
		x := &m.nodes[a]
		if value(int(x.level)) {
			a = x.hi
		} else {
			a = x.lo
		}
	}
	return a == True
}

// SatOne returns an assignment that satisfies a, as the levels set to
// true (every other level false), or false when a is False.
func (m *Manager) SatOne(a Node) ([]int, bool) {
	if a == False {
		return nil, false
	}
	var set []int
	for a != True {
		x := &m.nodes[a]
		if x.lo != False {
			a = x.lo
		} else {
			set = append(set, int(x.level))
			a = x.hi
		}
	}
	return set, true
}

// Size returns the number of nodes of a, terminals included.
func (m *Manager) Size(a Node) int {
	seen := map[Node]bool{}
	var walk func(Node)
	walk = func(n Node) {
		if seen[n] {
			return
		}
		seen[n] = true
		if n > True {
			walk(m.nodes[n].lo)
			walk(m.nodes[n].hi)
		}
	}
	walk(a)
	return len(seen)
}

// Count returns the number of assignments of the variables at levels
// (sorted, and every level a depends on among them) that satisfy a,
// saturating at math.MaxInt64.
func (m *Manager) Count(a Node, levels []int) int64 {
	pos := func(n Node) int {
		if n <= True {
			return len(levels)
		}
		l := int(m.nodes[n].level)
		k, _ := slices.BinarySearch(levels, l)
		return k
	}
	memo := map[Node]float64{}
	var count func(Node) float64
	count = func(n Node) float64 {
		if n == False {
			return 0
		}
		if n == True {
			return 1
		}
		if c, ok := memo[n]; ok {
			return c
		}
		x := m.nodes[n]
		k := pos(n)
		c := math.Ldexp(count(x.lo), pos(x.lo)-k-1) + math.Ldexp(count(x.hi), pos(x.hi)-k-1)
		memo[n] = c
		return c
	}
	c := math.Ldexp(count(a), pos(a))
	if c >= math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(c)
}

// Collect keeps only the nodes of the diagrams that roots point to,
// renumbering them (and updating the roots), and empties the cache.
// Every diagram not reachable from roots is invalid afterwards.
func (m *Manager) Collect(roots ...*Node) {
	live := make([]bool, len(m.nodes))
	live[False], live[True] = true, true
	var stack []Node
	for _, r := range roots {
		if !live[*r] {
			live[*r] = true
			stack = append(stack, *r)
		}
	}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, c := range [2]Node{m.nodes[n].lo, m.nodes[n].hi} {
			if !live[c] {
				live[c] = true
				stack = append(stack, c)
			}
		}
	}
	// Children precede their parents in m.nodes, so one pass in order
	// renumbers every child before its parents.
	renum := make([]Node, len(m.nodes))
	kept := m.nodes[:0]
	for n, x := range m.nodes {
		if !live[n] {
			continue
		}
		renum[n] = Node(len(kept))
		if n > int(True) {
			x.lo, x.hi = renum[x.lo], renum[x.hi]
		}
		kept = append(kept, x)
	}
	m.nodes = kept
	for _, r := range roots {
		*r = renum[*r]
	}
	// Room for the nodes kept to grow fourfold before the next rehash,
	// and never below half the table before: a search that collects
	// often holds about as many nodes each time.
	size := max(1<<16, len(m.table)/2)
	for 8*len(m.nodes) > size {
		size *= 2
	}
	m.rehash(size)
	clear(m.cache)
}
