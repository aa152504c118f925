package extract

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/ssa"

	"github.com/fencecheck/fencecheck/model"
)

// Maps. A map is a fixed set of slots, one per key the system can use,
// each a presence flag and the cells of an element: m["a"] and
// present(m["a"]). A key is one cell (an integer, a boolean, a string's
// interned id, a pointer's or an interface value's heap id, a channel's
// number) or the cells of a struct or array of them. The keys of a
// map are those the set-up inserts, the constant keys the goroutines use
// and, for a key known only at run time, the values the domain inference
// finds it can take where it is inserted; more than maxMapKeys keys
// (maxSetupMapKeys for a map the set-up fills) are reported as
// unsupported.
//
// An absent key's element cells hold the zero value (a delete or a clear
// zeroes them), so that a lookup reads the cells alone and a comma-ok
// lookup the flag too; len sums the flags. An access with a key known only
// at run time is a case split over the slots; a key outside them is absent
// for a lookup and a delete, and inserting it makes the count of keys
// outside them leave its domain, which the analysis reports as
// inconclusive, naming the map (another round of lowering gives the map
// the keys the domain inference found, so that this happens only for keys
// whose values it cannot bound).
//
// A map the set-up (or the package's initialisation) makes is shared, and
// it has a variable of its own, named as the map and always 0: every
// access reads it, and every assignment, delete and clear writes it, so
// that two accesses to one map of which one writes race, whatever keys
// they use (Go's maps are not safe for concurrent use; the runtime may stop
// the program with "concurrent map writes"). Beside that plain access, an
// operation's access to the slots is one locked step, so that no
// interleaving sees a key half inserted. A map a goroutine makes is
// private to it: registers; one it stores in shared memory or joins with
// another map is shared from its make (another round).
//
// A field or variable that goroutines store maps into holds the identity
// of a map (1, 2, ...; 0 is nil), and an operation on a map loaded from it
// or joined at a phi (vMapRef) splits over every shared map of its type.
//
// A range over a map visits the keys in any order: each step takes any
// key not visited yet that is present, and the loop ends when every key
// present at its start has been visited or deleted; a key inserted during
// the loop may be visited or not, as in Go. The set-up runs once, so at a
// range over a map of several keys it ends (splitAtRange), and the system
// function's process runs the loop; a go statement in it starts a
// goroutine per key (mapRangeTrips). A nil map reads as empty, and an
// assignment to it panics (a bad state).

// maxMapKeys bounds the keys the model keeps for one map, and
// maxSetupMapKeys those of a map the set-up or the package's
// initialisation fills (a lookup table), to which goroutines add keys only
// while it has fewer than maxMapKeys.
const (
	maxMapKeys      = 16
	maxSetupMapKeys = 64
)

// keyCell is one cell of a key in a form that does not depend on the
// round of lowering: a string by its contents, anything else by its value.
type keyCell struct {
	isStr bool
	str   string
	n     int64
}

// compare orders key cells: numbers before strings, each by value.
func (k keyCell) compare(o keyCell) int {
	if k.isStr != o.isStr {
		if k.isStr {
			return 1
		}
		return -1
	}
	if k.isStr {
		return strings.Compare(k.str, o.str)
	}
	return cmp.Compare(k.n, o.n)
}

// descID and tupleID key a key's form d and its tuple t in Go maps.
func descID(d []keyCell) string { return fmt.Sprint(d) }

func tupleID(t []int64) string { return fmt.Sprint(t) }

// mapObj is one map: made by the set-up (shared) or by a goroutine.
type mapObj struct {
	typ, key, elem types.Type
	site           *ssa.MakeMap
	owner          int     // -1 for the set-up's maps, else the goroutine that made it
	obj            *object // the map's own variable (see above); its name is the map's
	cells          []cell  // the cells of a key
	slots          []*mapSlot
	byKey          map[string]*mapSlot // by tupleID
	// enumerated: a lowered operation depends on the set of slots (a
	// split on a key known only at run time, a range, len, clear), so a
	// slot made after it asks for another round.
	enumerated bool
	// id is the map's identity in a cell that goroutines store maps
	// into (0 until it needs one; 0 there is nil).
	id int64
	// escaped: a goroutine makes the map and stores it in shared memory.
	escaped bool
	// sync: the map is a sync.Map (syncmap.go): no access to the map
	// itself, only the locked steps on the slots of its keys; syncCell
	// is the object that holds the sync.Map.
	sync     bool
	syncCell *object
	// occ counts, for a goroutine's map, the runs of its make in the
	// goroutine before the one that made it (escapeID).
	occ int
}

// mapSlot is the slot of one key.
type mapSlot struct {
	key     []int64   // the key's cells, as the model holds them
	desc    []keyCell // the same, for the next round
	present *object   // bool
	val     *object   // of the element type
}

// mapIter is the state of a range over a map.
type mapIter struct {
	// The set-up's: the map (nil for a nil map), the slots to visit and
	// the next.
	m     *mapObj
	order []*mapSlot
	next  int
	// A goroutine's: the state of each map the ranged value may be (none
	// for a nil map), and visits, which counts the keys visited, so that
	// the domain inference sees the loop end (a counter of the loop: see
	// loopBudget).
	alts   []iterAlt
	visits int
	pos    token.Pos
	o      Origin
}

// mapProbe is a register that holds a key known only at run time where a
// goroutine inserts it outside the slots of its map.
type mapProbe struct {
	m    *mapObj
	p    *proc
	regs []int // one per cell of the key
}

// mapState is what the lowering of one system knows of its maps.
type mapState struct {
	all    []*mapObj
	probes []mapProbe
	want   map[*ssa.MakeMap][][]keyCell // keys the probes found
	// written are the map cells goroutines store into, escapes the maps
	// goroutines make and store in shared memory (both for the next
	// round); escaped are the latter, made shared in this round.
	written map[string]bool
	escapes map[escapeID]string
	escaped map[escapeID]*mapObj
	lastID  int64
	// floatRanged are the makes of maps with float keys that a range
	// visits, zeroInserts those of maps into which a -0 key may be
	// inserted (floatkeys.go), in this round.
	floatRanged, zeroInserts map[*ssa.MakeMap]bool
	// syncs are the sync.Maps, by the key of their memory (syncmap.go).
	syncs map[string]*mapObj
}

// escapeID names a map a goroutine makes: the make, the goroutine, and
// which of the make's runs in the goroutine (a function called twice runs
// its make twice, and Go makes two maps).
type escapeID struct {
	site *ssa.MakeMap
	proc int
	occ  int
}

// mapsHint is what a round of lowering tells the next about maps: the
// keys of the maps each make makes, the map cells goroutines store into,
// and the maps goroutines make and store in shared memory, with their
// names.
type mapsHint struct {
	keys    map[*ssa.MakeMap][][]keyCell
	cells   map[string]bool
	escapes map[escapeID]string
	// floatRanged: the makes of maps with float keys a range visits.
	floatRanged map[*ssa.MakeMap]bool
}

// isMap reports whether t is a map type.
func isMap(t types.Type) bool {
	_, ok := t.Underlying().(*types.Map)
	return ok
}

// newMap makes the map of in for owner (-1: the set-up), named after the
// local variable that holds it.
func (s *system) newMap(fr *frame, in *ssa.MakeMap, owner int) *mapObj {
	name := ""
	if id := s.x.debugOf(fr.fn).ident[in]; id != nil {
		name = id.Name
	}
	return s.newMapObj(in, owner, name)
}

// newMapObj makes a map of in for owner, with a slot for every key the
// previous rounds found for it.
func (s *system) newMapObj(in *ssa.MakeMap, owner int, name string) *mapObj {
	mt, ok := in.Type().Underlying().(*types.Map)
	if !ok {
		s.unsupported(in.Pos(), "a map of type %s", in.Type())
	}
	m := &mapObj{typ: in.Type(), key: mt.Key(), elem: mt.Elem(), site: in, owner: owner, byKey: map[string]*mapSlot{}}
	m.cells = s.keyCells(m.key, in.Pos())
	m.obj = s.newObject(name, in.Type(), nil, owner)
	if m.obj.anon {
		m.obj.name = "map"
	}
	s.maps.all = append(s.maps.all, m)
	for _, d := range s.heap.hint.maps.keys[in] {
		s.addSlot(m, s.keyTuple(d), d, in.Pos())
	}
	return m
}

// keyCells lists the cells of a key of type t: the key itself, or the
// cells of a struct or array; each must be an integer, a boolean, a
// string, a pointer, an interface value or a channel (the last three by
// their identity: a heap id, a channel's number).
func (s *system) keyCells(t types.Type, pos token.Pos) []cell {
	cells := []cell{{typ: t}}
	if isAggregate(t) {
		cells = s.aggCells(t, pos)
	}
	for _, c := range cells {
		if k := classify(c.typ); k != leafInt && (k != leafPointer || isAggregate(c.typ)) && !isChanCell(c.typ) {
			s.unsupported(pos, "a map whose keys are of type %s (keys of integers, booleans, strings, floats, pointers, interface values and channels, and of structs and arrays of them, are modelled)", t)
		}
	}
	return cells
}

// keyExprs returns the expressions of the cells of key, a key of m, as
// its slots hold them: a float's -0 as +0 (floatkeys.go).
func (s *system) keyExprs(m *mapObj, key value, pos token.Pos) []model.Expr {
	return s.canonKey(m, s.rawKeyExprs(m, key, pos))
}

// rawKeyExprs returns the expressions of the cells of key, a key of m.
func (s *system) rawKeyExprs(m *mapObj, key value, pos token.Pos) []model.Expr {
	if !isAggregate(m.key) {
		return []model.Expr{s.keyCellExpr(m.key, key, pos)}
	}
	if key.kind != vAgg {
		s.unsupported(pos, "%s as a key of type %s", describe(key), m.key)
	}
	out := make([]model.Expr, len(m.cells))
	for i, c := range m.cells {
		out[i] = s.keyCellExpr(c.typ, cellOf(key, c), pos)
	}
	return out
}

