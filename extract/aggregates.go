package extract

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/fencecheck/fencecheck/model"
)

// Struct and array values. Go copies them cell by cell: a store of a whole
// struct into shared memory is one plain store per cell, in the order of
// the fields, and a load of a whole struct is one plain load per cell, so
// another goroutine may change the struct between two of them (a torn
// read). A value of such a type is a vAgg: its cells by their key below the
// aggregate (".0", "[1]", ".1.0"), absent cells zero.

// maxAggCells bounds the number of cells of a struct or array value.
const maxAggCells = 256

// cell is one scalar part of an aggregate type.
type cell struct {
	key  string // below the aggregate, as pointer.key spells it
	name string // as Go spells it: .a, [1], .a.b
	path []step
	typ  types.Type
}

// cellsOf lists the cells of a value of type t in memory order; ok is false
// when there are more than maxAggCells of them.
func cellsOf(t types.Type) (cells []cell, ok bool) {
	var walk func(key, name string, path []step, t types.Type) bool
	walk = func(key, name string, path []step, t types.Type) bool {
		if len(cells) > maxAggCells {
			return false
		}
		switch u := t.Underlying().(type) {
		case *types.Struct:
			if classify(t) != leafOther {
				break // a sync/atomic value, a WaitGroup or a Mutex: one cell
			}
			for i := range u.NumFields() {
				f := u.Field(i)
				p := append(path[:len(path):len(path)], step{field: i})
				if !walk(fmt.Sprintf("%s.%d", key, i), name+"."+f.Name(), p, f.Type()) {
					return false
				}
			}
			return true
		case *types.Array:
			for i := range int(u.Len()) {
				p := append(path[:len(path):len(path)], step{field: -1, index: i})
				if !walk(fmt.Sprintf("%s[%d]", key, i), fmt.Sprintf("%s[%d]", name, i), p, u.Elem()) {
					return false
				}
			}
			return true
		}
		cells = append(cells, cell{key: key, name: name, path: path, typ: t})
		return true
	}
	ok = walk("", "", nil, t)
	return cells, ok
}

// isAggregate reports whether values of type t are struct or array values.
func isAggregate(t types.Type) bool {
	if classify(t) != leafOther {
		return false
	}
	switch t.Underlying().(type) {
	case *types.Struct, *types.Array:
		return true
	}
	return false
}

// aggCells is cellsOf for a value used at pos.
func (s *system) aggCells(t types.Type, pos token.Pos) []cell {
	cells, ok := cellsOf(t)
	if !ok {
		s.unsupported(pos, "a value of type %s, which has more than %d cells", t, maxAggCells)
	}
	return cells
}

// zeroOf returns the zero value of a scalar cell's type.
func zeroOf(t types.Type) value {
	switch t.Underlying().(type) {
	case *types.Pointer, *types.Signature, *types.Slice, *types.Map:
		return value{kind: vNil}
	}
	return constVal(0)
}

// cellOf returns the value of cell c of the aggregate v.
func cellOf(v value, c cell) value {
	if x, ok := v.agg[c.key]; ok {
		return x
	}
	return zeroOf(c.typ)
}

func sameAgg(a, b map[string]value) bool {
	for k, x := range a {
		y, ok := b[k]
		if !ok {
			y = zeroLike(x)
		}
		if !same(x, y) {
			return false
		}
	}
	for k, y := range b {
		if _, ok := a[k]; !ok && !same(zeroLike(y), y) {
			return false
		}
	}
	return true
}

// zeroLike returns the zero value of the kind of x.
func zeroLike(x value) value {
	switch x.kind {
	case vPtr, vNil, vSlice, vFunc:
		return value{kind: vNil}
	}
	return constVal(0)
}

// partOf returns the part of the aggregate v below the key sel, of type t.
func partOf(v value, sel string, t types.Type) value {
	if !isAggregate(t) {
		if x, ok := v.agg[sel]; ok {
			return x
		}
		return zeroOf(t)
	}
	agg := map[string]value{}
	for k, x := range v.agg {
		if below(k, sel) {
			agg[k[len(sel):]] = x
		}
	}
	return value{kind: vAgg, agg: agg}
}

