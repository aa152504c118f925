package sb

import (
	"encoding/binary"
	"math/bits"
)

// This file holds the index of analysed constraints that the subsumption
// tests of push consult.
//
// A constraint a can subsume b (a ⊑ b) only when
//   - a leaves free at least the processes b leaves free and fixes the
//     others as b does (the location part of the bucket key);
//   - the processes pointing at each of a's messages are exactly those
//     pointing at its image in b, and the images keep the order: the
//     sequence of pointer groups, by increasing message, is the same in a
//     and b (the pointer part of the key);
//   - every feature of a is one of b: a's known registers with their values,
//     the known (variable, value) pairs and writer headers of its messages,
//     each length up to its number of messages, and each process whose
//     flushes may not precede it (b.mayFlush ⊆ a.mayFlush).
//
// Constraints are bucketed by the key, and each carries its features hashed
// into 128 bits: a candidate whose bits are not contained in the other's
// is rejected with two ANDs, before the embedding search of subsumes.

// bucket holds the analysed constraints of one key, split into parts by
// the signature of their feature words (sig): a constraint can subsume
// another only when its signature is contained in the other's, so a test
// skips whole parts with one AND.
type bucket struct {
	sigs  []uint8
	parts []part
	n     int // constraints in all parts
}

// part holds the constraints of one signature, with their feature words at
// the same indices.
type part struct {
	cons  []*cons
	feats []featWord
}

// sig is the signature of a feature word: 8 of its 128 bits.
func sig(f featWord) uint8 { return uint8(f[0]) }

// add appends c, with feature word f, to bk.
func (bk *bucket) add(c *cons, f featWord) {
	g := sig(f)
	i := 0
	for i < len(bk.sigs) && bk.sigs[i] != g {
		i++
	}
	if i == len(bk.sigs) {
		bk.sigs = append(bk.sigs, g)
		bk.parts = append(bk.parts, part{})
	}
	pt := &bk.parts[i]
	pt.cons = append(pt.cons, c)
	pt.feats = append(pt.feats, f)
	bk.n++
}

// featWord is a set of hashed features, 128 bits.
type featWord [2]uint64

// within reports whether every feature of f is one of g.
func (f featWord) within(g featWord) bool { return f[0]&^g[0]|f[1]&^g[1] == 0 }

// appendPtrKey appends the sequence of pointer groups of c: for every
// message pointed at, in order, the set of processes pointing at it.
func appendPtrKey(b []byte, c *cons) []byte {
	for i := range c.msgs {
		var g uint64
		for p, z := range c.ptr {
			if z == i {
				g |= 1 << uint(p)
			}
		}
		if g != 0 {
			b = binary.AppendUvarint(b, g)
		}
	}
	return b
}

// featBit hashes one feature to a bit of the feature word.
func featBit(kind, a, b uint64, v int64) featWord {
	h := kind*0x9E3779B97F4A7C15 ^ a*0xC2B2AE3D27D4EB4F ^ b*0x165667B19E3779F9 ^ uint64(v)*0xD6E8FEB86659FD93
	h ^= h >> 29
	h *= 0xBF58476D1CE4E5B9
	h ^= h >> 32
	var w featWord
	w[h>>6&1] = 1 << (h & 63)
	return w
}

func (f *featWord) add(g featWord) { f[0] |= g[0]; f[1] |= g[1] }

