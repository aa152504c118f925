package race_test

import (
	"encoding/binary"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/fencecheck/fencecheck/engines/question/race"
	"github.com/fencecheck/fencecheck/model"
)

// opAccess is the shared-memory footprint of one operation, as docs/design.md §2
// defines the accesses that take part in races: the variables it reads and
// writes (bit sets), and whether it is plain. A Read is plain unless it is
// Atomic, a Write is plain, and every access of a Locked operation is atomic;
// a Locked body reads memory through its Read operations and through the
// variables its expressions name.
type opAccess struct {
	reads, writes uint64
	plain         bool
}

// footprint returns the accesses of op.
func footprint(op model.Op) opAccess {
	var a opAccess
	switch op.Kind {
	case model.Read:
		a.reads = 1 << op.Var
	case model.Write:
		a.writes = 1 << op.Var
	case model.Locked:
		for _, b := range op.Body {
			switch b.Kind {
			case model.Read:
				a.reads |= 1 << b.Var
			case model.Write:
				a.writes |= 1 << b.Var
			}
			model.WalkExpr(b.Expr, func(e model.Expr) {
				if v, ok := e.(model.VarRef); ok {
					a.reads |= 1 << v.Var
				}
			})
		}
	}
	a.plain = op.IsPlain()
	return a
}

// conflicts returns the variables on which accesses a and b conflict: both
// access it, at least one writes it, and at least one of them is plain.
func conflicts(a, b opAccess) uint64 {
	if !a.plain && !b.plain {
		return 0
	}
	return (a.writes & (b.reads | b.writes)) | (b.writes & a.reads)
}

// oracleResult is what an oracle finds in the reachable SC states of a
// program.
type oracleResult struct {
	// races holds the racing pairs found in the reachable states that do
	// not fault.
	races map[race.Pair]bool
	// fault is set when a faulting state is reachable; its successors are
	// not explored.
	fault bool
	// states counts the reachable states, faulting ones included.
	states int
}