// field evaluates x.f for a struct value x.
func (s *system) field(fr *frame, in *ssa.Field) value {
	x := s.get(fr, in.X)
	switch x.kind {
	case vAgg:
		return partOf(x, fmt.Sprintf(".%d", in.Field), in.Type())
	case vOpaque:
		return x
	}
	s.unsupported(in.Pos(), "a field of %s", describe(x))
	return value{}
}

// index evaluates a[i] for an array value a (a string is opaque).
func (s *system) index(fr *frame, in *ssa.Index) value {
	x := s.get(fr, in.X)
	if isString(in.X.Type()) {
		return s.indexString(x, s.get(fr, in.Index), in.Pos())
	}
	switch x.kind {
	case vAgg:
	case vOpaque:
		return x
	default:
		s.unsupported(in.Pos(), "indexing %s", describe(x))
	}
	c, ok := s.get(fr, in.Index).constant()
	if !ok {
		s.unsupported(in.Pos(), "indexing an array value of channels, functions, slices, maps or interfaces with an index known only at run time (index the array in memory instead)")
	}
	if n := in.X.Type().Underlying().(*types.Array).Len(); c < 0 || c >= n {
		s.goPanic(in.Pos(), "index %d out of range [0:%d]", c, n)
	}
	return partOf(x, fmt.Sprintf("[%d]", c), in.Type())
}

// arrayValueIndex lowers a[i] of an array value a (a copy: for _, v :=
// range arr) with an index i known only at run time. Each scalar cell of
// the element is the sum of (i == k) * a[k] over the elements k, exact
// since one term at most is not zero: an integer, float or string as it
// is, a pointer by its heap id, a struct or array cell by cell. An index
// out of range is Go's panic. ok is false for other instructions and for
// elements with other cells (channels, functions, slices, interfaces).
func (p *proc) arrayValueIndex(fr *frame, in ssa.Instruction, cur int) (int, bool) {
	ix, ok := in.(*ssa.Index)
	if !ok || isString(ix.X.Type()) {
		return cur, false
	}
	s := p.s
	arr, ok := ix.X.Type().Underlying().(*types.Array)
	if !ok {
		return cur, false
	}
	x, i := s.get(fr, ix.X), s.get(fr, ix.Index)
	if _, known := i.constant(); known || x.kind != vAgg || i.kind != vInt {
		return cur, false
	}
	pos := ix.Pos()
	elem, ok := s.selectElem(x, i.e, arr, pos)
	if !ok {
		return cur, false
	}
	oor := model.Bin(model.OpOr, model.Bin(model.OpLt, i.e, model.C(0)), model.Bin(model.OpGe, i.e, model.C(arr.Len())))
	bad := p.emit(cur, model.GuardOp(oor), pos, Origin{})
	p.panicAt(panicSite{loc: bad, name: "index out of range", pos: pos})
	cur = p.emit(cur, model.GuardOp(model.Not(oor)), pos, Origin{})
	if used(ix) {
		fr.vals[ix] = elem
	}
	return cur, true
}

// selectElem returns element i of the array value x of type arr, for an
// index expression i known to be in range: see arrayValueIndex. ok is
// false when a cell of the element is not an integer, float, string or
// pointer.
func (s *system) selectElem(x value, i model.Expr, arr *types.Array, pos token.Pos) (value, bool) {
	if !isAggregate(arr.Elem()) {
		return s.selectCell(x, i, arr.Len(), "", arr.Elem(), pos)
	}
	cells, ok := cellsOf(arr.Elem())
	if !ok {
		return value{}, false
	}
	agg := map[string]value{}
	for _, c := range cells {
		v, ok := s.selectCell(x, i, arr.Len(), c.key, c.typ, pos)
		if !ok {
			return value{}, false
		}
		agg[c.key] = v
	}
	return value{kind: vAgg, agg: agg}, true
}

