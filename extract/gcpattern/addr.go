package gcpattern

import (
	"go/token"
	"go/types"
	"strconv"

	"golang.org/x/tools/go/ssa"
)

// sameAddr reports whether a and b are certainly the same address: the same
// value, or FieldAddr/IndexAddr chains over the same base with the same
// fields and the same (constant or identical) indices. gc computes both
// with the same SSA value.
func sameAddr(a, b ssa.Value) bool {
	if a == nil || b == nil {
		return false
	}
	if a == b {
		return true
	}
	switch a := a.(type) {
	case *ssa.FieldAddr:
		b, ok := b.(*ssa.FieldAddr)
		return ok && a.Field == b.Field && sameAddr(a.X, b.X)
	case *ssa.IndexAddr:
		b, ok := b.(*ssa.IndexAddr)
		if !ok {
			return false
		}
		if a.Index != b.Index {
			i, ok1 := constIndex(a.Index)
			j, ok2 := constIndex(b.Index)
			if !ok1 || !ok2 || i != j {
				return false
			}
		}
		return sameAddr(a.X, b.X)
	}
	return false
}

// A step is one constant selection on the way from a base pointer to an
// address: a field or an element.
type step struct {
	field bool
	n     int64
}

// path splits addr into its base value and the constant selections applied
// to it; it fails when an index is not constant.
func path(addr ssa.Value) (ssa.Value, []step, bool) {
	var rev []step
	for {
		switch a := addr.(type) {
		case *ssa.FieldAddr:
			rev = append(rev, step{field: true, n: int64(a.Field)})
			addr = a.X
			continue
		case *ssa.IndexAddr:
			i, ok := constIndex(a.Index)
			if !ok {
				return nil, nil, false
			}
			rev = append(rev, step{n: i})
			addr = a.X
			continue
		}
		break
	}
	steps := make([]step, len(rev))
	for i, s := range rev {
		steps[len(rev)-1-i] = s
	}
	return addr, steps, addr != nil
}

// disjoint reports whether a and b certainly do not overlap in a way gc can
// prove: distinct package-level variables, or a different constant field or
// index on the same base.
func disjoint(a, b ssa.Value) bool {
	ra, pa, ok1 := path(a)
	rb, pb, ok2 := path(b)
	if !ok1 || !ok2 {
		return false
	}
	if ra == rb {
		for i := 0; i < len(pa) && i < len(pb); i++ {
			if pa[i] != pb[i] {
				return true
			}
		}
		return false
	}
	_, g1 := ra.(*ssa.Global)
	_, g2 := rb.(*ssa.Global)
	return g1 && g2
}

// addrName spells the variable at addr the way the source does ("s.seq",
// "flag[1]", "*p"), or returns "" when it cannot.
func addrName(addr ssa.Value) string {
	return nameAt(addr, 8)
}

func nameAt(addr ssa.Value, depth int) string {
	if depth == 0 || addr == nil {
		return ""
	}
	switch a := addr.(type) {
	case *ssa.Global:
		return a.Name()
	case *ssa.FreeVar:
		return a.Name()
	case *ssa.Alloc:
		if token.IsIdentifier(a.Comment) {
			return a.Comment
		}
		return ""
	case *ssa.FieldAddr:
		base := baseName(a.X, depth-1)
		f := fieldName(a)
		if base == "" || f == "" {
			return ""
		}
		return base + "." + f
	case *ssa.IndexAddr:
		base := baseName(a.X, depth-1)
		idx := indexName(a.Index)
		if base == "" || idx == "" {
			return ""
		}
		return base + "[" + idx + "]"
	}
	if p := valueName(addr, depth-1); p != "" {
		return "*" + p
	}
	return ""
}

// baseName spells the operand of a selection: the variable when x is its
// address, else the pointer or slice expression x itself.
func baseName(x ssa.Value, depth int) string {
	switch x.(type) {
	case *ssa.Global, *ssa.FreeVar, *ssa.Alloc, *ssa.FieldAddr, *ssa.IndexAddr:
		return nameAt(x, depth)
	}
	return valueName(x, depth)
}

// valueName spells an expression whose value is v: a parameter, or a load
// of a named variable.
func valueName(v ssa.Value, depth int) string {
	switch v := v.(type) {
	case *ssa.Parameter:
		return v.Name()
	case *ssa.UnOp:
		if v.Op == token.MUL {
			return nameAt(v.X, depth)
		}
	}
	return ""
}

func fieldName(a *ssa.FieldAddr) string {
	p, ok := a.X.Type().Underlying().(*types.Pointer)
	if !ok {
		return ""
	}
	s, ok := p.Elem().Underlying().(*types.Struct)
	if !ok || a.Field < 0 || a.Field >= s.NumFields() {
		return ""
	}
	return s.Field(a.Field).Name()
}

func indexName(v ssa.Value) string {
	if i, ok := constIndex(v); ok {
		return strconv.FormatInt(i, 10)
	}
	if p, ok := v.(*ssa.Parameter); ok {
		return p.Name()
	}
	return ""
}