// racyVars returns the sorted names of the variables of the races in set.
func racyVars(p *model.Program, set map[race.Pair]bool) []string {
	var names []string
	for pr := range set {
		names = append(names, p.Vars[pr.Var].Name)
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// locOracle enumerates every reachable SC state of the finite program p
// breadth first with [model.Program.Successors], and records at each state
// that does not fault every pair of transitions of two different processes,
// both leaving the processes' current locations, whose accesses conflict
// (A of the lower process). This is the race of docs/design.md §2, two conflicting
// accesses enabled in one reachable SC state; by Boehm and Adve's theorem a
// program has such a race when it has a happens-before race ([hbOracle]).
// It knows nothing of package race but the type of a pair.
func locOracle(p *model.Program) (*oracleResult, error) {
	if len(p.Vars) > 64 {
		return nil, fmt.Errorf("the oracle takes at most 64 variables, not %d", len(p.Vars))
	}
	p.Index()
	foot := make([][]opAccess, len(p.Procs))
	for i, q := range p.Procs {
		for _, t := range q.Trans {
			foot[i] = append(foot[i], footprint(t.Op))
		}
	}
	res := &oracleResult{races: map[race.Pair]bool{}}
	seen := map[string]bool{}
	var queue []model.State
	var key []byte
	add := func(s model.State) {
		key = s.AppendKey(key[:0])
		if seen[string(key)] {
			return
		}
		seen[string(key)] = true
		queue = append(queue, s)
	}
	if err := p.Initial(add); err != nil {
		return nil, err
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		res.states++
		if s.Fault != nil {
			res.fault = true
			continue
		}
		for i := range p.Procs {
			for j := i + 1; j < len(p.Procs); j++ {
				for _, ti := range p.Procs[i].Out(s.Locs[i]) {
					for _, tj := range p.Procs[j].Out(s.Locs[j]) {
						c := conflicts(foot[i][ti], foot[j][tj])
						for v := range len(p.Vars) {
							if c&(1<<v) != 0 {
								res.races[race.Pair{A: race.Access{Proc: i, Trans: ti}, B: race.Access{Proc: j, Trans: tj}, Var: v}] = true
							}
						}
					}
				}
			}
		}
		p.Successors(s, model.SC, 0, func(_ model.Step, ns model.State) { add(ns) })
	}
	return res, nil
}

// hbOracle enumerates every reachable SC state of the finite program p
// breadth first with [model.Program.Successors], together with what
// happens-before knows at that state, and records every pair A, B of
// conflicting accesses such that A's process is at A's source location
// while an execution of B by another process has run that does not happen
// before that point (Race.Pair: A about to run, B run). Faulting states
// are not explored further and record nothing. It knows nothing of package
// race but the type of a pair.
//
// Happens-before is program order plus synchronisation: an atomic load of a
// variable, and a locked operation that observes it (reads it into a
// register, requires a value of it, or names it in an expression), is
// synchronised after the locked operation that last wrote it, if the last
// write was a locked one. Executions of one transition are ordered by
// program order, so "some execution of B does not happen before" is "the
// last one does not", and the knowledge fits in bits: unordered[q] holds the
// accesses of other processes whose last execution does not happen before
// process q's current point, and carried[x] those whose last execution
// does not happen before the last write of x (all of them after a plain
// write). An access makes itself unordered for every other process and for
// every variable's last write; a synchronising access of q to x removes
// from unordered[q] what carried[x] does not hold; a locked write of x by q
// sets carried[x] to unordered[q].
func hbOracle(p *model.Program) (*oracleResult, error) {
	p.Index()
	// Number the accesses that conflict with an access of another process:
	// the others never race, and what is known of them does not matter.
	type acc struct {
		proc, trans int
		foot        opAccess
	}
	var cands []acc
	for i, q := range p.Procs {
		for ti, t := range q.Trans {
			if f := footprint(t.Op); f.reads|f.writes != 0 {
				cands = append(cands, acc{i, ti, f})
			}
		}
	}
	var accs []acc
	id := make([][]int, len(p.Procs))
	for i, q := range p.Procs {
		id[i] = slices.Repeat([]int{-1}, len(q.Trans))
	}
	for _, a := range cands {
		for _, b := range cands {
			if a.proc != b.proc && conflicts(a.foot, b.foot) != 0 {
				id[a.proc][a.trans] = len(accs)
				accs = append(accs, a)
				break
			}
		}
	}
	words := (len(accs) + 63) / 64
	type bits []uint64
	all := make(bits, words)
	for k := range accs {
		all[k/64] |= 1 << (k % 64)
	}
	// An hb state: unordered bits per process, then carried bits per
	// variable, in one slice.
	type node struct {
		s  model.State
		hb bits
	}
	un := func(h bits, q int) bits { return h[q*words : (q+1)*words] }
	ca := func(h bits, x int) bits { return h[(len(p.Procs)+x)*words : (len(p.Procs)+x+1)*words] }
	if len(p.Vars) > 64 {
		return nil, fmt.Errorf("the oracle takes at most 64 variables, not %d", len(p.Vars))
	}
	res := &oracleResult{races: map[race.Pair]bool{}}
	seen := map[string]bool{}
	var queue []node
	var key []byte
	add := func(n node) {
		key = n.s.AppendKey(key[:0])
		for _, w := range n.hb {
			key = binary.AppendUvarint(key, w)
		}
		if seen[string(key)] {
			return
		}
		seen[string(key)] = true
		queue = append(queue, n)
	}
	err := p.Initial(func(s model.State) {
		add(node{s, make(bits, (len(p.Procs)+len(p.Vars))*words)})
	})
	if err != nil {
		return nil, err
	}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		res.states++
		if n.s.Fault != nil {
			res.fault = true
			continue
		}
		for qi, q := range p.Procs {
			u := un(n.hb, qi)
			for _, ti := range q.Out(n.s.Locs[qi]) {
				a := id[qi][ti]
				if a < 0 {
					continue
				}
				for b, other := range accs {
					if u[b/64]&(1<<(b%64)) == 0 {
						continue
					}
					c := conflicts(accs[a].foot, other.foot)
					for v := range len(p.Vars) {
						if c&(1<<v) != 0 {
							res.races[race.Pair{A: race.Access{Proc: qi, Trans: ti}, B: race.Access{Proc: other.proc, Trans: other.trans}, Var: v}] = true
						}
					}
				}
			}
		}
		p.Successors(n.s, model.SC, 0, func(st model.Step, ns model.State) {
			h := slices.Clone(n.hb)
			op := p.Procs[st.Proc].Trans[st.Trans].Op
			// Acquire.
			for _, x := range synchronises(op) {
				u, c := un(h, st.Proc), ca(h, x)
				for w := range u {
					u[w] &= c[w]
				}
			}
			// The access: unordered for the others and for every last write.
			if a := id[st.Proc][st.Trans]; a >= 0 {
				for r := range p.Procs {
					if r != st.Proc {
						un(h, r)[a/64] |= 1 << (a % 64)
					}
				}
				for x := range p.Vars {
					ca(h, x)[a/64] |= 1 << (a % 64)
				}
			}
			// Release, or a plain write that carries nothing.
			f := footprint(op)
			for x := range p.Vars {
				if f.writes&(1<<x) == 0 {
					continue
				}
				if f.plain {
					copy(ca(h, x), all)
				} else {
					copy(ca(h, x), un(h, st.Proc))
				}
			}
			add(node{ns, h})
		})
	}
	return res, nil
}

// synchronises returns the variables that op synchronises on: the variable
// of an atomic load; the variables a locked operation observes (reads into a
// register, requires a value of, or names in an expression).
func synchronises(op model.Op) []int {
	var xs []int
	switch op.Kind {
	case model.Read:
		if op.Atomic {
			xs = append(xs, op.Var)
		}
	case model.Locked:
		for _, b := range op.Body {
			if b.Kind == model.Read && (b.Reg >= 0 || b.Expr != nil) {
				xs = append(xs, b.Var)
			}
			model.WalkExpr(b.Expr, func(e model.Expr) {
				if v, ok := e.(model.VarRef); ok {
					xs = append(xs, v.Var)
				}
			})
		}
	}
	return xs
}

// oracles runs both oracles on p and returns their union: the races of
// [race.Check], which reports every pair of accesses both enabled in one
// state ([locOracle]) and every pair no happens-before edge orders
// ([hbOracle]).
func oracles(p *model.Program) (union, loc, hb *oracleResult, err error) {
	if loc, err = locOracle(p); err != nil {
		return nil, nil, nil, err
	}
	if hb, err = hbOracle(p); err != nil {
		return nil, nil, nil, err
	}
	union = &oracleResult{races: maps.Clone(loc.races), fault: loc.fault || hb.fault, states: hb.states}
	maps.Copy(union.races, hb.races)
	return union, loc, hb, nil
}

// formatPairs lists a set of pairs readably, in order.
func formatPairs(p *model.Program, set map[race.Pair]bool) string {
	var out []string
	for pr := range set {
		a := p.Procs[pr.A.Proc].Trans[pr.A.Trans]
		b := p.Procs[pr.B.Proc].Trans[pr.B.Trans]
		out = append(out, fmt.Sprintf("%s: %s.t%d (%s) / %s.t%d (%s)", p.Vars[pr.Var].Name,
			p.Procs[pr.A.Proc].Name, pr.A.Trans, a.Op.Format(p, p.Procs[pr.A.Proc]),
			p.Procs[pr.B.Proc].Name, pr.B.Trans, b.Op.Format(p, p.Procs[pr.B.Proc])))
	}
	slices.Sort(out)
	return strings.Join(out, "\n")
}
