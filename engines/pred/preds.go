package pred

import (
	"fmt"
	"slices"
	"strings"
)

// predSet is the set of parameterized predicates (§8 of the paper). A
// predicate is a template over registers and shared variables: every
// occurrence of a shared variable x is a hole (a dBase variable; P tells
// independent holes of the same variable apart) that an instance fills with
// one of the data variables holding a value of x in the current control —
// its memory cell, a kept store to x, or a last-write variable of x. So a
// relation found once for memory applies to every buffered copy, and one found
// for a buffer slot applies to memory and to the other slots.
type predSet struct {
	s     *system
	base  []tid
	known map[tid]bool
	inst  map[string][]tid // by control shape
	key   []byte
	// renamings exchange the processes of families (family.go): every
	// template is added under each of them too.
	renamings []func(dvar) (tid, bool)
}

// newPredSet returns an empty set; with families, templates are added
// under the renamings of s's families too.
func newPredSet(s *system, families bool) *predSet {
	ps := &predSet{s: s, known: make(map[tid]bool), inst: make(map[string][]tid)}
	if families {
		ps.renamings = s.familyRenamings()
	}
	return ps
}

// len is the number of parameterized predicates.
func (ps *predSet) len() int { return len(ps.base) }

// add adds the template b (over dBase and dReg variables) unless it is
// constant or already present. It reports whether b is new.
func (ps *predSet) add(b tid) bool {
	if !ps.addOne(b) {
		return false
	}
	for _, r := range ps.renamings {
		ps.addOne(ps.s.t.Subst(b, r))
	}
	return true
}

// addOne adds b alone (see add).
func (ps *predSet) addOne(b tid) bool {
	if b == idTrue || b == idFalse || ps.known[b] {
		return false
	}
	ps.known[b] = true
	ps.base = append(ps.base, b)
	clear(ps.inst)
	if x, ok := ps.s.t.divisibility(b); ok {
		// x is a multiple of 2^bits (two values of a lazy counter are
		// equal, lazy.go): x == 0 too, which carries the order that the
		// invariants of counters are made of.
		ps.add(ps.s.t.eqZero(x))
	}
	return true
}

// template maps a predicate over the data variables of c to its template:
// every data variable holding a value of a shared variable becomes a hole
// of that variable. Among the numberings of the holes, the one whose term
// prints first is chosen, so that equal templates are equal terms.
func (ps *predSet) template(c control, x tid) tid {
	t := ps.s.t
	x, _ = t.atom(x)
	vs := t.Vars(x)
	slots := make(map[dvar]int32)
	count := make(map[int32]int32)
	var shared []int32 // distinct shared variables with holes, in order
	for _, v := range vs {
		y := ps.s.sharedOf(c, v)
		if y < 0 {
			continue
		}
		if count[int32(y)] == 0 {
			shared = append(shared, int32(y))
		}
		slots[v] = count[int32(y)]
		count[int32(y)]++
	}
	mk := func(perm map[int32][]int32) tid {
		return t.Subst(x, func(v dvar) (tid, bool) {
			s, ok := slots[v]
			if !ok {
				return 0, false
			}
			y := int32(ps.s.sharedOf(c, v))
			if p := perm[y]; p != nil {
				s = p[s]
			}
			return t.Var(dvar{Kind: dBase, P: s, I: y}), true
		})
	}
	best := mk(nil)
	// Try the renumberings of the holes of each variable (small in practice).
	perms := map[int32][]int32{}
	total := 1
	for _, y := range shared {
		for n := count[y]; n > 1; n-- {
			total *= int(n)
		}
	}
	if total > 1 && total <= 24 {
		bestStr := t.String(best, dvarName)
		var rec func(i int)
		rec = func(i int) {
			if i == len(shared) {
				cand := mk(perms)
				if s := t.String(cand, dvarName); s < bestStr {
					best, bestStr = cand, s
				}
				return
			}
			y := shared[i]
			for _, perm := range permutations(int(count[y])) {
				perms[y] = perm
				rec(i + 1)
			}
			delete(perms, y)
		}
		rec(0)
	}
	return best
}