// selectCell returns cell key, of type t, of element i of the array value
// x of n elements: the sum of (i == k) * x[k].key over k, an integer
// expression, or a heap id for a pointer.
func (s *system) selectCell(x value, i model.Expr, n int64, key string, t types.Type, pos token.Pos) (value, bool) {
	_, isPtr := t.Underlying().(*types.Pointer)
	if !isPtr && !isScalarPayload(t) {
		return value{}, false
	}
	var sum model.Expr = model.C(0)
	for k := range n {
		v := partOf(x, fmt.Sprintf("[%d]%s", k, key), t)
		var e model.Expr
		switch {
		case isPtr && isRefLike(v):
			e = s.refExpr(v, pos)
		case !isPtr && v.kind == vInt:
			e = v.e
		default:
			return value{}, false
		}
		if c, ok := e.(model.Const); ok && c.Value == 0 {
			continue
		}
		sum = foldBool(model.Bin(model.OpAdd, sum, model.Bin(model.OpMul, model.Bin(model.OpEq, i, model.C(k)), e))).e
	}
	if isPtr {
		return s.refVal(sum, t), true
	}
	return intVal(sum), true
}

// setupLoadAgg loads a struct or array value in the setup.
func (s *system) setupLoadAgg(p pointer, t types.Type) value {
	return value{kind: vAgg, agg: s.memBelow(p, t)}
}

// setupStoreAgg stores a struct or array value in the setup.
func (s *system) setupStoreAgg(p pointer, v value) {
	key := p.key()
	for k := range s.mem {
		if below(k, key) {
			delete(s.mem, k)
		}
	}
	t, _ := p.target()
	for _, c := range s.aggCells(t, s.curPos) {
		x, ok := v.agg[c.key]
		if !ok {
			continue
		}
		q := p
		for _, st := range c.path {
			q = q.with(st)
		}
		s.mem[key+c.key] = x
		nameBacking(x, q)
	}
}

// cellPtr returns the pointer to cell c of the aggregate p points to.
func cellPtr(p pointer, c cell) pointer {
	for _, st := range c.path {
		p = p.with(st)
	}
	return p
}

// loadAgg lowers a load of a whole struct or array: one load per cell, in
// memory order, each into a register of its own.
func (p *proc) loadAgg(fr *frame, in *ssa.UnOp, ptr pointer, cur int, pos token.Pos, o Origin) int {
	s := p.s
	base, basePos := "", in.Pos()
	if x, ok := s.x.debugOf(fr.fn).expr[in]; ok {
		x = s.x.fullExpr(x)
		base, basePos = types.ExprString(x), x.Pos()
	}
	agg := map[string]value{}
	for _, c := range s.aggCells(in.Type(), pos) {
		q := cellPtr(ptr, c)
		switch classify(c.typ) {
		case leafInt:
		case leafPointer:
			var v value
			v, cur = p.loadPtrCell(q, c.typ, strings.TrimPrefix(base+c.name, "."), pos, o, cur)
			agg[c.key] = v
			continue
		case leafOther:
			if _, ok := c.typ.Underlying().(*types.Slice); ok && ptr.obj.owner < 0 {
				agg[c.key], cur = p.loadSliceCell(q, c.typ, strings.TrimPrefix(base+c.name, "."), pos, o, cur)
				continue
			}
			if _, ok := c.typ.Underlying().(*types.Slice); ok {
				agg[c.key] = p.scalarFromSetup(q, "a slice")
				continue
			}
			if isMap(c.typ) {
				agg[c.key], cur = p.loadMapCell(q, c.typ, strings.TrimPrefix(base+c.name, "."), pos, o, cur)
				continue
			}
			if ptr.obj.owner >= 0 && (isChanCell(c.typ) || isFuncCell(c.typ)) {
				var v value
				v, cur = p.loadPrivateRef(q, c.typ, pos, cur)
				agg[c.key] = v
				continue
			}
			if isFuncCell(c.typ) {
				agg[c.key], cur = p.loadFuncCell(q, c.typ, strings.TrimPrefix(base+c.name, "."), pos, o, cur)
				continue
			}
			if isChanCell(c.typ) && !q.dynamic() {
				// A channel field of a struct copied whole (a request
				// the set-up made, sent by value): as a load of the field.
				agg[c.key], cur = p.loadChanField(q, strings.TrimPrefix(base+c.name, "."), pos, o, cur)
				continue
			}
			agg[c.key] = opaque(fmt.Sprintf("a value of type %s", c.typ))
			continue
		default:
			// A Mutex, an RWMutex, a WaitGroup, a Once or a typed atomic:
			// Go's copy reads its state word as any other (a
			// constructor's res := T{...}; return &res, what go vet's
			// copylocks reports for a lock in use).
		}
		name := strings.TrimPrefix(base+c.name, ".")
		r := p.newReg(name, c.typ)
		if base != "" {
			if p.sources == nil {
				p.sources = map[int]source{}
			}
			p.sources[r] = source{name, basePos}
		}
		agg[c.key] = intVal(model.R(r))
		if q.obj.owner >= 0 {
			if why := p.unkeptAt(q); why != "" {
				agg[c.key] = opaque(why)
				continue
			}
			p.notePrivateLoad(q, pos)
		}
		cur = p.readCell(cur, q, r, pos, o)
	}
	fr.vals[in] = value{kind: vAgg, agg: agg}
	return cur
}

