package extract

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"

	"github.com/fencecheck/fencecheck/model"
)

// What channels carry.
//
// A receive of a pointer or an interface value gets an element some send
// on the channel sent (or nil, from a closed channel). A register holding
// it is split over the objects it may name wherever it is used (an
// errors.Join over it makes one error for each), so naming every object of
// its type, as a pointer loaded from memory does (candidates), makes cases
// no run has: an error received from a channel would be every error of the
// system, and the errors joined around it grow with each other.
//
// Each send notes, for each pointer cell of the element, the objects the
// value sent may name, by channel and cell; a channel whose identity is
// known only at run time (received from a channel) notes them for every
// channel of its element type. A receive takes the objects the round
// before noted for its channel (or channels, for a channel chosen at run
// time); without them (the first round) or where a send sent something
// that is not a known object (an interior pointer, a value box of a
// run-time integer), it takes the candidates of the type. The rounds
// settle as the heap does: a round whose sends send an object its
// receives did not take is lowered again, with the union of what both
// rounds sent, so that the round that stands received all of it.

// sentSet is what the sends on one cell of a channel sent: the objects,
// or, with any, something else.
type sentSet struct {
	objs map[*object]bool
	any  bool
}

// sentKey names cell i of the elements of channel ch.
func sentKey(ch *channel, i int) string { return fmt.Sprintf("%s#%d", ch.key, i) }

// sentTypeKey names cell i of the elements of every channel of element
// type elem: what a send on a channel known only by its identity sent.
func sentTypeKey(elem types.Type, i int) string {
	return fmt.Sprintf("chan %s#%d", types.TypeString(elem, nil), i)
}

// noteSent records the objects of x, sent by case c on a channel of
// element type elem.
func (s *system) noteSent(c *chanCase, elem types.Type, x value) {
	cells := s.elemCells(elem, token.NoPos)
	for i, cl := range cells {
		if !isPtrCell(cl.typ) {
			continue
		}
		v := x
		if isAggregate(elem) {
			v = cellOf(x, cl)
		}
		objs, known := s.sentObjs(v, c.vals[i])
		for _, k := range s.caseKeys(c, elem, i, true) {
			set := s.heap.sent[k]
			if set == nil {
				set = &sentSet{objs: map[*object]bool{}}
				if s.heap.sent == nil {
					s.heap.sent = map[string]*sentSet{}
				}
				s.heap.sent[k] = set
			}
			set.any = set.any || !known
			for _, o := range objs {
				set.objs[o] = true
			}
		}
	}
}

// caseKeys returns the keys of cell i of the channels case c may be on:
// with send, the type's key for a channel known by its identity; without
// (a receive), the channels' keys and their type's. A receive from a
// channel known by its identity has none: it takes the candidates.
func (s *system) caseKeys(c *chanCase, elem types.Type, i int, send bool) []string {
	chans := c.alts
	if c.ch != nil {
		chans = []*channel{c.ch}
	}
	switch {
	case c.byID != nil && send:
		return []string{sentTypeKey(elem, i)}
	case c.byID != nil:
		return nil
	}
	var keys []string
	for _, ch := range chans {
		keys = append(keys, sentKey(ch, i))
	}
	if !send {
		keys = append(keys, sentTypeKey(elem, i))
	}
	return keys
}

// sentObjs returns the objects a sent cell value v, carried as e, may
// name, and false when it may be something else.
func (s *system) sentObjs(v value, e model.Expr) ([]*object, bool) {
	if c, ok := e.(model.Const); ok {
		if c.Value == 0 {
			return nil, true
		}
		if c.Value < 0 || int(c.Value) > len(s.heap.heap) {
			return nil, false
		}
		return []*object{s.heap.heap[c.Value-1]}, true
	}
	return refObjs(v)
}

// refObjs returns the objects a pointer or interface value v held as a
// heap id may name, and false when it is not known: an interior pointer,
// a box, a value of another kind.
func refObjs(v value) ([]*object, bool) {
	whole := func(p value) bool {
		return p.kind == vPtr && len(p.ptr.path) == 0 && p.ptr.ref == nil && p.ptr.obj != nil
	}
	switch {
	case v.kind == vNil:
		return nil, true
	case v.kind == vRef:
		return v.objs, true
	case whole(v):
		return []*object{v.ptr.obj}, true
	case v.kind == vIface && v.box == nil && len(v.env) > 0 && isObjPtr(v.typ):
		switch p := v.env[0]; {
		case p.kind == vRef:
			return p.objs, true
		case whole(p):
			return []*object{p.ptr.obj}, true
		}
	}
	return nil, false
}

