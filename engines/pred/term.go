package pred

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/fencecheck/fencecheck/model"
)

// dkind is the kind of a data variable.
type dkind uint8

const (
	// dMem is the memory value of shared variable I.
	dMem dkind = iota
	// dReg is register I of process P.
	dReg
	// dBuf is the value of slot I (0 = oldest kept) of process P's buffer.
	dBuf
	// dLW is the last value written to shared variable I in the abstracted
	// part of process P's buffer (x ∈ S(p)).
	dLW
	// dHavoc is the arbitrary value UPDATE-AM gives shared variable I.
	dHavoc
	// dSSA is version I of a variable of a path formula.
	dSSA
	// dBase is a shared variable I in a predicate template; P tells apart
	// independent copies of the same variable.
	dBase
)

// dvar is an integer variable of the abstract system (X_S ∪ X_L ∪ X_B ∪
// X_LW of the paper, plus helper variables).
type dvar struct {
	Kind dkind
	P    int32
	I    int32
}

// top is the operator of a term node.
type top uint8

const (
	tTrue top = iota
	tFalse
	tVar // an integer variable (V)
	tLin // C + Σ Coef[i]*Args[i] (integer)
	tMul // Args[0] * Args[1], both non-constant (integer)
	tDiv // Go's truncated division by the constant C (integer)
	tMod // Go's remainder by the constant C (integer)
	tIte // if Args[0] then Args[1] else Args[2] (integer)
	tEq  // Args[0] == 0, Args[0] linear (boolean)
	tLe  // Args[0] <= 0, Args[0] linear (boolean)
	tNot
	tAnd
	tOr
	tEMod   // the Euclidean remainder by the constant C > 0, in [0, C) (integer)
	tDivV   // Go's truncated division Args[0] / Args[1], a divisor known only at run time (integer)
	tModV   // Go's remainder Args[0] % Args[1], a divisor known only at run time (integer)
	tWrap64 // Args[0] reduced modulo 2^64 into int64, as Go's arithmetic wraps (integer)
)

// tid names an interned term. Terms are immutable and hash-consed: two tids
// of one table are equal exactly when the terms are syntactically equal after
// normalisation (linear forms with sorted, merged summands; atoms divided
// by the gcd of their coefficients; commutative connectives sorted).
type tid int32

// node is a term node.
type node struct {
	Op   top
	V    dvar
	C    int64
	Args []tid
	Coef []int64
}

// terms is a hash-consing table of terms.
type terms struct {
	nodes []node
	index map[string]tid
	key   []byte
	// vars caches the variables of a term, sorted, by tid (nil: not yet).
	vars [][]dvar
	// neg caches ¬x + 1 by tid (0: not yet).
	neg []tid
	// varTerm caches Var.
	varTerm map[dvar]tid
	// domTerm caches inDomain.
	domTerm map[domKey]tid
	// varIDs caches, by tid, the dense numbers of the term's variables
	// (nil: not yet); varID numbers the variables, dvarOf reads them back.
	varIDs [][]int32
	varID  map[dvar]int32
	dvarOf []dvar
	idTerm []tid // Var(dvarOf[id]), by number
}

// domKey is a term with the bounds of a domain.
type domKey struct {
	x      tid
	lo, hi int64
}

func newTerms() *terms {
	t := &terms{index: make(map[string]tid), varTerm: make(map[dvar]tid), domTerm: make(map[domKey]tid), varID: make(map[dvar]int32)}
	t.intern(node{Op: tTrue})
	t.intern(node{Op: tFalse})
	return t
}

const (
	idTrue  tid = 0
	idFalse tid = 1
)

func (t *terms) intern(n node) tid {
	k := t.key[:0]
	k = append(k, byte(n.Op))
	switch n.Op {
	case tVar:
		k = strconv.AppendInt(k, int64(n.V.Kind), 36)
		k = append(k, ',')
		k = strconv.AppendInt(k, int64(n.V.P), 36)
		k = append(k, ',')
		k = strconv.AppendInt(k, int64(n.V.I), 36)
	default:
		k = strconv.AppendInt(k, n.C, 36)
		for i, a := range n.Args {
			k = append(k, ' ')
			if n.Coef != nil {
				k = strconv.AppendInt(k, n.Coef[i], 36)
				k = append(k, '*')
			}
			k = strconv.AppendInt(k, int64(a), 36)
		}
	}
	t.key = k
	if id, ok := t.index[string(k)]; ok {
		return id
	}
	id := tid(len(t.nodes))
	t.nodes = append(t.nodes, n)
	t.index[string(k)] = id
	return id
}

func (t *terms) node(id tid) *node { return &t.nodes[id] }

// isBool reports whether id is a boolean term.
func (t *terms) isBool(id tid) bool {
	switch t.nodes[id].Op {
	case tTrue, tFalse, tEq, tLe, tNot, tAnd, tOr:
		return true
	}
	return false
}

