package sb

import (
	"encoding/binary"
	"slices"

	"github.com/fencecheck/fencecheck/model"
)

// pending is what a process's control flow allows of its own messages that
// its pointer has not passed (its pending stores, in TSO terms).
//
// In a reachable SB configuration, a message written by p after p's pointer
// was appended by a store of p that no fence or locked operation of p has
// followed (both need p's pointer at the newest message, and the pointer
// never moves back). So the variable of such a message is one that p stores
// to on some path into p's current location that passes no fence and no
// locked operation after the store: the least solution of
//
//	at[p][init] ⊇ ∅
//	at[p][t.To] ⊇ at[p][t.From] ∪ {x}  for a store to x
//	at[p][t.To] ⊇ ∅                    for a fence or a locked operation
//	at[p][t.To] ⊇ at[p][t.From]         for the other operations.
//
// A constraint that needs a message of p to x after p's pointer while p is
// at a location l with x ∉ at[p][l] denotes no reachable configuration, and
// the search drops it (or never builds it, when it splits a message on its
// writer). A message can only be written by a process that stores to its
// variable somewhere (writes).
//
// More precisely, the last pending store of p to each variable is p's last
// store to it (a later one would be pending too), and a constraint shows
// exactly those of p's pending stores that are p's last ones to their
// variables (the ordering's last-write condition): the newest message of p
// to x after p's pointer maps to p's last store to x, and a constraint with
// none for x denotes configurations with no pending store of p to x. So the
// variables of those messages, in the order of the messages, and the values
// they store are a suffix of one of the sequences of the last stores to
// each variable since the last fence or locked operation, oldest first,
// along some path into l (flushes have passed the older ones): seqs[p][l]
// holds those suffixes. A constraint that shows another sequence denotes no
// reachable configuration; when every sequence that fits it agrees on the
// value of a message it does not know, the search sets it.
type pending struct {
	at     [][]uint64 // at[p][l]: the variables p may have pending stores to at l
	any    []uint64   // per process: at[p][l] for any l (a free location)
	writes []uint64   // per process: the variables it stores to, plainly or locked

	// seqs[p][l], by the variables of a sequence (encoded in order), lists
	// their values; nil for a process whose sequences are too many.
	seqs [][]map[string][][]storeVal
	key  []byte // scratch
	last []int  // scratch: the messages of a constraint's sequence
}

// storeVal is the value a store writes: v, or any value (a computed one).
type storeVal struct {
	v   int64
	any bool
}

// maxSeqs bounds the sequences of last pending stores kept per location; a
// process with more at some location is checked by its variables only.
const maxSeqs = 1 << 10

// newPending computes the pending stores of every process of p.
func newPending(p *model.Program) *pending {
	pd := &pending{at: make([][]uint64, len(p.Procs)), any: make([]uint64, len(p.Procs)), writes: make([]uint64, len(p.Procs))}
	for i, q := range p.Procs {
		at := make([]uint64, len(q.Locs))
		for _, t := range q.Trans {
			pd.writes[i] |= storesOf(t.Op)
		}
		for changed := true; changed; {
			changed = false
			for _, t := range q.Trans {
				var out uint64
				switch t.Op.Kind {
				case model.Fence, model.Locked:
				case model.Write:
					out = at[t.From] | 1<<uint(t.Op.Var)
				default:
					out = at[t.From]
				}
				if out&^at[t.To] != 0 {
					at[t.To] |= out
					changed = true
				}
			}
		}
		for _, m := range at {
			pd.any[i] |= m
		}
		pd.at[i] = at
	}
	pd.seqs = make([][]map[string][][]storeVal, len(p.Procs))
	for i, q := range p.Procs {
		pd.seqs[i] = lastStores(q)
	}
	return pd
}

// pendStore is one entry of a sequence of last pending stores.
type pendStore struct {
	x int
	storeVal
}

