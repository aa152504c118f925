package explicit

import (
	"bytes"
	"errors"
	"hash/maphash"
	"math"
)

// stateSet maps the keys of the visited states to their ids, which are
// given in the order of insertion (0, 1, ...). The keys lie back to back in
// one byte slice and the table is an open-addressing array of integers, so
// that a state costs its key and about a dozen bytes, and the collector has
// no pointers to follow.
type stateSet struct {
	seed  maphash.Seed
	arena []byte   // the keys, in the order of their ids
	ends  []uint32 // ends[id]: the end of key id in arena
	// table: 0 for an empty slot, else the id plus 1 in the low 32 bits
	// and the high 32 bits of the key's hash above them.
	table []uint64
}

var errSetFull = errors.New("the visited states' keys exceed 4 GiB")

func newStateSet() *stateSet {
	return &stateSet{seed: maphash.MakeSeed(), table: make([]uint64, 1<<10)}
}

func (s *stateSet) len() int { return len(s.ends) }

func (s *stateSet) key(id int) []byte {
	start := uint32(0)
	if id > 0 {
		start = s.ends[id-1]
	}
	return s.arena[start:s.ends[id]]
}

// find returns the id of key, or -1.
func (s *stateSet) find(key []byte) int {
	h := maphash.Bytes(s.seed, key)
	mask := uint64(len(s.table) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		e := s.table[i]
		if e == 0 {
			return -1
		}
		if e>>32 == h>>32 {
			id := int(uint32(e)) - 1
			if bytes.Equal(s.key(id), key) {
				return id
			}
		}
	}
}

// insert adds key, which must not be in the set, and returns its id.
func (s *stateSet) insert(key []byte) (int, error) {
	if uint64(len(s.arena))+uint64(len(key)) > math.MaxUint32 || len(s.ends) >= math.MaxInt32-1 {
		return 0, errSetFull
	}
	if 4*(len(s.ends)+1) > 3*len(s.table) {
		s.grow()
	}
	id := len(s.ends)
	s.arena = append(s.arena, key...)
	s.ends = append(s.ends, uint32(len(s.arena)))
	s.place(maphash.Bytes(s.seed, key), id)
	return id, nil
}

func (s *stateSet) place(h uint64, id int) {
	mask := uint64(len(s.table) - 1)
	i := h & mask
	for s.table[i] != 0 {
		i = (i + 1) & mask
	}
	s.table[i] = h>>32<<32 | uint64(id+1)
}

func (s *stateSet) grow() {
	s.table = make([]uint64, 2*len(s.table))
	for id := range s.ends {
		s.place(maphash.Bytes(s.seed, s.key(id)), id)
	}
}
