package pred

import (
	"context"
	"encoding/binary"
	"errors"
	"slices"

	"github.com/fencecheck/fencecheck/engines"
)

// cube is the data part of a comb-abstract configuration: a conjunction of
// predicate instances and negated instances (the Cartesian predicate
// abstraction α_pa, with both polarities), as sorted literals atom<<1|neg.
type cube []int32

func mkLit(atom tid, pos bool) int32 {
	l := int32(atom) << 1
	if !pos {
		l |= 1
	}
	return l
}

// value returns the polarity of atom in f, if f decides it.
func (f cube) value(atom tid) (pos, ok bool) {
	i, found := slices.BinarySearch(f, int32(atom)<<1)
	if found {
		return true, true
	}
	if i < len(f) && f[i] == int32(atom)<<1|1 {
		return false, true
	}
	return false, false
}

// implies reports whether f has every literal of g (so f → g).
func (f cube) implies(g cube) bool {
	i := 0
	for _, l := range g {
		for i < len(f) && f[i] < l {
			i++
		}
		if i == len(f) || f[i] != l {
			return false
		}
	}
	return true
}

// event is one step of an abstract counterexample: a process takes a
// transition (or updates its buffer) by a rule.
type event struct {
	proc, trans int
	rule        Rule
	x           int
	fault       bool
	fseq        int
	split       int
}

func (m *move) event() event {
	return event{proc: m.proc, trans: m.trans, rule: m.rule, x: m.x, fault: m.fault, fseq: m.fseq, split: m.split}
}

// matches reports whether m is a move of e; with rules, of e's rule and
// case (without, a replay tries every case of the operation).
func (e event) matches(m *move, rules bool) bool {
	if e.proc != m.proc || e.trans != m.trans || e.fault != m.fault || e.fseq != m.fseq {
		return false
	}
	if e.trans < 0 && e.x != m.x {
		return false
	}
	return !rules || e.rule == m.rule && e.split == m.split
}

// abstractTrace is a counterexample of the comb-abstract system: the events
// from the initial configuration and the bad state reached (-1 for a fault).
type abstractTrace struct {
	events []event
	bad    int
}

// errBudget ends a search whose state budget ran out.
var errBudget = errors.New("state budget exhausted")

// absState is a comb-abstract configuration.
type absState struct {
	c control
	f cube
	// w is a concrete witness: values of the data variables of c that
	// satisfy f and their domains (nil when none is known). It answers one
	// of the two questions the abstract post asks per predicate instance
	// and most enabledness questions without the solver.
	w map[dvar]int64
	// post, when set, computes w (see witnessOf): a witness is computed
	// only for the configurations the search keeps and expands.
	post *postWitness
}

// postWitness is the witness of an abstract post's result before it is
// computed: the post-image of cur, a valuation of the source, under sub,
// over the data variables of next.
type postWitness struct {
	cur  map[dvar]int64
	sub  func(dvar) (tid, bool)
	next control
}

// witnessOf returns the witness of st, computing it if need be.
func (a *abstraction) witnessOf(st *absState) map[dvar]int64 {
	if st.post != nil {
		st.w, st.post = a.postImage(st.post), nil
	}
	return st.w
}

// postImage computes the witness pw describes.
func (a *abstraction) postImage(pw *postWitness) map[dvar]int64 {
	t := a.s.t
	val := valuationFunc(pw.cur)
	nw := make(map[dvar]int64, len(pw.cur))
	for _, v := range a.s.dataVars(pw.next) {
		if b, ok := pw.sub(v); ok {
			nw[v] = t.Eval(b, val)
		} else {
			nw[v] = val(v)
		}
	}
	return nw
}

// valuationFunc returns the values of cur, with the values UPDATE-AM
// invents taken as the current memory values (which are in their domain),
// and 0 for the variables cur lacks.
func valuationFunc(cur map[dvar]int64) func(dvar) int64 {
	return func(v dvar) int64 {
		if x, ok := cur[v]; ok {
			return x
		}
		if v.Kind == dHavoc {
			return cur[dvar{Kind: dMem, I: v.I}]
		}
		return 0
	}
}

