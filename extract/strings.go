package extract

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// Strings are opaque values: each string constant of a system is interned
// as a small integer (the empty string, Go's zero value, is 0), so that
// strings can be stored, loaded and compared with == and != like integers.
// Everything that looks inside a string (indexing, slicing, concatenation,
// ordering, conversions) is unsupported, except len of a constant.

// isString reports whether t is a string type.
func isString(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

// intern returns the integer that stands for the string str in the system.
func (s *system) intern(str string) int64 {
	if str == "" {
		return 0
	}
	if id, ok := s.strIDs[str]; ok {
		return id
	}
	if s.strIDs == nil {
		s.strIDs = map[string]int64{}
	}
	s.strs = append(s.strs, str)
	id := int64(len(s.strs))
	s.strIDs[str] = id
	return id
}

// stringOf returns the string a known string value stands for.
func (s *system) stringOf(v value) (string, bool) {
	id, ok := v.constant()
	if !ok || id < 0 || id > int64(len(s.strs)) {
		return "", false
	}
	if id == 0 {
		return "", true
	}
	return s.strs[id-1], true
}

// checkStringOp rejects the binary operators on strings that the model
// cannot express: all but == and !=.
func (s *system) checkStringOp(in *ssa.BinOp) {
	if !isString(in.X.Type()) {
		return
	}
	switch in.Op {
	case token.EQL, token.NEQ:
	case token.ADD:
		s.unsupported(in.Pos(), "concatenating strings (strings are opaque values: only ==, != and len of a constant are modelled)")
	default:
		s.unsupported(in.Pos(), "the operator %s on strings (strings are opaque values: only ==, != and len of a constant are modelled)", in.Op)
	}
}