// readCell reads the integer cell q into register r: a copy of its
// register for a cell of the goroutine's own, a read of memory otherwise.
func (p *proc) readCell(cur int, q pointer, r int, pos token.Pos, o Origin) int {
	if q.obj.owner >= 0 {
		return p.access(cur, q, pos, o, func(q pointer) []model.Op {
			return []model.Op{model.AssignOp(r, model.R(p.privateReg(q)))}
		})
	}
	return p.access(cur, q, pos, o, func(q pointer) []model.Op {
		return []model.Op{model.ReadOp(p.s.varFor(q), r)}
	})
}

// scalarFromSetup returns the value of a pointer or slice cell, which only
// the setup may store (what, "a pointer" or "a slice", names it). A cell
// reached through a pointer chosen at run time holds what the set-up left
// in every cell it may be, when that is one value (a goroutine's copy of
// the pointer to a struct the set-up made, say).
func (p *proc) scalarFromSetup(q pointer, what string) value {
	if q.obj.owner >= 0 {
		if v, ok := p.readOnlyCopy(q); ok {
			return v
		}
		if v, ok := p.readOnlyField(q); ok {
			return v
		}
		return opaque(what + " kept in goroutine-local memory or chosen at run time")
	}
	if q.dynamic() {
		if v, ok := p.s.setupValueAt(q); ok {
			return v
		}
		if v, ok := p.s.setupMapAt(q); ok {
			return v
		}
		return opaque(what + " kept in goroutine-local memory or chosen at run time")
	}
	if v, ok := p.s.mem[q.key()]; ok {
		return v
	}
	return value{kind: vNil}
}

// setupValueAt returns the one value the set-up left in every cell the
// pointer q, chosen at run time, may name; ok is false when the cells hold
// different values, a goroutine writes one, or q may name too many.
func (s *system) setupValueAt(q pointer) (value, bool) {
	cells, ok := s.cellsOf(q)
	if !ok {
		return value{}, false
	}
	var out value
	for i, r := range cells {
		v, ok := s.setupCell(r)
		if !ok {
			return value{}, false
		}
		if i > 0 && !same(v, out) {
			return value{}, false
		}
		out = v
	}
	return out, len(cells) > 0
}

