package extract

import (
	"fmt"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Interface values.
//
// An interface value whose dynamic type the lowering knows (it was made in
// the system by a conversion the code performs) is a vIface: the dynamic
// type and the value it holds. A method call on it calls the method of the
// dynamic type, inlined like any other call; a type assertion on it is
// decided. Interface values kept in memory or merged at a join of
// different dynamic types are not modelled.

// makeInterface converts a value to an interface type.
func (s *system) makeInterface(fr *frame, in *ssa.MakeInterface) value {
	payload := s.get(fr, in.X)
	v := value{kind: vIface, typ: in.X.Type(), env: []value{payload}}
	if s.curProc == nil && byValueType(in.X.Type()) {
		v.box = s.setupValueBox(fr, in, payload)
	}
	return v
}

// callee returns the function a call calls and its arguments, the receiver
// first for a method call through an interface whose dynamic type is known.
func (s *system) callee(fr *frame, c *ssa.CallCommon, pos token.Pos) (value, []value) {
	var args []value
	if !c.IsInvoke() {
		for _, a := range c.Args {
			args = append(args, s.get(fr, a))
		}
		f, args := s.unbind(s.get(fr, c.Value), args, pos)
		if f.kind == vFunc {
			if twin := s.x.archTwin(f.fn); twin != nil {
				f.fn = twin
			}
			if sh, err := s.x.onceFuncShim(f.fn); err != nil {
				s.unsupported(pos, "%v", err)
			} else if sh != nil {
				f.fn = sh
			}
			if sh, err := s.x.joinSliceShim(f.fn, c); err != nil {
				s.unsupported(pos, "%v", err)
			} else if sh != nil {
				f.fn = sh
			}
			if len(args) > 0 {
				f, args = s.syncMapCall(f, args, pos)
			}
		}
		return f, args
	}
	recv := s.get(fr, c.Value)
	if recv.kind == vNil {
		s.goPanic(pos, "a method call on a nil interface value")
	}
	if recv.kind != vIface {
		s.unsupported(pos, "a call of the interface method %s on %s (only interface values whose dynamic type is known in the system are modelled)", c.Method.Name(), describe(recv))
	}
	if isObjPtr(recv.typ) && s.x.isMadeError(ptrElem(recv.typ)) {
		s.unsupported(pos, "a call of the method %s of an error made by errors.New or fmt.Errorf", c.Method.Name())
	}
	fn := s.x.ssapkg.Prog.LookupMethod(recv.typ, c.Method.Pkg(), c.Method.Name())
	if fn == nil {
		s.unsupported(pos, "a call of the interface method %s on a %s", c.Method.Name(), recv.typ)
	}
	args = append(args, recv.env[0])
	for _, a := range c.Args {
		args = append(args, s.get(fr, a))
	}
	return value{kind: vFunc, fn: fn}, args
}

// typeAssert decides a type assertion on an interface value of known
// dynamic type.
func (s *system) typeAssert(fr *frame, in *ssa.TypeAssert) value {
	x := s.get(fr, in.X)
	var ok bool
	var res value
	switch x.kind {
	case vNil:
		ok = false
	case vIface:
		if iface, isIface := in.AssertedType.Underlying().(*types.Interface); isIface {
			ok, res = types.Implements(x.typ, iface), x
		} else {
			ok, res = types.Identical(x.typ, in.AssertedType), x.env[0]
		}
	default:
		s.unsupported(in.Pos(), "a type assertion on %s (only interface values whose dynamic type is known in the system are modelled)", describe(x))
	}
	if in.CommaOk {
		if !ok {
			res = s.zero(in.AssertedType)
		}
		return value{kind: vTuple, tup: []value{res, constVal(b2i(ok))}}
	}
	if !ok {
		// Only the setup gets here (a goroutine's failing assertion is a
		// panic of its own: failedAssert), and it runs alone: it panics.
		s.fail(in.Pos(), "the setup of system %s panics: %s", s.name, s.assertPanic(x, in.AssertedType))
	}
	return res
}

// assertPanic is Go's message for the failure of an assertion to type at
// on x, nil or of known dynamic type.
func (s *system) assertPanic(x value, at types.Type) string {
	ts := func(t types.Type) string { return types.TypeString(t, types.RelativeTo(s.x.pkg)) }
	if x.kind == vIface {
		return fmt.Sprintf("interface conversion: interface is %s, not %s", ts(x.typ), ts(at))
	}
	return fmt.Sprintf("interface conversion: interface is nil, not %s", ts(at))
}

// failedAssert lowers, in a goroutine, a type assertion without comma-ok
// on a value that is nil or of known dynamic type when it fails: the
// goroutine panics there. The value may be what the setup left in a cell
// that a goroutine lowered later writes (the next round then reads the
// cell at run time), so this is a panic of the runs that reach it, not a
// refusal of the system. ok is false for any other assertion.
func (p *proc) failedAssert(fr *frame, in *ssa.TypeAssert, cur int) (int, bool) {
	x := p.s.get(fr, in.X)
	if in.CommaOk || x.kind != vNil && x.kind != vIface || x.kind == vIface && asserts(x.typ, in.AssertedType) {
		return cur, false
	}
	p.panicAt(panicSite{loc: cur, name: p.s.assertPanic(x, in.AssertedType), pos: in.Pos()})
	return -1, true
}

// zero returns the zero value of type t.
func (s *system) zero(t types.Type) value {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		if u.Kind() == types.UnsafePointer {
			return value{kind: vNil}
		}
		return constVal(0)
	case *types.Pointer, *types.Interface, *types.Signature:
		return value{kind: vNil}
	}
	return opaque("the zero value of " + t.String())
}
