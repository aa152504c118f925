package extract

import (
	"fmt"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/fencecheck/fencecheck/model"
)

// Run-time refusals.
//
// Some constructs the model cannot lower are reached by the code of a
// goroutine only on a path that a run may never take: a library's queue
// grows its buffer with make([]T, 2*n) only once it is full. Refusing the
// whole system where the lowering meets the construct would refuse code
// whose runs never execute it. Instead the construct becomes a run-time
// refusal: a transition that sets a register whose domain is {0} to 1, so
// that an engine that reaches it answers inconclusive, naming the
// construct and its position, and the path ends there. A system whose
// runs never reach it is decided as usual.

// refuseAt emits from cur the run-time refusal of what (a description of
// the construct, at pos) and returns -1: nothing follows it.
func (p *proc) refuseAt(cur int, what string, pos token.Pos) int {
	r := p.newReg("unsupported", types.Typ[types.Int])
	if p.limits == nil {
		p.limits = map[int][2]int64{}
	}
	p.limits[r] = [2]int64{0, 0}
	if p.sources == nil {
		p.sources = map[int]source{}
	}
	p.sources[r] = source{"the number of runs of " + what + " (fencecheck models none)", pos}
	p.emit(cur, model.AssignOp(r, model.C(1)), pos, Origin{})
	return -1
}

// uncomputedOperand describes x op y when an operand is the result of a
// call the model does not run (time.Now().UnixNano(), say) and the other
// is not nil. A comparison is either answer (Go's is one of the two, so
// this only adds behaviours); any other operator is a run-time refusal
// where a goroutine reaches it, so that a library's path that a system
// never takes does not refuse the system.
func (s *system) uncomputedOperand(fr *frame, in *ssa.BinOp) (string, bool) {
	x, y := s.get(fr, in.X), s.get(fr, in.Y)
	if y.kind == vOpaque && y.uncomputed {
		x, y = y, x
	}
	if x.kind != vOpaque || !x.uncomputed || y.kind == vNil {
		return "", false
	}
	return fmt.Sprintf("the operator %s on %s", in.Op, strings.TrimSuffix(x.why, ", which fencecheck does not compute")), true
}

// isComparison reports whether op is one of Go's comparison operators,
// whose answer on a value the model does not compute is either boolean.
func isComparison(op token.Token) bool {
	switch op {
	case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
		return true
	}
	return false
}

// makeSliceProc lowers make([]T, n[, c]) in a goroutine. A length or a
// capacity known only at run time is a run-time refusal, until the domain
// inference finds that it takes one value there (len of a map of known
// keys, a parameter): the next round then allocates that size, as for a
// constant, where the values are the ones found, and refuses where they
// are not (which no run reaches, unless x86-TSO makes another length).
func (p *proc) makeSliceProc(fr *frame, in *ssa.MakeSlice, cur int) (value, int) {
	s := p.s
	_, lenOK := s.get(fr, in.Len).constant()
	capOK := true
	if in.Cap != nil {
		_, capOK = s.get(fr, in.Cap).constant()
	}
	if lenOK && capOK {
		return s.makeSlice(fr, in, p.idx), cur
	}
	what := "make(" + types.TypeString(in.Type(), types.RelativeTo(s.x.pkg)) + ", n) with a length known only at run time"
	if lenOK {
		what = "make(" + types.TypeString(in.Type(), types.RelativeTo(s.x.pkg)) + ", n, c) with a capacity known only at run time"
	}
	n, c := s.get(fr, in.Len), s.get(fr, in.Len)
	if in.Cap != nil {
		c = s.get(fr, in.Cap)
	}
	if why, ok := s.heap.hint.sizedRefused[makeSite{p.idx, in.Pos()}]; ok {
		what += ", whose size fencecheck finds but after which it refuses " + why
	}
	if n.kind != vInt || c.kind != vInt {
		return value{}, p.refuseAt(cur, what, in.Pos())
	}
	pr := makeProbe{p: p, site: makeSite{p.idx, in.Pos()}, n: n.e, c: c.e, loc: cur}
	k, known := s.heap.makeLens[pr.site]
	if !known {
		s.makeProbes = append(s.makeProbes, pr)
		return value{}, p.refuseAt(cur, what, in.Pos())
	}
	is := model.Bin(model.OpAnd, model.Bin(model.OpEq, pr.n, model.C(k[0])), model.Bin(model.OpEq, pr.c, model.C(k[1])))
	p.refuseAt(p.emit(cur, model.GuardOp(model.Unary{Op: model.OpNot, X: is}), in.Pos(), Origin{}), what+" other than the one found", in.Pos())
	at := p.emit(cur, model.GuardOp(is), in.Pos(), Origin{})
	return s.makeSliceOf(in, k[0], k[1], p.idx), at
}

// makeProbe is a make in process p at location loc whose length n or
// capacity c is known only at run time.
type makeProbe struct {
	p    *proc
	site makeSite
	n, c model.Expr
	loc  int
}

// makeSite is a make of run-time size in a process: its position and the
// process's index.
type makeSite struct {
	proc int
	pos  token.Pos
}

// noteMakeProbes looks, after the domain inference, at the makes of run-time
// size of p (states are its abstract registers at each location, vars the
// shared variables'): a make whose length and capacity take one value each
// at every probe of its position in p asks for another round that allocates it.
func (s *system) noteMakeProbes(p *proc, states [][]abs, vars []abs) {
	if s.heap.hint.noMakeLens {
		return
	}
	for _, pr := range s.makeProbes {
		if pr.p != p || states[pr.loc] == nil {
			continue
		}
		env := &absEnv{regs: states[pr.loc], vars: vars}
		n, okn := env.eval(pr.n).values()
		c, okc := env.eval(pr.c).values()
		if !okn || !okc || len(n) != 1 || len(c) != 1 || n[0] < 0 || c[0] < n[0] || c[0] > maxSliceCap {
			s.makeUnknown = append(s.makeUnknown, pr.site)
			continue
		}
		if old, seen := s.heap.makeLens[pr.site]; seen && old != [2]int64{n[0], c[0]} {
			s.makeUnknown = append(s.makeUnknown, pr.site)
			continue
		}
		if s.heap.makeLens == nil {
			s.heap.makeLens = map[makeSite][2]int64{}
		}
		s.heap.makeLens[pr.site] = [2]int64{n[0], c[0]}
	}
}

// settleMakeProbes drops the sizes of makes that some probe found more than
// one value for, and asks for another round when a size is new.
func (s *system) settleMakeProbes() {
	for _, site := range s.makeUnknown {
		delete(s.heap.makeLens, site)
	}
	for site := range s.heap.makeLens {
		if _, ok := s.heap.hint.makeLens[site]; !ok {
			s.heapChange("a make of run-time length gets its length")
			return
		}
	}
}
