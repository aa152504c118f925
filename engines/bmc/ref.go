package bmc

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/lib/smt"
	"github.com/fencecheck/fencecheck/model"
)

// This file is the interference abstraction α = (R, W, Λ, Σ) of §5 and the
// refinement procedure REF of §6.3 (Fig. 10) with the focusing of §7:
// biased initialization (S1), layered instantiation (§7.2), RED-O guided by
// the solver's model and RED-U guided by its unsat core.

// ia is an interference abstraction over the reads of an encoding, and the
// solver that holds Φ_C ∧ Φ_PRP ∧ Π^α.
type ia struct {
	en  *encoding
	sol *smt.Solver
	// By position k in en.rd:
	inR   []bool
	u     []*smt.Expr // assumption literal of an under-approximated W(r), or nil
	inW   [][]bool    // W(r), by position in r's link set
	lam   [][]bool    // Λ, by read and position in its link set
	sig   []map[[2]int]bool
	byU   map[uint32]int // ID of an assumption literal -> read position
	queue []*smt.Expr    // instances not yet given to the solver

	// Sizes (Fig. 11): A = Σ|W(r)| over R, B = |Λ|, C = |Σ|.
	a, b, c int
	bias    Bias
	sync    []bool // variables of synchronisation
	rows    bool   // RED-O adds whole rows of Σ
	// syncReads starts a group with the reads of synchronisation
	// variables and the final reads instead of the cheap ones.
	syncReads bool
	work      int64
	calls     int
	iters     int

	maxCalls int // solver calls allowed, 0: any number
	// goal, when set, is the group of goals refinement decides: an
	// assumption of every solver call.
	goal *smt.Expr
	// turn is set while a group's solver calls run under the limit of its
	// turn: an unknown answer then pauses the group.
	turn  bool
	limit uint32 // the resource limit of each solver call now (0: none)
	// accept, when set, decides whether the trace executed from a model
	// reaches the goal (a race question's state) instead of a bad state;
	// acq marks the reads of acquisitions, whose links say what
	// happens before what.
	accept func(*smt.Model, *model.Trace) (bool, error)
	acq    []bool
}

func newIA(en *encoding, sol *smt.Solver) *ia {
	n := len(en.rd)
	s := &ia{en: en, sol: sol, inR: make([]bool, n), u: make([]*smt.Expr, n), inW: make([][]bool, n),
		lam: make([][]bool, n), sig: make([]map[[2]int]bool, n), byU: map[uint32]int{}}
	for k, ri := range en.rd {
		c := len(en.acc[ri].cand)
		s.inW[k] = make([]bool, c)
		s.lam[k] = make([]bool, c)
		s.sig[k] = map[[2]int]bool{}
	}
	return s
}

func (s *ia) add(f *smt.Expr) {
	s.work++
	if f != s.en.tt {
		s.queue = append(s.queue, f)
	}
}

func (s *ia) flush() error {
	if len(s.queue) == 0 {
		return nil
	}
	err := s.sol.Assert(s.queue...)
	s.queue = s.queue[:0]
	return err
}

// addRead puts read k into R with link set w (nil: its default link set)
// and instantiates Π1 and Π2 for it (Λ ⊇ λ({r}, W)).
func (s *ia) addRead(k int, w []bool) {
	en := s.en
	r := en.acc[en.rd[k]]
	s.inR[k] = true
	s.add(en.pi1(r))
	full := true
	for j := range r.cand {
		s.inW[k][j] = w == nil || w[j]
		if s.inW[k][j] {
			s.a++
		} else {
			full = false
		}
	}
	if !full {
		u := en.z.Bool(fmt.Sprintf("u%d", k))
		s.u[k] = u
		s.byU[u.ID()] = k
		s.add(en.implies(u, en.restrict(r, s.inW[k])))
	}
	for j := range r.cand {
		if s.inW[k][j] {
			s.addLam(k, j)
		}
	}
}