// keyCellExpr returns the expression of v, a cell of a key of type t: a
// channel's number, a pointer's or an interface value's heap id, or the
// value.
func (s *system) keyCellExpr(t types.Type, v value, pos token.Pos) model.Expr {
	switch {
	case isChanCell(t):
		return s.chanID(v, pos)
	case isPtrCell(t):
		if mayHoldValueBox(v) {
			s.unsupported(pos, "a map key that may be an interface value holding a struct, an array, a function or a channel (Go compares their payloads, fencecheck their boxes)")
		}
		if ts := s.sliceTypes(v); len(ts) > 0 {
			s.unsupported(pos, "a map key that may be an interface value holding a %s (Go panics: hash of unhashable type %s)", ts[0], ts[0])
		}
		if mayHoldFloat(v) {
			s.unsupported(pos, "a map key that may be an interface value holding a float (Go compares floats by value, fencecheck their bits)")
		}
		if types.IsInterface(t) && s.mayHoldAnyString(v) {
			s.unsupported(pos, "an interface map key that may hold a string fencecheck does not compute")
		}
		s.refuseLoopError(v, pos) // its identity is the key
		if mayNameZeroSize(v) {
			s.unsupported(pos, "a map key that may be a pointer to a zero-size variable (Go may or may not make two distinct ones equal: gc gives every one that escapes one address)")
		}
		return s.refExpr(v, pos)
	}
	if isString(t) && isAnyString(v) {
		s.unsupported(pos, "%s as a map key (a string fencecheck does not compute)", strings.TrimSuffix(v.why, ", which fencecheck does not compute"))
	}
	return s.asInt(v, pos)
}

// keyCellValue returns the value of a cell of a key of type t that the
// model holds as e.
func (s *system) keyCellValue(t types.Type, e model.Expr) value {
	c, isConst := e.(model.Const)
	switch {
	case isChanCell(t) && isConst && c.Value == 0:
		return value{kind: vNil}
	case isChanCell(t) && isConst && c.Value > 0 && int(c.Value) <= len(s.chans):
		return value{kind: vChan, ch: s.chans[c.Value-1]}
	case isChanCell(t):
		return value{kind: vChanRef, e: e, typ: t, byID: true}
	case isPtrCell(t):
		return s.refVal(e, t)
	}
	return intVal(e)
}

// constTuple returns the values of constant key cells.
func constTuple(es []model.Expr) ([]int64, bool) {
	out := make([]int64, len(es))
	for i, e := range es {
		c, ok := e.(model.Const)
		if !ok {
			return nil, false
		}
		out[i] = c.Value
	}
	return out, true
}

// keyDesc returns the round-independent form of the key tuple t of m.
func (s *system) keyDesc(m *mapObj, t []int64) []keyCell {
	d := make([]keyCell, len(t))
	for i, c := range m.cells {
		if isString(c.typ) {
			str, ok := s.stringOf(constVal(t[i]))
			if !ok {
				s.fail(token.NoPos, "internal error: string id %d of a map key", t[i])
			}
			d[i] = keyCell{isStr: true, str: str}
			continue
		}
		d[i] = keyCell{n: t[i]}
	}
	return d
}

// keyTuple returns the key tuple of the round-independent form d.
func (s *system) keyTuple(d []keyCell) []int64 {
	t := make([]int64, len(d))
	for i, k := range d {
		if k.isStr {
			t[i] = s.intern(k.str)
		} else {
			t[i] = k.n
		}
	}
	return t
}

