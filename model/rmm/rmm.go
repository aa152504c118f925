package rmm

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/fencecheck/fencecheck/model"
)

// Parse reads the .rmm program src, naming positions after filename, and
// translates it into a [model.Program] that passes [model.Program.Validate].
// Every error it returns is an [*Error] (or, should the translation ever
// produce an invalid program, several joined with [errors.Join]).
func Parse(filename string, src []byte) (prog *model.Program, err error) {
	defer func() {
		switch r := recover().(type) {
		case nil:
		case bailout:
			prog, err = nil, r.err
		default:
			// A bug in this package; report it rather than crash the caller.
			prog = nil
			err = errorf(model.Pos{File: filename}, "internal error reading .rmm file: %v", r)
		}
	}()

	toks, err := lex(filename, src)
	if err != nil {
		return nil, err
	}
	if toks, err = expandMacros(toks); err != nil {
		return nil, err
	}
	p := &parser{toks: toks}
	f := p.parseFile()

	name := strings.TrimSuffix(filepath.Base(filename), filepath.Ext(filename))
	b := &builder{prog: &model.Program{Name: name, Ints: model.Mathematical}}
	b.build(f)
	if err := b.prog.Validate(); err != nil {
		return nil, invalid(filename, err)
	}
	return b.prog, nil
}

// invalid converts the problems that Validate found into Errors.
func invalid(filename string, err error) error {
	var errs []error
	var probs interface{ Unwrap() []error }
	if errors.As(err, &probs) {
		for _, e := range probs.Unwrap() {
			errs = append(errs, problem(filename, e))
		}
	} else {
		errs = append(errs, problem(filename, err))
	}
	return errors.Join(errs...)
}

func problem(filename string, err error) *Error {
	var p model.Problem
	if errors.As(err, &p) {
		if p.Pos.File == "" {
			p.Pos.File = filename
		}
		return &Error{Pos: p.Pos, Msg: fmt.Sprintf("internal error: invalid program: %s", p.Msg)}
	}
	return &Error{Pos: model.Pos{File: filename}, Msg: fmt.Sprintf("internal error: invalid program: %v", err)}
}