// addLam adds (r, cand[j]) to Λ.
func (s *ia) addLam(k, j int) {
	if s.lam[k][j] {
		return
	}
	s.lam[k][j] = true
	s.b++
	s.add(s.en.pi2(s.en.acc[s.en.rd[k]], j))
}

// addSig adds (r, cand[j], w') to Σ.
func (s *ia) addSig(k, j, w2 int) {
	key := [2]int{j, w2}
	if s.sig[k][key] {
		return
	}
	s.sig[k][key] = true
	s.c++
	en := s.en
	s.add(en.pi3(en.acc[en.rd[k]], j, en.acc[w2]))
}

// expand removes the under-approximation of W(r) (RED-U): W(r) := cW(r),
// and Λ gets the new pairs.
func (s *ia) expand(k int) {
	s.u[k] = nil
	for j := range s.inW[k] {
		if !s.inW[k][j] {
			s.inW[k][j] = true
			s.a++
			s.addLam(k, j)
		}
	}
}

// full instantiates every axiom: the top of the lattice, Π̂ (§4.1), with
// the redundant instances of §4.2 pruned.
func (s *ia) full(ctx context.Context) {
	en := s.en
	for k := range en.rd {
		if ctx.Err() != nil {
			return // ref reports the deadline
		}
		s.full1(k)
	}
}

// cheapRow bounds the instances of a read that refinement instantiates at
// once: |cW(r)| · |interferers| (§7.1 S3, eager instantiation of a cheap
// partition of the axioms).
const cheapRow = 4

// cheap reports whether read r has so few candidate writes and
// interferers that refining its axioms lazily would cost more solver calls
// than it saves instances: a flag or a datum written once.
func cheap(r *access) bool { return len(r.cand)*len(r.interf) <= cheapRow }

// full1 puts read k into R with its default link set and every instance
// of Π2 and Π3 for it.
func (s *ia) full1(k int) {
	en := s.en
	s.addRead(k, nil)
	r := en.acc[en.rd[k]]
	for j, wi := range r.cand {
		for _, w2 := range r.interf {
			if en.pi3Shape(r, en.acc[wi], en.acc[w2]) != skip {
				s.addSig(k, j, w2)
			}
		}
	}
}

// fullSize returns the sizes of the full instantiation: Σ|cW(r)|, |Λ| and
// |Σ| after pruning.
func (en *encoding) fullSize() (a, b, c int) {
	for _, ri := range en.rd {
		r := en.acc[ri]
		a += len(r.cand)
		b += len(r.cand)
		for _, wi := range r.cand {
			for _, w2 := range r.interf {
				if en.pi3Shape(r, en.acc[wi], en.acc[w2]) != skip {
					c++
				}
			}
		}
	}
	return a, b, c
}

// biased returns the initial link set of read k (§7.1 S1): the writes of
// its own process and the initial write, and with bias syncAll every write
// of a synchronisation variable.
func (s *ia) biased(k int) []bool {
	bias, sync := s.bias, s.sync
	en := s.en
	r := en.acc[en.rd[k]]
	w := make([]bool, len(r.cand))
	for j, wi := range r.cand {
		a := en.acc[wi]
		switch {
		case bias == BiasNone:
			w[j] = true
		case a.init || (a.proc >= 0 && a.proc == r.proc):
			w[j] = true
		case bias == BiasSync && sync[r.x]:
			w[j] = true
		}
	}
	return w
}

// outcome of one refinement.
type outcome uint8

const (
	found  outcome = iota // a Π-consistent interference relation: a witness
	proof                 // a valid proof: no witness within the bound
	budget                // a budget ran out
	paused                // the solver call's limit of a group's turn ran out
)