// setupCell returns what the set-up left in the static cell r (nil when
// it stored nothing there); ok is false when a goroutine stores to r.
func (s *system) setupCell(r pointer) (value, bool) {
	if s.ptrCellShared(r, s.curPos) {
		return value{}, false
	}
	v, ok := s.mem[r.key()]
	if !ok {
		v = value{kind: vNil}
	}
	return v, true
}

// setupMapAt returns the map held in the map cell q of an object or an
// element chosen at run time (a sharded map's shards[h%n].items, an
// expiring cache's buckets[i].entries), when the set-up left a shared
// map, or nil, in every cell it may be and no goroutine stores there: the
// map whose identity the chosen cell holds, an operation on which splits
// over the maps of its type (maps.go). An index out of range gives no
// map here: the access that follows panics where the index is checked.
func (s *system) setupMapAt(q pointer) (value, bool) {
	t, _ := q.target()
	if !isMap(t) || q.ref != nil && len(q.ref.objs) > maxCases {
		return value{}, false
	}
	bases, bconds, _ := s.objCases(q, maxCases, s.curPos)
	var e model.Expr = model.C(0)
	for bi, base := range bases {
		if base.obj.owner >= 0 {
			return value{}, false
		}
		cells, conds, _, ok := pointer{obj: base.obj, path: append(slices.Clone(base.path), q.path...)}.cases(maxIndexCases)
		if !ok {
			return value{}, false
		}
		for i, r := range cells {
			v, ok := s.setupCell(r)
			if !ok {
				return value{}, false
			}
			if v.kind != vMap && v.kind != vNil || v.kind == vMap && v.mp.owner >= 0 {
				return value{}, false
			}
			is := andBoth(bconds[bi], conds[i])
			id := s.mapRefExpr(v, s.curPos)
			if is == nil {
				e = model.Bin(model.OpAdd, e, id)
				continue
			}
			e = model.Bin(model.OpAdd, e, model.Bin(model.OpMul, is, id))
		}
	}
	return value{kind: vMapRef, e: e, typ: t}, true
}

// cellsOf returns the cells of shared memory the pointer q may name; ok is
// false when it may name a goroutine's own or too many.
func (s *system) cellsOf(q pointer) ([]pointer, bool) {
	bases := []pointer{{obj: q.obj}}
	if q.ref != nil {
		if len(q.ref.objs) > maxCases {
			return nil, false
		}
		bases = bases[:0]
		for _, o := range q.ref.objs {
			bases = append(bases, o.target())
		}
	}
	var out []pointer
	for _, base := range bases {
		if base.obj.owner >= 0 {
			return nil, false
		}
		ptrs, _, _, ok := pointer{obj: base.obj, path: append(slices.Clone(base.path), q.path...)}.cases(maxIndexCases)
		if !ok {
			return nil, false
		}
		out = append(out, ptrs...)
	}
	return out, true
}

// cellsShared reports whether a goroutine writes a cell of shared memory
// that q may name (ptrCellShared of each).
func (s *system) cellsShared(q pointer, pos token.Pos) bool {
	cells, _ := s.cellsOf(q)
	shared := false
	for _, r := range cells {
		if s.ptrCellShared(r, pos) {
			shared = true
		}
	}
	return shared
}

