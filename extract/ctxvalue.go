package extract

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// context.WithValue.
//
// A context that context.WithValue makes is cancelled as its parent is
// (its Done, Err and Deadline are the parent's), so the model keeps it as
// the parent's context value carrying one more key and value: a vCtx
// whose ctxVals lists the pairs, innermost first. A context derived from
// it (WithCancel, WithTimeout) keeps them on its node. ctx.Value(key)
// walks them as Go does, comparing keys as == compares interface values,
// and gives nil past the last. Such a context travels in registers,
// closures, calls and cells the set-up fills; kept in memory a goroutine
// writes, or joined with other contexts at run time, it is refused
// (ctxIndex), as is a key compared at run time.

// ctxValue is one pair of context.WithValue, and those of its parent.
type ctxValue struct {
	key, val value
	next     *ctxValue
}

// argValues returns the values of the arguments of c in frame fr (of an
// interface method call, without the receiver).
func (s *system) argValues(fr *frame, c *ssa.CallCommon) []value {
	var args []value
	for _, a := range c.Args {
		args = append(args, s.get(fr, a))
	}
	return args
}

// ctxValsOf returns the pairs the context v carries.
func ctxValsOf(v value) *ctxValue {
	if v.ctxVals != nil {
		return v.ctxVals
	}
	if v.ctx != nil {
		return v.ctx.vals
	}
	return nil
}

// withValue computes context.WithValue(args[0], args[1], args[2]): Go
// panics on a nil key and on a key of a type that is not comparable.
func (s *system) withValue(args []value, pos token.Pos) value {
	parent, key, val := args[0], args[1], args[2]
	if parent.kind != vCtx {
		s.unsupported(pos, "context.WithValue of %s (contexts the system makes are modelled)", describe(parent))
	}
	switch {
	case key.kind == vNil:
		s.goPanic(pos, "nil key")
	case key.kind != vIface:
		s.unsupported(pos, "context.WithValue with a key that is %s", describe(key))
	case !types.Comparable(key.typ):
		s.goPanic(pos, "key is not comparable")
	}
	return value{kind: vCtx, ctx: parent.ctx, ctxVals: &ctxValue{key: key, val: val, next: ctxValsOf(parent)}}
}

// ctxValue computes ctx.Value(key) of the context recv: the value of the
// innermost pair whose key equals key, nil when none does.
func (s *system) ctxValue(recv value, key value, pos token.Pos) value {
	if recv.ctxVals == nil && recv.ctx != nil && recv.ctx.key != "" && !isRootKey(recv.ctx.key) && !recv.ctx.derived {
		s.unsupported(pos, "the Value of a context read before the call that makes it")
	}
	for kv := ctxValsOf(recv); kv != nil; kv = kv.next {
		eq, known := s.ctxKeyEqual(kv.key, key, pos).constant()
		if !known {
			s.unsupported(pos, "a context's Value with a key compared at run time (keys of constant values are modelled)")
		}
		if eq != 0 {
			return kv.val
		}
	}
	return value{kind: vNil}
}

// ctxKeyEqual compares two keys of context values as == compares
// interface values: of different dynamic types, unequal; of one, by
// their payloads (an empty struct is equal to every other).
func (s *system) ctxKeyEqual(x, y value, pos token.Pos) value {
	if x.kind == vIface && y.kind == vIface && types.Identical(x.typ, y.typ) {
		if st, ok := x.typ.Underlying().(*types.Struct); ok && st.NumFields() == 0 {
			return constVal(1)
		}
	}
	return s.ifaceEqual(x, y, pos)
}