// features returns the feature word of c (see the comment at the top of the
// file): if a ⊑ b then features(a).within(features(b)).
func features(c *cons, all uint64) featWord {
	var f featWord
	for p, rs := range c.regs {
		for k := c.rknown[p]; k != 0; k &= k - 1 {
			r := bits.TrailingZeros64(k)
			f.add(featBit(1, uint64(p), uint64(r), rs[r]))
		}
	}
	for i := range c.msgs {
		m := &c.msgs[i]
		// Where the message's image is known (the active message maps to
		// the active one, a message some processes point at to the one
		// the same processes point at), its features are tagged with
		// that place: tag 0 for the active message, else the pointer
		// group plus one, 0 for none.
		var tag uint64
		if i > 0 {
			for p, z := range c.ptr {
				if z == i {
					tag |= 1 << uint(p)
				}
			}
			if tag != 0 {
				tag++
			}
		}
		placed := i == 0 || tag != 0
		for k := m.known; k != 0; k &= k - 1 {
			x := bits.TrailingZeros64(k)
			f.add(featBit(2, uint64(x), 0, m.mem[x]))
			if placed {
				f.add(featBit(6, uint64(x), tag, m.mem[x]))
			}
			// Two values known in one message are known in its image.
			for k2 := k & (k - 1); k2 != 0; k2 &= k2 - 1 {
				y := bits.TrailingZeros64(k2)
				f.add(featBit(8, uint64(x)<<32|uint64(y), uint64(m.mem[y]), m.mem[x]))
			}
		}
		if m.writer >= 0 {
			f.add(featBit(3, uint64(m.writer), uint64(m.v), 0))
			if placed {
				f.add(featBit(7, uint64(m.writer), uint64(m.v), int64(tag)))
			}
		}
		f.add(featBit(4, uint64(i), 0, 0))
	}
	// The embedding is increasing and keeps headers: an ordered pair of
	// headers, or a header occurring n times, in c occurs in every
	// constraint c subsumes; so does a header after or before a message
	// whose image is known.
	for i := range c.msgs {
		mi := &c.msgs[i]
		if mi.writer < 0 {
			continue
		}
		hi := uint64(mi.writer)<<32 | uint64(mi.v)
		n := int64(1)
		for j := range i {
			if mj := &c.msgs[j]; mj.writer >= 0 {
				hj := uint64(mj.writer)<<32 | uint64(mj.v)
				f.add(featBit(9, hj, hi, 0))
				if hj == hi {
					n++
				}
			}
		}
		f.add(featBit(10, hi, 0, n))
	}
	for i := range c.msgs {
		tag := uint64(0)
		if i > 0 {
			for p, z := range c.ptr {
				if z == i {
					tag |= 1 << uint(p)
				}
			}
			if tag == 0 {
				continue
			}
			tag++
		}
		for j := range c.msgs {
			if mj := &c.msgs[j]; mj.writer >= 0 && j != i {
				hj := uint64(mj.writer)<<32 | uint64(mj.v)
				f.add(featBit(11, tag, hj, int64(min(max(j-i, -1), 1))))
			}
		}
	}
	for k := all &^ c.mayFlush; k != 0; k &= k - 1 {
		f.add(featBit(5, uint64(bits.TrailingZeros64(k)), 0, 0))
	}
	return f
}

// subsumedBy reports whether a constraint of bk subsumes c (whose feature
// word is f), and charges the comparisons as work; s.stop is set when the
// search must stop.
func (s *search) subsumedBy(bk *bucket, c *cons, f featWord) bool {
	if bk == nil {
		return false
	}
	if !s.tick(int64(len(bk.sigs)/64 + 1)) {
		return false
	}
	g := sig(f)
	for j, h := range bk.sigs {
		if h&^g != 0 {
			continue
		}
		pt := &bk.parts[j]
		if !s.tick(int64(len(pt.cons) / 8)) {
			return false
		}
		for i, v := range pt.cons {
			if !pt.feats[i].within(f) || v.dead {
				continue
			}
			if !s.tick(1) {
				return false
			}
			if subsumes(v, c, &s.embed) {
				return true
			}
		}
	}
	return false
}

// retire marks dead the constraints of bk that c (with feature word f)
// subsumes, and drops them from bk.
func (s *search) retire(bk *bucket, c *cons, f featWord) {
	// A constraint lives in one bucket, and retire drops it there when it
	// dies: every constraint of bk is alive, and the feature test comes
	// first, so that most are not even loaded.
	g := sig(f)
	for j, h := range bk.sigs {
		if g&^h != 0 {
			continue
		}
		pt := &bk.parts[j]
		n := 0
		for i, v := range pt.cons {
			if f.within(pt.feats[i]) && subsumes(c, v, &s.embed) {
				v.dead = true
				continue
			}
			pt.cons[n], pt.feats[n] = v, pt.feats[i]
			n++
		}
		clear(pt.cons[n:])
		bk.n -= len(pt.cons) - n
		pt.cons, pt.feats = pt.cons[:n], pt.feats[:n]
	}
}
