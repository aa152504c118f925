package extract

import (
	"go/token"
	"go/types"
)

// Pointers to zero-size variables.
//
// The Go specification lets pointers to distinct zero-size variables be
// equal or not: gc gives every such allocation that escapes one address
// (runtime.zerobase), while two on a goroutine's stack may differ. The
// model keeps one identity per object, so a comparison of pointers that
// may name distinct zero-size objects (new(struct{}) used as a unique
// key, a context key &k of an empty struct) is refused; one of a pointer
// with itself, or with nil, is computed.

// zeroSizePtr reports whether t is a pointer to a zero-size type.
func zeroSizePtr(t types.Type) bool {
	if t == nil || !isObjPtr(t) {
		return false
	}
	return isZeroSize(ptrElem(t))
}

// mayNameZeroSize reports whether v, an operand of a comparison, may be a
// pointer to a zero-size object, or an interface value holding one.
func mayNameZeroSize(v value) bool {
	switch v.kind {
	case vPtr:
		t, _ := v.ptr.target()
		return t != nil && isZeroSize(t)
	case vIface:
		return zeroSizePtr(v.typ)
	case vRef:
		for _, o := range v.objs {
			if !o.box && !o.byValue && isZeroSize(o.typ) {
				return true
			}
		}
	}
	return false
}

// refuseZeroSizeCompare refuses, at pos, comparing x and y when both may
// be pointers to zero-size objects and they are not one pointer.
func (s *system) refuseZeroSizeCompare(x, y value, pos token.Pos) {
	if !mayNameZeroSize(x) || !mayNameZeroSize(y) || same(x, y) {
		return
	}
	s.unsupported(pos, "comparing pointers to zero-size variables (Go may or may not make two distinct ones equal: gc gives every one that escapes one address)")
}