// keyText spells a key of m as Go code would: "a", 3, true, {1, "b"}.
func (s *system) keyText(m *mapObj, d []keyCell) string {
	parts := make([]string, len(d))
	for i, k := range d {
		t := m.cells[i].typ
		switch {
		case (isChanCell(t) || isPtrCell(t)) && k.n == 0:
			parts[i] = "nil"
		case isChanCell(t) && k.n <= int64(len(s.chans)):
			parts[i] = s.chans[k.n-1].name
		case isPtrCell(t) && k.n <= int64(len(s.heap.heap)):
			o := s.heap.heap[k.n-1]
			if parts[i] = o.name; !o.box && !o.byValue {
				parts[i] = "&" + o.name
			}
		case k.isStr:
			parts[i] = strconv.Quote(k.str)
		case isBool(t):
			parts[i] = strconv.FormatBool(k.n != 0)
		case isUnsigned64(t):
			parts[i] = strconv.FormatUint(uint64(k.n), 10)
		case floatBits(t) != 0:
			parts[i] = floatText(k.n, floatBits(t))
		default:
			parts[i] = strconv.FormatInt(k.n, 10)
		}
	}
	if !isAggregate(m.key) && len(parts) == 1 {
		return parts[0]
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// keyValue returns the value of a key of m.
func (s *system) keyValue(m *mapObj, t []int64) value {
	if !isAggregate(m.key) {
		return s.keyCellValue(m.key, model.C(t[0]))
	}
	agg := map[string]value{}
	for i, c := range m.cells {
		agg[c.key] = s.keyCellValue(c.typ, model.C(t[i]))
	}
	return value{kind: vAgg, agg: agg}
}

// mapLabel names m for a message.
func (s *system) mapLabel(m *mapObj) string {
	if !m.obj.named && m.obj.anon && m.obj.holder != nil {
		return m.obj.holder.name()
	}
	if m.obj.named {
		return m.obj.raw
	}
	return m.obj.name
}

// addSlot gives m a slot for the key t (of form d).
func (s *system) addSlot(m *mapObj, t []int64, d []keyCell, pos token.Pos) *mapSlot {
	limit := maxMapKeys
	if m.owner < 0 && s.curProc == nil {
		limit = maxSetupMapKeys
	}
	if len(m.slots) >= limit {
		var keys []string
		for _, sl := range m.slots {
			keys = append(keys, s.keyText(m, sl.desc))
		}
		s.unsupported(pos, "more than %d keys in the map %s (fencecheck keeps at most %d keys of a map, %d of one the set-up fills; it has %s, and now %s)",
			limit, s.mapLabel(m), maxMapKeys, maxSetupMapKeys, strings.Join(keys, ", "), s.keyText(m, d))
	}
	sl := &mapSlot{key: t, desc: d,
		present: s.newObject("", types.Typ[types.Bool], nil, m.owner),
		val:     s.newObject("", m.elem, nil, m.owner)}
	m.slots = append(m.slots, sl)
	m.byKey[tupleID(t)] = sl
	if m.enumerated {
		// An operation lowered before did not consider the slot.
		s.heapChange("a map gets a key after an operation that depends on its keys")
	}
	if m.obj.named {
		s.nameSlot(m, sl)
	}
	return sl
}

// slotOf returns the slot of the constant key t of m, made when missing
// if create is set (else nil).
func (s *system) slotOf(m *mapObj, t []int64, create bool, pos token.Pos) *mapSlot {
	if sl := m.byKey[tupleID(t)]; sl != nil || !create {
		return sl
	}
	return s.addSlot(m, t, s.keyDesc(m, t), pos)
}

// nameMap fixes the names of m's variables: the map's own, then its
// slots'. A map that may be in a cell goroutines store maps into is named
// after where it is made too (c.items@12), the cell being a variable of
// its own.
func (s *system) nameMap(m *mapObj) {
	if !m.obj.named && s.inMapCell(m) {
		m.obj.name = fmt.Sprintf("%s@%d", s.mapLabel(m), s.x.fset.Position(m.site.Pos()).Line)
		m.obj.anon, m.obj.holder = false, nil
	}
	s.display(m.obj)
	for _, sl := range m.slots {
		s.nameSlot(m, sl)
	}
}

// nameSlot names sl's variables after m's name and sl's key.
func (s *system) nameSlot(m *mapObj, sl *mapSlot) {
	if sl.val.named || sl.present.named {
		return
	}
	k := m.obj.name + "[" + s.keyText(m, sl.desc) + "]"
	sl.val.name, sl.val.anon = k, false
	sl.present.name, sl.present.anon = "present("+k+")", false
}

// nameMapVar names an anonymous map after the local variable that holds
// it (m := make(map[string]int)).
func nameMapVar(v value, name string) {
	if v.kind == vMap && v.mp.obj.anon && !v.mp.obj.named && v.mp.obj.holder == nil {
		v.mp.obj.name, v.mp.obj.anon = name, false
	}
}

// nameMapHolder names an anonymous map after the cell p the set-up first
// stores it in (c.items).
func nameMapHolder(v value, p pointer) {
	o := v.mp.obj
	if !o.anon || o.named || o == p.obj {
		return
	}
	if o.holder == nil || o.holder.obj.anon && !p.obj.anon {
		q := p
		o.holder = &q
	}
}

// zeroValue returns the zero value of type t.
func zeroValue(t types.Type) value {
	if isAggregate(t) {
		return value{kind: vAgg, agg: map[string]value{}}
	}
	switch t.Underlying().(type) {
	case *types.Pointer, *types.Signature, *types.Slice, *types.Map, *types.Chan, *types.Interface:
		return value{kind: vNil}
	}
	return constVal(0)
}

// The set-up.

// setupMap executes an instruction on a map in the set-up: handled is
// false for any other instruction.
func (s *system) setupMap(fr *frame, in ssa.Instruction, spawns []spawn) (handled bool) {
	switch in := in.(type) {
	case *ssa.MakeMap:
		fr.vals[in] = value{kind: vMap, mp: s.newMap(fr, in, -1)}
	case *ssa.MapUpdate:
		m := s.setupMapOf(s.get(fr, in.Map), true, in.Pos())
		s.setupMapWrite(m, in.Pos(), spawns)
		s.setupFloatKey(m, s.get(fr, in.Key), in.Pos())
		sl := s.slotOf(m, s.setupKey(m, s.get(fr, in.Key), in.Pos()), true, in.Pos())
		s.mem[pointer{obj: sl.present}.key()] = constVal(1)
		s.setupStore(pointer{obj: sl.val}, s.get(fr, in.Value), in.Value, in.Pos())
	case *ssa.Lookup:
		if !isMap(in.X.Type()) {
			return false
		}
		m := s.setupMapOf(s.get(fr, in.X), false, in.Pos())
		elem, ok := zeroValue(in.X.Type().Underlying().(*types.Map).Elem()), constVal(0)
		if m != nil {
			if sl := s.slotOf(m, s.setupKey(m, s.get(fr, in.Index), in.Pos()), false, in.Pos()); sl != nil && s.setupPresent(sl) {
				elem, ok = s.setupLoad(pointer{obj: sl.val}, m.elem), constVal(1)
			}
		}
		fr.vals[in] = elem
		if in.CommaOk {
			fr.vals[in] = value{kind: vTuple, tup: []value{elem, ok}}
		}
	case *ssa.Range:
		if !isMap(in.X.Type()) {
			return false
		}
		it := &mapIter{m: s.setupMapOf(s.get(fr, in.X), false, in.Pos())}
		if it.m != nil {
			s.rangedFloatKeys(it.m)
			for _, sl := range it.m.slots {
				if s.setupPresent(sl) {
					it.order = append(it.order, sl)
				}
			}
			if len(it.order) > 1 {
				s.splitAtRange(it.m, len(it.order), in.Pos())
			}
		}
		fr.vals[in] = value{kind: vMapIter, it: it}
	case *ssa.Next:
		if in.IsString {
			return false
		}
		it := s.get(fr, in.Iter).it
		tt := in.Type().(*types.Tuple)
		res := []value{constVal(0), zeroValue(tt.At(1).Type()), zeroValue(tt.At(2).Type())}
		if it.m != nil {
			for _, sl := range it.m.slots {
				if s.setupPresent(sl) && !slices.Contains(it.order, sl) {
					s.unsupported(in.Pos(), "a range in the set-up over the map %s while it gets keys (whether the loop visits them is the runtime's choice)", s.mapLabel(it.m))
				}
			}
			for it.next < len(it.order) && !s.setupPresent(it.order[it.next]) {
				it.next++ // deleted before the loop reached it
			}
			if it.next < len(it.order) {
				sl := it.order[it.next]
				it.next++
				res = []value{constVal(1), s.keyValue(it.m, sl.key), s.setupLoad(pointer{obj: sl.val}, it.m.elem)}
			}
		}
		fr.vals[in] = value{kind: vTuple, tup: res}
	default:
		return false
	}
	return true
}

// splitAtRange handles a range of the set-up over m, of n > 1 keys: the
// order is the runtime's choice and the set-up runs once, so the next
// round ends the set-up before it (splitPoint), and the system function's
// process runs the loop in every order, go statements included (a go
// statement in the loop starts one goroutine per key, fanout.go). The set
// up goes on in the order of the slots for this round alone.
func (s *system) splitAtRange(m *mapObj, n int, pos token.Pos) {
	switch {
	case s.goStarted:
		s.splitSetup(pos, fmt.Sprintf("a range over the map %s of %d keys", s.mapLabel(m), n))
		return
	case s.heap.hint.splitAt != nil || s.topInstr == nil:
		s.unsupported(pos, "a range over the map %s of %d keys in the set-up, where the set-up cannot end before it (the order is the runtime's choice and the set-up runs once: range over it in a goroutine)", s.mapLabel(m), n)
	}
	if s.splitReq == nil {
		if s.splitReq = splitPoint(s.topInstr); s.splitReq == nil {
			s.unsupported(pos, "a range over the map %s of %d keys in the set-up, inside a loop without one head", s.mapLabel(m), n)
		}
		s.heapChange("the set-up ranges over a map of several keys")
	}
}

// setupMapBuiltin executes len, delete or clear of a map in the set-up;
// ok is false for other calls.
func (s *system) setupMapBuiltin(fr *frame, b *ssa.Builtin, args []ssa.Value, pos token.Pos, spawns []spawn) (v value, ok bool) {
	if len(args) == 0 || !isMap(args[0].Type()) {
		return value{}, false
	}
	m := s.setupMapOf(s.get(fr, args[0]), false, pos)
	switch b.Name() {
	case "len":
		n := 0
		if m != nil {
			for _, sl := range m.slots {
				if s.setupPresent(sl) {
					n++
				}
			}
		}
		return constVal(int64(n)), true
	case "delete":
		if m == nil {
			return value{}, true
		}
		s.setupMapWrite(m, pos, spawns)
		if sl := s.slotOf(m, s.setupKey(m, s.get(fr, args[1]), pos), false, pos); sl != nil {
			s.setupRemove(sl)
		}
		return value{}, true
	case "clear":
		if m == nil {
			return value{}, true
		}
		s.setupMapWrite(m, pos, spawns)
		for _, sl := range m.slots {
			s.setupRemove(sl)
		}
		return value{}, true
	}
	s.unsupported(pos, "the built-in %s on a map", b.Name())
	return value{}, false
}

// setupMapOf returns the map v holds, or nil for a nil map: an
// assignment (write) to it panics.
func (s *system) setupMapOf(v value, write bool, pos token.Pos) *mapObj {
	switch v.kind {
	case vMap:
		if !s.init.running {
			s.checkInit(v.mp.obj, pos)
		}
		return v.mp
	case vNil:
		if write {
			s.fail(pos, "the setup of system %s panics: assignment to entry in nil map", s.name)
		}
		return nil
	}
	s.unsupported(pos, "a map operation on %s", describe(v))
	return nil
}

// setupKey returns the cells of a key the set-up computes.
func (s *system) setupKey(m *mapObj, key value, pos token.Pos) []int64 {
	t, ok := constTuple(s.keyExprs(m, key, pos))
	if !ok {
		s.unsupported(pos, "a map key the set-up cannot compute")
	}
	return t
}

// setupPresent reports whether sl's key is in its map, in the set-up.
func (s *system) setupPresent(sl *mapSlot) bool {
	v, ok := s.mem[pointer{obj: sl.present}.key()]
	c, _ := v.constant()
	return ok && c != 0
}

// setupRemove deletes the key of sl: absent, its cells zero.
func (s *system) setupRemove(sl *mapSlot) {
	delete(s.mem, pointer{obj: sl.present}.key())
	key := pointer{obj: sl.val}.key()
	for k := range s.mem {
		if below(k, key) {
			delete(s.mem, k)
		}
	}
}

// setupMapWrite handles a change to m by the set-up after a go statement,
// as a store (exec): a goroutine already started may reach the map.
func (s *system) setupMapWrite(m *mapObj, pos token.Pos, spawns []spawn) {
	if len(spawns) == 0 || !s.reachable(m.obj) && (m.syncCell == nil || !s.reachable(m.syncCell)) {
		return
	}
	s.splitSetup(pos, "a change to the map "+s.mapLabel(m))
}

// Goroutines.

// slotCase is one case of an access to a map: the slot of the key (nil:
// a key outside every slot) and the condition (nil: always).
type slotCase struct {
	sl   *mapSlot
	cond model.Expr
}

// mapAlt is one map that a map value may be (nil: a nil map), with the
// condition under which it is (nil: always).
type mapAlt struct {
	m    *mapObj
	cond model.Expr
}

// mapInstr lowers an instruction on a map in a goroutine.
func (p *proc) mapInstr(fr *frame, b *ssa.BasicBlock, in ssa.Instruction, cur int) int {
	switch in := in.(type) {
	case *ssa.MakeMap:
		return p.makeMap(fr, b, in, cur)
	case *ssa.MapUpdate:
		if cur = p.anyStringKey(fr, in.Key, in.Pos(), cur); cur < 0 {
			return -1
		}
		return p.mapUpdate(fr, in, cur)
	case *ssa.Lookup:
		if isMap(in.X.Type()) {
			if cur = p.anyStringKey(fr, in.Index, in.Pos(), cur); cur < 0 {
				return -1
			}
			return p.mapLookup(fr, in, cur)
		}
	case *ssa.Range:
		if isMap(in.X.Type()) {
			return p.mapRange(fr, in, cur)
		}
	case *ssa.Next:
		if !in.IsString {
			return p.mapNext(fr, in, cur)
		}
	}
	p.s.unsupportedInstr(in)
	return -1
}

// makeMap makes a map of the goroutine; made in a loop, every execution
// empties it. A map that the goroutine stores in shared memory (found by
// an earlier round) is shared from here on.
func (p *proc) makeMap(fr *frame, b *ssa.BasicBlock, in *ssa.MakeMap, cur int) int {
	s := p.s
	if p.mapMakes == nil {
		p.mapMakes = map[*ssa.MakeMap]int{}
	}
	occ := p.mapMakes[in]
	p.mapMakes[in]++
	if _, ok := s.heap.hint.maps.escapes[escapeID{in, p.idx, occ}]; ok {
		if inLoop(fr, b) {
			return p.mapPool(fr, in, occ, cur)
		}
		fr.vals[in] = value{kind: vMap, mp: s.escapedMap(escapeID{in, p.idx, occ})}
		return cur
	}
	m := s.newMap(fr, in, p.idx)
	m.occ = occ
	fr.vals[in] = value{kind: vMap, mp: m}
	if inLoop(fr, b) {
		m.enumerated = true
		s.nameMap(m)
		for _, sl := range m.slots {
			cur = p.emit(cur, model.AssignOp(p.privateReg(pointer{obj: sl.present}), model.C(0)), in.Pos(), Origin{})
			for _, q := range leaves(pointer{obj: sl.val}, m.elem, maxAggCells) {
				cur = p.emit(cur, model.AssignOp(p.privateReg(q), model.C(0)), in.Pos(), Origin{})
			}
		}
	}
	return cur
}

// mapPool lowers a make of a map in a loop of the process whose maps reach
// shared memory (a producer's batch per iteration, a copy-on-write retry):
// each run takes the next of maxPool maps, empty until then, counted by a
// register whose domain ends there, as an allocation in a loop takes the
// next of its objects (pickNext): one more run leaves the domain,
// which the analysis reports as inconclusive, and no map is reused.
func (p *proc) mapPool(fr *frame, in *ssa.MakeMap, occ int, cur int) int {
	s := p.s
	first := escapeID{in, p.idx, occ}
	name := s.heap.hint.maps.escapes[first]
	pool := []*mapObj{s.escapedMap(first)}
	for k := 1; k < maxPool; k++ {
		id := escapeID{in, p.idx, occ + k*poolOcc}
		if s.heap.hint.maps.escapes[id] == "" {
			if s.heap.hint.maps.escapes == nil {
				s.heap.hint.maps.escapes = map[escapeID]string{}
			}
			s.heap.hint.maps.escapes[id] = name
		}
		pool = append(pool, s.escapedMap(id))
	}
	pos := in.Pos()
	r := p.newReg(p.regName(fr, in), in.Type())
	p.holds(r, fr, in)
	c := p.poolCounter(p.regName(fr, in)+".count", fmt.Sprintf("the number of maps the make at line %d runs in a loop of goroutine %s (fencecheck models %d)", s.x.fset.Position(pos).Line, p.q.Name, maxPool), pos)
	ids := make([]int64, len(pool))
	for k, m := range pool {
		ids[k] = s.mapID(m)
	}
	join := p.pickNext(ids, r, c, pos, cur, nil)
	fr.vals[in] = value{kind: vMapRef, e: model.R(r), typ: in.Type()}
	return join
}

// poolOcc separates the maps of a pool from the runs of their make in
// escapeID.occ.
const poolOcc = 1 << 16

// mapAlts returns the maps v may be: one map, nil, or for a map loaded
// from a cell that goroutines store maps into, every map that may be
// stored there and nil.
func (p *proc) mapAlts(v value, pos token.Pos) []mapAlt {
	s := p.s
	switch v.kind {
	case vMap:
		s.checkInit(v.mp.obj, pos)
		s.nameMap(v.mp)
		return []mapAlt{{m: v.mp}}
	case vNil:
		return []mapAlt{{}}
	case vMapRef:
		var alts []mapAlt
		for _, m := range s.mapCandidates(v.typ) {
			s.checkInit(m.obj, pos)
			s.nameMap(m)
			alts = append(alts, mapAlt{m: m, cond: model.Bin(model.OpEq, v.e, model.C(s.mapID(m)))})
		}
		return append(alts, mapAlt{cond: model.Bin(model.OpEq, v.e, model.C(0))})
	}
	s.unsupported(pos, "a map operation on %s", describe(v))
	return nil
}

// nameAnonMap returns the map value of x, first naming the maps it may be
// that have no name yet (a literal the set-up stores in an atomic.Value or
// sends on a channel) after the local variable x is, or the expression
// that computes it, so that findings name them as the code does (m["a"]).
func (p *proc) nameAnonMap(fr *frame, x ssa.Value) value {
	s := p.s
	v := s.get(fr, x)
	name := ""
	if id := s.x.debugOf(fr.fn).ident[x]; id != nil {
		name = id.Name
	} else if e, ok := s.x.debugOf(fr.fn).expr[x]; ok {
		name = types.ExprString(e) // t.routes.Load().(map[string]int32)
	}
	if name == "" {
		return v
	}
	var ms []*mapObj
	switch v.kind {
	case vMap:
		ms = []*mapObj{v.mp}
	case vMapRef:
		ms = s.mapCandidates(v.typ)
	}
	for _, m := range ms {
		if o := m.obj; o.anon && !o.named && o.holder == nil {
			o.name, o.anon = name, false
		}
	}
	return v
}

// onAlts emits, from cur, body for every alternative (i its index),
// each after its guard, joining at one location, which it returns (a
// body returns -1 for a branch that does not go on).
func (p *proc) onAlts(alts []mapAlt, pos token.Pos, cur int, body func(i int, a mapAlt, at int) int) int {
	if len(alts) == 1 && alts[0].cond == nil {
		return body(0, alts[0], cur)
	}
	join := p.newLoc(pos)
	for i, a := range alts {
		at := cur
		if a.cond != nil {
			at = p.emit(cur, model.GuardOp(a.cond), pos, Origin{})
		}
		if at = body(i, a, at); at >= 0 {
			p.emitTo(at, model.NopOp(), join, pos, Origin{})
		}
	}
	return join
}

// keyCases splits an access to m on its key: the slot of a constant key
// (made when missing if create is set), or for a key known only at run
// time a case per slot and one for every other key.
func (p *proc) keyCases(m *mapObj, es []model.Expr, create bool, pos token.Pos) []slotCase {
	s := p.s
	if t, ok := constTuple(es); ok {
		sl := s.slotOf(m, t, create, pos)
		if sl == nil {
			// The key is absent for good only if nothing lowered later
			// inserts it: a slot made later asks for another round.
			m.enumerated = true
		}
		return []slotCase{{sl: sl}}
	}
	m.enumerated = true
	var cases []slotCase
	var other model.Expr
	for _, sl := range m.slots {
		var eq, ne model.Expr
		for i, e := range es {
			eq = andAlso(eq, model.Bin(model.OpEq, e, model.C(sl.key[i])))
			ne = orElse(ne, model.Bin(model.OpNe, e, model.C(sl.key[i])))
		}
		cases = append(cases, slotCase{sl: sl, cond: eq})
		other = andAlso(other, ne)
	}
	return append(cases, slotCase{cond: other})
}

// andBoth is a && b, where a nil condition holds always (nil when both
// are nil).
func andBoth(a, b model.Expr) model.Expr {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	return and(a, b)
}

// andAlso and orElse are a && b and a || b, or b when a is nil.
func andAlso(a, b model.Expr) model.Expr {
	if a == nil {
		return b
	}
	return and(a, b)
}

func orElse(a, b model.Expr) model.Expr {
	if a == nil {
		return b
	}
	return or(a, b)
}

// splitOn emits, from cur, a branch per case (its guard, then body), all
// joining at one location, which it returns. A body returns -1 for a
// branch that does not go on.
func (p *proc) splitOn(cases []slotCase, pos token.Pos, cur int, body func(c slotCase, at int) int) int {
	if len(cases) == 1 && cases[0].cond == nil {
		return body(cases[0], cur)
	}
	join := p.newLoc(pos)
	for _, c := range cases {
		at := cur
		if c.cond != nil {
			at = p.emit(cur, model.GuardOp(c.cond), pos, Origin{})
		}
		if at = body(c, at); at >= 0 {
			p.emitTo(at, model.NopOp(), join, pos, Origin{})
		}
	}
	return join
}

// mapTouch emits the access of an operation on m to the map itself: a
// read, or a write for an operation that changes it. A goroutine's own map
// has none.
func (p *proc) mapTouch(m *mapObj, write bool, pos token.Pos, o Origin, cur int) int {
	if m.owner >= 0 || m.sync {
		return cur
	}
	x := p.s.varFor(pointer{obj: m.obj})
	op := model.ReadOp(x, -1)
	if write {
		op = model.WriteOp(x, model.C(0))
	}
	return p.emit(cur, op, pos, o)
}

// mapStep is the access of one operation to the slots of a map: for a
// map the set-up made, one locked step, so that no other goroutine sees a
// slot half written (two accesses that overlap race on the map's own
// variable, which stays a plain access beside it); for a goroutine's own
// map, assignments of its registers.
type mapStep struct {
	p       *proc
	private bool
	ops     []model.Op
}

// slotStep starts the access of an operation to the slots of m (nil: a nil
// map, whose reads are constants).
func (p *proc) slotStep(m *mapObj) *mapStep {
	return &mapStep{p: p, private: m == nil || m.owner >= 0}
}

// read reads the cell q into register r.
func (st *mapStep) read(q pointer, r int) {
	if st.private {
		st.assign(r, model.R(st.p.privateReg(q)))
		return
	}
	st.ops = append(st.ops, model.ReadOp(st.p.s.varFor(q), r))
}

// write writes e into the cell q.
func (st *mapStep) write(q pointer, e model.Expr) {
	if st.private {
		st.assign(st.p.privateReg(q), e)
		return
	}
	st.ops = append(st.ops, model.WriteOp(st.p.s.varFor(q), e))
}

// assign sets register r to e.
func (st *mapStep) assign(r int, e model.Expr) {
	st.ops = append(st.ops, model.AssignOp(r, e))
}

// emit emits the step from cur and returns the location after it.
func (st *mapStep) emit(pos token.Pos, o Origin, cur int) int {
	if len(st.ops) == 0 {
		return cur
	}
	if !st.private {
		return st.p.emit(cur, model.LockedOp(st.ops...), pos, o)
	}
	for _, op := range st.ops {
		cur = st.p.emit(cur, op, pos, o)
	}
	return cur
}

// mapOrigin returns the position and the origin of an operation on a map:
// target is the expression that names the map or its element (m[k], m;
// nil in code whose syntax is not indexed), t the map's type, node the
// statement or expression lowered.
func (p *proc) mapOrigin(node ast.Node, target ast.Expr, t types.Type, fallback token.Pos) (token.Pos, Origin) {
	o := Origin{Node: node, Target: target, Type: t}
	if node == nil {
		return fallback, o
	}
	return node.Pos(), o
}

// indexAt returns the index expression whose [ is at pos, and the
// statement around it.
func (x *extractor) indexAt(pos token.Pos) (*ast.IndexExpr, ast.Stmt) {
	for _, f := range x.files {
		if f.FileStart <= pos && pos <= f.FileEnd {
			path, _ := astutil.PathEnclosingInterval(f, pos, pos)
			var ix *ast.IndexExpr
			for _, n := range path {
				if e, ok := n.(*ast.IndexExpr); ok && ix == nil && e.Lbrack == pos {
					ix = e
				}
				if st, ok := n.(ast.Stmt); ok && ix != nil {
					if _, isBlock := st.(*ast.BlockStmt); isBlock {
						return ix, nil
					}
					return ix, st
				}
			}
			return ix, nil
		}
	}
	return nil, nil
}

// mapUpdate lowers m[k] = v.
func (p *proc) mapUpdate(fr *frame, in *ssa.MapUpdate, cur int) int {
	s := p.s
	ix, st := s.x.indexAt(in.Pos())
	var node ast.Node
	var target ast.Expr
	if ix != nil {
		node, target = ix, ix
		if st != nil {
			node = st
		}
	}
	pos, o := p.mapOrigin(node, target, in.Map.Type(), in.Pos())
	alts := p.mapAlts(p.nameAnonMap(fr, in.Map), pos)
	key, val := s.get(fr, in.Key), s.get(fr, in.Value)
	if isSliceType(in.Value.Type()) && p.grownPrivate(val) {
		// A slice the goroutine grew by append: its array is shared
		// from its make (headers.go).
		var ok bool
		if cur, ok = p.storeGrown(val, in.Value, pos, cur); !ok {
			return cur
		}
	}
	return p.onAlts(alts, pos, cur, func(_ int, a mapAlt, at int) int {
		if a.m == nil {
			p.panicAt(panicSite{loc: at, name: "assignment to entry in nil map", pos: pos})
			return -1
		}
		m := a.m
		if at = p.insertFloatKey(m, s.rawKeyExprs(m, key, pos), pos, at); at < 0 {
			return -1
		}
		es := s.keyExprs(m, key, pos)
		cases := p.keyCases(m, es, true, pos)
		at = p.mapTouch(m, true, pos, o, at)
		return p.splitOn(cases, pos, at, func(c slotCase, at int) int {
			if c.sl == nil {
				return p.mapMiss(m, es, pos, at)
			}
			st := p.slotStep(m)
			st.write(pointer{obj: c.sl.present}, model.C(1))
			p.writeElem(st, m, c.sl, val, pos)
			return st.emit(pos, o, at)
		})
	})
}

// mapMiss emits, from cur, the insertion into m of a key outside its
// slots (of cells es): the key goes into probe registers, whose values
// the next round adds to the map's keys (noteMapProbes), and a count
// leaves its domain, which the analysis reports as inconclusive. The
// code goes on after it for the domain inference, which sees the values
// of the keys that later runs of the insertion compute (a loop's keys in
// one round); no execution of the model goes past the fault.
func (p *proc) mapMiss(m *mapObj, es []model.Expr, pos token.Pos, cur int) int {
	s := p.s
	name := s.mapLabel(m)
	if p.sources == nil {
		p.sources = map[int]source{}
	}
	pr := mapProbe{m: m, p: p}
	for i, e := range es {
		r := p.newReg("key", m.cells[i].typ)
		p.sources[r] = source{"the key inserted into " + name, pos}
		cur = p.emit(cur, model.AssignOp(r, e), pos, Origin{})
		pr.regs = append(pr.regs, r)
	}
	s.maps.probes = append(s.maps.probes, pr)
	miss := p.newReg(name+".others", types.Typ[types.Int])
	if p.limits == nil {
		p.limits = map[int][2]int64{}
	}
	p.limits[miss] = [2]int64{0, 0}
	p.sources[miss] = source{fmt.Sprintf("the count of keys inserted into %s other than the %d that fencecheck keeps for it (those the code can be seen to use, at most %d)", name, len(m.slots), maxMapKeys), pos}
	return p.emit(cur, model.AssignOp(miss, model.C(1)), pos, Origin{})
}

// elemRead reads the element of a map's slot into registers, shared by
// the branches of a case split: a register per cell, or a value the
// set-up fixed that is the same in every slot read.
type elemRead struct {
	typ   types.Type
	cells []cell
	regs  []int   // -1 for a fixed cell
	fixed []value // for a fixed cell
	ptrs  []bool  // the cell holds a heap id
	// keys are, for a cell of slice type, the keys of the slots' cells
	// it reads (the shapes of the headers a goroutine stored there).
	keys [][]string
	// other, once value has run, is the condition that a slice read holds
	// another window than the one the value gives (a run-time refusal,
	// refuseOther).
	other model.Expr
}

// newElemRead prepares the read of the element of the slots of cases
// (a nil slot reads as the zero value), named after name; m is one of
// the maps the slots belong to.
func (p *proc) newElemRead(m *mapObj, cases []slotCase, name string, pos token.Pos) *elemRead {
	s := p.s
	er := &elemRead{typ: m.elem}
	if isAggregate(m.elem) {
		er.cells = s.aggCells(m.elem, pos)
	} else {
		er.cells = []cell{{typ: m.elem}}
	}
	for _, c := range er.cells {
		reg, ptr := false, false
		var fixed value
		var keys []string
		switch classify(c.typ) {
		case leafInt:
			reg = true
		case leafOther:
			switch {
			case isMap(c.typ):
				// A map a goroutine stores into a slot is the map's
				// identity (as in a field, storeMapCell); so are the
				// maps of several slots read.
				fixed, reg, _ = p.slotCell(m, cases, c, "a map", pos, func(q pointer) bool { return s.heap.hint.maps.cells[q.key()] })
			case isSliceType(c.typ):
				// A slice a goroutine stores into a slot, or the slices
				// of several slots, are header words (headers.go); one
				// only the set-up stores, the same in every slot read,
				// is its value.
				fixed, reg, keys = p.slotCell(m, cases, c, "a slice", pos, func(q pointer) bool { return s.sliceCellWritten(q, pos) })
			default:
				fixed = p.fixedElemCell(m, cases, c, pos)
			}
		case leafPointer:
			ptr = true
			for i, sc := range cases {
				var v value
				if sc.sl == nil {
					v = value{kind: vNil}
				} else {
					q := cellPtr(pointer{obj: sc.sl.val}, c)
					if q.obj.owner >= 0 || s.ptrCellShared(q, pos) {
						reg = true
						break
					}
					v = p.scalarFromSetup(q, "a pointer")
				}
				if i == 0 {
					fixed = v
				} else if !same(v, fixed) {
					reg = true
				}
			}
		default:
			s.unsupported(pos, "a map of %s (its elements contain a %s)", m.elem, c.typ)
		}
		r := -1
		if reg {
			r = p.newReg(strings.TrimPrefix(name+c.name, "."), c.typ)
			if p.sources == nil {
				p.sources = map[int]source{}
			}
			p.sources[r] = source{strings.TrimPrefix(name+c.name, "."), pos}
		}
		er.regs = append(er.regs, r)
		er.fixed = append(er.fixed, fixed)
		er.ptrs = append(er.ptrs, ptr)
		er.keys = append(er.keys, keys)
	}
	return er
}

// fixedElemCell returns the cell c of the elements of the slots of cases,
// which the set-up alone stores: the same value in every slot, or
// unsupported.
func (p *proc) fixedElemCell(m *mapObj, cases []slotCase, c cell, pos token.Pos) value {
	fixed, _, _ := p.slotCell(m, cases, c, "a value", pos, nil)
	return fixed
}

// slotCell looks at cell c of the elements of the slots of cases (a nil
// slot holds the zero value): the keys of their cells, and either the one
// value the set-up left in all of them (fixed), or reg, when a goroutine
// writes one (written) or they hold different values. Without written,
// different values are unsupported. what names the value for
// scalarFromSetup.
func (p *proc) slotCell(m *mapObj, cases []slotCase, c cell, what string, pos token.Pos, written func(pointer) bool) (fixed value, reg bool, keys []string) {
	for i, sc := range cases {
		v := zeroValue(c.typ)
		if sc.sl != nil {
			q := cellPtr(pointer{obj: sc.sl.val}, c)
			keys = append(keys, q.key())
			if q.obj.owner >= 0 {
				p.s.unsupported(pos, "a goroutine's own map of %s", m.elem)
			}
			if written != nil && written(q) {
				reg = true
				continue
			}
			v = p.scalarFromSetup(q, what)
		}
		switch {
		case i == 0:
			fixed = v
		case same(v, fixed):
		case written == nil:
			p.s.unsupported(pos, "a map of %s indexed by a key known only at run time (the %s of its elements differ)", m.elem, c.typ)
		default:
			reg = true
		}
	}
	return fixed, reg, keys
}

// refuseOther emits, from cur, the run-time refusal of a read by er of a
// slice header of another window than the one its value gives.
func (p *proc) refuseOther(er *elemRead, pos token.Pos, cur int) int {
	if er == nil || er.other == nil || cur < 0 {
		return cur
	}
	p.refuseAt(p.emit(cur, model.GuardOp(er.other), pos, Origin{}), "a slice loaded from a map that holds another array or window than the first stored there (fencecheck keeps one per load)", pos)
	return p.emit(cur, model.GuardOp(model.Not(er.other)), pos, Origin{})
}

// readElem adds to st the read of slot sl's element (sl nil: the zero
// value) into er's registers.
func (p *proc) readElem(er *elemRead, sl *mapSlot, st *mapStep, pos token.Pos) {
	s := p.s
	for i, c := range er.cells {
		r := er.regs[i]
		if r < 0 {
			continue
		}
		if sl == nil {
			st.assign(r, model.C(0))
			continue
		}
		q := cellPtr(pointer{obj: sl.val}, c)
		switch {
		case !er.ptrs[i]:
			st.read(q, r)
		case st.private:
			if p.ptrCells == nil {
				p.ptrCells = map[string]string{}
			}
			if why := p.ptrCells[q.key()]; why != "" {
				s.unsupported(pos, "%s", why)
			}
			p.ptrCells[q.key()] = ""
			st.read(q, r)
		case s.ptrCellShared(q, pos):
			st.read(q, r)
		default:
			st.assign(r, s.refExpr(p.scalarFromSetup(q, "a pointer"), pos))
		}
	}
}

// writeElem adds to st the writes of val, an element of m, into slot sl.
func (p *proc) writeElem(st *mapStep, m *mapObj, sl *mapSlot, val value, pos token.Pos) {
	s := p.s
	cells := []cell{{typ: m.elem}}
	if isAggregate(m.elem) {
		if val.kind != vAgg {
			s.unsupported(pos, "%s as an element of type %s", describe(val), m.elem)
		}
		cells = s.aggCells(m.elem, pos)
	}
	for _, c := range cells {
		q := cellPtr(pointer{obj: sl.val}, c)
		x := val
		if isAggregate(m.elem) {
			x = cellOf(val, c)
		}
		switch classify(c.typ) {
		case leafInt:
			s.noteClockCell(q, x, true, pos)
			st.write(q, s.storedWord(x, pos))
		case leafPointer:
			if !st.private {
				s.wrotePtrCell(q)
			}
			st.write(q, s.refExpr(x, pos))
		case leafOther:
			if st.private {
				s.unsupported(pos, "a goroutine's own map of %s", m.elem)
			}
			if isSliceType(c.typ) {
				s.wrotePtrCell(q)
				st.write(q, s.sliceWord(x, c.typ, q.key(), pos))
				continue
			}
			if isMap(c.typ) {
				if e := s.mapCellWord(q, x, pos); e != nil {
					st.write(q, e)
				}
				continue
			}
			if !same(p.scalarFromSetup(q, ""), x) {
				s.unsupported(pos, "storing %s in the element of a map after the spawns (a map's elements of type %s are fixed by the set-up)", describe(x), c.typ)
			}
		default:
			s.unsupported(pos, "a map of %s (its elements contain a %s)", m.elem, c.typ)
		}
	}
}

// value returns the element er reads.
func (er *elemRead) value(s *system) value {
	vals := make([]value, len(er.cells))
	for i, c := range er.cells {
		switch {
		case er.regs[i] < 0:
			vals[i] = er.fixed[i]
		case er.ptrs[i]:
			vals[i] = s.refVal(model.R(er.regs[i]), c.typ)
		case isMap(c.typ):
			vals[i] = value{kind: vMapRef, e: model.R(er.regs[i]), typ: c.typ}
		case isSliceType(c.typ):
			var other model.Expr
			vals[i], other = s.sliceFromWord(model.R(er.regs[i]), c.typ, er.keys[i], token.NoPos)
			if other != nil {
				er.other = orElse(er.other, other)
			}
		default:
			vals[i] = intVal(model.R(er.regs[i]))
		}
	}
	if !isAggregate(er.typ) {
		return vals[0]
	}
	agg := map[string]value{}
	for i, c := range er.cells {
		agg[c.key] = vals[i]
	}
	return value{kind: vAgg, agg: agg}
}

// tupleUsed reports whether component i of the tuple v is used.
func tupleUsed(v ssa.Value, i int) bool {
	refs := v.Referrers()
	if refs == nil {
		return false
	}
	for _, r := range *refs {
		if e, ok := r.(*ssa.Extract); ok && e.Index == i && used(e) {
			return true
		}
	}
	return false
}

// mapLookup lowers m[k] and v, ok := m[k].
func (p *proc) mapLookup(fr *frame, in *ssa.Lookup, cur int) int {
	s := p.s
	var node ast.Node
	var target ast.Expr
	name := "elem"
	if x, ok := s.x.debugOf(fr.fn).expr[in]; ok {
		x = s.x.fullExpr(x)
		node, target, name = x, x, types.ExprString(x)
	}
	pos, o := p.mapOrigin(node, target, in.X.Type(), in.Pos())
	alts := p.mapAlts(p.nameAnonMap(fr, in.X), pos)
	elemT := in.X.Type().Underlying().(*types.Map).Elem()
	valUsed, okUsed := used(in), false
	if in.CommaOk {
		valUsed, okUsed = tupleUsed(in, 0), tupleUsed(in, 1)
	}
	// The cases of every map the value may be: when no slot is read,
	// the key is absent from all.
	key := s.get(fr, in.Index)
	cases := make([][]slotCase, len(alts))
	var all []slotCase
	var some *mapObj
	for i, a := range alts {
		if a.m != nil {
			cases[i] = p.keyCases(a.m, s.keyExprs(a.m, key, pos), false, pos)
			all = append(all, cases[i]...)
			some = a.m
		}
	}
	absent := true
	for _, c := range all {
		if c.sl != nil {
			absent = false
		}
	}
	var elem, ok value = zeroValue(elemT), constVal(0)
	var er *elemRead
	okReg := -1
	if !absent {
		if valUsed {
			er = p.newElemRead(some, append(all, slotCase{}), name, pos)
			elem = er.value(s)
		}
		if okUsed {
			okReg = p.newReg("ok", types.Typ[types.Bool])
			ok = intVal(model.R(okReg))
		}
	}
	fr.vals[in] = elem
	if in.CommaOk {
		fr.vals[in] = value{kind: vTuple, tup: []value{elem, ok}}
	}
	cur = p.onAlts(alts, pos, cur, func(i int, a mapAlt, at int) int {
		cs := []slotCase{{}}
		if a.m != nil {
			at = p.mapTouch(a.m, false, pos, o, at)
			cs = cases[i]
		}
		if absent {
			return at
		}
		return p.splitOn(cs, pos, at, func(c slotCase, at int) int {
			st := p.slotStep(a.m)
			if er != nil {
				p.readElem(er, c.sl, st, pos)
			}
			if okReg >= 0 && c.sl == nil {
				st.assign(okReg, model.C(0))
			} else if okReg >= 0 {
				st.read(pointer{obj: c.sl.present}, okReg)
			}
			return st.emit(pos, o, at)
		})
	})
	return p.refuseOther(er, pos, cur)
}

// mapBuiltin lowers len, delete and clear of a map.
func (p *proc) mapBuiltin(fr *frame, in *ssa.Call, name string, cur int) int {
	s := p.s
	args := in.Call.Args
	if name == "delete" && len(args) == 2 {
		if cur = p.anyStringKey(fr, args[1], in.Pos(), cur); cur < 0 {
			return -1
		}
	}
	var node ast.Node
	var target ast.Expr
	if x, ok := s.x.debugOf(fr.fn).expr[in]; ok {
		node = x
		if call, isCall := ast.Unparen(x).(*ast.CallExpr); isCall && len(call.Args) > 0 {
			target = call.Args[0]
		}
	}
	pos, o := p.mapOrigin(node, target, args[0].Type(), in.Pos())
	alts := p.mapAlts(p.nameAnonMap(fr, args[0]), pos)
	switch name {
	case "len":
		r := -1
		if used(in) {
			r = p.newReg("len", types.Typ[types.Int])
			p.holds(r, fr, in)
			fr.vals[in] = intVal(model.R(r))
		}
		if len(alts) == 1 && (alts[0].m == nil || len(alts[0].m.slots) == 0) {
			fr.vals[in] = constVal(0)
			r = -1
		}
		return p.onAlts(alts, pos, cur, func(_ int, a mapAlt, at int) int {
			if a.m == nil {
				if r >= 0 {
					at = p.emit(at, model.AssignOp(r, model.C(0)), pos, Origin{})
				}
				return at
			}
			m := a.m
			m.enumerated = true
			at = p.mapTouch(m, false, pos, o, at)
			if r < 0 {
				return at
			}
			st := p.slotStep(m)
			st.assign(r, p.presentSum(m, st))
			return st.emit(pos, o, at)
		})
	case "delete":
		key := s.get(fr, args[1])
		return p.onAlts(alts, pos, cur, func(_ int, a mapAlt, at int) int {
			if a.m == nil {
				return at // a no-op on a nil map
			}
			cases := p.keyCases(a.m, s.keyExprs(a.m, key, pos), false, pos)
			at = p.mapTouch(a.m, true, pos, o, at)
			return p.splitOn(cases, pos, at, func(c slotCase, at int) int {
				if c.sl == nil {
					return at
				}
				st := p.slotStep(a.m)
				p.removeSlot(a.m, c.sl, st, pos)
				return st.emit(pos, o, at)
			})
		})
	case "clear":
		return p.onAlts(alts, pos, cur, func(_ int, a mapAlt, at int) int {
			if a.m == nil {
				return at
			}
			a.m.enumerated = true
			at = p.mapTouch(a.m, true, pos, o, at)
			st := p.slotStep(a.m)
			for _, sl := range a.m.slots {
				p.removeSlot(a.m, sl, st, pos)
			}
			return st.emit(pos, o, at)
		})
	}
	s.unsupported(pos, "the built-in %s on a map", name)
	return -1
}

// presentSum adds to st the reads of the presence flags of m's slots, and
// returns their sum (m's length).
func (p *proc) presentSum(m *mapObj, st *mapStep) model.Expr {
	var sum model.Expr = model.C(0)
	for i, sl := range m.slots {
		q := pointer{obj: sl.present}
		var e model.Expr
		if st.private {
			e = model.R(p.privateReg(q))
		} else {
			t := p.newReg("present", types.Typ[types.Bool])
			st.read(q, t)
			e = model.R(t)
		}
		if i == 0 {
			sum = e
		} else {
			sum = model.Bin(model.OpAdd, sum, e)
		}
	}
	return sum
}

// removeSlot adds to st the deletion of sl's key: absent, its cells zero.
func (p *proc) removeSlot(m *mapObj, sl *mapSlot, st *mapStep, pos token.Pos) {
	st.write(pointer{obj: sl.present}, model.C(0))
	p.writeElem(st, m, sl, zeroValue(m.elem), pos)
}

// rangeOrigin returns the position and origin of a range over a map.
func (p *proc) rangeOrigin(pos token.Pos, t types.Type) (token.Pos, Origin) {
	if rs, ok := p.s.x.stmtAt(pos, pos).(*ast.RangeStmt); ok {
		return p.mapOrigin(rs.X, rs.X, t, pos)
	}
	return pos, Origin{}
}

// iterAlt is the state of a range over one of the maps a value may be: a
// register per slot (0 absent at the start and not visited, 1 present at
// the start and not visited, 2 visited).
type iterAlt struct {
	mapAlt
	state []int
}

// mapRange lowers the start of a range over a map: a register per slot
// records whether its key is present.
func (p *proc) mapRange(fr *frame, in *ssa.Range, cur int) int {
	s := p.s
	pos, o := p.rangeOrigin(in.Pos(), in.X.Type())
	it := &mapIter{pos: pos, o: o}
	fr.vals[in] = value{kind: vMapIter, it: it}
	alts := p.mapAlts(p.nameAnonMap(fr, in.X), pos)
	if len(alts) == 1 && alts[0].m == nil {
		return cur // a nil map: nothing to visit
	}
	most := 0
	for _, a := range alts {
		if a.m != nil {
			most = max(most, len(a.m.slots))
		}
	}
	it.visits = p.newReg("visits", types.Typ[types.Int])
	if p.limits == nil {
		p.limits = map[int][2]int64{}
	}
	p.limits[it.visits] = [2]int64{0, int64(most)}
	cur = p.emit(cur, model.AssignOp(it.visits, model.C(0)), pos, Origin{})
	for _, a := range alts {
		ia := iterAlt{mapAlt: a}
		if a.m != nil {
			a.m.enumerated = true
			s.rangedFloatKeys(a.m)
			for _, sl := range a.m.slots {
				r := p.newReg("range."+sl.present.name, types.Typ[types.Int])
				p.limits[r] = [2]int64{0, 2}
				ia.state = append(ia.state, r)
			}
		}
		it.alts = append(it.alts, ia)
	}
	return p.onAlts(alts, pos, cur, func(i int, a mapAlt, at int) int {
		if a.m == nil {
			return at
		}
		at = p.mapTouch(a.m, false, pos, o, at)
		st := p.slotStep(a.m)
		for k, sl := range a.m.slots[:len(it.alts[i].state)] {
			st.read(pointer{obj: sl.present}, it.alts[i].state[k])
		}
		return st.emit(pos, o, at)
	})
}

// mapNext lowers a step of a range over a map: it reads whether each key
// is present, then visits any present key not visited yet, or ends when
// no key present at the start is left.
func (p *proc) mapNext(fr *frame, in *ssa.Next, cur int) int {
	s := p.s
	it := s.get(fr, in.Iter).it
	tt := in.Type().(*types.Tuple)
	kt, vt := tt.At(1).Type(), tt.At(2).Type()
	invalid := types.Typ[types.Invalid]
	if it == nil {
		s.unsupported(in.Pos(), "a range over a map chosen at run time")
	}
	if len(it.alts) == 0 {
		fr.vals[in] = value{kind: vTuple, tup: []value{constVal(0), zeroValue(kt), zeroValue(vt)}}
		return cur
	}
	pos, o := it.pos, it.o
	okReg := p.newReg("ok", types.Typ[types.Bool])
	var keyRegs []int
	key := zeroValue(kt)
	var all []slotCase
	var some *mapObj
	for _, ia := range it.alts {
		if ia.m != nil {
			some = ia.m
			for _, sl := range ia.m.slots[:len(ia.state)] {
				all = append(all, slotCase{sl: sl})
			}
		}
	}
	if kt != invalid && tupleUsed(in, 1) && some != nil {
		agg := map[string]value{}
		for _, c := range some.cells {
			r := p.newReg(strings.TrimPrefix("key"+c.name, "."), c.typ)
			keyRegs = append(keyRegs, r)
			agg[c.key] = s.keyCellValue(c.typ, model.R(r))
		}
		key = value{kind: vAgg, agg: agg}
		if !isAggregate(some.key) {
			key = agg[""]
		}
	}
	var er *elemRead
	elem := zeroValue(vt)
	if vt != invalid && tupleUsed(in, 2) && len(all) > 0 {
		er = p.newElemRead(some, all, "value", pos)
		elem = er.value(s)
	}
	fr.vals[in] = value{kind: vTuple, tup: []value{intVal(model.R(okReg)), key, elem}}
	join, visited := p.newLoc(pos), p.newLoc(pos)
	anyVisit := false
	var alts []mapAlt
	for _, ia := range it.alts {
		alts = append(alts, ia.mapAlt)
	}
	done := p.onAlts(alts, pos, cur, func(i int, a mapAlt, at int) int {
		ia := it.alts[i]
		var left model.Expr // no key present at the start is left
		if a.m != nil {
			slots := a.m.slots[:len(ia.state)]
			present := make([]model.Expr, len(slots))
			st := p.slotStep(a.m)
			for i, sl := range slots {
				q := pointer{obj: sl.present}
				if st.private {
					present[i] = model.R(p.privateReg(q))
					continue
				}
				t := p.newReg("present", types.Typ[types.Bool])
				st.read(q, t)
				present[i] = model.R(t)
			}
			at = st.emit(pos, o, at)
			for i, sl := range slots {
				st := model.R(ia.state[i])
				v := p.emit(at, model.GuardOp(and(model.Bin(model.OpNe, st, model.C(2)), model.Bin(model.OpNe, present[i], model.C(0)))), pos, Origin{})
				v = p.emit(v, model.AssignOp(ia.state[i], model.C(2)), pos, Origin{})
				for k, r := range keyRegs {
					v = p.emit(v, model.AssignOp(r, model.C(sl.key[k])), pos, Origin{})
				}
				if er != nil {
					st := p.slotStep(a.m)
					p.readElem(er, sl, st, pos)
					v = st.emit(pos, o, v)
				}
				p.emitTo(v, model.NopOp(), visited, pos, Origin{})
				anyVisit = true
				left = andAlso(left, or(model.Bin(model.OpNe, st, model.C(1)), model.Bin(model.OpEq, present[i], model.C(0))))
			}
		}
		if left != nil {
			at = p.emit(at, model.GuardOp(left), pos, Origin{})
		}
		return p.emit(at, model.AssignOp(okReg, model.C(0)), pos, Origin{})
	})
	p.emitTo(done, model.NopOp(), join, pos, Origin{})
	if anyVisit {
		// One step counts the visits, the counter of the loop.
		at := p.emit(visited, model.AssignOp(it.visits, model.Bin(model.OpAdd, model.R(it.visits), model.C(1))), pos, Origin{})
		p.emitTo(at, model.AssignOp(okReg, model.C(1)), join, pos, Origin{})
	}
	return p.refuseOther(er, pos, join)
}

// Rounds.

// noteMapProbes looks, after the domain inference, at the keys that p
// inserts outside the slots of their maps: states are p's abstract
// registers at each location. A key whose values it bounds asks for
// another round, in which the map has slots for them.
func (s *system) noteMapProbes(p *proc, states [][]abs) {
	for _, pr := range s.maps.probes {
		if pr.p != p {
			continue
		}
		sets := make([][]int64, len(pr.regs))
		bounded := true
		for i, r := range pr.regs {
			var a abs
			for _, t := range p.q.Trans {
				if t.Op.Kind == model.Assign && t.Op.Reg == r && states[t.To] != nil {
					a = join(a, states[t.To][r])
				}
			}
			vs, ok := a.values()
			if !ok || len(vs) > maxMapKeys {
				bounded = false
				break
			}
			sets[i] = vs
		}
		if !bounded {
			continue
		}
		tuples := [][]int64{nil}
		for _, vs := range sets {
			var next [][]int64
			for _, t := range tuples {
				for _, v := range vs {
					next = append(next, append(slices.Clone(t), v))
				}
			}
			if tuples = next; len(tuples) > maxMapKeys {
				break
			}
		}
		var fresh [][]keyCell
		for _, t := range tuples {
			if pr.m.byKey[tupleID(t)] == nil && s.validKey(pr.m, t) {
				fresh = append(fresh, s.keyDesc(pr.m, t))
			}
		}
		if len(fresh) == 0 || len(pr.m.slots)+len(fresh) > maxMapKeys {
			continue // the insertion stays inconclusive where it is reached
		}
		if s.maps.want == nil {
			s.maps.want = map[*ssa.MakeMap][][]keyCell{}
		}
		s.maps.want[pr.m.site] = append(s.maps.want[pr.m.site], fresh...)
		s.heapChange("a map gets the keys a goroutine computes")
	}
}

// validKey reports whether t can be a key of m: a string's cell names an
// interned string, a channel's a channel, a pointer's an object.
func (s *system) validKey(m *mapObj, t []int64) bool {
	for i, c := range m.cells {
		switch {
		case isString(c.typ):
			if _, ok := s.stringOf(constVal(t[i])); !ok {
				return false
			}
		case floatBits(c.typ) != 0 && (isNaNBits(t[i], floatBits(c.typ)) || t[i] == negZero(floatBits(c.typ))):
			return false
		case isChanCell(c.typ) && (t[i] < 0 || t[i] > int64(len(s.chans))),
			isPtrCell(c.typ) && (t[i] < 0 || t[i] > int64(len(s.heap.heap))):
			return false
		}
	}
	return true
}

// nextMapHint returns what the next round needs to know of the maps.
func (s *system) nextMapHint() mapsHint {
	h := mapsHint{keys: s.mapKeys(), cells: map[string]bool{}, escapes: map[escapeID]string{}, floatRanged: map[*ssa.MakeMap]bool{}}
	for _, r := range []map[*ssa.MakeMap]bool{s.heap.hint.maps.floatRanged, s.maps.floatRanged} {
		for k := range r {
			h.floatRanged[k] = true
		}
	}
	for _, cells := range []map[string]bool{s.heap.hint.maps.cells, s.maps.written} {
		for k := range cells {
			h.cells[k] = true
		}
	}
	for _, es := range []map[escapeID]string{s.heap.hint.maps.escapes, s.maps.escapes} {
		for k, name := range es {
			if h.escapes[k] == "" {
				h.escapes[k] = name
			}
		}
	}
	return h
}

// mapKeys returns the keys of every map for the next round, by the site
// that makes it, in a fixed order.
func (s *system) mapKeys() map[*ssa.MakeMap][][]keyCell {
	out := map[*ssa.MakeMap][][]keyCell{}
	seen := map[*ssa.MakeMap]map[string]bool{}
	add := func(site *ssa.MakeMap, d []keyCell) {
		if seen[site] == nil {
			seen[site] = map[string]bool{}
		}
		if id := descID(d); !seen[site][id] {
			seen[site][id] = true
			out[site] = append(out[site], d)
		}
	}
	for _, m := range s.maps.all {
		for _, sl := range m.slots {
			add(m.site, sl.desc)
		}
	}
	for site, ds := range s.maps.want {
		for _, d := range ds {
			add(site, d)
		}
	}
	for _, ds := range out {
		slices.SortFunc(ds, func(a, b []keyCell) int {
			return slices.CompareFunc(a, b, keyCell.compare)
		})
	}
	return out
}

// Maps in cells that goroutines store into.

// mapID returns m's identity in a cell that goroutines store maps into.
func (s *system) mapID(m *mapObj) int64 {
	if m.id == 0 {
		s.maps.lastID++
		m.id = s.maps.lastID
	}
	return m.id
}

// inMapCell reports whether m may be in a cell that goroutines store maps
// into.
func (s *system) inMapCell(m *mapObj) bool {
	if m.id != 0 || m.escaped {
		return true
	}
	return m.obj.holder != nil && s.heap.hint.maps.cells[m.obj.holder.key()]
}

// escapedMap returns the shared map k names.
func (s *system) escapedMap(k escapeID) *mapObj {
	site := k.site
	if m := s.maps.escaped[k]; m != nil {
		return m
	}
	if s.maps.escaped == nil {
		s.maps.escaped = map[escapeID]*mapObj{}
	}
	m := s.newMapObj(site, -1, s.heap.hint.maps.escapes[k])
	m.escaped = true
	s.maps.escaped[k] = m
	return m
}

// mapCandidates returns the maps of type t that a cell goroutines store
// maps into may hold: the set-up's, and those that goroutines make and
// store in shared memory (an earlier round found them).
func (s *system) mapCandidates(t types.Type) []*mapObj {
	var keys []escapeID
	for k := range s.heap.hint.maps.escapes {
		if types.Identical(k.site.Type(), t) {
			keys = append(keys, k)
		}
	}
	slices.SortFunc(keys, func(a, b escapeID) int {
		return cmp.Or(cmp.Compare(a.site.Pos(), b.site.Pos()), cmp.Compare(a.proc, b.proc), cmp.Compare(a.occ, b.occ))
	})
	for _, k := range keys {
		s.escapedMap(k)
	}
	var out []*mapObj
	for _, m := range s.maps.all {
		if m.owner < 0 && types.Identical(m.typ, t) {
			s.mapID(m)
			out = append(out, m)
		}
	}
	return out
}

// mapInit returns the initial value of a map cell that goroutines store
// into: the identity of the map the set-up left there.
func (s *system) mapInit(v value) int64 {
	switch v.kind {
	case vNil:
		return 0
	case vMap:
		return s.mapID(v.mp)
	}
	s.unsupported(token.NoPos, "%s in a map cell", describe(v))
	return 0
}

// storeMapCell lowers a store of the map val into the shared cell ptr:
// the cell becomes a variable holding a map's identity (from the next
// round on, if this one read it as what the set-up left), and a map the
// goroutine made becomes shared (another round).
func (p *proc) storeMapCell(ptr pointer, val value, pos token.Pos, o Origin, cur int) int {
	s := p.s
	if ptr.dynamic() {
		s.unsupported(pos, "storing a map through a pointer or an index chosen at run time")
	}
	e := s.mapCellWord(ptr, val, pos)
	if e == nil {
		return cur
	}
	return p.access(cur, ptr, pos, o, func(q pointer) []model.Op {
		return []model.Op{model.WriteOp(s.varFor(q), e)}
	})
}

// mapCellWord returns what a goroutine's store of the map val into the
// shared cell ptr writes there, the map's identity, or nil when this round
// writes nothing: the map is the goroutine's own, which becomes shared, or
// the cell is not yet known to hold identities (both ask for another
// round).
func (s *system) mapCellWord(ptr pointer, val value, pos token.Pos) model.Expr {
	k := ptr.key()
	if s.maps.written == nil {
		s.maps.written = map[string]bool{}
	}
	s.maps.written[k] = true
	if val.kind == vMap && val.mp.owner >= 0 {
		s.escape(val.mp, ptr.name())
		return nil
	}
	e := s.mapRefExpr(val, pos)
	if !s.heap.hint.maps.cells[k] {
		s.heapChange("a goroutine stores a map in shared memory")
		return nil
	}
	return e
}

// mapCellWritten reports whether a goroutine stores maps into the cell
// ptr, or into one of the cells a pointer or index chosen at run time may
// name.
func (s *system) mapCellWritten(ptr pointer) bool {
	if !ptr.dynamic() {
		return s.heap.hint.maps.cells[ptr.key()]
	}
	// Cells too many to tell count as written: their loads read memory,
	// where a split that large is refused.
	cells, ok := s.cellsOf(ptr)
	return !ok || slices.ContainsFunc(cells, func(q pointer) bool { return s.heap.hint.maps.cells[q.key()] })
}

// loadMapCell lowers a load of the map cell ptr of type t: the map the
// set-up left there, or, when goroutines store into it, a register
// holding the identity of the map (vMapRef).
func (p *proc) loadMapCell(ptr pointer, t types.Type, name string, pos token.Pos, o Origin, cur int) (value, int) {
	s := p.s
	if _, kept := p.private[ptr.key()]; kept && ptr.obj.owner >= 0 && !ptr.dynamic() && p.unkeptAt(ptr) == "" {
		// A cell of the goroutine's own that holds a map's identity.
		p.notePrivateLoad(ptr, pos)
		r := p.newReg(name, t)
		cur = p.emit(cur, model.AssignOp(r, model.R(p.privateReg(ptr))), pos, Origin{})
		return value{kind: vMapRef, e: model.R(r), typ: t}, cur
	}
	if ptr.obj.owner < 0 && ptr.dynamic() && !s.mapCellWritten(ptr) {
		if _, ok := s.setupMapAt(ptr); ok {
			// A map the set-up left in the cell of an element or object
			// chosen at run time (buckets[i].entries): a register set in
			// a split over the cells, each the identity of its map.
			r := p.newReg(name, t)
			cur = p.access(cur, ptr, pos, o, func(q pointer) []model.Op {
				v, ok := s.mem[q.key()]
				if !ok {
					v = value{kind: vNil}
				}
				return []model.Op{model.AssignOp(r, s.mapRefExpr(v, pos))}
			})
			return value{kind: vMapRef, e: model.R(r), typ: t}, cur
		}
	}
	if ptr.obj.owner >= 0 || !s.mapCellWritten(ptr) {
		return p.scalarFromSetup(ptr, "a map"), cur
	}
	r := p.newReg(name, t)
	if p.sources == nil {
		p.sources = map[int]source{}
	}
	p.sources[r] = source{name, pos}
	cur = p.access(cur, ptr, pos, o, func(q pointer) []model.Op {
		return []model.Op{model.ReadOp(s.varFor(q), r)}
	})
	return value{kind: vMapRef, e: model.R(r), typ: t}, cur
}

// The package's initialisation.

// initMap executes an instruction on a map in the package's
// initialisation as the set-up does, when the initialisation knows the
// map and the operands; handled is false for other instructions, and for
// those on a map it cannot follow (initInstr makes their results opaque),
// which it marks, with what the instruction would store in it.
func (s *system) initMap(fr *frame, in ssa.Instruction) (handled bool) {
	var mv value
	var ops []ssa.Value
	switch in := in.(type) {
	case *ssa.MakeMap:
		return s.setupMap(fr, in, nil)
	case *ssa.MapUpdate:
		mv, ops = s.get(fr, in.Map), []ssa.Value{in.Key, in.Value}
	case *ssa.Lookup:
		if !isMap(in.X.Type()) {
			return false
		}
		mv, ops = s.get(fr, in.X), []ssa.Value{in.Index}
	case *ssa.Range:
		if !isMap(in.X.Type()) {
			return false
		}
		mv = s.get(fr, in.X)
	case *ssa.Next:
		it := s.get(fr, in.Iter)
		if in.IsString || it.kind != vMapIter {
			return false
		}
		return s.setupMap(fr, in, nil)
	case *ssa.Call:
		b, ok := in.Call.Value.(*ssa.Builtin)
		args := in.Call.Args
		if !ok || len(args) == 0 || !isMap(args[0].Type()) {
			return false
		}
		mv, ops = s.get(fr, args[0]), args[1:]
		if mv.kind == vMap && s.init.issues[mv.mp.obj] == nil && s.knownOps(fr, mv.mp, ops, in.Pos()) || mv.kind == vNil {
			fr.vals[in], _ = s.setupMapBuiltin(fr, b, args, in.Pos(), nil)
			return true
		}
		return false
	default:
		return false
	}
	switch {
	case mv.kind == vNil:
	case mv.kind != vMap || s.init.issues[mv.mp.obj] != nil || !s.knownOps(fr, mv.mp, ops, in.Pos()):
		return false
	}
	return s.setupMap(fr, in, nil)
}

// knownOps reports whether the initialisation knows the values of ops, the
// operands of an operation on m; when it does not, m is marked.
func (s *system) knownOps(fr *frame, m *mapObj, ops []ssa.Value, pos token.Pos) bool {
	for _, op := range ops {
		if v := s.get(fr, op); v.kind == vOpaque {
			s.taintMap(m, v.why, pos, map[*object]bool{})
			return false
		}
	}
	return true
}

// taintMap marks m, and what its elements reach, as changed in a way the
// initialisation cannot follow.
func (s *system) taintMap(m *mapObj, why string, pos token.Pos, seen map[*object]bool) {
	if s.init.issues[m.obj] == nil {
		is := s.newIssue(m.obj, why, pos)
		if h := m.obj.holder; h != nil && len(h.path) == 0 && isPkgVar(h.obj.decl) {
			is.pos, is.what = h.obj.decl.Pos(), "the map in package-level variable "+h.obj.decl.Name()
		}
		s.init.issues[m.obj] = is
	}
	s.taintObj(m.obj, why, pos, seen)
	for _, sl := range m.slots {
		s.taintObj(sl.val, why, pos, seen)
	}
}

// mapCompare lowers m == nil and m != nil for a map chosen at run time
// (Go compares maps only with nil); ok is false for other operands.
func (s *system) mapCompare(x, y value, in *ssa.BinOp) (v value, ok bool) {
	if x.kind != vMapRef && y.kind != vMapRef || in.Op != token.EQL && in.Op != token.NEQ {
		return value{}, false
	}
	if y.kind == vMapRef {
		x, y = y, x
	}
	var other model.Expr
	switch y.kind {
	case vNil:
		other = model.C(0)
	case vMap:
		other = model.C(s.mapID(y.mp))
	default:
		s.unsupported(in.Pos(), "comparing a map chosen at run time with %s", describe(y))
	}
	op := model.OpEq
	if in.Op == token.NEQ {
		op = model.OpNe
	}
	return intVal(model.Bin(op, x.e, other)), true
}

// escape records that m, a goroutine's own map, reaches shared memory or
// a join of maps (name names it for the next round, which makes it shared
// from its make).
func (s *system) escape(m *mapObj, name string) {
	if s.maps.escapes == nil {
		s.maps.escapes = map[escapeID]string{}
	}
	if k := (escapeID{m.site, m.owner, m.occ}); s.maps.escapes[k] == "" {
		s.maps.escapes[k] = name
	}
	s.heapChange("a goroutine's own map reaches shared memory or a join of maps")
}

// mapRefExpr returns the identity of the map v holds (0 for nil), as a
// cell or a register holding a map chosen at run time does.
func (s *system) mapRefExpr(v value, pos token.Pos) model.Expr {
	switch v.kind {
	case vNil:
		return model.C(0)
	case vMap:
		if v.mp.owner >= 0 {
			s.escape(v.mp, s.mapLabel(v.mp))
			return model.C(0) // this round's model is not the answer
		}
		return model.C(s.mapID(v.mp))
	case vMapRef:
		return v.e
	}
	s.unsupported(pos, "%s where a map is expected", describe(v))
	return nil
}

// mapPhi makes the value of a join of maps (m := c.m; if m == nil { m =
// make(...) }): a register holding the identity of the map, one of the
// maps of its type (vMapRef). It reports false for a phi of another type,
// or of values that are not maps.
func (p *proc) mapPhi(fr *frame, phi *ssa.Phi, st *blockState, known []value) bool {
	if !isMap(phi.Type()) {
		return false
	}
	for _, v := range known {
		switch v.kind {
		case vNil, vMap, vMapRef:
		default:
			return false
		}
	}
	r := p.newReg(p.regName(fr, phi), phi.Type())
	p.holds(r, fr, phi)
	st.phiReg[phi] = r
	fr.vals[phi] = value{kind: vMapRef, e: model.R(r), typ: phi.Type()}
	return true
}