// storeAgg lowers a store of a whole struct or array: one store per cell,
// in memory order.
func (p *proc) storeAgg(ptr pointer, val value, t types.Type, cur int, pos token.Pos, o Origin) int {
	s := p.s
	if ptr.obj.owner >= 0 && val.kind != vAgg {
		// Goroutine-local memory of a type the model does not keep: an
		// error only where it is used.
		for _, c := range s.aggCells(t, pos) {
			p.noteUnkept(cellPtr(ptr, c), c.typ, val)
		}
		return cur
	}
	switch val.kind {
	case vAgg:
	case vOpaque:
		s.unsupported(pos, "%s", val.why)
	default:
		s.unsupported(pos, "storing %s as a value of type %s", describe(val), t)
	}
	for _, c := range s.aggCells(t, pos) {
		q := cellPtr(ptr, c)
		x := cellOf(val, c)
		if classify(c.typ) == leafPointer && isRefLike(x) {
			// A pointer or interface cell: a heap id, as a store of the
			// cell alone.
			cur = p.storePtr(q, x, pos, o, cur)
			continue
		}
		if ptr.obj.owner >= 0 {
			e, ok := p.privateCellExpr(c.typ, x, pos)
			if !ok {
				// Goroutine-local memory of a type the model does not
				// keep: an error only where it is used.
				p.noteUnkept(q, c.typ, x)
				continue
			}
			cur = p.access(cur, q, pos, o, func(q pointer) []model.Op {
				return []model.Op{model.AssignOp(p.privateReg(q), e)}
			})
			continue
		}
		if isSliceType(c.typ) {
			cur = p.storeSliceCell(q, x, nil, c.typ, pos, o, cur)
			continue
		}
		if isMap(c.typ) || isChanCell(c.typ) || isFuncCell(c.typ) {
			// A map, a channel or a function: as a store of the cell
			// alone (its identity).
			cur = p.storeTo(q, x, nil, pos, o, cur)
			continue
		}
		switch classify(c.typ) {
		case leafInt:
		case leafPointer, leafOther:
			if q.dynamic() || !same(p.scalarFromSetup(q, ""), x) {
				s.unsupported(pos, "storing %s in shared memory after the spawns (only the set-up may store one)", describe(x))
			}
			continue
		default:
			// A sync cell's state word, written as Go's copy writes it
			// (over a held mutex, what go vet's copylocks reports, it
			// unlocks it).
		}
		s.noteClockCell(q, x, true, pos)
		e := s.storedWord(x, pos)
		cur = p.access(cur, q, pos, o, func(q pointer) []model.Op {
			return []model.Op{model.WriteOp(s.varFor(q), e)}
		})
	}
	return cur
}

// loadPtrCell lowers the load of the pointer (or interface) cell q of type
// t, one cell of an aggregate being copied: the value the setup left there
// when no goroutine writes it, else a register holding the heap id.
func (p *proc) loadPtrCell(q pointer, t types.Type, name string, pos token.Pos, o Origin, cur int) (value, int) {
	s := p.s
	private := q.obj.owner >= 0 && !q.dynamic()
	if !private && !q.dynamic() && !s.ptrCellShared(q, pos) {
		return p.scalarFromSetup(q, "a pointer"), cur
	}
	if private {
		if p.ptrCells == nil {
			p.ptrCells = map[string]string{}
		}
		if why := p.ptrCells[q.key()]; why != "" {
			return opaque(why), cur
		}
		p.ptrCells[q.key()] = ""
	}
	if name == "" {
		name = "copy"
	}
	r := p.newReg(name, t)
	if private {
		return s.refVal(model.R(r), t), p.access(cur, q, pos, o, func(q pointer) []model.Op {
			return []model.Op{model.AssignOp(r, model.R(p.privateReg(q)))}
		})
	}
	// An element moved by append's growth carries on what flowed to
	// its cell, as a load does.
	return p.readRefCells(cur, q, r, t, pos, o)
}

// noteUnkept records that the goroutine-local cell q of type t was stored
// the value x, which the model does not keep there: every load of it is
// refused (its register does not hold x).
func (p *proc) noteUnkept(q pointer, t types.Type, x value) {
	if p.unkept == nil {
		p.unkept = map[string]string{}
	}
	key := q.key()
	if q.dynamic() {
		key = unkeptObjKey(q.obj)
	}
	if _, stored := p.unkept[key]; x.noise && (!stored || p.noiseAt[key].noise) {
		if p.noiseAt == nil {
			p.noiseAt = map[string]value{}
		}
		p.noiseAt[key] = x
	} else {
		delete(p.noiseAt, key)
	}
	p.unkept[key] = fmt.Sprintf("a %s kept in goroutine-local memory that holds %s", t, describe(x))
}

// A privLoad is a load of the goroutine-local cell q at pos.
type privLoad struct {
	q   pointer
	pos token.Pos
}