// Var returns the integer variable v as a linear term.
func (t *terms) Var(v dvar) tid {
	if x, ok := t.varTerm[v]; ok {
		return x
	}
	a := t.intern(node{Op: tVar, V: v})
	x := t.intern(node{Op: tLin, Args: []tid{a}, Coef: []int64{1}})
	t.varTerm[v] = x
	return x
}

// Const returns the integer constant c.
func (t *terms) Const(c int64) tid { return t.intern(node{Op: tLin, C: c}) }

// lin is a linear form under construction.
type lin struct {
	c     int64
	terms map[tid]int64
}

func (t *terms) addTo(l *lin, id tid, k int64) {
	n := &t.nodes[id]
	if n.Op != tLin {
		l.terms[id] += k
		return
	}
	l.c += k * n.C
	for i, a := range n.Args {
		l.terms[a] += k * n.Coef[i]
	}
}

func (t *terms) mkLin(l *lin) tid {
	args := make([]tid, 0, len(l.terms))
	for a, k := range l.terms {
		if k != 0 {
			args = append(args, a)
		}
	}
	slices.Sort(args)
	coef := make([]int64, len(args))
	for i, a := range args {
		coef[i] = l.terms[a]
	}
	if len(args) == 0 {
		args, coef = nil, nil
	}
	return t.intern(node{Op: tLin, C: l.c, Args: args, Coef: coef})
}

// constOf returns the value of a constant linear term.
func (t *terms) constOf(id tid) (int64, bool) {
	n := &t.nodes[id]
	if n.Op == tLin && len(n.Args) == 0 {
		return n.C, true
	}
	return 0, false
}

// Add returns x + k*y.
func (t *terms) AddK(x tid, k int64, y tid) tid {
	l := &lin{terms: make(map[tid]int64)}
	t.addTo(l, x, 1)
	t.addTo(l, y, k)
	return t.mkLin(l)
}

// Scale returns k*x.
func (t *terms) Scale(k int64, x tid) tid {
	l := &lin{terms: make(map[tid]int64)}
	t.addTo(l, x, k)
	return t.mkLin(l)
}

// Mul returns x*y. A factor that is an if-then-else is split: the
// product of the other factor with each branch (a comparison used as a
// number, (a < b) * c, becomes if a < b then c else 0, linear).
func (t *terms) Mul(x, y tid) tid {
	if c, ok := t.constOf(x); ok {
		return t.Scale(c, y)
	}
	if c, ok := t.constOf(y); ok {
		return t.Scale(c, x)
	}
	for _, f := range [2][2]tid{{x, y}, {y, x}} {
		if ite, ok := t.iteLeaf(f[0]); ok {
			n := t.nodes[ite]
			return t.Ite(n.Args[0], t.Mul(n.Args[1], f[1]), t.Mul(n.Args[2], f[1]))
		}
	}
	if x > y {
		x, y = y, x
	}
	return t.intLeaf(t.intern(node{Op: tMul, Args: []tid{x, y}}))
}

// intLeaf wraps a non-linear integer node as a linear term.
func (t *terms) intLeaf(a tid) tid {
	return t.intern(node{Op: tLin, Args: []tid{a}, Coef: []int64{1}})
}

// DivMod returns Go's x/c or x%c for a non-zero constant c, or (tEMod)
// the Euclidean remainder of x by c > 0.
func (t *terms) DivMod(op top, x tid, c int64) tid {
	if v, ok := t.constOf(x); ok {
		switch op {
		case tDiv:
			return t.Const(v / c)
		case tEMod:
			return t.Const((v%c + c) % c)
		}
		return t.Const(v % c)
	}
	return t.intLeaf(t.intern(node{Op: op, C: c, Args: []tid{x}}))
}

// DivModV returns Go's x/y (tDivV) or x%y (tModV). A constant divisor
// gives DivMod's term; a divisor of zero gives 0, the value no step uses
// (the step that divides faults instead, see faultCond).
func (t *terms) DivModV(op top, x, y tid) tid {
	if c, ok := t.constOf(y); ok {
		switch {
		case c == 0:
			return t.Const(0)
		case op == tDivV:
			return t.DivMod(tDiv, x, c)
		}
		return t.DivMod(tMod, x, c)
	}
	return t.intLeaf(t.intern(node{Op: op, Args: []tid{x, y}}))
}

// iteLeaf returns the if-then-else node of x when x is one.
func (t *terms) iteLeaf(x tid) (tid, bool) {
	n := &t.nodes[x]
	if n.Op == tLin && n.C == 0 && len(n.Args) == 1 && n.Coef[0] == 1 && t.nodes[n.Args[0]].Op == tIte {
		return n.Args[0], true
	}
	return 0, false
}

// maxIteSplit bounds the if-then-else summands of a linear atom that
// splitIte splits (2^maxIteSplit cases).
const maxIteSplit = 3

