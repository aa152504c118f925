package extract

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/fencecheck/fencecheck/model"
)

// The built-in copy, in a goroutine: it copies min(len(dst), len(src))
// elements as Go's memmove does, every element of the source read before
// any of the destination is written (so that overlapping slices copy
// right), one plain access a cell. The result is the number of elements
// copied. Elements are integers, booleans and strings, or arrays and
// structs of them. Between slices whose lengths the lowering knows (the
// set-up's slices, a goroutine's own) the cells are known; where a length
// is known only at run time (a slice loaded from memory, resliced at a
// run-time offset too) the reads and then the writes are chains of moves
// guarded by the count, at most maxCopyChain of each.

// copyProc lowers copy(dst, src) in a process.
func (p *proc) copyProc(fr *frame, in *ssa.Call, cur int) int {
	s := p.s
	pos := in.Pos()
	args := in.Call.Args
	dst, src := s.get(fr, args[0]), s.get(fr, args[1])
	if dst.kind == vNil || src.kind == vNil {
		fr.vals[in] = constVal(0)
		return cur
	}
	if _, isString := args[1].Type().Underlying().(*types.Basic); isString {
		s.unsupported(pos, "copy from a string into a byte slice")
	}
	elem := s.sliceElem(args[0].Type(), pos)
	for _, x := range []value{dst, src} {
		if x.kind != vSlice {
			s.unsupported(pos, "copy between %s and %s", describe(dst), describe(src))
		}
	}
	if dst.sl.dlen != nil || src.sl.dlen != nil {
		return p.copyRunTime(fr, in, dst, src, elem, cur)
	}
	n := min(dst.sl.len, src.sl.len)
	o := Origin{}
	var regs [][]int
	for i := int64(0); i < n; i++ {
		from := leaves(src.ptr.with(step{field: -1, index: int(src.sl.off + i)}), elem, 32)
		var rs []int
		for _, q := range from {
			t, _ := q.target()
			if classify(t) != leafInt {
				s.unsupported(pos, "copy of elements of type %s (only integers, booleans and strings, and arrays and structs of them, are copied)", elem)
			}
			r := p.newReg("copy", t)
			cur = p.readCell(cur, q, r, pos, o)
			rs = append(rs, r)
		}
		regs = append(regs, rs)
	}
	for i := int64(0); i < n; i++ {
		to := leaves(dst.ptr.with(step{field: -1, index: int(dst.sl.off + i)}), elem, 32)
		if len(to) != len(regs[i]) {
			s.unsupported(pos, "copy of elements of type %s", elem)
		}
		for k, q := range to {
			cur = p.storeTo(q, intVal(model.R(regs[i][k])), nil, pos, o, cur)
		}
	}
	fr.vals[in] = constVal(n)
	return cur
}

// maxCopyChain bounds the elements a copy between slices of run-time
// length moves.
const maxCopyChain = 64

// copyRunTime lowers copy(dst, src) where a length is known only at run
// time: a chain of reads of src's first elements while fewer than the
// count are read, then a chain of writes of them into dst's.
func (p *proc) copyRunTime(fr *frame, in *ssa.Call, dst, src value, elem types.Type, cur int) int {
	s := p.s
	pos := in.Pos()
	most := min(mostElems(dst), mostElems(src))
	if most > maxCopyChain {
		s.unsupported(pos, "copy of up to %d elements between slices whose lengths are known only at run time (fencecheck copies at most %d)", most, maxCopyChain)
	}
	a, b := lengthOf(dst), lengthOf(src)
	count := model.Bin(model.OpAdd, a, model.Bin(model.OpMul, model.Bin(model.OpLt, b, a), model.Bin(model.OpSub, b, a)))
	o := Origin{}
	regs := make([][]int, most)
	cur = p.guardedChain(cur, count, most, pos, func(t int64, at int) int {
		for _, q := range leaves(elemCell(src, model.C(t)), elem, 32) {
			lt, _ := q.target()
			if classify(lt) != leafInt {
				s.unsupported(pos, "copy of elements of type %s (only integers, booleans and strings, and arrays and structs of them, are copied)", elem)
			}
			r := p.newReg("copy", lt)
			at = p.readCell(at, q, r, pos, o)
			regs[t] = append(regs[t], r)
		}
		return at
	})
	cur = p.guardedChain(cur, count, most, pos, func(t int64, at int) int {
		to := leaves(elemCell(dst, model.C(t)), elem, 32)
		if len(to) != len(regs[t]) {
			s.unsupported(pos, "copy of elements of type %s", elem)
		}
		for k, q := range to {
			at = p.storeTo(q, intVal(model.R(regs[t][k])), nil, pos, o, at)
		}
		return at
	})
	fr.vals[in] = intVal(count)
	return cur
}

// mostElems is the most elements slice x may have: its length when known,
// else the cells of its window.
func mostElems(x value) int64 {
	if x.sl.dlen == nil {
		return x.sl.len
	}
	return x.sl.cap
}

// lengthOf is the length of slice x.
func lengthOf(x value) model.Expr {
	if x.sl.dlen != nil {
		return x.sl.dlen
	}
	return model.C(x.sl.len)
}

// elemCell returns the cell of element e of slice x, e in [0, len(x)):
// after its offset, known or not (a slice grown by append and resliced).
func elemCell(x value, e model.Expr) pointer {
	if x.sl.doff != nil {
		return x.ptr.with(step{field: -1, dyn: model.Bin(model.OpAdd, x.sl.doff, e), lo: 0, n: int(x.sl.cap)})
	}
	if c, ok := e.(model.Const); ok {
		return x.ptr.with(step{field: -1, index: int(x.sl.off + c.Value)})
	}
	if x.sl.off != 0 {
		e = model.Bin(model.OpAdd, model.C(x.sl.off), e)
	}
	return x.ptr.with(step{field: -1, dyn: e, lo: int(x.sl.off), n: int(x.sl.off + x.sl.cap)})
}
