package extract

import (
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/fencecheck/fencecheck/model"
)

// The built-in copy, in a goroutine: between two slices whose lengths the
// lowering knows (the set-up's slices, a goroutine's own), it copies
// min(len(dst), len(src)) elements as Go's memmove does, every element of
// the source read before any of the destination is written (so that
// overlapping slices copy right), one plain access a cell. The result is
// the number of elements copied. Elements are integers, booleans and
// strings, or arrays and structs of them.

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
	for _, x := range []value{dst, src} {
		if x.kind != vSlice || x.sl.dlen != nil {
			s.unsupported(pos, "copy between slices whose lengths are known only at run time")
		}
	}
	n := min(dst.sl.len, src.sl.len)
	elem := s.sliceElem(args[0].Type(), pos)
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