// recvObjs returns the objects cell i, of type t, of what receive case c
// gets may name.
func (s *system) recvObjs(c *chanCase, elem types.Type, i int, t types.Type) []*object {
	keys := s.caseKeys(c, elem, i, false)
	if keys == nil || !s.heap.hint.sentKnown {
		return s.recvFallback(keys, t)
	}
	var objs []*object
	for _, k := range keys {
		set := s.heap.hint.sentSets[k]
		if set == nil {
			continue
		}
		if set.any {
			return s.recvFallback(keys, t)
		}
		for o := range set.objs {
			if !slices.Contains(objs, o) {
				objs = append(objs, o)
			}
		}
	}
	if s.heap.recvUsed == nil {
		s.heap.recvUsed = map[string]bool{}
	}
	for _, k := range keys {
		s.heap.recvUsed[k] = true
	}
	slices.SortFunc(objs, func(a, b *object) int { return s.heap.ids[a] - s.heap.ids[b] })
	return objs
}

// recvFallback returns the candidates of t, noting that the receive on
// keys took them.
func (s *system) recvFallback(keys []string, t types.Type) []*object {
	objs := s.candidates(t)
	if s.heap.recvWide == nil {
		s.heap.recvWide = map[string]int{}
	}
	for _, k := range keys {
		s.heap.recvWide[k] = max(s.heap.recvWide[k], len(objs))
	}
	return objs
}

// checkSent asks for another round where a receive took fewer objects
// than the sends sent, or where taking only what was sent would make
// fewer cases than the candidates a receive took.
func (s *system) checkSent() {
	for k := range s.heap.recvUsed {
		set, old := s.heap.sent[k], s.heap.hint.sentSets[k]
		if set == nil {
			continue
		}
		if set.any || old == nil {
			s.heapChange("a channel carries what its receives did not take")
			return
		}
		for o := range set.objs {
			if !old.objs[o] {
				s.heapChange("a channel carries what its receives did not take")
				return
			}
		}
	}
	for k, n := range s.heap.recvWide {
		if set := s.heap.sent[k]; set != nil && !set.any && len(set.objs) < n {
			s.heapChange("receives take only what their channels carry")
			return
		}
	}
}

// nextSent returns, for the hint, what the hint's sends and this round's
// sent, by position in the hint's objects (at: the position plus one).
func (s *system) nextSent(at map[*object]int) map[string]sentHint {
	out := map[string]sentHint{}
	for _, sets := range []map[string]*sentSet{s.heap.hint.sentSets, s.heap.sent} {
		for k, set := range sets {
			h := out[k]
			h.any = h.any || set.any
			for o := range set.objs {
				if n := at[o]; n > 0 && !slices.Contains(h.objs, n) {
					h.objs = append(h.objs, n)
				}
			}
			out[k] = h
		}
	}
	return out
}

// sentHint is a sentSet kept in the hint: objects by position in the
// hint's objects, plus one.
type sentHint struct {
	objs []int
	any  bool
}

// restoreSent makes the hint's sets of the objects of this round's heap.
func (s *system) restoreSent(h *heapHint) {
	if h.sent == nil {
		return
	}
	h.sentSets = map[string]*sentSet{}
	for k, sh := range h.sent {
		set := &sentSet{objs: map[*object]bool{}, any: sh.any}
		for _, n := range sh.objs {
			set.objs[s.heap.heap[n-1]] = true
		}
		h.sentSets[k] = set
	}
}

// phiObjs returns the objects a join of pointer values may name: those of
// the values its edges bring when every edge is known, else the
// candidates of its type t.
func (s *system) phiObjs(known []value, back bool, t types.Type) []*object {
	if back {
		return s.candidates(t)
	}
	var out []*object
	for _, v := range known {
		objs, ok := refObjs(v)
		if !ok {
			return s.candidates(t)
		}
		for _, o := range objs {
			if !slices.Contains(out, o) {
				out = append(out, o)
			}
		}
	}
	return out
}
