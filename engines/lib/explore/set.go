package explore

import (
	"bytes"
	"errors"
	"hash/maphash"
	"math"
)

// stateSet maps the keys of the visited states to their ids, which are
// given in the order of insertion (0, 1, ...). The keys lie back to back in
// chunks of at least chunkSize bytes, which are never copied as the set
// grows, and the table is an open-addressing array of integers, so that a
// state costs its key and about 16 bytes, and the collector has no
// pointers to follow.
type stateSet struct {
	seed   maphash.Seed
	chunks [][]byte // the keys, in the order of their ids
	refs   []uint64 // refs[id]: where key id lies (see ref)
	// table: 0 for an empty slot, else the id plus 1 in the low 32 bits
	// and the high 32 bits of the key's hash above them.
	table []uint64
	// maxLen is how many keys the set takes (less than 2^31, but for
	// tests).
	maxLen int
}

// The parts of a ref: chunk index, start in the chunk, length. A chunk
// holds up to chunkSize bytes, or one key that is longer.
const (
	chunkSize      = 1 << 20
	firstChunkSize = 1 << 12
	refBits        = 22 // start and length; keys are shorter than 1<<refBits
	refMask        = 1<<refBits - 1
	maxChunks      = 1 << (64 - 2*refBits)
)

var (
	errSetFull = errors.New("the visited states exceed the set's capacity")
	errKeyLong = errors.New("a state's key exceeds 4 MiB")
)

func newStateSet() *stateSet {
	return &stateSet{seed: maphash.MakeSeed(), table: make([]uint64, 1<<10), maxLen: math.MaxInt32 - 1}
}

func (s *stateSet) len() int { return len(s.refs) }

func (s *stateSet) key(id int) []byte {
	r := s.refs[id]
	c, start, n := r>>(2*refBits), r>>refBits&refMask, r&refMask
	return s.chunks[c][start : start+n]
}

// hash returns the hash of key in the set.
func (s *stateSet) hash(key []byte) uint64 { return maphash.Bytes(s.seed, key) }

// find returns the id of key, or -1.
func (s *stateSet) find(key []byte) int { return s.findHash(key, s.hash(key)) }

// findHash returns the id of key, whose hash is h, or -1. It only reads
// the set, so goroutines may call it at once while nothing inserts.
func (s *stateSet) findHash(key []byte, h uint64) int {
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
func (s *stateSet) insert(key []byte) (int, error) { return s.insertHash(key, s.hash(key)) }

// insertHash adds key, whose hash is h and which must not be in the set,
// and returns its id.
func (s *stateSet) insertHash(key []byte, h uint64) (int, error) {
	if len(key) > refMask {
		return 0, errKeyLong
	}
	if len(s.refs) >= s.maxLen {
		return 0, errSetFull
	}
	last := len(s.chunks) - 1
	if last < 0 || len(s.chunks[last])+len(key) > cap(s.chunks[last]) {
		if len(s.chunks) >= maxChunks {
			return 0, errSetFull
		}
		// The chunks grow from firstChunkSize to chunkSize: a small
		// search (a fence inference makes hundreds) clears no megabyte.
		size := firstChunkSize
		if last >= 0 {
			size = min(chunkSize, 2*cap(s.chunks[last]))
		}
		s.chunks = append(s.chunks, make([]byte, 0, max(size, len(key))))
		last++
	}
	if 4*(len(s.refs)+1) > 3*len(s.table) {
		s.grow()
	}
	id := len(s.refs)
	start := len(s.chunks[last])
	s.chunks[last] = append(s.chunks[last], key...)
	s.refs = append(s.refs, uint64(last)<<(2*refBits)|uint64(start)<<refBits|uint64(len(key)))
	s.place(h, id)
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
	for id := range s.refs {
		s.place(maphash.Bytes(s.seed, s.key(id)), id)
	}
}