func permutations(n int) [][]int32 {
	if n == 0 {
		return [][]int32{{}}
	}
	var out [][]int32
	for _, p := range permutations(n - 1) {
		for i := 0; i <= len(p); i++ {
			q := slices.Insert(slices.Clone(p), i, int32(n-1))
			out = append(out, q)
		}
	}
	return out
}

// instances returns the instances of every template in c, sorted and
// without constants or repetitions.
func (ps *predSet) instances(c control) []tid {
	ps.key = c.shapeKey(ps.key[:0])
	if in, ok := ps.inst[string(ps.key)]; ok {
		return in
	}
	t := ps.s.t
	seen := make(map[tid]bool)
	var out []tid
	for _, b := range ps.base {
		// The holes of b, grouped by variable.
		holes := make(map[int32][]int32)
		var shared []int32
		for _, v := range t.Vars(b) {
			if v.Kind != dBase {
				continue
			}
			if holes[v.I] == nil {
				shared = append(shared, v.I)
			}
			holes[v.I] = append(holes[v.I], v.P)
		}
		assign := make(map[dvar]dvar)
		var rec func(i int)
		rec = func(i int) {
			if i == len(shared) {
				x := t.Subst(b, func(v dvar) (tid, bool) {
					if w, ok := assign[v]; ok {
						return t.Var(w), true
					}
					return 0, false
				})
				if x != idTrue && x != idFalse && !seen[x] {
					seen[x] = true
					out = append(out, x)
				}
				return
			}
			y := shared[i]
			cps := ps.s.copies(c, int(y))
			// Fill the holes of y with distinct copies.
			var fill func(j int, used uint64)
			fill = func(j int, used uint64) {
				if j == len(holes[y]) {
					rec(i + 1)
					return
				}
				for ci, cp := range cps {
					if used&(1<<ci) != 0 {
						continue
					}
					assign[dvar{Kind: dBase, P: holes[y][j], I: y}] = cp
					fill(j+1, used|1<<ci)
				}
			}
			fill(0, 0)
		}
		rec(0)
	}
	slices.Sort(out)
	ps.inst[string(ps.key)] = out
	return out
}

// dvarName names data variables generically, for canonical forms and
// debugging.
func dvarName(v dvar) string {
	switch v.Kind {
	case dMem:
		return fmt.Sprintf("m%d", v.I)
	case dReg:
		return fmt.Sprintf("r%d_%d", v.P, v.I)
	case dBuf:
		return fmt.Sprintf("b%d_%d", v.P, v.I)
	case dLW:
		return fmt.Sprintf("lw%d_%d", v.P, v.I)
	case dHavoc:
		return fmt.Sprintf("h%d", v.I)
	case dSSA:
		return fmt.Sprintf("s%d", v.I)
	case dBase:
		return fmt.Sprintf("x%d_%d", v.I, v.P)
	}
	return "?"
}

// name returns a readable name for v in program terms.
func (s *system) name(v dvar) string {
	switch v.Kind {
	case dMem:
		return s.p.Vars[v.I].Name
	case dBase:
		if v.P == 0 {
			return s.p.Vars[v.I].Name
		}
		return fmt.Sprintf("%s'%d", s.p.Vars[v.I].Name, v.P)
	case dReg:
		q := s.p.Procs[v.P]
		return q.Name + ".$" + q.Regs[v.I].Name
	case dBuf:
		return fmt.Sprintf("%s.buf[%d]", s.p.Procs[v.P].Name, v.I)
	case dLW:
		return fmt.Sprintf("%s.lw(%s)", s.p.Procs[v.P].Name, s.p.Vars[v.I].Name)
	}
	return dvarName(v)
}

// strings returns the templates in readable form.
func (ps *predSet) strings() []string {
	out := make([]string, len(ps.base))
	for i, b := range ps.base {
		out[i] = ps.s.t.String(b, ps.s.name)
	}
	return out
}

// String lists the templates.
func (ps *predSet) String() string { return strings.Join(ps.strings(), "; ") }