// notePrivateLoad records the load of the goroutine-local cell q at pos
// for checkPrivateLoads.
func (p *proc) notePrivateLoad(q pointer, pos token.Pos) {
	p.privLoads = append(p.privLoads, privLoad{q: q, pos: pos})
}

// checkPrivateLoads refuses the loads of goroutine-local cells that a
// store lowered after them gave a value the model does not keep there:
// the lowering follows blocks, not paths, so a loop's exit may be lowered
// before its body.
func (s *system) checkPrivateLoads() {
	for _, p := range s.procs {
		for _, l := range p.privLoads {
			if why := p.unkeptAt(l.q); why != "" {
				s.unsupported(l.pos, "%s", why)
			}
		}
	}
}

// unkeptObjKey is the key of unkept that a store through a pointer chosen
// at run time records: every cell of o may hold what it stored.
func unkeptObjKey(o *object) string {
	return strconv.Itoa(o.id) + "*"
}

// unkeptAt returns why the model does not keep what the goroutine-local
// cell q holds ("" when it does): a store to q, to any cell of its object
// through a pointer chosen at run time, or, for q itself chosen at run
// time, to any cell of its object.
func (p *proc) unkeptAt(q pointer) string {
	if len(p.unkept) == 0 {
		return ""
	}
	if why := p.unkept[q.key()]; why != "" {
		return why
	}
	if why := p.unkept[unkeptObjKey(q.obj)]; why != "" {
		return why
	}
	if q.dynamic() {
		id := strconv.Itoa(q.obj.id)
		for k, why := range p.unkept {
			if rest, ok := strings.CutPrefix(k, id); ok && (rest == "" || rest[0] == '.' || rest[0] == '[') {
				return why
			}
		}
	}
	return ""
}

// privateCellExpr returns the expression a goroutine-local cell of type t
// holds for value x: an integer as it is, a channel's identity, a
// function's index in its table; ok is false for values the model does
// not keep in such memory.
func (p *proc) privateCellExpr(t types.Type, x value, pos token.Pos) (model.Expr, bool) {
	switch {
	case isChanCell(t) && (x.kind == vChan || x.kind == vNil || x.kind == vChanRef):
		return p.s.chanID(x, pos), true
	case isFuncCell(t) && (x.kind == vFunc || x.kind == vNil || x.kind == vFuncRef || x.kind == vCancel):
		return p.s.funcID(t, x, pos), true
	case isMap(t) && (x.kind == vMap || x.kind == vNil || x.kind == vMapRef):
		return p.s.mapRefExpr(x, pos), true // its identity (maps.go)
	case x.kind == vInt:
		return x.e, true
	}
	return nil, false
}

// loadPrivateRef loads the goroutine-local cell q of type t, a channel or
// a function: the value whose identity it holds, one of every channel of
// the type (chanCase.byID), or of the function table.
func (p *proc) loadPrivateRef(q pointer, t types.Type, pos token.Pos, cur int) (value, int) {
	if why := p.unkeptAt(q); why != "" {
		return opaque(why), cur
	}
	p.notePrivateLoad(q, pos)
	r := p.newReg(q.name(), types.Typ[types.Int])
	cur = p.access(cur, q, pos, Origin{}, func(q pointer) []model.Op {
		return []model.Op{model.AssignOp(r, model.R(p.privateReg(q)))}
	})
	if isFuncCell(t) {
		return p.s.funcFromID(t, model.R(r)), cur
	}
	return value{kind: vChanRef, e: model.R(r), typ: t, byID: true}, cur
}

