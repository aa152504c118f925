package coherence

import (
	"encoding/binary"
	"slices"
)

// A pair is a pending store's (variable, value), interned per search as
// an int32 (see search.pair).

// channel is one abstract store buffer: of a process under TSO, of a
// process and a variable under PSO. Its slices are never modified in
// place once a state holds them.
type channel struct {
	head []int32 // the oldest stores, in order (at most K; FD and PD)
	set  []int32 // the pairs of the other stores, sorted
	last []int32 // the newest pending store of each variable that has one, by variable (FD and PD)
}

func (c *channel) empty() bool { return c == nil || (len(c.head) == 0 && len(c.set) == 0) }

// astate is an abstract state: control, registers and memory as in the
// concrete semantics, and the abstract buffers.
type astate struct {
	locs []int
	regs [][]int64
	mem  []int64
	ch   []*channel // nil for an empty buffer; shared between states
	// sealed[i]: under PSO, a store-store fence closed process i's
	// first epoch (see models.go); nil under SC and TSO.
	sealed []bool
}

// withChannel returns st with channel c replaced (st is not modified).
func (st astate) withChannel(c int, nc channel) astate {
	st.ch = slices.Clone(st.ch)
	st.ch[c] = nil
	if !nc.empty() {
		st.ch[c] = &nc
	}
	return st
}

// channel returns buffer c's value (the zero channel for an empty one).
func (st *astate) channel(c int) channel {
	if st.ch[c] == nil {
		return channel{}
	}
	return *st.ch[c]
}

// insertSorted returns the sorted set s with e added, as a new slice when
// e was missing.
func insertSorted(s []int32, e int32) []int32 {
	i, found := slices.BinarySearch(s, e)
	if found {
		return s
	}
	n := make([]int32, len(s)+1)
	copy(n, s[:i])
	n[i] = e
	copy(n[i+1:], s[i:])
	return n
}

// removeSorted returns s without e, as a new slice.
func removeSorted(s []int32, e int32) []int32 {
	i, found := slices.BinarySearch(s, e)
	if !found {
		return s
	}
	n := make([]int32, 0, len(s)-1)
	n = append(n, s[:i]...)
	return append(n, s[i+1:]...)
}

// unionSorted returns the union of two sorted sets and whether it is
// larger than a.
func unionSorted(a, b []int32) ([]int32, bool) {
	out := make([]int32, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j == len(b) || (i < len(a) && a[i] < b[j]):
			out = append(out, a[i])
			i++
		case i == len(a) || b[j] < a[i]:
			out = append(out, b[j])
			j++
		default:
			out = append(out, a[i])
			i++
			j++
		}
	}
	return out, len(out) > len(a)
}

// encode appends the key of st to b: every component, and for each
// channel its head, its recency and, unless the sets are kept apart
// (PD), its set; under PD only whether the set is empty.
func (s *search) encode(b []byte, st *astate) []byte {
	for _, l := range st.locs {
		b = binary.AppendUvarint(b, uint64(l))
	}
	for _, rs := range st.regs {
		for _, r := range rs {
			b = binary.AppendVarint(b, r)
		}
	}
	for _, v := range st.mem {
		b = binary.AppendVarint(b, v)
	}
	for _, v := range st.sealed {
		if v {
			b = append(b, 1)
		} else {
			b = append(b, 0)
		}
	}
	for i := range st.ch {
		c := st.channel(i)
		b = appendList(b, c.head)
		b = appendList(b, c.last)
		if s.joined {
			if len(c.set) > 0 {
				b = append(b, 1)
			} else {
				b = append(b, 0)
			}
		} else {
			b = appendList(b, c.set)
		}
	}
	return b
}

func appendList(b []byte, l []int32) []byte {
	b = binary.AppendUvarint(b, uint64(len(l)))
	for _, e := range l {
		b = binary.AppendUvarint(b, uint64(e))
	}
	return b
}

// decode rebuilds the state of key; under PD, sets holds the channels'
// sets (see encodeSets).
func (s *search) decode(key []byte, sets []int32) astate {
	off := 0
	uv := func() uint64 {
		v, n := binary.Uvarint(key[off:])
		off += n
		return v
	}
	list := func() []int32 {
		n := int(uv())
		if n == 0 {
			return nil
		}
		l := make([]int32, n)
		for k := range l {
			l[k] = int32(uv())
		}
		return l
	}
	np := len(s.p.Procs)
	st := astate{locs: make([]int, np), regs: make([][]int64, np), mem: make([]int64, len(s.p.Vars)), ch: make([]*channel, s.nch)}
	for i := range st.locs {
		st.locs[i] = int(uv())
	}
	for i, q := range s.p.Procs {
		st.regs[i] = make([]int64, len(q.Regs))
		for r := range st.regs[i] {
			v, n := binary.Varint(key[off:])
			off += n
			st.regs[i][r] = v
		}
	}
	for x := range st.mem {
		v, n := binary.Varint(key[off:])
		off += n
		st.mem[x] = v
	}
	if s.perVar {
		st.sealed = make([]bool, np)
		for i := range st.sealed {
			st.sealed[i] = key[off] == 1
			off++
		}
	}
	for i := range st.ch {
		c := &channel{}
		c.head = list()
		c.last = list()
		if s.joined {
			if key[off] == 1 {
				n := int(sets[0])
				c.set = slices.Clone(sets[1 : 1+n])
				sets = sets[1+n:]
			}
			off++
		} else {
			c.set = list()
		}
		if !c.empty() {
			st.ch[i] = c
		}
	}
	return st
}

// encodeSets flattens the non-empty sets of st's channels (PD): for each,
// its length, then its pairs.
func encodeSets(st *astate) []int32 {
	var out []int32
	for i := range st.ch {
		if set := st.channel(i).set; len(set) > 0 {
			out = append(out, int32(len(set)))
			out = append(out, set...)
		}
	}
	return out
}

// joinSets unions the flattened sets b into a (both of states with one
// key, so with the same non-empty channels) and reports whether a grew.
func joinSets(a, b []int32) ([]int32, bool) {
	var out []int32
	grew := false
	for len(a) > 0 {
		n, m := int(a[0]), int(b[0])
		u, g := unionSorted(a[1:1+n], b[1:1+m])
		grew = grew || g
		out = append(out, int32(len(u)))
		out = append(out, u...)
		a, b = a[1+n:], b[1+m:]
	}
	return out, grew
}