type rnode struct {
	parent int32
	ev     event
	// more are the steps of ev's process out of transient locations that
	// follow ev (see compress.go).
	more []event
	st   absState
}

// abstraction computes abstract successors and checks bad states; it is
// shared by the reachability search and the replay of a counterexample.
type abstraction struct {
	s   *system
	ps  *predSet
	m   mode
	or  *oracle
	key []byte
	// post caches, per move and next control shape, the instances and
	// their pre-images.
	pre map[string][]preimage
	// posts caches abstractPost's result cube by move, shape of the
	// control and source cube: the witness aside, the result depends on
	// nothing else (the domains of the variables come from the shape).
	posts   map[string]cube
	postKey []byte
	// qvars is query's scratch set of variable numbers, qvarList the same
	// in order, qout its result; lits the literals it draws from (index),
	// litBuf abstractPost's scratch for them.
	qvars    stamps
	qvarList []int32
	qout     []tid
	lits     litIndex
	litBuf   []tid
	rootBuf  []int32 // abstractPost's scratch for the facts' components
	// compress turns on local-step compression (compress.go); trans
	// caches, per process and location, whether it is transient (1), not
	// (-1) or not yet known (0).
	compress bool
	trans    [][]int8
}

type preimage struct{ inst, q tid }

func newAbstraction(s *system, ps *predSet, m mode, or *oracle) *abstraction {
	return &abstraction{s: s, ps: ps, m: m, or: or, pre: make(map[string][]preimage), posts: make(map[string]cube)}
}

// literals returns the literal terms of f.
func (a *abstraction) literals(f cube, out []tid) []tid {
	for _, l := range f {
		x := tid(l >> 1)
		if l&1 != 0 {
			x = a.s.t.Not(x)
		}
		out = append(out, x)
	}
	return out
}

// initState returns the abstraction of the initial configurations.
func (a *abstraction) initState() (absState, error) {
	c := a.s.initial()
	t := a.s.t
	sub := func(v dvar) (tid, bool) {
		switch v.Kind {
		case dMem:
			if in := a.s.p.Vars[v.I].Init; !in.Any {
				return t.Const(in.Value), true
			}
		case dReg:
			if in := a.s.p.Procs[v.P].Regs[v.I].Init; !in.Any {
				return t.Const(in.Value), true
			}
		}
		return 0, false
	}
	f, w, ok, err := a.abstractPost(c, nil, nil, nil, idTrue, sub, c, nil)
	if err != nil {
		return absState{}, err
	}
	if !ok {
		return absState{}, errors.New("internal error: no initial configuration")
	}
	return absState{c: c, f: f, post: w}, nil
}

// successor applies mv to st. ok is false when the move is disabled.
func (a *abstraction) successor(st absState, mv *move) (absState, bool, error) {
	next := st.c.with(mv.proc, mv.next)
	if mv.fault {
		next.fault = true
	}
	var pre []preimage
	if !mv.fault {
		pre = a.preimages(mv, next)
	}
	f, w, ok, err := a.abstractPost(st.c, st.f, a.witnessOf(&st), mv, mv.guard, mv.lookup, next, pre)
	return absState{c: next, f: f, post: w}, ok, err
}

func (a *abstraction) preimages(mv *move, next control) []preimage {
	k := binary.AppendUvarint(a.key[:0], uint64(mv.id))
	k = append(k, 0xfe)
	k = next.shapeKey(k)
	a.key = k
	if p, ok := a.pre[string(k)]; ok {
		return p
	}
	t := a.s.t
	insts := a.ps.instances(next)
	out := make([]preimage, len(insts))
	cache := a.s.preimages
	if cache == nil || len(cache) >= maxPreimages {
		cache = make(map[[2]int32]tid)
		a.s.preimages = cache
	}
	for i, x := range insts {
		key := [2]int32{mv.id, int32(x)}
		q, ok := cache[key]
		if !ok {
			q = t.Subst(x, mv.lookup)
			cache[key] = q
		}
		out[i] = preimage{x, q}
	}
	a.pre[string(k)] = out
	return out
}

