package extract

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/fencecheck/fencecheck/model"
)

// errgroup.Group (golang.org/x/sync/errgroup).
//
// A Group is a WaitGroup whose goroutines return errors: its cell is the
// counter (classify treats the type as a WaitGroup), and a hidden cell of
// its own holds the first non-nil error a goroutine returned. Go(f) in the
// setup counts the goroutine in and starts it as a process; when f
// returns, one locked step keeps the error if none was kept before (the
// Group's sync.Once) and, for a Group made by WithContext, cancels its
// context, and then the counter goes down. Wait waits for the counter to
// reach 0, cancels the context, and returns the error kept. The methods
// are modelled from their documentation; the package's source is not
// lowered. SetLimit and TryGo are not modelled.

// errGroupPath is the import path of the errgroup package.
const errGroupPath = "golang.org/x/sync/errgroup"

// isErrGroup reports whether t is errgroup.Group.
func isErrGroup(t types.Type) bool { return isNamed(t, errGroupPath, "Group") }

// An errGroup is the hidden state of a Group of the system.
type errGroup struct {
	err pointer  // the first error, an interface cell
	ctx *ctxNode // the context WithContext made, or nil
}

// errGroupOf returns the hidden state of the Group g points to.
func (s *system) errGroupOf(g pointer, pos token.Pos) *errGroup {
	if g.dynamic() || len(g.path) != 0 {
		s.unsupported(pos, "an errgroup.Group chosen at run time or inside another value")
	}
	if eg, ok := s.errGroups[g.obj]; ok {
		return eg
	}
	if s.errGroups == nil {
		s.errGroups = map[*object]*errGroup{}
	}
	o := s.newObject(g.obj.name+".err", types.Universe.Lookup("error").Type(), nil, -1)
	eg := &errGroup{err: pointer{obj: o}}
	s.errGroups[g.obj] = eg
	return eg
}

// errGroupFunc returns the name of fn when it is a function or method of
// the errgroup package, else "".
func errGroupFunc(fn *ssa.Function) string {
	obj := fn.Object()
	if obj == nil || obj.Pkg() == nil || obj.Pkg().Path() != errGroupPath {
		return ""
	}
	return fn.Name()
}

// errGroupSetup executes a call of the errgroup package in the setup; ok
// is false for other calls.
func (s *system) errGroupSetup(fn *ssa.Function, args []value, pos token.Pos, spawns *[]spawn) (value, bool) {
	switch errGroupFunc(fn) {
	case "":
		return value{}, false
	case "WithContext":
		parent := args[0]
		if parent.kind != vCtx {
			s.unsupported(pos, "errgroup.WithContext of %s (contexts the setup makes from context.Background are modelled)", describe(parent))
		}
		t := fn.Signature.Results().At(0).Type().(*types.Pointer).Elem()
		g := pointer{obj: s.newObject("group", t, nil, -1)}
		g.obj.anon = true // named after the variable it is bound to
		ctx := s.deriveCtx(parent, false, pos)
		s.errGroupOf(g, pos).ctx = ctx
		return value{kind: vTuple, tup: []value{{kind: vPtr, ptr: g}, {kind: vCtx, ctx: ctx}}}, true
	case "Go":
		g := s.staticPtr(args[0], pos)
		eg := s.errGroupOf(g, pos)
		sw := s.funcSpawn(args[1], pos)
		if sw.fn == nil || !s.x.local(sw.fn) {
			s.unsupported(pos, "errgroup.Group.Go on %s", describeCallee(args[1]))
		}
		s.mem[g.key()] = constVal(s.memInt(g) + 1)
		sw.wg, sw.group = &g, eg
		*spawns = append(*spawns, sw)
		return value{}, true
	}
	s.unsupported(pos, "(*errgroup.Group).%s in the set-up (Go, and WithContext, are modelled there; Wait in goroutines)", fn.Name())
	return value{}, false
}

// errGroupCall lowers a call of the errgroup package by a process; ok is
// false for other calls.
func (p *proc) errGroupCall(fr *frame, in *ssa.Call, fn *ssa.Function, args []value, cur int) (int, bool) {
	s := p.s
	name := errGroupFunc(fn)
	switch name {
	case "":
		return cur, false
	case "Wait":
	default:
		s.unsupported(in.Pos(), "(*errgroup.Group).%s in a goroutine (Go in the set-up, and Wait, are modelled)", name)
	}
	g := s.staticPtr(args[0], in.Pos())
	eg := s.errGroupOf(g, in.Pos())
	origin := Origin{Node: s.chanNode(fr, in, in.Pos())}
	cur = p.emit(cur, model.Op{Kind: model.Read, Var: s.varFor(g), Reg: -1, Expr: model.C(0), Atomic: true}, in.Pos(), origin)
	r := p.newReg(g.obj.name+".err", types.Universe.Lookup("error").Type())
	body := []model.Op{model.ReadOp(s.varFor(eg.err), r)}
	if eg.ctx != nil {
		c := &chanClose{p: p, from: cur, to: p.newLoc(in.Pos()), cancel: eg.ctx, pos: in.Pos(), origin: origin, also: body}
		s.chanCloses = append(s.chanCloses, c)
		cur = c.to
	} else {
		cur = p.emit(cur, model.LockedOp(body...), in.Pos(), origin)
	}
	fr.vals[in] = s.refVal(model.R(r), types.Universe.Lookup("error").Type())
	return cur, true
}

// groupReturn lowers the end of a goroutine of a Group: at a return of
// err, from loc, the first error is kept (and the context cancelled), then
// the counter of x goes down.
func (p *proc) groupReturn(eg *errGroup, ret retSite, x int, pos token.Pos) {
	s := p.s
	var errVal value = value{kind: vNil}
	if len(ret.vals) > 0 {
		errVal = ret.vals[len(ret.vals)-1]
	}
	id := s.refExpr(errVal, pos)
	done := model.FetchAdd(x, -1, model.C(-1))
	if c, ok := id.(model.Const); ok && c.Value == 0 {
		p.emit(ret.loc, done, pos, Origin{})
		return
	}
	ev := s.varFor(eg.err)
	// err = err if set, else the new one: err + (err == 0) * id.
	keep := model.WriteOp(ev, model.Bin(model.OpAdd, model.V(ev), model.Bin(model.OpMul, model.Bin(model.OpEq, model.V(ev), model.C(0)), id)))
	from := ret.loc
	if _, isConst := id.(model.Const); !isConst {
		// A nil error: only Done.
		nilLoc := p.emit(from, model.GuardOp(model.Bin(model.OpEq, id, model.C(0))), pos, Origin{})
		p.emit(nilLoc, done, pos, Origin{})
		from = p.emit(from, model.GuardOp(model.Bin(model.OpNe, id, model.C(0))), pos, Origin{})
	}
	var mid int
	if eg.ctx != nil {
		c := &chanClose{p: p, from: from, to: p.newLoc(pos), cancel: eg.ctx, pos: pos, also: []model.Op{keep}}
		s.chanCloses = append(s.chanCloses, c)
		mid = c.to
	} else {
		mid = p.emit(from, model.LockedOp(keep), pos, Origin{})
	}
	p.emit(mid, done, pos, Origin{})
}
