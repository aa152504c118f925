package sb

import (
	"encoding/binary"
	"math/bits"
	"slices"
)

// msg is one message of a constraint's buffer: a partial memory snapshot and
// its writer. writer < 0 means unknown; the writer is then known not to be any
// process in notBy. When the writer is known, v is the variable written, and
// more holds the other variables that a locked operation wrote with it (one
// message for the whole operation: its stores reach memory at once).
type msg struct {
	mem    []int64
	known  uint64 // bit x: mem[x] is known
	writer int
	v      int
	more   uint64
	notBy  uint64
}

// setWriter makes w the writer of m, of variable v and the variables of more.
func (m *msg) setWriter(w, v int, more uint64) {
	m.writer, m.v, m.more, m.notBy = w, v, more, 0
}

// setUnknown makes m's writer unknown, known not to be any process in notBy.
func (m *msg) setUnknown(notBy uint64) {
	m.writer, m.v, m.more, m.notBy = -1, 0, 0, notBy
}

// wrote reports whether m, whose writer is known, wrote variable x.
func (m *msg) wrote(x int) bool {
	return m.v == x || m.more&(1<<uint(x)) != 0
}

// cons is a minimal constraint: it denotes the upward closure of its
// configurations under the SB ordering.
type cons struct {
	locs   []int
	regs   [][]int64
	rknown []uint64 // per process, bit r: regs[p][r] is known
	msgs   []msg
	ptr    []int

	// Provenance: this constraint is a predecessor of next by proc's
	// transition trans (-1: a flush of proc). next is nil for a bad state.
	next  *cons
	proc  int
	trans int
	// fault is the index of the bad state (or -1) the chain ends in.
	bad int
	// perm, when not nil, renamed the processes of the predecessor that
	// next's Pre step gave into this canonical form: process p of the
	// predecessor is process perm[p] here (symmetry.go).
	perm []int

	// transit, when not -1, is a process whose pointer c holds at the
	// newest message right after a read into a free location
	// (search.free) or a read that was its last step, in the middle of its
	// catch-up: the predecessors of c are that process's flushes and those
	// reads only.
	transit int

	// mayFlush is the set of processes whose flushes may precede this
	// constraint. A process's flushes only matter to that process's own
	// reads, fences and locked operations, so every run can be reordered
	// to flush lazily: right before such an operation of the flushing
	// process, or in the final segment that empties the buffers. Backward,
	// a flush of p is explored only after p's read, fence, locked operation
	// or flush, or in the final segment.
	mayFlush uint64

	dead bool // retired: subsumed by a more general constraint

	// depth is the least depth of the forward abstraction's runs to the
	// local state of c, when it prunes the search (else 0): the length of
	// every run to c is at least depth (see worklist.estimate).
	depth int32
}

func (m *msg) isKnown(x int) bool { return m.known&(1<<uint(x)) != 0 }

func (m *msg) set(x int, v int64) {
	m.mem[x] = v
	m.known |= 1 << uint(x)
}

func (m msg) clone() msg {
	m.mem = slices.Clone(m.mem)
	return m
}

func (c *cons) regKnown(p, r int) bool { return c.rknown[p]&(1<<uint(r)) != 0 }

// clone returns a deep copy of c without provenance.
func (c *cons) clone() *cons {
	n := &cons{
		locs:   slices.Clone(c.locs),
		regs:   make([][]int64, len(c.regs)),
		rknown: slices.Clone(c.rknown),
		msgs:   make([]msg, len(c.msgs)),
		ptr:    slices.Clone(c.ptr),
		bad:    c.bad,

		transit: c.transit,

		mayFlush: c.mayFlush,
	}
	for i := range c.regs {
		n.regs[i] = slices.Clone(c.regs[i])
	}
	for i := range c.msgs {
		n.msgs[i] = c.msgs[i].clone()
	}
	return n
}

func (c *cons) setReg(p, r int, v int64) {
	c.regs[p][r] = v
	c.rknown[p] |= 1 << uint(r)
}

func (c *cons) forgetReg(p, r int) {
	c.regs[p][r] = 0
	c.rknown[p] &^= 1 << uint(r)
}