// readOnlyCopy returns the value of the cell q of a goroutine's own object
// that is a copy its function never changes: an Alloc whose one store, of
// the whole value, comes before every other use, each a field or element
// address that is only loaded (a value receiver's copy: m.shards in
// concurrent-map's GetShard). Cells the model does not keep in
// goroutine-local memory (slices) are read from the stored value. ok is
// false for other cells.
func (p *proc) readOnlyCopy(q pointer) (value, bool) {
	a, fr := q.obj.alloc, p.at.fr
	if a == nil || fr == nil || q.dynamic() || a.Parent() != fr.fn {
		return value{}, false
	}
	var store *ssa.Store
	var uses []ssa.Instruction
	if !storedOnce(a, &store, &uses, nil) || !storedFirst(store, uses) {
		return value{}, false
	}
	v, ok := fr.vals[store.Val]
	if !ok || v.kind != vAgg {
		return value{}, false
	}
	t, _ := q.target()
	return partOf(v, strings.TrimPrefix(q.key(), strconv.Itoa(q.obj.id)), t), true
}

// readOnlyField is readOnlyCopy for a field of a struct of the goroutine's
// own that its function stores field by field (a composite literal built
// and returned by value, as conc's NewRecovered returns its Recovered):
// the field is stored once, before every read of it, and the struct is
// otherwise only read, so the field holds the value stored.
func (p *proc) readOnlyField(q pointer) (value, bool) {
	a, fr := q.obj.alloc, p.at.fr
	if a == nil || fr == nil || q.dynamic() || a.Parent() != fr.fn || len(q.path) != 1 || q.path[0].field < 0 {
		return value{}, false
	}
	var store *ssa.Store
	var uses []ssa.Instruction
	fields := func(in ssa.Instruction) bool { _, ok := in.(*ssa.FieldAddr); return ok }
	if !storedOnce(a, &store, &uses, fields) || store != nil {
		return value{}, false // a store of the whole struct
	}
	for _, r := range *a.Referrers() {
		// No address of another field leads to this one.
		if fa, ok := r.(*ssa.FieldAddr); ok && fa.Field == q.path[0].field && !storedOnce(fa, &store, &uses, nil) {
			return value{}, false
		}
	}
	if !storedFirst(store, uses) {
		return value{}, false
	}
	v, ok := fr.vals[store.Val]
	return v, ok
}

// storedOnce sorts the uses of the address addr, but those skip takes:
// a store to it, which must be the only one (store is set to it), and the
// others, which must only read through it (appended to uses).
func storedOnce(addr ssa.Value, store **ssa.Store, uses *[]ssa.Instruction, skip func(ssa.Instruction) bool) bool {
	for _, r := range *addr.Referrers() {
		switch r := r.(type) {
		case *ssa.Store:
			if r.Addr != addr || *store != nil {
				return false
			}
			*store = r
		case *ssa.DebugRef:
		default:
			if skip != nil && skip(r) {
				continue
			}
			if !onlyReadThrough(r) {
				return false
			}
			*uses = append(*uses, r)
		}
	}
	return true
}

// storedFirst reports whether there is a store, and it comes before every
// use of uses.
func storedFirst(store *ssa.Store, uses []ssa.Instruction) bool {
	if store == nil {
		return false
	}
	for _, u := range uses {
		if !comesBefore(store, u) {
			return false
		}
	}
	return true
}

// onlyReadThrough reports whether the instruction in, a use of an address,
// only loads from it: a load, or a field or element address only loaded.
func onlyReadThrough(in ssa.Instruction) bool {
	switch in := in.(type) {
	case *ssa.UnOp:
		return in.Op == token.MUL
	case *ssa.DebugRef:
		return true
	case *ssa.FieldAddr, *ssa.IndexAddr:
		for _, r := range *in.(ssa.Value).Referrers() {
			if !onlyReadThrough(r) {
				return false
			}
		}
		return true
	}
	return false
}

// comesBefore reports whether a runs before b on every path to b of their
// function: earlier in one block, or in a block that dominates b's.
func comesBefore(a, b ssa.Instruction) bool {
	if a.Block() != b.Block() {
		return a.Block().Dominates(b.Block())
	}
	for _, in := range a.Block().Instrs {
		switch in {
		case a:
			return true
		case b:
			return false
		}
	}
	return false
}