// maxPreimages bounds the pre-images the system caches across refinements;
// the cache is dropped when full.
const maxPreimages = 1 << 21

// abstractPost computes α_pa of the post-image of f (over the data
// variables of c) under guard and sub, over the instances of next, with a
// witness of the result. w, if not nil, is a witness of f. pre, if not nil,
// holds the instances of next with their pre-images; otherwise they are
// computed with sub.
//
// A literal enters the result only when Z3 proves it (the other polarity
// unsatisfiable); the witness only tells which polarity needs no proof
// because a concrete valuation satisfies it, so a wrong witness could cost
// precision, never soundness.
func (a *abstraction) abstractPost(c control, f cube, w map[dvar]int64, mv *move, guard tid, sub func(dvar) (tid, bool), next control, pre []preimage) (cube, *postWitness, bool, error) {
	t := a.s.t
	lits := a.literals(f, a.litBuf[:0])
	defer func() { a.litBuf = lits[:0] }()
	// Enabledness: f ∧ guard satisfiable.
	var facts []tid
	var open []tid
	for _, g := range t.conjuncts(guard) {
		at, pos := t.atom(g)
		if v, ok := f.value(at); ok {
			if v != pos {
				return nil, nil, false, nil
			}
			continue
		}
		if g == idFalse {
			return nil, nil, false, nil
		}
		open = append(open, g)
		facts = append(facts, g)
	}
	var havoc []dvar
	if mv != nil {
		havoc = mv.havoc
	}
	// cur is a valuation of f ∧ guard: w, with the values UPDATE-AM invents
	// taken as the current memory values (which are in their domain).
	cur := w
	val := valuationFunc(cur)
	if w == nil || t.Eval(guard, val) == 0 {
		// No valuation at hand: ask Z3 for one, on the part of f that
		// shares variables with the guard when w covers the rest, else on
		// all of f with the domains of every variable.
		var conj []tid
		if w != nil {
			conj = a.query(c, a.index(lits), t.conjuncts(guard))
		} else {
			conj = append(slices.Clone(lits), t.conjuncts(guard)...)
			for _, v := range append(a.s.dataVars(c), havoc...) {
				d := a.s.domain(c, v)
				if v.Kind == dHavoc {
					d = a.s.p.Vars[v.I].Dom
				}
				if in := t.inDomain(t.Var(v), d); in != idTrue {
					conj = append(conj, in)
				}
			}
			slices.Sort(conj)
			conj = slices.Compact(conj)
		}
		vals, sat, err := a.or.satModel(conj)
		if err != nil {
			return nil, nil, false, err
		}
		if !sat {
			return nil, nil, false, nil
		}
		nw := make(map[dvar]int64, len(w)+len(vals))
		for v, x := range w {
			nw[v] = x
		}
		for v, x := range vals {
			nw[v] = x
		}
		cur = nw
		val = valuationFunc(cur)
	}
	if next.fault {
		return nil, nil, true, nil
	}
	// The witness of the result: the post-image of cur.
	nw := &postWitness{cur: cur, sub: sub, next: next}
	lits = append(lits, facts...)
	var postKey []byte
	if mv != nil {
		postKey = binary.AppendUvarint(a.postKey[:0], uint64(mv.id))
		postKey = c.shapeKey(postKey)
		for _, l := range f {
			postKey = binary.AppendUvarint(postKey, uint64(l))
		}
		a.postKey = postKey
		if out, ok := a.posts[string(postKey)]; ok {
			return out, nw, true, nil
		}
	}
	if pre == nil {
		for _, x := range a.ps.instances(next) {
			pre = append(pre, preimage{x, t.Subst(x, sub)})
		}
	}
	var out cube
	var idx *litIndex
	// An instance the move leaves unchanged, between configurations of the
	// same shape, that f leaves undecided, stays undecided unless the
	// guard's facts reach it through f's literals: f holds every instance
	// its concretisation implies (it is an abstract post itself), so it
	// implies neither polarity, and conjuncts on variables it does not
	// share with them cannot change that. Such instances need no question.
	frame := sameDataVars(c, next)
	var factRoots []int32 // the components of the guard's facts
	for _, pi := range pre {
		q := pi.q
		switch q {
		case idTrue:
			out = append(out, mkLit(pi.inst, true))
			continue
		case idFalse:
			out = append(out, mkLit(pi.inst, false))
			continue
		}
		at, pos := t.atom(q)
		if v, ok := f.value(at); ok {
			out = append(out, mkLit(pi.inst, v == pos))
			continue
		}
		if i := slices.Index(facts, q); i >= 0 {
			out = append(out, mkLit(pi.inst, true))
			continue
		}
		if i := slices.Index(facts, t.Not(q)); i >= 0 {
			out = append(out, mkLit(pi.inst, false))
			continue
		}
		// cur satisfies f ∧ guard and decides q: the polarity it gives is
		// satisfiable, so only the other is asked. f ∧ guard ∧ ¬q
		// unsatisfiable: q holds; f ∧ guard ∧ q unsatisfiable: ¬q holds.
		if idx == nil {
			idx = a.index(lits)
			factRoots = a.rootBuf[:0]
			for i := len(lits) - len(facts); i < len(lits); i++ {
				factRoots = append(factRoots, idx.root[i])
			}
			a.rootBuf = factRoots
		}
		if frame && q == pi.inst && !idx.reaches(q, t, factRoots) {
			continue
		}
		holds := t.Eval(q, val) != 0
		goal := q
		if holds {
			goal = t.Not(q)
		}
		sat, err := a.or.sat(a.query(c, idx, []tid{goal}))
		if err != nil {
			return nil, nil, false, err
		}
		if !sat {
			out = append(out, mkLit(pi.inst, holds))
		}
	}
	slices.Sort(out)
	out = slices.Clip(out)
	if mv != nil {
		if len(a.posts) >= maxPosts {
			clear(a.posts)
		}
		a.posts[string(postKey)] = out
	}
	return out, nw, true, nil
}

