package pred

import "slices"

// This file decides the oracle's questions that are in integer difference
// logic without Z3: conjunctions of bounds x ≤ c, x ≥ c and differences
// x - y ≤ c (equalities are two of them), with a few disequalities and
// small disjunctions split into cases. Such a conjunction has an integer
// solution exactly when its constraint graph has no negative cycle
// (Bellman-Ford), which takes microseconds where a Z3 call takes half a
// millisecond. The predicates of counters, tickets and flags are mostly of
// this kind; anything else (sums, scaled variables, non-linear leaves, or
// too many cases) goes to Z3.

// maxDiffSolves bounds the graph checks of one question: a disequality or
// disjunction that the current solution violates splits the search into
// its alternatives, and the question goes to Z3 when the splits would need
// more checks.
const maxDiffSolves = 64

// dlEdge is the constraint v[to] - v[from] ≤ w; node 0 is the constant 0.
type dlEdge struct {
	from, to int32
	w        int64
}

// dlProblem is a conjunction in difference logic under construction.
type dlProblem struct {
	t     *terms
	nodes map[tid]int32 // variable term -> node
	edges []dlEdge
	// cases lists the disjunctions: each alternative is a set of edges.
	cases [][][]dlEdge
	// unsat is set when a conjunct is false.
	unsat bool
}

// diffSat decides the conjunction of conj when it lies in difference
// logic: decided is false when some conjunct does not, or when the case
// splits or the arithmetic would go too far.
func (t *terms) diffSat(conj []tid) (sat, decided bool) {
	p := &dlProblem{t: t, nodes: make(map[tid]int32, 8)}
	for _, x := range conj {
		if !p.conjunct(x, false) {
			return false, false
		}
		if p.unsat {
			return false, true
		}
	}
	budget := maxDiffSolves
	return p.search(p.edges, &budget)
}

// conjunct adds x (negated: ¬x) to the conjunction; false when x is not in
// difference logic.
func (p *dlProblem) conjunct(x tid, negated bool) bool {
	n := p.t.node(x)
	switch n.Op {
	case tTrue, tFalse:
		if (n.Op == tFalse) != negated {
			p.unsat = true
		}
		return true
	case tNot:
		return p.conjunct(n.Args[0], !negated)
	case tAnd, tOr:
		if (n.Op == tAnd) != negated {
			for _, a := range n.Args {
				if !p.conjunct(a, negated) {
					return false
				}
			}
			return true
		}
		// A disjunction: one alternative per argument, each a plain
		// conjunction of edges.
		var alts [][]dlEdge
		for _, a := range n.Args {
			q := &dlProblem{t: p.t, nodes: p.nodes}
			if !q.conjunct(a, negated) || len(q.cases) > 0 {
				return false
			}
			if !q.unsat {
				alts = append(alts, q.edges)
			}
		}
		return p.addCase(alts)
	case tLe:
		if negated {
			// ¬(l ≤ 0) ⇔ -l + 1 ≤ 0
			return p.le(n.Args[0], -1, 1)
		}
		return p.le(n.Args[0], 1, 0)
	case tEq:
		if !negated {
			return p.le(n.Args[0], 1, 0) && p.le(n.Args[0], -1, 0)
		}
		// l ≠ 0 ⇔ l + 1 ≤ 0 ∨ -l + 1 ≤ 0
		var alts [][]dlEdge
		for _, s := range []int64{1, -1} {
			q := &dlProblem{t: p.t, nodes: p.nodes}
			if !q.le(n.Args[0], s, 1) {
				return false
			}
			if !q.unsat {
				alts = append(alts, q.edges)
			}
		}
		return p.addCase(alts)
	}
	return false
}

// addCase adds a disjunction of alternatives; none left is a conflict, and
// one is a plain conjunction.
func (p *dlProblem) addCase(alts [][]dlEdge) bool {
	switch len(alts) {
	case 0:
		p.unsat = true
	case 1:
		p.edges = append(p.edges, alts[0]...)
	default:
		p.cases = append(p.cases, alts)
	}
	return true
}

// le adds s·l + extra ≤ 0 for the linear term l; false when it is not a
// bound or a difference of two variables.
func (p *dlProblem) le(l tid, s, extra int64) bool {
	n := p.t.node(l)
	if n.Op != tLin || len(n.Args) == 0 || len(n.Args) > 2 {
		return false
	}
	// Σ s·k_i·x_i ≤ -(s·C + extra)
	c, ok := mulExact(s, n.C)
	if !ok {
		return false
	}
	if c, ok = addExact(c, extra); !ok {
		return false
	}
	w, ok := mulExact(-1, c)
	if !ok {
		return false
	}
	var pos, neg int32 = 0, 0 // v[pos] - v[neg] ≤ w
	for i, a := range n.Args {
		if p.t.node(a).Op != tVar {
			return false
		}
		v := p.node(a)
		switch s * n.Coef[i] {
		case 1:
			if pos != 0 {
				return false
			}
			pos = v
		case -1:
			if neg != 0 {
				return false
			}
			neg = v
		default:
			return false
		}
	}
	if len(n.Args) == 2 && (pos == 0 || neg == 0) {
		return false // x + y or -x - y
	}
	p.edges = append(p.edges, dlEdge{from: neg, to: pos, w: w})
	return true
}

// node returns the graph node of variable term a.
func (p *dlProblem) node(a tid) int32 {
	if v, ok := p.nodes[a]; ok {
		return v
	}
	v := int32(len(p.nodes) + 1)
	p.nodes[a] = v
	return v
}

// search decides edges together with p.cases, splitting lazily: it solves
// edges, and only a disjunction whose every alternative the solution
// violates is split into its alternatives. budget counts down the graph
// checks.
func (p *dlProblem) search(edges []dlEdge, budget *int) (sat, decided bool) {
	if *budget == 0 {
		return false, false
	}
	*budget--
	d, sat, decided := feasible(len(p.nodes)+1, edges)
	if !sat || !decided {
		return sat, decided
	}
	for _, alts := range p.cases {
		if slices.ContainsFunc(alts, func(alt []dlEdge) bool { return holds(d, alt) }) {
			continue
		}
		for _, alt := range alts {
			sat, decided := p.search(append(edges[:len(edges):len(edges)], alt...), budget)
			if !decided || sat {
				return sat, decided
			}
		}
		return false, true
	}
	return true, true
}

// holds reports whether the values d satisfy every edge.
func holds(d []int64, edges []dlEdge) bool {
	for _, e := range edges {
		if s, ok := addExact(d[e.from], e.w); !ok || d[e.to] > s {
			return false
		}
	}
	return true
}

// feasible reports whether the difference constraints edges over n nodes
// have an integer solution, and returns one, d (the values d[v] - d[0]
// satisfy the constraints with node 0 the constant 0): Bellman-Ford from
// a virtual source joined to every node by a 0 edge finds no negative
// cycle. decided is false when a sum would leave int64.
func feasible(n int, edges []dlEdge) (d []int64, sat, decided bool) {
	d = make([]int64, n)
	for pass := 0; pass <= n; pass++ {
		changed := false
		for _, e := range edges {
			s, ok := addExact(d[e.from], e.w)
			if !ok {
				return nil, false, false
			}
			if s < d[e.to] {
				d[e.to] = s
				changed = true
			}
		}
		if !changed {
			return d, true, true
		}
	}
	return nil, false, true
}