// splitIte returns the atom rel(l) with the if-then-else summands of the
// linear form l split into cases: rel(r + k·ite(c, a, b)) is
// (c ∧ rel(r + k·a)) ∨ (¬c ∧ rel(r + k·b)). The atoms of the result are
// linear over the branches, so that predicates and pre-images built from
// them stay in difference logic where the branches are, instead of one
// atom that only Z3 reads and that a cube can only take or leave whole.
// ok is false when l has no such summand, or more than maxIteSplit.
func (t *terms) splitIte(l tid, rel func(tid) tid) (tid, bool) {
	n := &t.nodes[l]
	at, count := -1, 0
	for i, a := range n.Args {
		if t.nodes[a].Op == tIte {
			if at < 0 {
				at = i
			}
			count++
		}
	}
	if at < 0 || count > maxIteSplit {
		return 0, false
	}
	ite, k := n.Args[at], n.Coef[at]
	rest := t.AddK(l, -k, t.intLeaf(ite))
	c, a, b := t.nodes[ite].Args[0], t.nodes[ite].Args[1], t.nodes[ite].Args[2]
	return t.Or(t.And(c, rel(t.AddK(rest, k, a))), t.And(t.Not(c), rel(t.AddK(rest, k, b)))), true
}

// Ite returns if b then x else y (integers).
func (t *terms) Ite(b, x, y tid) tid {
	switch {
	case b == idTrue || x == y:
		return x
	case b == idFalse:
		return y
	}
	return t.intLeaf(t.intern(node{Op: tIte, Args: []tid{b, x, y}}))
}

func gcd(a, b int64) int64 {
	if a < 0 {
		a = -a
	}
	if b < 0 {
		b = -b
	}
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// ceilDiv returns ⌈a/b⌉ for b > 0.
func ceilDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a > 0 {
		q++
	}
	return q
}

// Le returns x <= y.
func (t *terms) Le(x, y tid) tid { return t.leZero(t.AddK(x, -1, y)) }

// Lt returns x < y.
func (t *terms) Lt(x, y tid) tid { return t.leZero(t.AddK(t.AddK(x, -1, y), 1, t.Const(1))) }

// Eq returns x == y.
func (t *terms) Eq(x, y tid) tid { return t.eqZero(t.AddK(x, -1, y)) }

// leZero returns l <= 0, normalised.
func (t *terms) leZero(l tid) tid {
	n := t.nodes[l]
	if len(n.Args) == 0 {
		return t.boolConst(n.C <= 0)
	}
	if x, ok := t.splitIte(l, t.leZero); ok {
		return x
	}
	g := int64(0)
	for _, k := range n.Coef {
		g = gcd(g, k)
	}
	if g > 1 {
		// Σ k·a + c ≤ 0  ⇔  Σ (k/g)·a ≤ ⌊-c/g⌋  ⇔  Σ (k/g)·a + ⌈c/g⌉ ≤ 0
		// (⌈c/g⌉ computed without negating c, which may be MinInt64)
		coef := make([]int64, len(n.Coef))
		for i, k := range n.Coef {
			coef[i] = k / g
		}
		l = t.intern(node{Op: tLin, C: ceilDiv(n.C, g), Args: n.Args, Coef: coef})
	}
	return t.intern(node{Op: tLe, Args: []tid{l}})
}

// eqZero returns l == 0, normalised.
func (t *terms) eqZero(l tid) tid {
	n := t.nodes[l]
	if len(n.Args) == 0 {
		return t.boolConst(n.C == 0)
	}
	if x, ok := t.splitIte(l, t.eqZero); ok {
		return x
	}
	g := int64(0)
	for _, k := range n.Coef {
		g = gcd(g, k)
	}
	if g < 1 {
		g = 1 // every coefficient is MinInt64, whose magnitude gcd cannot return
	}
	if n.C%g != 0 {
		return idFalse
	}
	// Divide by g, then make the first coefficient positive, unless a
	// negation would leave int64 (a quotient is MinInt64 only when g is 1).
	c := n.C / g
	negate := n.Coef[0] < 0 && c != math.MinInt64 && (g > 1 || !slices.Contains(n.Coef, math.MinInt64))
	if g != 1 || negate {
		sign := int64(1)
		if negate {
			sign = -1
		}
		coef := make([]int64, len(n.Coef))
		for i, k := range n.Coef {
			coef[i] = sign * (k / g)
		}
		l = t.intern(node{Op: tLin, C: sign * c, Args: n.Args, Coef: coef})
	}
	return t.intern(node{Op: tEq, Args: []tid{l}})
}

func (t *terms) boolConst(b bool) tid {
	if b {
		return idTrue
	}
	return idFalse
}

