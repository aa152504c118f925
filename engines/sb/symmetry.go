package sb

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"slices"

	"github.com/fencecheck/fencecheck/engines/lib/explore"
	"github.com/fencecheck/fencecheck/model"
)

// symmetry replaces every constraint the SB search generates by the
// canonical representative of its orbit under the permutations of
// interchangeable processes (see the package doc, "Symmetry").
type symmetry struct {
	classes [][]int // each sorted, with two members or more
	keys    [][]byte
	members []int

	// scratch of apply
	locs   []int
	regs   [][]int64
	rknown []uint64
	ptr    []int
}

// newSymmetry returns the symmetry of p (the program with its fault
// locations, whose bad states include the faults), or nil when no two
// processes are interchangeable: the classes of explore.Classes whose
// members also start alike (the same initial location and register
// values, so that the initial configurations are closed under the
// permutations too).
func newSymmetry(p *model.Program) *symmetry {
	var classes [][]int
	for _, class := range explore.Classes(p) {
		q := p.Procs[class[0]]
		if !slices.ContainsFunc(class[1:], func(i int) bool { return !sameStart(q, p.Procs[i]) }) {
			classes = append(classes, class)
		}
	}
	if len(classes) == 0 {
		return nil
	}
	n := len(p.Procs)
	return &symmetry{classes: classes, keys: make([][]byte, n), locs: make([]int, n),
		regs: make([][]int64, n), rknown: make([]uint64, n), ptr: make([]int, n)}
}

// sameStart reports whether a and b have the same initial location and
// initial register values.
func sameStart(a, b *model.Process) bool {
	if a.Init != b.Init || len(a.Regs) != len(b.Regs) {
		return false
	}
	for r := range a.Regs {
		if a.Regs[r].Init != b.Regs[r].Init {
			return false
		}
	}
	return true
}

// canon makes c, in place, the canonical representative of its orbit: the
// members of every class sorted by their process keys (procKey). It
// returns the permutation applied, perm[p] being the new index of process
// p, or nil when c was canonical already.
func (sy *symmetry) canon(c *cons) []int {
	var perm []int
	for _, class := range sy.classes {
		for _, p := range class {
			sy.keys[p] = procKey(sy.keys[p][:0], c, p)
		}
		members := append(sy.members[:0], class...)
		slices.SortStableFunc(members, func(x, y int) int { return bytes.Compare(sy.keys[x], sy.keys[y]) })
		sy.members = members
		for k, slot := range class {
			if members[k] == slot {
				continue
			}
			if perm == nil {
				perm = make([]int, len(c.locs))
				for i := range perm {
					perm[i] = i
				}
			}
			perm[members[k]] = slot
		}
	}
	if perm != nil {
		sy.apply(c, perm)
	}
	return perm
}

// procKey encodes everything c says of process p: its location, pointer,
// whether it may flush and is in transit, its known registers, and per
// message whether p wrote it (and what) or is known not to have. Two
// members of a class with equal keys can be exchanged without changing c.
func procKey(b []byte, c *cons, p int) []byte {
	bit := uint64(1) << uint(p)
	b = binary.AppendUvarint(b, uint64(c.locs[p]+1))
	b = binary.AppendUvarint(b, uint64(c.ptr[p]+1))
	flags := byte(0)
	if c.mayFlush&bit != 0 {
		flags |= 1
	}
	if c.transit == p {
		flags |= 2
	}
	b = append(b, flags)
	b = binary.AppendUvarint(b, c.rknown[p])
	for k := c.rknown[p]; k != 0; k &= k - 1 {
		b = binary.AppendVarint(b, c.regs[p][bits.TrailingZeros64(k)])
	}
	for i := range c.msgs {
		switch m := &c.msgs[i]; {
		case m.writer == p:
			b = append(b, 1)
			b = binary.AppendUvarint(b, uint64(m.v))
			b = binary.AppendUvarint(b, m.more)
		case m.writer < 0 && m.notBy&bit != 0:
			b = append(b, 2)
		default:
			b = append(b, 0)
		}
	}
	return b
}

// apply renames the processes of c by perm: process p becomes perm[p].
func (sy *symmetry) apply(c *cons, perm []int) {
	copy(sy.locs, c.locs)
	copy(sy.regs, c.regs)
	copy(sy.rknown, c.rknown)
	copy(sy.ptr, c.ptr)
	for p, to := range perm {
		c.locs[to], c.regs[to], c.rknown[to], c.ptr[to] = sy.locs[p], sy.regs[p], sy.rknown[p], sy.ptr[p]
	}
	clear(sy.regs)
	c.mayFlush = permuteSet(c.mayFlush, perm)
	if c.transit >= 0 {
		c.transit = perm[c.transit]
	}
	for i := range c.msgs {
		m := &c.msgs[i]
		if m.writer >= 0 {
			m.writer = perm[m.writer]
		} else {
			m.notBy = permuteSet(m.notBy, perm)
		}
	}
}

// permuteSet renames the processes of set s by perm.
func permuteSet(s uint64, perm []int) uint64 {
	var out uint64
	for ; s != 0; s &= s - 1 {
		out |= 1 << uint(perm[bits.TrailingZeros64(s)])
	}
	return out
}

// realProcs returns, for the chain of Pre steps that starts at c, the
// process of the original program that takes each step. A constraint of
// the chain is the canonical form of the predecessor its successor's Pre
// step gave (cons.perm renamed that predecessor's processes): the step
// from c_i to c_{i+1} is by process proc_i of c_{i+1}'s predecessor, in
// the frame of c_{i+1}, and in the frame of the run that starts in c_0 by
// process π_1(π_2(...π_i(proc_i))) with π_k the renaming of c_k.
func realProcs(c *cons) []int {
	var out []int
	var sigma []int // nil: the identity
	for d := c; d.next != nil; d = d.next {
		p := d.proc
		if sigma != nil {
			p = sigma[p]
		}
		out = append(out, p)
		if pi := d.next.perm; pi != nil {
			next := make([]int, len(pi))
			for x := range next {
				next[x] = pi[x]
				if sigma != nil {
					next[x] = sigma[pi[x]]
				}
			}
			sigma = next
		}
	}
	return out
}
