package extract

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/fencecheck/fencecheck/model"
)

// What channels carry, and calls through function tables return.
//
// A receive of a pointer or an interface value gets an element some send
// on the channel sent (or nil, from a closed channel); a call through a
// function table gets what one of the table's functions returned. A register holding
// it is split over the objects it may name wherever it is used (an
// errors.Join over it makes one error for each), so naming every object of
// its type, as a pointer loaded from memory does (candidates), makes cases
// no run has: an error received from a channel would be every error of the
// system, and the errors joined around it grow with each other.
//
// Each send notes, for each pointer cell of the element, the objects the
// value sent may name, by channel and cell; a channel whose identity is
// known only at run time (received from a channel) notes them for every
// channel of its element type; each function lowered for a call through
// a table notes what it returns, by the table's signature. A receive takes the objects the round
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
	// mayNil: a send may have sent nil (for a receive that got what was
	// sent, errwrap.go's usedOnlyIfOK).
	mayNil bool
}

// sentKey names cell i of the elements of channel ch.
func sentKey(ch *channel, i int) string { return fmt.Sprintf("%s#%d", ch.key, i) }

// sentTypeKey names cell i of the elements of every channel of element
// type elem: what a send on a channel known only by its identity sent.
func sentTypeKey(elem types.Type, i int) string {
	return fmt.Sprintf("chan %s#%d", types.TypeString(elem, nil), i)
}

// noteSent records the objects of x, sent by case c on a channel of
// element type elem, and whether it may be nil (nonNil: a branch tested
// it is not).
func (s *system) noteSent(c *chanCase, elem types.Type, x value, nonNil bool) {
	cells := s.elemCells(elem, token.NoPos)
	for i, cl := range cells {
		if !isPtrCell(cl.typ) {
			continue
		}
		v := x
		if isAggregate(elem) {
			v = cellOf(x, cl)
		}
		keys := s.caseKeys(c, elem, i, true)
		s.noteValue(keys, v, c.vals[i])
		if mayBeNil(v, c.vals[i], nonNil && !isAggregate(elem)) {
			s.noteNil(keys)
		}
	}
}

// noteNil records that nil may have flowed to the places keys name. A
// round without flows to go by (the first) records nothing, and asks for
// another: which values are not nil is found from none being nil, up.
func (s *system) noteNil(keys []string) {
	if !s.heap.hint.sentKnown {
		s.heapChange("what may be nil is not known yet")
		return
	}
	for _, k := range keys {
		if set := s.heap.sent[k]; set != nil {
			set.mayNil = true
		}
	}
}

// mayBeNil reports whether a sent cell value v, carried as e, may be nil;
// nonNil says a branch tested it is not.
func mayBeNil(v value, e model.Expr, nonNil bool) bool {
	if c, ok := e.(model.Const); ok {
		return c.Value == 0
	}
	switch {
	case nonNil, v.kind == vRef && v.noNil:
		return false
	case v.kind == vPtr:
		return false
	case v.kind == vIface && len(v.env) > 0 && v.env[0].kind == vPtr:
		return false
	}
	return true
}

// noNilSent reports whether no send on the places keys name sent nil, as
// the round before found.
func (s *system) noNilSent(keys []string) bool {
	if !s.flowRefined(keys) {
		return false
	}
	for _, k := range keys {
		if set := s.heap.hint.sentSets[k]; set != nil && set.mayNil {
			return false
		}
	}
	if s.heap.nilUsed == nil {
		s.heap.nilUsed = map[string]bool{}
	}
	for _, k := range keys {
		s.heap.nilUsed[k] = true
	}
	return true
}

// noteValue records that v, held as e, flowed to the places keys name. A
// value whose objects were guessed (a round without flows to go by) is
// not recorded: the round is lowered again, with the flows it found.
func (s *system) noteValue(keys []string, v value, e model.Expr) {
	if isGuessed(v) {
		s.heapChange("a value whose targets were guessed flows on")
		return
	}
	objs, known := s.sentObjs(v, e)
	s.noteFlow(keys, objs, known)
}

// isGuessed reports whether v, or the pointer an interface value v holds,
// names objects guessed from its type.
func isGuessed(v value) bool {
	return v.kind == vRef && v.guessed || v.kind == vIface && len(v.env) > 0 && v.env[0].kind == vRef && v.env[0].guessed
}