// Not returns ¬x.
func (t *terms) Not(x tid) tid {
	if int(x) < len(t.neg) && t.neg[x] != 0 {
		return t.neg[x] - 1
	}
	y := t.not(x)
	for len(t.neg) < len(t.nodes) {
		t.neg = append(t.neg, 0)
	}
	t.neg[x] = y + 1
	return y
}

func (t *terms) not(x tid) tid {
	n := &t.nodes[x]
	switch n.Op {
	case tTrue:
		return idFalse
	case tFalse:
		return idTrue
	case tNot:
		return n.Args[0]
	case tLe:
		// ¬(l ≤ 0) ⇔ -l + 1 ≤ 0
		return t.leZero(t.AddK(t.Const(1), -1, n.Args[0]))
	}
	return t.intern(node{Op: tNot, Args: []tid{x}})
}

// And returns the conjunction of xs.
func (t *terms) And(xs ...tid) tid { return t.junction(tAnd, xs) }

// Or returns the disjunction of xs.
func (t *terms) Or(xs ...tid) tid { return t.junction(tOr, xs) }

func (t *terms) junction(op top, xs []tid) tid {
	unit, zero := idTrue, idFalse
	if op == tOr {
		unit, zero = idFalse, idTrue
	}
	var args []tid
	for _, x := range xs {
		n := &t.nodes[x]
		switch {
		case x == unit:
			continue
		case x == zero:
			return zero
		case n.Op == op:
			args = append(args, n.Args...)
		default:
			args = append(args, x)
		}
	}
	slices.Sort(args)
	args = slices.Compact(args)
	for _, a := range args {
		if _, ok := slices.BinarySearch(args, t.Not(a)); ok {
			return zero
		}
	}
	switch len(args) {
	case 0:
		return unit
	case 1:
		return args[0]
	}
	return t.intern(node{Op: op, Args: args})
}

// Atom splits a literal into its atom and polarity.
func (t *terms) atom(x tid) (tid, bool) {
	if n := &t.nodes[x]; n.Op == tNot {
		return n.Args[0], false
	}
	return x, true
}

// Vars returns the variables of x, sorted and without repetition.
func (t *terms) Vars(x tid) []dvar {
	if int(x) < len(t.vars) && t.vars[x] != nil {
		return t.vars[x]
	}
	var vs []dvar
	n := &t.nodes[x]
	if n.Op == tVar {
		vs = []dvar{n.V}
	} else {
		for _, a := range n.Args {
			vs = append(vs, t.Vars(a)...)
		}
		slices.SortFunc(vs, cmpDvar)
		vs = slices.Compact(vs)
	}
	if vs == nil {
		vs = []dvar{}
	}
	for len(t.vars) < len(t.nodes) {
		t.vars = append(t.vars, nil)
	}
	t.vars[x] = vs
	return vs
}

// VarIDs returns the dense numbers of the variables of x (see Vars), which
// index a slice where a map keyed by dvar would cost a hash per lookup.
func (t *terms) VarIDs(x tid) []int32 {
	if int(x) < len(t.varIDs) && t.varIDs[x] != nil {
		return t.varIDs[x]
	}
	vs := t.Vars(x)
	ids := make([]int32, len(vs))
	for i, v := range vs {
		id, ok := t.varID[v]
		if !ok {
			id = int32(len(t.dvarOf))
			t.varID[v] = id
			t.dvarOf = append(t.dvarOf, v)
			t.idTerm = append(t.idTerm, t.Var(v))
		}
		ids[i] = id
	}
	for len(t.varIDs) <= int(x) {
		t.varIDs = append(t.varIDs, nil)
	}
	t.varIDs[x] = ids
	return ids
}

func cmpDvar(a, b dvar) int {
	if a.Kind != b.Kind {
		return int(a.Kind) - int(b.Kind)
	}
	if a.P != b.P {
		return int(a.P - b.P)
	}
	return int(a.I - b.I)
}

// Subst replaces the variables of x by terms, simultaneously. Variables for
// which f returns ok == false stay.
func (t *terms) Subst(x tid, f func(dvar) (tid, bool)) tid {
	return t.subst(x, &substitution{f: f, memo: make(map[tid]tid), cond: -1})
}

// Choose returns x with every if-then-else on the condition c replaced by
// its branch for c = pol.
func (t *terms) Choose(x, c tid, pol bool) tid {
	none := func(dvar) (tid, bool) { return 0, false }
	return t.subst(x, &substitution{f: none, memo: make(map[tid]tid), cond: c, pol: pol})
}

// substitution is what subst replaces: the variables f names, and the
// if-then-else terms on the condition cond (when not -1) by their branch
// for cond = pol.
type substitution struct {
	f    func(dvar) (tid, bool)
	memo map[tid]tid
	cond tid
	pol  bool
}

