package sb

import "github.com/fencecheck/fencecheck/model"

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
type pending struct {
	at     [][]uint64 // at[p][l]: the variables p may have pending stores to at l
	any    []uint64   // per process: at[p][l] for any l (a free location)
	writes []uint64   // per process: the variables it stores to, plainly or locked
}

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
	return pd
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
// have been written by it (mayWrite).
func (pd *pending) consistent(c *cons) bool {
	for i := 1; i < len(c.msgs); i++ {
		if m := &c.msgs[i]; m.writer >= 0 && !pd.mayWrite(c, i, m.writer, m.v) {
			return false
		}
	}
	return true
}