// maxPosts bounds the cached abstract posts; the cache is cleared when full.
const maxPosts = 1 << 20

// litIndex groups literals into the components of the relation "share a
// variable": the literals a question needs are those of the components its
// goals' variables meet (see query). An abstract post asks one question
// per undecided predicate over the same literals, so it groups them once.
type litIndex struct {
	lits []tid
	root []int32 // per literal: a representative of its component
	// owner[id] is a literal with variable id, for the ids in seen.
	owner  []uint32
	seen   stamps
	picked []bool // scratch of query, by component representative
}

// stamps is a set of small non-negative numbers that empties at once: a
// number is in it when its stamp is the current generation. It is empty
// only after a first reset.
type stamps struct {
	at  []uint32
	gen uint32
}

// reset empties the set.
func (s *stamps) reset() {
	s.gen++
	if s.gen == 0 { // wrapped: old stamps could match
		clear(s.at)
		s.gen = 1
	}
}

// add puts i in the set and reports whether it was not in it.
func (s *stamps) add(i int32) bool {
	for int(i) >= len(s.at) {
		s.at = append(s.at, 0)
	}
	if s.at[i] == s.gen {
		return false
	}
	s.at[i] = s.gen
	return true
}

// has reports whether i is in the set.
func (s *stamps) has(i int32) bool { return int(i) < len(s.at) && s.at[i] == s.gen }