// ref runs REF from the current IA until a valid proof or a model whose
// interleaving executes to a bad state, or until ctx ends or the work
// exceeds maxWork. On found, it returns the executed trace.
func (s *ia) ref(ctx context.Context, maxWork int64) (outcome, *model.Trace, string, error) {
	en := s.en
	for {
		s.iters++
		if err := ctx.Err(); err != nil {
			return budget, nil, "time budget exhausted", nil
		}
		if s.maxCalls > 0 && s.calls >= s.maxCalls {
			return budget, nil, fmt.Sprintf("work budget of %d solver calls exhausted", s.maxCalls), nil
		}
		if m := engines.MeterOf(ctx); m.Out() {
			return budget, nil, m.Reason(), nil
		}
		if s.work > maxWork {
			return budget, nil, fmt.Sprintf("work budget of %d solver calls and axiom instances exhausted", maxWork), nil
		}
		if err := s.flush(); err != nil {
			return 0, nil, "", err
		}
		var assume []*smt.Expr
		if s.goal != nil {
			assume = append(assume, s.goal)
		}
		for _, u := range s.u {
			if u != nil {
				assume = append(assume, u)
			}
		}
		s.calls++
		s.work++
		engines.MeterOf(ctx).SolverCalls(1)
		res, err := s.sol.CheckAssumptions(assume...)
		if err != nil {
			return 0, nil, "", err
		}
		switch res {
		case smt.Unknown:
			if ctx.Err() != nil {
				return budget, nil, "time budget exhausted", nil
			}
			if s.turn {
				return paused, nil, "", nil
			}
			why, _ := s.sol.ReasonUnknown()
			return budget, nil, "the solver answered unknown (" + why + ")", nil
		case smt.Unsat:
			core, err := s.sol.UnsatCore()
			if err != nil {
				return 0, nil, "", err
			}
			var invalid []int
			for _, c := range core {
				if k, ok := s.byU[c.ID()]; ok && s.u[k] != nil {
					invalid = append(invalid, k)
				}
			}
			if len(invalid) == 0 {
				return proof, nil, "", nil // a valid proof (Lemma 4)
			}
			for _, k := range invalid {
				s.expand(k) // RED-U
			}
			continue
		}
		mdl, err := s.sol.Model()
		if err != nil {
			return 0, nil, "", err
		}
		v, err := en.values(mdl)
		var wide *wideReads
		if errors.As(err, &wide) {
			// A read no write links took a value beyond int64, which
			// no write of the program stores: bound those reads and
			// ask again.
			for _, i := range wide.acc {
				a := en.acc[i]
				s.add(en.and(en.z.Ge(a.val, en.num(math.MinInt64)), en.z.Le(a.val, en.num(math.MaxInt64))))
			}
			continue
		}
		if err != nil {
			return 0, nil, "", err
		}
		items, err := en.schedule(mdl)
		if err != nil {
			return 0, nil, "", err
		}
		t, bad, liars, err := en.execute(mdl, items, v)
		if err != nil {
			return 0, nil, "", err
		}
		if s.accept != nil {
			// A race question: the goal is the question's state, which
			// the execution may reach before it blocks.
			ok, err := s.accept(mdl, t)
			if err != nil {
				return 0, nil, "", err
			}
			if ok {
				return found, t, "", nil
			}
			if len(liars) == 0 {
				if !s.redHB(v) {
					return 0, nil, "", fmt.Errorf("internal error: the execution of a model reaches a race question's state with the accesses ordered, and no acquisition's link explains why\n%s", en.p.FormatTrace(t, nil))
				}
				continue
			}
		} else if bad {
			return found, t, "", nil
		}
		if !s.redO(v, liars) {
			return 0, nil, "", fmt.Errorf("internal error: the interleaving of a model does not execute to a bad state, and no axiom instance it violates explains why\n%s", en.p.FormatTrace(t, nil))
		}
	}
}