func (t *terms) subst(x tid, s *substitution) tid {
	f, memo := s.f, s.memo
	if r, ok := memo[x]; ok {
		return r
	}
	n := t.nodes[x]
	var r tid
	switch n.Op {
	case tTrue, tFalse:
		r = x
	case tVar:
		if y, ok := f(n.V); ok {
			r = y
		} else {
			r = t.intLeaf(x)
		}
	case tLin:
		l := &lin{c: n.C, terms: make(map[tid]int64)}
		for i, a := range n.Args {
			if t.nodes[a].Op == tVar {
				if y, ok := f(t.nodes[a].V); ok {
					t.addTo(l, y, n.Coef[i])
					continue
				}
				l.terms[a] += n.Coef[i]
				continue
			}
			t.addTo(l, t.subst(a, s), n.Coef[i])
		}
		r = t.mkLin(l)
	case tMul:
		r = t.Mul(t.subst(n.Args[0], s), t.subst(n.Args[1], s))
	case tDiv, tMod, tEMod:
		r = t.DivMod(n.Op, t.subst(n.Args[0], s), n.C)
	case tDivV, tModV:
		r = t.DivModV(n.Op, t.subst(n.Args[0], s), t.subst(n.Args[1], s))
	case tWrap64:
		r = t.Wrap64(t.subst(n.Args[0], s))
	case tIte:
		if n.Args[0] == s.cond {
			branch := n.Args[2]
			if s.pol {
				branch = n.Args[1]
			}
			r = t.subst(branch, s)
			break
		}
		r = t.Ite(t.subst(n.Args[0], s), t.subst(n.Args[1], s), t.subst(n.Args[2], s))
	case tEq:
		r = t.eqZero(t.subst(n.Args[0], s))
	case tLe:
		r = t.leZero(t.subst(n.Args[0], s))
	case tNot:
		r = t.Not(t.subst(n.Args[0], s))
	case tAnd, tOr:
		args := make([]tid, len(n.Args))
		for i, a := range n.Args {
			args[i] = t.subst(a, s)
		}
		r = t.junction(n.Op, args)
	}
	memo[x] = r
	return r
}

// Atoms appends the atoms (Eq, Le and other non-connective boolean leaves)
// of the boolean term x to out, without repetition.
func (t *terms) Atoms(x tid, out []tid) []tid {
	n := &t.nodes[x]
	switch n.Op {
	case tTrue, tFalse:
		return out
	case tNot, tAnd, tOr:
		for _, a := range n.Args {
			out = t.Atoms(a, out)
		}
		return out
	}
	if !slices.Contains(out, x) {
		out = append(out, x)
	}
	return out
}

// conjuncts returns the conjuncts of x.
func (t *terms) conjuncts(x tid) []tid {
	switch {
	case x == idTrue:
		return nil
	case t.nodes[x].Op == tAnd:
		return t.nodes[x].Args
	}
	return []tid{x}
}

// Eval evaluates x under the valuation val (booleans as 0 and 1), in
// int64 arithmetic that wraps.
func (t *terms) Eval(x tid, val func(dvar) int64) int64 {
	v, _ := t.evalChecked(x, func(y tid) int64 { return val(t.nodes[y].V) })
	return v
}

// evalChecked evaluates x as Eval does, with leaf giving the value of a
// variable node, and reports whether the value is exact: false when an
// operation overflows int64 (Z3 computes with unbounded integers).
func (t *terms) evalChecked(x tid, leaf func(tid) int64) (int64, bool) {
	n := &t.nodes[x]
	switch n.Op {
	case tTrue:
		return 1, true
	case tFalse:
		return 0, true
	case tVar:
		return leaf(x), true
	case tLin:
		s, exact := n.C, true
		for i, a := range n.Args {
			y, ok := t.evalChecked(a, leaf)
			p, okMul := mulExact(n.Coef[i], y)
			sum, okAdd := addExact(s, p)
			exact = exact && ok && okMul && okAdd
			s = sum
		}
		return s, exact
	case tMul:
		a, okA := t.evalChecked(n.Args[0], leaf)
		b, okB := t.evalChecked(n.Args[1], leaf)
		_, ok := mulExact(a, b)
		return a * b, okA && okB && ok
	case tDiv, tMod, tEMod:
		a, ok := t.evalChecked(n.Args[0], leaf)
		ok = ok && !(n.C == -1 && a == math.MinInt64)
		switch n.Op {
		case tDiv:
			return a / n.C, ok
		case tMod:
			return a % n.C, ok
		}
		_, okAdd := addExact(a%n.C, n.C)
		return (a%n.C + n.C) % n.C, ok && okAdd && n.C > 0
	case tDivV, tModV:
		a, okA := t.evalChecked(n.Args[0], leaf)
		b, okB := t.evalChecked(n.Args[1], leaf)
		if b == 0 {
			// No step divides by zero (it faults); the solver's value of
			// such a term is its own.
			return 0, false
		}
		ok := okA && okB && !(b == -1 && a == math.MinInt64)
		if n.Op == tDivV {
			return a / b, ok
		}
		return a % b, ok
	case tWrap64:
		a, ok := t.evalChecked(n.Args[0], leaf)
		return a, ok || t.ring(n.Args[0])
	case tIte:
		c, ok := t.evalChecked(n.Args[0], leaf)
		var v int64
		var okV bool
		if c != 0 {
			v, okV = t.evalChecked(n.Args[1], leaf)
		} else {
			v, okV = t.evalChecked(n.Args[2], leaf)
		}
		return v, ok && okV
	case tEq, tNot:
		a, ok := t.evalChecked(n.Args[0], leaf)
		return b2i(a == 0), ok
	case tLe:
		a, ok := t.evalChecked(n.Args[0], leaf)
		return b2i(a <= 0), ok
	case tAnd, tOr:
		exact := true
		for _, a := range n.Args {
			b, ok := t.evalChecked(a, leaf)
			exact = exact && ok
			if (b != 0) == (n.Op == tOr) {
				return b2i(n.Op == tOr), exact
			}
		}
		return b2i(n.Op == tAnd), exact
	}
	panic(fmt.Sprintf("pred: eval of term op %d", n.Op))
}