// index groups lits, reusing the scratch of x.
func (a *abstraction) index(lits []tid) *litIndex {
	x := &a.lits
	t := a.s.t
	x.lits = lits
	x.seen.reset()
	x.root = slices.Grow(x.root[:0], len(lits))[:len(lits)]
	for i := range lits {
		x.root[i] = int32(i)
	}
	for i, l := range lits {
		for _, id := range t.VarIDs(l) {
			if x.seen.add(id) {
				for int(id) >= len(x.owner) {
					x.owner = append(x.owner, 0)
				}
				x.owner[id] = uint32(i)
				continue
			}
			if r, q := x.find(i), x.find(int(x.owner[id])); r != q {
				x.root[max(r, q)] = int32(min(r, q))
			}
		}
	}
	for i := range lits {
		x.root[i] = int32(x.find(i))
	}
	return x
}

// reaches reports whether a variable of q occurs in a literal of a
// component in roots.
func (x *litIndex) reaches(q tid, t *terms, roots []int32) bool {
	for _, id := range t.VarIDs(q) {
		if x.seen.has(id) && slices.Contains(roots, x.root[x.owner[id]]) {
			return true
		}
	}
	return false
}

// sameDataVars reports whether c and d have the same buffer contents and
// abstracted sets in every process, so the same data variables.
func sameDataVars(c, d control) bool {
	for i, l := range c.procs {
		m := d.procs[i]
		if l.set != m.set || !slices.Equal(l.buf, m.buf) {
			return false
		}
	}
	return true
}

func (x *litIndex) find(i int) int {
	for int(x.root[i]) != i {
		x.root[i] = x.root[x.root[i]]
		i = int(x.root[i])
	}
	return i
}

// query returns the conjunction of goals with the literals of x that share
// variables with them, directly or through other literals (the rest
// cannot affect satisfiability: f is satisfiable and shares no variable),
// and with the domains of their variables, sorted. The slice is valid until
// the next call.
func (a *abstraction) query(c control, x *litIndex, goals []tid) []tid {
	t := a.s.t
	// vars are the variables of the question, also in a.qvars.
	a.qvars.reset()
	vars := a.qvarList[:0]
	add := func(ids []int32) {
		for _, id := range ids {
			if a.qvars.add(id) {
				vars = append(vars, id)
			}
		}
	}
	out := append(a.qout[:0], goals...)
	x.picked = slices.Grow(x.picked[:0], len(x.lits))[:len(x.lits)]
	clear(x.picked)
	for _, g := range goals {
		ids := t.VarIDs(g)
		add(ids)
		for _, id := range ids {
			if x.seen.has(id) {
				x.picked[x.root[x.owner[id]]] = true
			}
		}
	}
	for i, l := range x.lits {
		if x.picked[x.root[i]] {
			out = append(out, l)
			add(t.VarIDs(l))
		}
	}
	for _, id := range vars {
		v := t.dvarOf[id]
		d := a.s.domain(c, v)
		if v.Kind == dHavoc {
			d = a.s.p.Vars[v.I].Dom
		}
		if in := t.inDomain(t.idTerm[id], d); in != idTrue {
			out = append(out, in)
		}
	}
	a.qvarList = vars[:0]
	slices.Sort(out)
	out = slices.Compact(out)
	a.qout = out[:0]
	return out
}

// isBad returns the bad state st is in (len(Bad) for a fault), or -1.
func (a *abstraction) isBad(st absState) (int, error) {
	if st.c.fault {
		return len(a.s.p.Bad), nil
	}
	t := a.s.t
	for bi, b := range a.s.p.Bad {
		match := true
		for _, pl := range b.Locs {
			if int(st.c.procs[pl.Proc].loc) != pl.Loc {
				match = false
				break
			}
		}
		if !match {
			continue
		}
		if a.s.badMem[bi] && !st.c.allEmpty() {
			continue
		}
		cond := a.s.badCond[bi]
		if cond < 0 {
			return bi, nil
		}
		sat, err := a.or.sat(a.query(st.c, a.index(a.literals(st.f, nil)), t.conjuncts(cond)))
		if err != nil {
			return -1, err
		}
		if sat {
			return bi, nil
		}
	}
	return -1, nil
}

// reachResult is the outcome of one run of Algorithm 1.
type reachResult struct {
	trace  *abstractTrace // nil when no bad state is reachable
	states int64
}