// redO refines the IA for a model whose interleaving does not execute to a
// bad state (RED-O). liars are the reads whose value in the model differs
// from the value the execution reads, in execution order: the execution
// blocked or missed the bad state because of them. They are refined layer
// by layer (§7.2): the violated Π2 instances of their links, else the
// violated Π3 instances (the lock variables' last, since the lock lemmas
// already say what their interference means for mutual exclusion), else
// the reads outside R join it. It reports whether it refined anything.
func (s *ia) redO(v *values, liars []int) bool {
	en := s.en
	pos := make(map[int]int, len(en.rd)) // access -> position in en.rd
	for k, ri := range en.rd {
		pos[ri] = k
	}
	refined := false
	for _, ri := range liars {
		k := pos[ri]
		if j := v.sel[ri]; s.inR[k] && j >= 0 && !s.lam[k][j] && !en.holds2(v, ri, j) {
			s.addLam(k, j)
			refined = true
		}
	}
	if refined {
		return true
	}
	for _, locks := range []bool{false, true} {
		for _, ri := range liars {
			k := pos[ri]
			r := en.acc[ri]
			j := v.sel[ri]
			if !s.inR[k] || j < 0 || en.isLock[r.x] != locks {
				continue
			}
			violated := false
			for _, w2 := range r.interf {
				if !s.sig[k][[2]int{j, w2}] && !en.holds3(v, ri, j, w2) {
					violated = true
					if !s.rows {
						s.addSig(k, j, w2)
					}
				}
			}
			if violated && s.rows {
				// The whole row σ({r}, {w}, cW(r)): what the link needs
				// to be witness-preserving (Definition 8).
				for _, w2 := range r.interf {
					if en.pi3Shape(r, en.acc[r.cand[j]], en.acc[w2]) != skip {
						s.addSig(k, j, w2)
					}
				}
			}
			refined = refined || violated
		}
		if refined {
			return true
		}
	}
	for _, ri := range liars {
		if k := pos[ri]; !s.inR[k] {
			s.addRead(k, s.biased(k))
			refined = true
		}
	}
	return refined
}

// values reads the accesses' terms in a model: whether each is enabled,
// and for the enabled ones their values, times and links.
func (en *encoding) values(m *smt.Model) (*values, error) {
	wide := &wideReads{}
	v, err := en.valuesOf(m, wide)
	if err == nil && wide.any {
		if len(wide.acc) == 0 {
			return nil, fmt.Errorf("internal error: a model's write values lie beyond int64, and no read's does")
		}
		return nil, wide
	}
	return v, err
}

// wideReads is the error of a model in which reads (their accesses' indices)
// took values beyond int64: reads that no write links, since every value
// the program computes is an int64.
type wideReads struct {
	acc []int
	any bool // some value, of a read or a write, was beyond int64
}

func (w *wideReads) Error() string {
	return fmt.Sprintf("%d reads took values beyond int64", len(w.acc))
}

func (en *encoding) valuesOf(m *smt.Model, wide *wideReads) (*values, error) {
	n := len(en.acc)
	v := &values{en: make([]bool, n), val: make([]int64, n), at: make([]int64, n), mem: make([]int64, n), sel: make([]int, n)}
	for i, a := range en.acc {
		b, err := m.Bool(a.en)
		if err != nil {
			return nil, err
		}
		v.en[i] = b
		if !b {
			continue
		}
		if v.val[i], err = m.Int(a.val); err != nil {
			if errors.Is(err, smt.ErrNotInt64) {
				// A write's value is beyond int64 only when a read's
				// is: the reads are what gets bounded.
				wide.any = true
				if !a.write {
					wide.acc = append(wide.acc, i)
				}
				continue
			}
			return nil, err
		}
		if a.at != nil {
			if v.at[i], err = m.Int(a.at); err != nil {
				return nil, err
			}
		}
		if a.mem != nil {
			if v.mem[i], err = m.Int(a.mem); err != nil {
				return nil, err
			}
		}
		if !a.write {
			v.sel[i] = -1 // a read outside R links nothing
			s, err := m.Int(a.sel)
			if err != nil {
				return nil, err
			}
			if s >= 0 && int(s) < len(a.cand) {
				v.sel[i] = int(s)
			}
		}
	}
	return v, nil
}
