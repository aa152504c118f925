package extract

import (
	"go/token"
	"go/types"
	"slices"

	"github.com/fencecheck/fencecheck/model"
)

// Pointers into objects.
//
// A pointer to a field or an array element (&l.root, &nodes[i],
// &q.head) that is stored in memory, merged, compared or converted
// through unsafe.Pointer is a heap id too: the id of an alias, an entry of
// the heap that stands for the location (object, path) and has no cells
// of its own. Its object gets an id first (and so becomes shared, as any
// object whose address escapes), and the alias's type is the type of the
// location, so that a run-time pointer of that type may name it like any
// object of its type (&l.root among the list's elements). Dereferencing a
// run-time pointer that names an alias accesses the location's cells;
// equal locations have one alias, so pointer comparison is identity, as in
// Go. A pointer whose path has an index known only at run time is the sum
// of the aliases of its cases, each under its condition (the index being
// out of range is Go's panic where the pointer is used).

// aliasKey identifies an alias: its object and the path below it.
type aliasKey struct {
	owner *object
	path  string
}

func keyOfAlias(p pointer) aliasKey {
	k := pointer{obj: &object{}, path: p.path}.key()
	return aliasKey{owner: p.obj, path: k}
}

// target returns the static pointer a heap entry stands for: the location
// of an alias, else the whole object.
func (o *object) target() pointer {
	if o.within != nil {
		return *o.within
	}
	return pointer{obj: o}
}

// aliasID returns the heap id of the static location p below its object,
// giving it an alias if it has none.
func (s *system) aliasID(p pointer, pos token.Pos) int64 {
	if len(p.path) == 0 {
		return s.idOf(p.obj, pos)
	}
	if s.heap.aliases == nil {
		s.heap.aliases = map[aliasKey]*object{}
	}
	k := keyOfAlias(p)
	if o := s.heap.aliases[k]; o != nil {
		if id, ok := s.heap.ids[o]; ok {
			return int64(id)
		}
	}
	s.shareObject(p.obj, pos)
	t, _ := p.target()
	o := &object{id: -1, name: p.name(), typ: t, owner: -1,
		within: &pointer{obj: p.obj, path: slices.Clone(p.path)}}
	s.heap.aliases[k] = o
	s.heap.heap = append(s.heap.heap, o)
	s.heap.ids[o] = len(s.heap.heap)
	s.heapChange("a pointer into an object gets a heap id")
	return int64(len(s.heap.heap))
}

// shareObject gives o a heap id, as the object of an alias: an array too,
// whose address itself the model does not hold (idOf).
func (s *system) shareObject(o *object, pos token.Pos) {
	if _, ok := s.heap.ids[o]; ok {
		return
	}
	if _, isArr := o.typ.Underlying().(*types.Array); !isArr {
		s.idOf(o, pos)
		return
	}
	s.heap.heap = append(s.heap.heap, o)
	s.heap.ids[o] = len(s.heap.heap)
	if o.owner >= 0 {
		s.heapChange("an object of a goroutine escapes")
	} else {
		s.heapChange("an object gets a heap id")
	}
}

// interiorExpr returns the heap id expression of a pointer into an object:
// a constant for a static location, else the sum of the ids of its cases
// (a run-time object or index), each times its condition.
func (s *system) interiorExpr(p pointer, pos token.Pos) model.Expr {
	if !p.dynamic() {
		return model.C(s.aliasID(p, pos))
	}
	bases, bconds, _ := s.objCases(p, maxCases, pos)
	var sum model.Expr
	add := func(c model.Expr, id int64) {
		term := model.C(id)
		if c != nil {
			term = model.Bin(model.OpMul, c, term)
		}
		if sum == nil {
			sum = term
		} else {
			sum = model.Bin(model.OpAdd, sum, term)
		}
	}
	for bi, base := range bases {
		full := pointer{obj: base.obj, path: append(slices.Clone(base.path), p.path...)}
		ptrs, conds, _, ok := full.cases(maxCases)
		if !ok || len(ptrs)*len(bases) > maxCases*4 {
			s.unsupported(pos, "a pointer into an object with more than %d cases stored in memory", maxCases)
		}
		for i, q := range ptrs {
			c := andBoth(bconds[bi], conds[i])
			add(c, s.aliasID(q, pos))
		}
	}
	if sum == nil {
		return model.C(0)
	}
	return sum
}

// aliasHint is what the next round needs of an alias: the object it lies
// in and its path.
type aliasHint struct {
	owner int // position in the hint's objects of that object, plus one
	path  []step
}

// restoreAlias makes, at the start of a round, the alias an earlier round
// found; its object is restored already (initHeap).
func (s *system) restoreAlias(ho hintObj) *object {
	owner := s.heap.heap[ho.alias.owner-1]
	p := pointer{obj: owner, path: slices.Clone(ho.alias.path)}
	o := &object{id: -1, name: ho.name, typ: ho.typ, owner: -1, within: &p}
	if s.heap.aliases == nil {
		s.heap.aliases = map[aliasKey]*object{}
	}
	s.heap.aliases[keyOfAlias(p)] = o
	return o
}

// addressKey is an address a heap id may stand for: an object and a byte
// offset in it.
type addressKey struct {
	obj    *object
	offset int64
}

// notePointerValue records that the static pointer p is held as a value
// (stored, compared, passed to an atomic operation), for
// checkUnsafeCompares: the first location named at each address, and
// whether another location was named there too.
func (s *system) notePointerValue(p pointer) {
	if p.ref != nil || p.obj == nil {
		return
	}
	if s.addresses == nil {
		s.addresses = map[addressKey]string{}
	}
	k, name := addressKey{p.obj, p.offset()}, p.name()
	if other, ok := s.addresses[k]; ok && other != name && s.sharedAddress == "" {
		s.sharedAddress = other + " and " + name
	}
	if _, ok := s.addresses[k]; !ok {
		s.addresses[k] = name
	}
}

// checkUnsafeCompares refuses the system when a process compares
// unsafe.Pointers read at run time and two locations held as values share
// an address (a struct and its first field, an array and its first
// element): the model compares heap ids, which differ, where Go compares
// addresses, which are equal.
func (s *system) checkUnsafeCompares() {
	if len(s.unsafeCompares) > 0 && s.sharedAddress != "" {
		s.unsupported(s.unsafeCompares[0], "comparing unsafe.Pointers read at run time when %s may be among them: they share an address, which Go compares and fencecheck does not", s.sharedAddress)
	}
}