// lastStores computes the sequences of last pending stores of q at every
// location (see pending), or nil when some location has more than maxSeqs.
func lastStores(q *model.Process) []map[string][][]storeVal {
	type seq = []pendStore
	encode := func(b []byte, s seq) []byte {
		for _, e := range s {
			b = binary.AppendUvarint(b, uint64(e.x))
			if e.any {
				b = append(b, 1)
			} else {
				b = append(b, 0)
				b = binary.AppendVarint(b, e.v)
			}
		}
		return b
	}
	sets := make([]map[string]seq, len(q.Locs))
	for l := range sets {
		sets[l] = map[string]seq{}
	}
	sets[q.Init][""] = nil
	work := []int{q.Init}
	queued := make([]bool, len(q.Locs))
	queued[q.Init] = true
	var buf []byte
	for len(work) > 0 {
		l := work[len(work)-1]
		work = work[:len(work)-1]
		queued[l] = false
		for _, t := range q.Trans {
			if t.From != l {
				continue
			}
			changed := false
			add := func(s seq) {
				buf = encode(buf[:0], s)
				if _, ok := sets[t.To][string(buf)]; !ok {
					sets[t.To][string(buf)] = s
					changed = true
				}
			}
			for _, s := range sets[l] {
				switch t.Op.Kind {
				case model.Fence, model.Locked:
					add(nil)
				case model.Write:
					e := pendStore{x: t.Op.Var}
					if k, ok := t.Op.Expr.(model.Const); ok {
						e.v = k.Value
					} else {
						e.any = true
					}
					n := slices.DeleteFunc(slices.Clone(s), func(o pendStore) bool { return o.x == e.x })
					add(append(n, e))
				default:
					add(s)
				}
			}
			if len(sets[t.To]) > maxSeqs {
				return nil
			}
			if changed && !queued[t.To] {
				queued[t.To] = true
				work = append(work, t.To)
			}
		}
	}
	// Flushes move the pointer past the oldest pending stores: the last
	// pending stores of a configuration are a suffix of a sequence.
	out := make([]map[string][][]storeVal, len(q.Locs))
	for l, set := range sets {
		out[l] = map[string][][]storeVal{}
		done := map[string]bool{}
		for _, s := range set {
			for k := range len(s) + 1 {
				suf := s[k:]
				buf = encode(buf[:0], suf)
				if done[string(buf)] {
					continue
				}
				done[string(buf)] = true
				buf = buf[:0]
				vals := make([]storeVal, len(suf))
				for i, e := range suf {
					buf = binary.AppendUvarint(buf, uint64(e.x))
					vals[i] = e.storeVal
				}
				out[l][string(buf)] = append(out[l][string(buf)], vals)
			}
		}
	}
	return out
}

// storesOf returns the variables op stores to.
func storesOf(op model.Op) uint64 {
	switch op.Kind {
	case model.Write:
		return 1 << uint(op.Var)
	case model.Locked:
		var m uint64
		for _, b := range op.Body {
			m |= storesOf(b)
		}
		return m
	}
	return 0
}

// mayPend returns the variables process p may have pending stores to at
// location l (wild: anywhere).
func (pd *pending) mayPend(p, l int) uint64 {
	if l == wild {
		return pd.any[p]
	}
	return pd.at[p][l]
}

// mayWrite reports whether c's message i may have been written by w to x:
// w stores to x, and if w's pointer is before i, x may be pending for w at
// its location.
func (pd *pending) mayWrite(c *cons, i, w, x int) bool {
	bit := uint64(1) << uint(x)
	if pd.writes[w]&bit == 0 {
		return false
	}
	if z := c.ptr[w]; z != pinned && z < i {
		return pd.mayPend(w, c.locs[w])&bit != 0
	}
	return true
}

// consistent reports whether every message of c with a known writer may
// have been written by it (mayWrite), and whether the last pending stores
// that c shows of each process at a fixed location form one of its
// sequences; it sets the values of those stores that every fitting sequence
// agrees on.
func (pd *pending) consistent(c *cons) bool {
	for i := 1; i < len(c.msgs); i++ {
		m := &c.msgs[i]
		switch {
		case m.writer < 0:
		case m.more != 0:
			// A locked operation's: its writer's pointer was at it
			// after the operation.
			if z := c.ptr[m.writer]; z != pinned && z < i {
				return false
			}
		case !pd.mayWrite(c, i, m.writer, m.v):
			return false
		}
	}
	for p, z := range c.ptr {
		if z == pinned || c.locs[p] == wild || pd.seqs[p] == nil {
			continue
		}
		// The last message of p to each variable after its pointer, oldest
		// first.
		pd.last = pd.last[:0]
		var seen uint64
		for i := len(c.msgs) - 1; i > z; i-- {
			if m := &c.msgs[i]; m.writer == p && seen&(1<<uint(m.v)) == 0 {
				seen |= 1 << uint(m.v)
				pd.last = append(pd.last, i)
			}
		}
		slices.Reverse(pd.last)
		pd.key = pd.key[:0]
		for _, i := range pd.last {
			pd.key = binary.AppendUvarint(pd.key, uint64(c.msgs[i].v))
		}
		cands := pd.seqs[p][c.locs[p]][string(pd.key)]
		if len(cands) == 0 {
			return false
		}
		var fit []storeVal // the values every fitting sequence agrees on (any: they differ)
		for _, vals := range cands {
			ok := true
			for k, i := range pd.last {
				m := &c.msgs[i]
				if !vals[k].any && m.isKnown(m.v) && m.mem[m.v] != vals[k].v {
					ok = false
					break
				}
			}
			if !ok {
				continue
			}
			if fit == nil {
				fit = slices.Clone(vals)
				continue
			}
			for k := range fit {
				if vals[k].any || vals[k].v != fit[k].v {
					fit[k].any = true
				}
			}
		}
		if fit == nil && len(pd.last) > 0 {
			return false
		}
		for k, i := range pd.last {
			if m := &c.msgs[i]; !fit[k].any && !m.isKnown(m.v) {
				m.set(m.v, fit[k].v)
			}
		}
	}
	return true
}
