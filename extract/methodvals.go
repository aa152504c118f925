package extract

import (
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// Method values.
//
// A method value x.m (lock := mu.Lock, go f(0) with f := l.run) is, in
// go/ssa, a closure of a synthetic wrapper (m$bound) that binds the
// receiver x and calls the method; a method expression (*T).m is a
// wrapper (m$thunk) that takes the receiver as its first argument. The wrapper has no source: a call of it
// is lowered as the call of the method itself with the bound receiver as
// its first argument, at the position of the call, so that a method value
// of sync.Mutex locks like mu.Lock() does and one of the package's methods
// is inlined or spawned like the method. A method value of an interface
// (f := r.Read) calls the method of the interface value's dynamic type.

// boundMethod returns the method fn, a method value's wrapper, calls; ok
// is false when fn is no such wrapper.
func boundMethod(fn *ssa.Function) (*types.Func, bool) {
	if fn == nil || !strings.HasPrefix(fn.Synthetic, "bound method wrapper") || len(fn.FreeVars) != 1 {
		return nil, false
	}
	m, ok := fn.Object().(*types.Func)
	return m, ok && m.Type().(*types.Signature).Recv() != nil
}

// unbind returns the callee and arguments of a call of f with args: for a
// method value, its method with the bound receiver first; for a method
// expression ((*T).m, whose first argument is the receiver), its method;
// for any other value, f and args.
func (s *system) unbind(f value, args []value, pos token.Pos) (value, []value) {
	if f.kind == vFunc && strings.HasPrefix(f.fn.Synthetic, "thunk for") && len(args) > 0 && len(f.fn.Params) > 0 {
		return s.unthunk(f.fn, args, pos)
	}
	if f.kind != vFunc || len(f.env) != 1 {
		return f, args
	}
	m, ok := boundMethod(f.fn)
	if !ok {
		return f, args
	}
	recv := f.env[0]
	prog := s.x.ssapkg.Prog
	var fn *ssa.Function
	if rt := f.fn.FreeVars[0].Type(); types.IsInterface(rt) {
		switch recv.kind {
		case vNil:
			// Go evaluates the method value, and panics, where it is
			// made; the model meets the nil receiver at the call.
			s.goPanic(pos, "a method value of a nil interface value")
		case vIface:
		default:
			s.unsupported(pos, "the method value %s of %s (only interface values whose dynamic type is known in the system are modelled)", m.Name(), describe(recv))
		}
		fn = prog.LookupMethod(recv.typ, m.Pkg(), m.Name())
		recv = recv.env[0]
	} else {
		fn = prog.LookupMethod(rt, m.Pkg(), m.Name())
	}
	if fn == nil {
		s.unsupported(pos, "the method value %s (no method found for it)", f.fn.Name())
	}
	return value{kind: vFunc, fn: fn}, append([]value{recv}, args...)
}

// unthunk returns the method a method expression's wrapper fn calls, and
// args with the receiver as the method takes it.
func (s *system) unthunk(fn *ssa.Function, args []value, pos token.Pos) (value, []value) {
	m, ok := fn.Object().(*types.Func)
	if !ok {
		return value{kind: vFunc, fn: fn}, args
	}
	prog := s.x.ssapkg.Prog
	rt := fn.Params[0].Type()
	args = append([]value(nil), args...)
	var method *ssa.Function
	if types.IsInterface(rt) {
		recv := args[0]
		if recv.kind != vIface {
			s.unsupported(pos, "the method expression %s on %s (only interface values whose dynamic type is known in the system are modelled)", m.Name(), describe(recv))
		}
		method = prog.LookupMethod(recv.typ, m.Pkg(), m.Name())
		args[0] = recv.env[0]
	} else {
		method = prog.LookupMethod(rt, m.Pkg(), m.Name())
	}
	if method == nil {
		s.unsupported(pos, "the method expression %s (no method found for it)", fn.Name())
	}
	return value{kind: vFunc, fn: method}, args
}

// funcSpawn is the goroutine that a function value f starts when a call
// of the set-up (WaitGroup.Go, time.AfterFunc) runs it: its
// function (nil when f is no function), bindings and arguments (for a
// method value, the receiver).
func (s *system) funcSpawn(f value, pos token.Pos) spawn {
	g, args := s.unbind(f, nil, pos)
	if g.kind != vFunc {
		return spawn{pos: pos}
	}
	sw := spawn{fn: g.fn, env: g.env, args: args, pos: pos}
	if len(args) == 0 {
		sw.captured = s.captured(g)
	}
	return sw
}

// boundTarget returns, for the wrapper of a method value of a concrete
// type, the method it calls; for any other function, fn itself.
func (x *extractor) boundTarget(fn *ssa.Function) *ssa.Function {
	m, ok := boundMethod(fn)
	if !ok || types.IsInterface(fn.FreeVars[0].Type()) {
		return fn
	}
	if t := x.ssapkg.Prog.LookupMethod(fn.FreeVars[0].Type(), m.Pkg(), m.Name()); t != nil {
		return t
	}
	return fn
}