// reach runs Algorithm 1: breadth-first forward reachability over the
// comb-abstract system; Visited keeps, per control part, the disjunction of
// the data parts seen (as a list of cubes), and a new configuration is
// dropped when its cube implies one of them.
func (a *abstraction) reach(ctx context.Context, maxStates int64) (*reachResult, error) {
	meter := engines.MeterOf(ctx)
	init, err := a.initState()
	if err != nil {
		return nil, err
	}
	visited := make(map[string][]cube)
	var nodes []rnode
	var key []byte
	res := &reachResult{}
	push := func(st absState, parent int32, ev event, more []event) (bool, error) {
		key = st.c.key(key[:0])
		for _, g := range visited[string(key)] {
			if st.f.implies(g) {
				return false, nil
			}
		}
		visited[string(key)] = append(visited[string(key)], st.f)
		nodes = append(nodes, rnode{parent: parent, ev: ev, more: more, st: st})
		meter.AbstractStates(1)
		bi, err := a.isBad(st)
		if err != nil {
			return false, err
		}
		if bi >= 0 {
			res.trace = buildAbstract(nodes, int32(len(nodes)-1), bi, len(a.s.p.Bad))
			return true, nil
		}
		return false, nil
	}
	if done, err := push(init, -1, event{}, nil); err != nil || done {
		res.states = int64(len(nodes))
		return res, err
	}
	for head := 0; head < len(nodes); head++ {
		if head&63 == 0 {
			if err := ctx.Err(); err != nil {
				res.states = int64(len(nodes))
				return res, err
			}
		}
		if meter.Out() {
			res.states = int64(len(nodes))
			return res, engines.ErrWork
		}
		if maxStates > 0 && int64(len(nodes)) > maxStates {
			res.states = int64(len(nodes))
			return res, errBudget
		}
		st := nodes[head].st
		a.witnessOf(&st)
		for p := range st.c.procs {
			for _, mv := range a.s.localMoves(a.m, st.c.procs[p], p) {
				ns, ok, err := a.successor(st, &mv)
				if err != nil {
					return nil, err
				}
				if !ok {
					continue
				}
				done, err := a.settle(ns, p, nil, func(ns absState, more []event) (bool, error) {
					return push(ns, int32(head), mv.event(), more)
				})
				if err != nil {
					return nil, err
				}
				if done {
					res.states = int64(len(nodes))
					return res, nil
				}
			}
		}
		nodes[head].st = absState{c: st.c}
	}
	res.states = int64(len(nodes))
	return res, nil
}

func buildAbstract(nodes []rnode, id int32, bi, nbad int) *abstractTrace {
	var evs []event
	for ; nodes[id].parent >= 0; id = nodes[id].parent {
		for i := len(nodes[id].more) - 1; i >= 0; i-- {
			evs = append(evs, nodes[id].more[i])
		}
		evs = append(evs, nodes[id].ev)
	}
	slices.Reverse(evs)
	if bi == nbad {
		bi = -1
	}
	return &abstractTrace{events: evs, bad: bi}
}

// replay runs the abstract trace tr in the comb-abstract system with the
// current predicates, following its rules. It reports whether tr is still a
// counterexample.
func (a *abstraction) replay(tr *abstractTrace) (bool, error) {
	st, err := a.initState()
	if err != nil {
		return false, err
	}
	for _, ev := range tr.events {
		var found bool
		for _, mv := range a.s.localMoves(a.m, st.c.procs[ev.proc], ev.proc) {
			if !ev.matches(&mv, true) {
				continue
			}
			ns, ok, err := a.successor(st, &mv)
			if err != nil {
				return false, err
			}
			if !ok {
				return false, nil
			}
			st, found = ns, true
			break
		}
		if !found {
			return false, nil
		}
	}
	bi, err := a.isBad(st)
	if err != nil {
		return false, err
	}
	if tr.bad < 0 {
		return bi == len(a.s.p.Bad), nil
	}
	return bi >= 0, nil
}
