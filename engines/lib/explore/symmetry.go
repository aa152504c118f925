package explore

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"fmt"
	"reflect"
	"slices"

	"github.com/fencecheck/fencecheck/model"
)

// Symmetry reduction. Processes that run the same code on the same variables
// (equal registers, locations and transitions; only the names may differ)
// are interchangeable when the bad states are too: exchanging two of them in
// a state gives a state with the same future up to the same exchange, and a
// bad state is reachable from one exactly when it is from the other. The
// search then visits one state of every orbit: it hashes a state by a
// canonical key, in which the local states (location, registers, store
// buffer) of every class of identical processes are sorted. It still keeps
// and expands the states it reached, so that its traces are real paths.

// symmetry holds the classes of interchangeable processes of a program.
type symmetry struct {
	classes [][]int // each sorted, with two members or more
	nprocs  int
	// scratch
	local   [][]byte
	order   []int
	members []int
}

// Classes returns the classes of interchangeable processes of p (each of two
// processes or more, in increasing order): processes equal in everything but
// their names, whose exchange maps the set of bad states onto itself.
func Classes(p *model.Program) [][]int {
	var classes [][]int
	var bads map[string]bool
	for _, class := range p.GroupProcs(sameCode) {
		if bads == nil {
			bads = badKeys(p)
		}
		// The exchanges of the first member with each other one generate
		// every permutation of the class.
		ok := true
		for _, j := range class[1:] {
			if !badInvariant(p, class[0], j, bads) {
				ok = false
				break
			}
		}
		if ok {
			classes = append(classes, class)
		}
	}
	return classes
}

// sameCode reports whether a and b are equal apart from names and positions.
func sameCode(a, b *model.Process) bool {
	return a.Like(b, func(x, y *model.Op) bool { return reflect.DeepEqual(*x, *y) })
}

// badInvariant reports whether exchanging processes i and j maps every bad
// state of p to a bad state of p (as written: conditions are compared
// syntactically, so a symmetric condition written asymmetrically makes the
// class be left out, which is safe).
//
// bads holds the keys of p's bad states (badKeys): the test is linear in
// the number of bad states (a system's deadlock states can be thousands).
func badInvariant(p *model.Program, i, j int, bads map[string]bool) bool {
	swap := func(k int) int {
		switch k {
		case i:
			return j
		case j:
			return i
		}
		return k
	}
	for _, b := range p.Bad {
		key, ok := badKey(b, swap)
		if !ok || !bads[key] {
			return false
		}
	}
	return true
}

// badKeys returns the keys of the bad states of p, as written.
func badKeys(p *model.Program) map[string]bool {
	keys := make(map[string]bool, len(p.Bad))
	id := func(k int) int { return k }
	for _, b := range p.Bad {
		if key, ok := badKey(b, id); ok {
			keys[key] = true
		}
	}
	return keys
}

// badKey names bad state b with its processes renamed by f: its locations,
// sorted, and its condition, so that two bad states with equal keys are
// the same set of states.
func badKey(b model.BadState, f func(int) int) (string, bool) {
	var locs []model.ProcLoc
	for _, pl := range b.Locs {
		locs = append(locs, model.ProcLoc{Proc: f(pl.Proc), Loc: pl.Loc})
	}
	slices.SortFunc(locs, func(x, y model.ProcLoc) int {
		return cmp.Or(cmp.Compare(x.Proc, y.Proc), cmp.Compare(x.Loc, y.Loc))
	})
	locs = slices.Compact(locs)
	cond, ok := renameProcs(b.Cond, f)
	if !ok {
		return "", false
	}
	return fmt.Sprintf("%v|%#v", locs, cond), true
}

// renameProcs returns e with the process of every qualified register
// reference mapped through f; ok is false for an expression it does not know.
func renameProcs(e model.Expr, f func(int) int) (model.Expr, bool) {
	switch e := e.(type) {
	case nil:
		return nil, true
	case model.Const, model.VarRef:
		return e, true
	case model.RegRef:
		if e.Proc >= 0 {
			e.Proc = f(e.Proc)
		}
		return e, true
	case model.Unary:
		x, ok := renameProcs(e.X, f)
		e.X = x
		return e, ok
	case model.Binary:
		x, okx := renameProcs(e.X, f)
		y, oky := renameProcs(e.Y, f)
		e.X, e.Y = x, y
		return e, okx && oky
	case model.Wrap:
		x, ok := renameProcs(e.X, f)
		e.X = x
		return e, ok
	case model.Float:
		x, okx := renameProcs(e.X, f)
		y, oky := renameProcs(e.Y, f)
		e.X, e.Y = x, y
		return e, okx && oky
	}
	return nil, false
}

func newSymmetry(p *model.Program) *symmetry {
	classes := Classes(p)
	if len(classes) == 0 {
		return nil
	}
	return newSymmetryScratch(classes, len(p.Procs))
}

func newSymmetryScratch(classes [][]int, nprocs int) *symmetry {
	return &symmetry{classes: classes, nprocs: nprocs, local: make([][]byte, nprocs), order: make([]int, nprocs), members: make([]int, 0, nprocs)}
}

// clone returns a symmetry with the same classes and scratch of its own,
// for another goroutine.
func (sy *symmetry) clone() *symmetry {
	if sy == nil {
		return nil
	}
	return newSymmetryScratch(sy.classes, sy.nprocs)
}

// appendKey appends to b the canonical key of s: the local states of the
// processes, those of every class sorted, then memory and the fault mark.
// Two states have the same key exactly when a permutation within classes
// maps one onto the other.
func (sy *symmetry) appendKey(b []byte, s model.State) []byte {
	for i := range sy.nprocs {
		k := sy.local[i][:0]
		k = binary.AppendUvarint(k, uint64(s.Locs[i]))
		k = model.AppendValues(k, s.Regs[i])
		k = binary.AppendUvarint(k, uint64(len(s.Bufs[i])))
		for _, e := range s.Bufs[i] {
			k = binary.AppendUvarint(k, uint64(e.Var))
			k = binary.AppendVarint(k, e.Val)
		}
		sy.local[i] = k
		sy.order[i] = i
	}
	for _, c := range sy.classes {
		members := append(sy.members[:0], c...)
		slices.SortFunc(members, func(x, y int) int { return bytes.Compare(sy.local[x], sy.local[y]) })
		for k, slot := range c {
			sy.order[slot] = members[k]
		}
	}
	for _, i := range sy.order {
		b = append(b, sy.local[i]...)
	}
	b = model.AppendValues(b, s.Mem)
	if s.Fault != nil {
		b = append(b, 1)
	}
	return b
}