// addExact returns a + b, wrapping, and whether it fits in int64.
func addExact(a, b int64) (int64, bool) {
	s := a + b
	return s, !(a > 0 && b > 0 && s < 0 || a < 0 && b < 0 && s >= 0)
}

// mulExact returns a * b, wrapping, and whether it fits in int64.
func mulExact(a, b int64) (int64, bool) {
	p := a * b
	if a == 0 || b == 0 {
		return 0, true
	}
	return p, !(a == -1 && b == math.MinInt64 || b == -1 && a == math.MinInt64 || p/b != a)
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// String formats x for messages and tests, naming variables with name.
func (t *terms) String(x tid, name func(dvar) string) string {
	var b strings.Builder
	t.format(&b, x, name)
	return b.String()
}

func (t *terms) format(b *strings.Builder, x tid, name func(dvar) string) {
	n := &t.nodes[x]
	switch n.Op {
	case tTrue:
		b.WriteString("true")
	case tFalse:
		b.WriteString("false")
	case tVar:
		b.WriteString(name(n.V))
	case tLin:
		if len(n.Args) == 0 {
			fmt.Fprint(b, n.C)
			return
		}
		for i, a := range n.Args {
			k := n.Coef[i]
			switch {
			case i > 0 && k > 0:
				b.WriteString(" + ")
			case i > 0 && k < 0:
				b.WriteString(" - ")
				k = -k
			case k < 0:
				b.WriteString("-")
				k = -k
			}
			if k != 1 {
				fmt.Fprintf(b, "%d*", k)
			}
			t.format(b, a, name)
		}
		if n.C > 0 {
			fmt.Fprintf(b, " + %d", n.C)
		} else if n.C < 0 {
			fmt.Fprintf(b, " - %d", -n.C)
		}
	case tMul:
		b.WriteString("(")
		t.format(b, n.Args[0], name)
		b.WriteString(")*(")
		t.format(b, n.Args[1], name)
		b.WriteString(")")
	case tDiv, tMod, tEMod:
		b.WriteString("(")
		t.format(b, n.Args[0], name)
		switch n.Op {
		case tDiv:
			fmt.Fprintf(b, ")/%d", n.C)
		case tMod:
			fmt.Fprintf(b, ")%%%d", n.C)
		default:
			fmt.Fprintf(b, ") mod %d", n.C)
		}
	case tWrap64:
		b.WriteString("int64(")
		t.format(b, n.Args[0], name)
		b.WriteString(")")
	case tDivV, tModV:
		b.WriteString("(")
		t.format(b, n.Args[0], name)
		if n.Op == tDivV {
			b.WriteString(")/(")
		} else {
			b.WriteString(")%(")
		}
		t.format(b, n.Args[1], name)
		b.WriteString(")")
	case tIte:
		b.WriteString("ite(")
		t.format(b, n.Args[0], name)
		b.WriteString(", ")
		t.format(b, n.Args[1], name)
		b.WriteString(", ")
		t.format(b, n.Args[2], name)
		b.WriteString(")")
	case tEq, tLe:
		t.formatRel(b, n, name)
	case tNot:
		b.WriteString("!(")
		t.format(b, n.Args[0], name)
		b.WriteString(")")
	case tAnd, tOr:
		sep := " && "
		if n.Op == tOr {
			sep = " || "
		}
		b.WriteString("(")
		for i, a := range n.Args {
			if i > 0 {
				b.WriteString(sep)
			}
			t.format(b, a, name)
		}
		b.WriteString(")")
	}
}

// formatRel prints l == 0 or l <= 0 as positive part rel negative part.
func (t *terms) formatRel(b *strings.Builder, n *node, name func(dvar) string) {
	l := &t.nodes[n.Args[0]]
	lhs := &lin{terms: make(map[tid]int64)}
	rhs := &lin{terms: make(map[tid]int64), c: -l.C}
	for i, a := range l.Args {
		if l.Coef[i] > 0 {
			lhs.terms[a] = l.Coef[i]
		} else {
			rhs.terms[a] = -l.Coef[i]
		}
	}
	t.format(b, t.mkLin(lhs), name)
	if n.Op == tEq {
		b.WriteString(" == ")
	} else {
		b.WriteString(" <= ")
	}
	t.format(b, t.mkLin(rhs), name)
}

// fromExpr translates a model expression into an integer term. reg maps a
// register reference (proc -1 = the executing process) and mem a memory
// reference to terms.
func (t *terms) fromExpr(e model.Expr, reg func(model.RegRef) tid, mem func(int) tid) (tid, error) {
	switch e := e.(type) {
	case model.Const:
		return t.Const(e.Value), nil
	case model.RegRef:
		return reg(e), nil
	case model.VarRef:
		if mem == nil {
			return 0, fmt.Errorf("shared variable %d cannot be named here", e.Var)
		}
		return mem(e.Var), nil
	case model.Unary:
		x, err := t.fromExpr(e.X, reg, mem)
		if err != nil {
			return 0, err
		}
		switch e.Op {
		case model.OpNot:
			return t.Ite(t.Eq(x, t.Const(0)), t.Const(1), t.Const(0)), nil
		case model.OpCompl:
			return t.AddK(t.Const(-1), -1, x), nil
		}
		return t.Scale(-1, x), nil
	case model.Binary:
		switch e.Op {
		case model.OpEq, model.OpNe, model.OpLt, model.OpLe, model.OpGt, model.OpGe, model.OpAnd, model.OpOr:
			b, err := t.fromCond(e, reg, mem)
			if err != nil {
				return 0, err
			}
			return t.Ite(b, t.Const(1), t.Const(0)), nil
		}
		x, err := t.fromExpr(e.X, reg, mem)
		if err != nil {
			return 0, err
		}
		y, err := t.fromExpr(e.Y, reg, mem)
		if err != nil {
			return 0, err
		}
		switch e.Op {
		case model.OpAdd:
			return t.AddK(x, 1, y), nil
		case model.OpSub:
			return t.AddK(x, -1, y), nil
		case model.OpMul:
			return t.Mul(x, y), nil
		case model.OpDiv:
			return t.DivModV(tDivV, x, y), nil
		case model.OpMod:
			return t.DivModV(tModV, x, y), nil

		case model.OpBitAnd, model.OpBitOr, model.OpXor, model.OpAndNot, model.OpShl, model.OpShr, model.OpShrU:
			return t.bitop(e.Op, x, y)
		}
		return 0, fmt.Errorf("unknown operator %v", e.Op)
	case model.Wrap:
		x, err := t.fromExpr(e.X, reg, mem)
		if err != nil {
			return 0, err
		}
		if e.Bits == wrap64Bits && e.Signed {
			return t.Wrap64(x), nil
		}
		if e.Bits < 1 || e.Bits > model.MaxWrapBits {
			return 0, fmt.Errorf("wrap to %d bits", e.Bits)
		}
		return t.wrap(x, e.Bits, e.Signed), nil
	case nil:
		return 0, fmt.Errorf("missing expression")
	}
	return 0, fmt.Errorf("unknown expression %T", e)
}

// wrap returns x reduced to bits bits as [model.Wrap] does: the Euclidean
// remainder modulo 2^bits, shifted by 2^(bits-1) when signed.
func (t *terms) wrap(x tid, bits uint8, signed bool) tid {
	m := int64(1) << bits
	var h int64
	if signed {
		h = m / 2
		x = t.AddK(x, 1, t.Const(h))
	}
	return t.AddK(t.DivMod(tEMod, x, m), -1, t.Const(h))
}

// fromCond translates a model expression used as a condition (non-zero is
// true) into a boolean term.
func (t *terms) fromCond(e model.Expr, reg func(model.RegRef) tid, mem func(int) tid) (tid, error) {
	switch e := e.(type) {
	case model.Unary:
		if e.Op == model.OpNot {
			b, err := t.fromCond(e.X, reg, mem)
			if err != nil {
				return 0, err
			}
			return t.Not(b), nil
		}
	case model.Binary:
		switch e.Op {
		case model.OpAnd, model.OpOr:
			x, err := t.fromCond(e.X, reg, mem)
			if err != nil {
				return 0, err
			}
			y, err := t.fromCond(e.Y, reg, mem)
			if err != nil {
				return 0, err
			}
			if e.Op == model.OpAnd {
				return t.And(x, y), nil
			}
			return t.Or(x, y), nil
		case model.OpEq, model.OpNe, model.OpLt, model.OpLe, model.OpGt, model.OpGe:
			if b, ok := t.divisible(e, reg, mem); ok {
				return b, nil
			}
			x, err := t.fromExpr(e.X, reg, mem)
			if err != nil {
				return 0, err
			}
			y, err := t.fromExpr(e.Y, reg, mem)
			if err != nil {
				return 0, err
			}
			switch e.Op {
			case model.OpEq:
				return t.Eq(x, y), nil
			case model.OpNe:
				return t.Not(t.Eq(x, y)), nil
			case model.OpLt:
				return t.Lt(x, y), nil
			case model.OpLe:
				return t.Le(x, y), nil
			case model.OpGt:
				return t.Lt(y, x), nil
			default:
				return t.Le(y, x), nil
			}
		}
	}
	x, err := t.fromExpr(e, reg, mem)
	if err != nil {
		return 0, err
	}
	return t.Not(t.Eq(x, t.Const(0))), nil
}

// divisible translates x % c == 0 and x % c != 0 (c a positive constant)
// with the Euclidean remainder, which is 0 exactly when Go's is: a
// divisibility, which Z3 decides more cheaply than Go's remainder.
func (t *terms) divisible(e model.Binary, reg func(model.RegRef) tid, mem func(int) tid) (tid, bool) {
	if e.Op != model.OpEq && e.Op != model.OpNe {
		return 0, false
	}
	m, ok := e.X.(model.Binary)
	zero, isConst := e.Y.(model.Const)
	if !ok || m.Op != model.OpMod || !isConst || zero.Value != 0 {
		return 0, false
	}
	c, ok := m.Y.(model.Const)
	if !ok || c.Value <= 0 {
		return 0, false
	}
	x, err := t.fromExpr(m.X, reg, mem)
	if err != nil {
		return 0, false
	}
	b := t.Eq(t.DivMod(tEMod, x, c.Value), t.Const(0))
	if e.Op == model.OpNe {
		b = t.Not(b)
	}
	return b, true
}

// divisibility returns x when b is the atom "x mod c == 0" (a Euclidean
// remainder).
func (t *terms) divisibility(b tid) (tid, bool) {
	n := &t.nodes[b]
	if n.Op != tEq {
		return 0, false
	}
	l := &t.nodes[n.Args[0]]
	if l.Op != tLin || l.C != 0 || len(l.Args) != 1 {
		return 0, false
	}
	m := &t.nodes[l.Args[0]]
	if m.Op != tEMod {
		return 0, false
	}
	return m.Args[0], true
}

// inDomain returns lo <= x <= hi for a finite domain, true otherwise.
func (t *terms) inDomain(x tid, d model.Domain) tid {
	if d.Unbounded {
		return idTrue
	}
	k := domKey{x, d.Lo, d.Hi}
	if in, ok := t.domTerm[k]; ok {
		return in
	}
	in := t.And(t.Le(t.Const(d.Lo), x), t.Le(x, t.Const(d.Hi)))
	t.domTerm[k] = in
	return in
}

// faultCond returns the condition under which evaluating e faults, as
// model.Eval does: a division or remainder by zero, where the operands
// are evaluated first and the right operand of && and || only when the
// left one does not decide the value.
func (t *terms) faultCond(e model.Expr, reg func(model.RegRef) tid, mem func(int) tid) (tid, error) {
	switch e := e.(type) {
	case model.Unary:
		return t.faultCond(e.X, reg, mem)
	case model.Wrap:
		return t.faultCond(e.X, reg, mem)
	case model.Binary:
		fx, err := t.faultCond(e.X, reg, mem)
		if err != nil {
			return 0, err
		}
		fy, err := t.faultCond(e.Y, reg, mem)
		if err != nil || fy == idFalse && e.Op != model.OpDiv && e.Op != model.OpMod {
			return t.Or(fx, fy), err
		}
		switch e.Op {
		case model.OpAnd, model.OpOr:
			x, err := t.fromCond(e.X, reg, mem)
			if err != nil {
				return 0, err
			}
			if e.Op == model.OpOr {
				x = t.Not(x)
			}
			return t.Or(fx, t.And(x, fy)), nil
		case model.OpDiv, model.OpMod:
			y, err := t.fromExpr(e.Y, reg, mem)
			if err != nil {
				return 0, err
			}
			return t.Or(fx, fy, t.Eq(y, t.Const(0))), nil
		}
		return t.Or(fx, fy), nil
	}
	return idFalse, nil
}

// iteCond returns the condition of the outermost if-then-else in x.
func (t *terms) iteCond(x tid) (tid, bool) {
	n := &t.nodes[x]
	if n.Op == tIte {
		return n.Args[0], true
	}
	for _, a := range n.Args {
		if c, ok := t.iteCond(a); ok {
			return c, true
		}
	}
	return 0, false
}