// noteFlow records that objs, or with !known something else, flowed to
// the places keys name.
func (s *system) noteFlow(keys []string, objs []*object, known bool) {
	for _, k := range keys {
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
// gets may name, and whether they were guessed.
func (s *system) recvObjs(c *chanCase, elem types.Type, i int, t types.Type) ([]*object, bool) {
	return s.flowObjs(s.caseKeys(c, elem, i, false), t)
}

// flowObjs returns the objects a value of type t that comes from the
// places keys name may name: what the round before noted flowed there,
// or the candidates of t; guessed is set when they are the candidates
// because the round before noted nothing.
func (s *system) flowObjs(keys []string, t types.Type) (objs []*object, guessed bool) {
	if !s.flowRefined(keys) {
		return s.recvFallback(keys, t), keys != nil && !s.heap.hint.sentKnown
	}
	for _, k := range keys {
		set := s.heap.hint.sentSets[k]
		if set == nil {
			continue
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
	return objs, false
}

// flowRefined reports whether the round before noted everything that
// flowed to the places keys name.
func (s *system) flowRefined(keys []string) bool {
	if keys == nil || !s.heap.hint.sentKnown {
		return false
	}
	for _, k := range keys {
		if set := s.heap.hint.sentSets[k]; set != nil && set.any {
			return false
		}
	}
	return true
}

// resultKey names result k of the calls through the function table of
// signature sig (funcvals.go).
func resultKey(sig *types.Signature, k int) string {
	return fmt.Sprintf("%s#%d", types.TypeString(sig, nil), k)
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
	for k := range s.heap.nilUsed {
		if set, old := s.heap.sent[k], s.heap.hint.sentSets[k]; set != nil && set.mayNil && (old == nil || !old.mayNil) {
			s.heapChange("a channel carries nil where its receives took none")
			return
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
// sent, by position in the hint's objects (at: the position plus one): the
// sets only grow, over rounds that lower different code (a call through a
// table lowered in one round and not in the round before), and lose only
// the objects no longer made.
func (s *system) nextSent(at map[*object]int) map[string]sentHint {
	out := map[string]sentHint{}
	for _, sets := range []map[string]*sentSet{s.heap.hint.sentSets, s.heap.sent} {
		for k, set := range sets {
			h := out[k]
			h.any = h.any || set.any
			h.mayNil = h.mayNil || set.mayNil
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
	objs   []int
	any    bool
	mayNil bool
}

// restoreSent makes the hint's sets of the objects of this round's heap.
func (s *system) restoreSent(h *heapHint) {
	if h.sent == nil {
		return
	}
	h.sentSets = map[string]*sentSet{}
	for k, sh := range h.sent {
		set := &sentSet{objs: map[*object]bool{}, any: sh.any, mayNil: sh.mayNil}
		for _, n := range sh.objs {
			set.objs[s.heap.heap[n-1]] = true
		}
		h.sentSets[k] = set
	}
}

// phiObjs returns the objects a join of pointer values, phi, may name:
// those of the values its edges bring, the edges lowered later (a loop's
// back edge) by what the round before noted they brought, else the
// candidates of its type; and whether some were guessed.
func (s *system) phiObjs(phi *ssa.Phi, known []value, back bool) ([]*object, bool) {
	t := phi.Type()
	var out []*object
	guessed := false
	if back {
		objs, g := s.flowObjs([]string{phiFlowKey(phi)}, t)
		if g || !s.flowRefined([]string{phiFlowKey(phi)}) {
			return objs, g
		}
		out = objs
	}
	for _, v := range known {
		objs, ok := refObjs(v)
		if !ok {
			return s.candidates(t), false
		}
		guessed = guessed || isGuessed(v)
		for _, o := range objs {
			if !slices.Contains(out, o) {
				out = append(out, o)
			}
		}
	}
	return out, guessed
}

// phiFlowKey names the values the edges of phi bring.
func phiFlowKey(phi *ssa.Phi) string { return fmt.Sprintf("phi %p", phi) }

// cellFlowKey names the memory cell q: what goroutines store there.
func cellFlowKey(q pointer) string { return "cell " + q.key() }

// cellObjs returns the objects a load of a pointer of type t from the
// cells keys, which the set-up left holding the heap ids inits, may
// name: those and what goroutines store there, or the candidates of t.
func (s *system) cellObjs(keys []string, inits []int64, t types.Type) ([]*object, bool) {
	objs, guessed := s.flowObjs(keys, t)
	if !s.flowRefined(keys) {
		return objs, guessed
	}
	for _, id := range inits {
		if id <= 0 || int(id) > len(s.heap.heap) {
			continue
		}
		if o := s.heap.heap[id-1]; !slices.Contains(objs, o) {
			objs = append(objs, o)
		}
	}
	slices.SortFunc(objs, func(a, b *object) int { return s.heap.ids[a] - s.heap.ids[b] })
	return objs, false
}