// last returns the index of the newest message.
func (c *cons) last() int { return len(c.msgs) - 1 }

// pinned is the pointer of a process whose pointer matters to nothing any
// more: it stays at the newest message (see search.free).
const pinned = -1

// catchUp is the transition of the link from a constraint to its copy in
// transit (cons.transit): no step.
const catchUp = -3

// lastWrite is the paper's LastWrite(c, p, x): the newest message at or after
// p's pointer written by p to x, or p's pointer (for a pinned pointer, the
// newest message).
func (c *cons) lastWrite(p, x int) int {
	if c.ptr[p] == pinned {
		return c.last()
	}
	for i := len(c.msgs) - 1; i > c.ptr[p]; i-- {
		if m := &c.msgs[i]; m.writer == p && m.wrote(x) {
			return i
		}
	}
	return c.ptr[p]
}

// pointedAt reports whether some process's pointer is at message i.
func (c *cons) pointedAt(i int) bool {
	return slices.Contains(c.ptr, i)
}

// key returns an exact encoding of c's content, for deduplication.
func (c *cons) key(b []byte) []byte {
	b = binary.AppendUvarint(b, c.mayFlush)
	b = binary.AppendUvarint(b, uint64(c.transit+1))
	for _, l := range c.locs {
		b = binary.AppendUvarint(b, uint64(l+1)) // wild is 0
	}
	for p, rs := range c.regs {
		b = binary.AppendUvarint(b, c.rknown[p])
		for r, v := range rs {
			if c.regKnown(p, r) {
				b = binary.AppendVarint(b, v)
			}
		}
	}
	for _, z := range c.ptr {
		b = binary.AppendUvarint(b, uint64(z))
	}
	for i := range c.msgs {
		m := &c.msgs[i]
		b = binary.AppendVarint(b, int64(m.writer))
		if m.writer >= 0 {
			b = binary.AppendUvarint(b, uint64(m.v))
			b = binary.AppendUvarint(b, m.more)
		} else {
			b = binary.AppendUvarint(b, m.notBy)
		}
		b = binary.AppendUvarint(b, m.known)
		for x, v := range m.mem {
			if m.isKnown(x) {
				b = binary.AppendVarint(b, v)
			}
		}
	}
	return b
}

// locKey encodes the locations only (wild included): constraints are
// compared for subsumption only when their locations are compatible.
func locKey(locs []int) string {
	return string(appendLocKey(make([]byte, 0, 2*len(locs)), locs, 0))
}

// appendLocKey appends the encoding of locs with the processes of mask
// made wild.
func appendLocKey(b []byte, locs []int, mask uint64) []byte {
	for p, l := range locs {
		if mask&(1<<uint(p)) != 0 {
			l = wild
		}
		b = binary.AppendUvarint(b, uint64(l+1))
	}
	return b
}

// normalize splits every unknown-writer message that some process points
// before and is not excluded from writing, so that last-write positions are
// determined by the constraint: for process q pointing before message i, the
// writer of i is q (for each variable q may have a pending store to, see
// pending) or is not q. It calls emit for each resulting constraint;
// impossible ones (no writer left) are dropped.
func (s *search) normalize(c *cons, emit func(*cons)) {
	all := s.all & s.writers // a message's writer stores to some variable
	for i := 1; i < len(c.msgs); i++ {
		m := &c.msgs[i]
		if m.writer >= 0 {
			continue
		}
		for q, z := range c.ptr {
			if z >= i || z == pinned || m.notBy&(1<<uint(q)) != 0 {
				continue
			}
			// Split on q.
			for vs := s.pend.mayPend(q, c.locs[q]); vs != 0; vs &= vs - 1 {
				d := c.clone()
				d.msgs[i].setWriter(q, bits.TrailingZeros64(vs), 0)
				s.normalize(d, emit)
			}
			m.notBy |= 1 << uint(q)
			if m.notBy&all == all {
				return
			}
		}
		if m.notBy&all == all {
			return
		}
	}
	emit(c)
}

// embedding is the scratch space of subsumes.
type embedding struct {
	g      []int    // the map of messages
	ga, gb []uint64 // the processes pointing at each message of a and of b
}

