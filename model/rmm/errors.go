package rmm

import (
	"fmt"

	"github.com/fencecheck/fencecheck/model"
)

// Error is a problem found in an .rmm file: a syntax error, a name that is
// not declared, a construct that cannot be translated, and so on. It prints as
// file:line:col: message.
type Error struct {
	Pos model.Pos
	Msg string
}

// Error formats e as file:line:col: message.
func (e *Error) Error() string { return e.Pos.String() + ": " + e.Msg }

func errorf(pos model.Pos, format string, args ...any) *Error {
	return &Error{Pos: pos, Msg: fmt.Sprintf(format, args...)}
}
