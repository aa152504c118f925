package gcpattern

import (
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// An effect is what an instruction does to memory, as gc compiles it.
type effect int

const (
	effNone    effect = iota // no memory access, no branch in gc
	effSplit                 // no memory access, but gc may branch here (a check that can panic)
	effLoad                  // a plain load (*ssa.UnOp with token.MUL)
	effStore                 // a plain store of a one-word value
	effBarrier               // may read and write any memory: calls, atomics, allocation, wider stores
	effExit                  // return: the memory state leaves the function
)

// writes reports whether an instruction with effect e starts a new memory
// state.
func (e effect) writes() bool { return e == effStore || e == effBarrier }

// effectOf classifies in. Anything it does not know is a barrier.
func effectOf(in ssa.Instruction) effect {
	switch in := in.(type) {
	case *ssa.UnOp:
		switch in.Op {
		case token.MUL:
			return effLoad
		case token.ARROW:
			return effBarrier
		}
		return effNone
	case *ssa.Store:
		if isWord(in.Val.Type()) {
			return effStore
		}
		return effBarrier
	case *ssa.BinOp:
		return binOpEffect(in)
	case *ssa.Convert:
		return convertEffect(in)
	case *ssa.ChangeType, *ssa.DebugRef, *ssa.Phi, *ssa.Jump, *ssa.If,
		*ssa.Field, *ssa.Extract, *ssa.FieldAddr:
		return effNone
	case *ssa.IndexAddr:
		if n, ok := arrayPtrLen(in.X.Type()); ok {
			if i, ok := constIndex(in.Index); ok && i >= 0 && i < n {
				return effNone
			}
		}
		return effSplit
	case *ssa.Index:
		if a, ok := in.X.Type().Underlying().(*types.Array); ok {
			if i, ok := constIndex(in.Index); ok && i >= 0 && i < a.Len() {
				return effNone
			}
		}
		return effSplit
	case *ssa.Slice, *ssa.SliceToArrayPointer:
		return effSplit
	case *ssa.Lookup:
		if isString(in.X.Type()) {
			return effSplit
		}
		return effBarrier
	case *ssa.Call:
		if pureBuiltin(in.Common()) {
			return effNone
		}
		return effBarrier
	case *ssa.Return:
		return effExit
	}
	return effBarrier
}

func binOpEffect(in *ssa.BinOp) effect {
	switch u := in.X.Type().Underlying().(type) {
	case *types.Basic:
		info := u.Info()
		switch {
		case info&types.IsString != 0:
			return effBarrier // concatenation and comparison call the runtime
		case info&types.IsComplex != 0:
			if in.Op == token.QUO {
				return effBarrier // complex division calls the runtime
			}
			return effNone
		case info&types.IsInteger != 0:
			switch in.Op {
			case token.QUO, token.REM:
				if c, ok := in.Y.(*ssa.Const); ok && c.Value != nil && c.Value.Kind() == constant.Int {
					if v, exact := constant.Int64Val(c.Value); exact && v != 0 && v != -1 {
						return effNone
					}
				}
				return effSplit // division by zero (and -1) is checked with a branch
			case token.SHL, token.SHR:
				if _, ok := in.Y.(*ssa.Const); ok {
					return effNone
				}
				if b, ok := in.Y.Type().Underlying().(*types.Basic); ok && b.Info()&types.IsUnsigned != 0 {
					return effNone
				}
				return effSplit // a negative shift count panics
			}
			return effNone
		case info&(types.IsFloat|types.IsBoolean) != 0, u.Kind() == types.UnsafePointer:
			return effNone
		}
		return effBarrier
	case *types.Pointer, *types.Chan, *types.Map, *types.Signature:
		return effNone // comparisons of one word
	}
	return effBarrier
}

func convertEffect(in *ssa.Convert) effect {
	from, ok1 := in.X.Type().Underlying().(*types.Basic)
	to, ok2 := in.Type().Underlying().(*types.Basic)
	if !ok1 || !ok2 {
		if ok1 && from.Kind() == types.UnsafePointer || ok2 && to.Kind() == types.UnsafePointer {
			return effNone // pointer <-> unsafe.Pointer
		}
		return effBarrier
	}
	fi, ti := from.Info(), to.Info()
	switch {
	case fi&(types.IsString|types.IsComplex) != 0 || ti&(types.IsString|types.IsComplex) != 0:
		return effBarrier
	case (fi&types.IsInteger != 0 || from.Kind() == types.UnsafePointer) && (ti&types.IsInteger != 0 || to.Kind() == types.UnsafePointer):
		return effNone
	case fi&types.IsNumeric != 0 && ti&types.IsNumeric != 0:
		return effSplit // some float conversions branch on amd64
	}
	return effBarrier
}

// pureBuiltin reports whether c is len or cap of a value that gc reads
// without touching memory (a slice, string or array, or an array pointer).
func pureBuiltin(c *ssa.CallCommon) bool {
	b, ok := c.Value.(*ssa.Builtin)
	if !ok || len(c.Args) != 1 || (b.Name() != "len" && b.Name() != "cap") {
		return false
	}
	switch u := c.Args[0].Type().Underlying().(type) {
	case *types.Slice, *types.Array:
		return true
	case *types.Basic:
		return u.Info()&types.IsString != 0
	case *types.Pointer:
		_, ok := u.Elem().Underlying().(*types.Array)
		return ok
	}
	return false
}

// isWord reports whether a value of type t is loaded and stored by one
// machine instruction.
func isWord(t types.Type) bool {
	if t == nil {
		return false
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		info := u.Info()
		if info&types.IsUntyped != 0 {
			return false
		}
		return info&(types.IsInteger|types.IsFloat|types.IsBoolean) != 0 || u.Kind() == types.UnsafePointer
	case *types.Pointer, *types.Map, *types.Chan, *types.Signature:
		return true
	}
	return false
}

func isString(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

// arrayPtrLen returns the length of the array t points to.
func arrayPtrLen(t types.Type) (int64, bool) {
	p, ok := t.Underlying().(*types.Pointer)
	if !ok {
		return 0, false
	}
	a, ok := p.Elem().Underlying().(*types.Array)
	if !ok {
		return 0, false
	}
	return a.Len(), true
}

// constIndex returns the value of an integer constant.
func constIndex(v ssa.Value) (int64, bool) {
	c, ok := v.(*ssa.Const)
	if !ok || c.Value == nil || c.Value.Kind() != constant.Int {
		return 0, false
	}
	return constant.Int64Val(c.Value)
}

// A memState names one memory state of gc's SSA form: the one made by a
// store or barrier, or, when that is nil, the one at the entry of a block
// (a memory phi, or the function's initial memory).
type memState struct {
	by ssa.Instruction
	at *ssa.BasicBlock
}

// fnInfo is what the patterns need to know about one function.
type fnInfo struct {
	fn    *ssa.Function
	index map[ssa.Instruction]int // position of each instruction in its block
	entry map[*ssa.BasicBlock]memState
}

// maxRounds bounds the rounds of the memory-state fixed point, in multiples
// of the number of blocks; a function that needs more gets no findings.
const maxRounds = 4

// analyze computes the memory state at the entry of every block of fn: a
// block whose predecessors all leave it in one state (or in the block's own
// entry state, around a loop that writes nothing) starts in that state, any
// other block in a phi of its own. This is gc's elimination of trivial phis,
// started from a phi at every block.
func analyze(fn *ssa.Function) (*fnInfo, bool) {
	if fn == nil || len(fn.Blocks) == 0 {
		return nil, false
	}
	info := &fnInfo{
		fn:    fn,
		index: make(map[ssa.Instruction]int),
		entry: make(map[*ssa.BasicBlock]memState, len(fn.Blocks)),
	}
	for _, b := range fn.Blocks {
		if b == nil {
			return nil, false
		}
		info.entry[b] = memState{at: b}
		for i, in := range b.Instrs {
			info.index[in] = i
		}
	}
	for round := 0; round < maxRounds*len(fn.Blocks)+2; round++ {
		changed := false
		for i, b := range fn.Blocks {
			s := memState{at: b}
			if i != 0 {
				s = info.agreed(b)
			}
			if s != info.entry[b] {
				info.entry[b] = s
				changed = true
			}
		}
		if !changed {
			return info, true
		}
	}
	return nil, false
}

// agreed returns the state all predecessors of b leave it in, or b's own
// phi.
func (f *fnInfo) agreed(b *ssa.BasicBlock) memState {
	self := memState{at: b}
	var w memState
	found := false
	for _, p := range b.Preds {
		s, ok := f.exit(p)
		if !ok {
			return self
		}
		if s == self {
			continue
		}
		if !found {
			w, found = s, true
		} else if s != w {
			return self
		}
	}
	if !found {
		return self
	}
	return w
}

// exit returns the memory state at the end of b.
func (f *fnInfo) exit(b *ssa.BasicBlock) (memState, bool) {
	s, ok := f.entry[b]
	if !ok {
		return memState{}, false
	}
	for i := len(b.Instrs) - 1; i >= 0; i-- {
		if effectOf(b.Instrs[i]).writes() {
			return memState{by: b.Instrs[i]}, true
		}
	}
	return s, true
}

// before returns the memory state in which in executes.
func (f *fnInfo) before(in ssa.Instruction) (memState, bool) {
	i, ok := f.index[in]
	if !ok {
		return memState{}, false
	}
	b := in.Block()
	for j := i - 1; j >= 0; j-- {
		if effectOf(b.Instrs[j]).writes() {
			return memState{by: b.Instrs[j]}, true
		}
	}
	s, ok := f.entry[b]
	return s, ok
}

// dominates reports whether a executes before b on every path to b.
func (f *fnInfo) dominates(a, b ssa.Instruction) bool {
	ab, bb := a.Block(), b.Block()
	if ab == bb {
		i, ok1 := f.index[a]
		j, ok2 := f.index[b]
		return ok1 && ok2 && i < j
	}
	return ab.Dominates(bb)
}

// derefs returns the pointer that in dereferences, for which gc emits a
// nil check, or nil.
func derefs(in ssa.Instruction) ssa.Value {
	switch in := in.(type) {
	case *ssa.FieldAddr:
		return in.X
	case *ssa.IndexAddr:
		if _, ok := in.X.Type().Underlying().(*types.Pointer); ok {
			return in.X
		}
	case *ssa.UnOp:
		if in.Op == token.MUL {
			return in.X
		}
	case *ssa.Store:
		return in.Addr
	}
	return nil
}

// nilChecks reports whether gc keeps a nil check for in: in dereferences a
// pointer that is neither the address of a variable or element nor
// dereferenced by an instruction that dominates in. gc's nil check reads
// memory.
func (f *fnInfo) nilChecks(in ssa.Instruction) bool {
	p := derefs(in)
	if p == nil {
		return false
	}
	switch p.(type) {
	case *ssa.Global, *ssa.Alloc, *ssa.FieldAddr, *ssa.IndexAddr:
		return false
	}
	refs := p.Referrers()
	if refs == nil {
		return true
	}
	for _, r := range *refs {
		if r != in && derefs(r) == p && f.dominates(r, in) {
			return false
		}
	}
	return true
}

// inCycle reports whether control can leave b and come back to it.
func inCycle(b *ssa.BasicBlock) bool {
	seen := map[*ssa.BasicBlock]bool{}
	work := append([]*ssa.BasicBlock(nil), b.Succs...)
	for len(work) > 0 {
		c := work[len(work)-1]
		work = work[:len(work)-1]
		if c == b {
			return true
		}
		if c == nil || seen[c] {
			continue
		}
		seen[c] = true
		work = append(work, c.Succs...)
	}
	return false
}