// groups returns, per message of c, the set of processes pointing at it
// (in dst's storage).
func groups(dst []uint64, c *cons) []uint64 {
	dst = slices.Grow(dst[:0], len(c.msgs))[:len(c.msgs)]
	clear(dst)
	for p, z := range c.ptr {
		if z >= 0 {
			dst[z] |= 1 << uint(p)
		}
	}
	return dst
}

// subsumes reports whether a ⊑ b: every configuration denoted by b is
// denoted by a (a is more general). Both have equal locations. e is
// scratch space.
func subsumes(a, b *cons, e *embedding) bool {
	if len(a.msgs) > len(b.msgs) || b.mayFlush&^a.mayFlush != 0 {
		return false
	}
	for p := range a.regs {
		if a.rknown[p]&^b.rknown[p] != 0 {
			return false
		}
		for k := a.rknown[p]; k != 0; k &= k - 1 {
			r := bits.TrailingZeros64(k)
			if a.regs[p][r] != b.regs[p][r] {
				return false
			}
		}
	}
	e.g = slices.Grow(e.g[:0], len(a.msgs))[:len(a.msgs)]
	e.ga, e.gb = groups(e.ga, a), groups(e.gb, b)
	return e.embed(a, b, 0, 0)
}

// lastToLast reports whether an embedding of a must map a's newest message
// to the newest: when a has pinned pointers, which are at the newest
// message and make it every pinned process's last write.
func lastToLast(a *cons) bool {
	return slices.Contains(a.ptr, pinned)
}

// embed searches a strictly increasing map e.g of a's messages i.. into
// b's messages j.. satisfying the ordering's conditions. The processes
// pointing at a message and at its image are the same: a message that
// some process points at has one possible image.
func (e *embedding) embed(a, b *cons, i, j int) bool {
	if i == len(a.msgs) {
		return checkMap(a, b, e.g)
	}
	// The remaining a-messages need len(a.msgs)-i slots.
	for jj := j; jj <= len(b.msgs)-(len(a.msgs)-i); jj++ {
		if i == 0 && jj != 0 {
			break // the active index maps to the active index
		}
		if i == len(a.msgs)-1 && jj != len(b.msgs)-1 && lastToLast(a) {
			continue // the newest message maps to the newest
		}
		if e.ga[i] != e.gb[jj] || !msgCovers(&a.msgs[i], &b.msgs[jj]) {
			if e.ga[i] != 0 && e.ga[i] == e.gb[jj] {
				return false // the only possible image
			}
			continue
		}
		e.g[i] = jj
		if e.embed(a, b, i+1, jj+1) {
			return true
		}
		if e.ga[i] != 0 {
			return false
		}
	}
	return false
}

// msgCovers reports whether message ma (of the general constraint) matches
// every message that mb matches.
func msgCovers(ma, mb *msg) bool {
	if ma.known&^mb.known != 0 {
		return false
	}
	for k := ma.known; k != 0; k &= k - 1 {
		x := bits.TrailingZeros64(k)
		if ma.mem[x] != mb.mem[x] {
			return false
		}
	}
	switch {
	case ma.writer >= 0:
		return mb.writer == ma.writer && mb.v == ma.v && mb.more == ma.more
	case mb.writer >= 0:
		return ma.notBy&(1<<uint(mb.writer)) == 0
	default:
		return ma.notBy&^mb.notBy == 0
	}
}

// checkMap verifies the last-write condition of the ordering for a complete
// map g: every process's last write to every variable in b is the image of
// its last write in a. Messages of b that are not images must not be writes
// of a process pointing before them that come after the image of that
// process's last write to the same variable.
func checkMap(a, b *cons, g []int) bool {
	k := 0 // the next image in g (g is increasing)
	for j := range b.msgs {
		if k < len(g) && g[k] == j {
			k++
			continue
		}
		m := &b.msgs[j]
		if m.writer < 0 {
			continue // by normalization, written by no process pointing before it
		}
		q, x := m.writer, m.v
		if b.ptr[q] >= j || b.ptr[q] == pinned {
			continue
		}
		if g[a.lastWrite(q, x)] < j {
			return false
		}
	}
	return true
}
