package rmm

import (
	"slices"
	"strings"

	"github.com/fencecheck/fencecheck/model"
)

// maxExpanded bounds the tokens that macro expansion may produce, so that
// macros calling macros cannot blow a small file up without limit.
const maxExpanded = 1 << 18

// A macro is a definition
//
//	macro NAME(P0, ..., Pn) BODY endmacro
//
// whose calls NAME(A0, ..., An) stand for BODY with each Pi replaced by the
// tokens of Ai. Memorax expands macros on tokens before parsing; so does
// this reader.
type macro struct {
	name   string
	pos    model.Pos
	params []string
	body   []token
}

// expander replaces macro definitions and calls in a token stream by what
// they stand for.
type expander struct {
	macros map[string]*macro
	out    []token
	stack  []*macro // the calls being expanded, outermost first
}

// expandMacros returns toks with every macro definition removed and every
// call of a defined macro replaced by its expansion. A macro may be called
// once its definition is complete, from anywhere: the data section, a
// process's text, another macro's body or argument. An argument is a
// sequence of tokens balanced in parentheses, split at the commas outside
// them. Calls that end in a cycle, a wrong number of arguments, or more than
// maxExpanded tokens are errors.
func expandMacros(toks []token) ([]token, error) {
	if !hasMacros(toks) {
		return toks, nil
	}
	e := &expander{macros: map[string]*macro{}}
	if err := e.stream(toks, true); err != nil {
		return nil, err
	}
	return e.out, nil
}

// hasMacros says whether toks contains the words that start and end a
// definition.
func hasMacros(toks []token) bool {
	for _, t := range toks {
		if t.kind == tIdent && (t.text == "macro" || t.text == "endmacro") {
			return true
		}
	}
	return false
}

// stream expands toks into e.out. Definitions are allowed only at the top
// level (not in a macro's body).
func (e *expander) stream(toks []token, top bool) error {
	for i := 0; i < len(toks); {
		t := toks[i]
		switch {
		case t.kind == tIdent && t.text == "macro":
			if !top {
				return errorf(t.pos, "a macro definition inside the body of macro %s", e.stack[len(e.stack)-1].name)
			}
			n, err := e.define(toks[i:])
			if err != nil {
				return err
			}
			i += n
		case t.kind == tIdent && t.text == "endmacro":
			return errorf(t.pos, "endmacro without a macro definition")
		case t.kind == tIdent && e.macros[t.text] != nil:
			n, err := e.call(toks[i:])
			if err != nil {
				return err
			}
			i += n
		default:
			if t.kind == tEOF && !top {
				i++
				continue
			}
			if len(e.out) >= maxExpanded {
				return errorf(t.pos, "macro expansion produces more than %d tokens", maxExpanded)
			}
			e.out = append(e.out, t)
			i++
		}
	}
	return nil
}

// define reads the definition at the start of toks and returns the number of
// tokens it takes.
func (e *expander) define(toks []token) (int, error) {
	i := 1
	name := toks[i]
	if name.kind != tIdent || name.text == "macro" || name.text == "endmacro" {
		return 0, errorf(name.pos, "expected the name of the macro after macro, found %s", name.describe())
	}
	if m := e.macros[name.text]; m != nil {
		return 0, errorf(name.pos, "macro %s is defined twice (first at line %d)", name.text, m.pos.Line)
	}
	m := &macro{name: name.text, pos: name.pos}
	i++
	if toks[i].kind != tLParen {
		return 0, errorf(toks[i].pos, "expected '(' after macro %s, found %s", m.name, toks[i].describe())
	}
	i++
	if toks[i].kind == tRParen {
		i++
	} else {
		for {
			p := toks[i]
			if !isWord(p) {
				return 0, errorf(p.pos, "expected a parameter name of macro %s, found %s", m.name, p.describe())
			}
			for _, q := range m.params {
				if q == p.text {
					return 0, errorf(p.pos, "macro %s has two parameters named %s", m.name, p.text)
				}
			}
			m.params = append(m.params, p.text)
			i++
			if toks[i].kind == tComma {
				i++
				continue
			}
			if toks[i].kind != tRParen {
				return 0, errorf(toks[i].pos, "expected ',' or ')' in the parameters of macro %s, found %s", m.name, toks[i].describe())
			}
			i++
			break
		}
	}
	start := i
	for ; toks[i].kind != tEOF; i++ {
		t := toks[i]
		if t.kind == tIdent && t.text == "endmacro" {
			m.body = toks[start:i]
			e.macros[m.name] = m
			return i + 1, nil
		}
		if t.kind == tIdent && t.text == "macro" {
			return 0, errorf(t.pos, "a macro definition inside the body of macro %s", m.name)
		}
	}
	return 0, errorf(toks[i].pos, "end of file before endmacro of macro %s (defined at line %d)", m.name, m.pos.Line)
}

// call expands the call at the start of toks and returns the number of
// tokens it takes.
func (e *expander) call(toks []token) (int, error) {
	name := toks[0]
	m := e.macros[name.text]
	for i, c := range e.stack {
		if c == m {
			var through []string
			for _, d := range e.stack[i+1:] {
				through = append(through, d.name)
			}
			if len(through) > 0 {
				return 0, errorf(name.pos, "macro %s calls itself (through %s)", m.name, strings.Join(through, ", "))
			}
			return 0, errorf(name.pos, "macro %s calls itself", m.name)
		}
	}
	if len(e.stack) >= maxDepth {
		return 0, errorf(name.pos, "macro calls nested deeper than %d levels", maxDepth)
	}
	i := 1
	if toks[i].kind != tLParen {
		return 0, errorf(toks[i].pos, "expected '(' after macro %s, found %s", m.name, toks[i].describe())
	}
	i++
	var args [][]token
	var cur []token
	depth := 1
	for depth > 0 {
		t := toks[i]
		switch t.kind {
		case tEOF:
			return 0, errorf(t.pos, "end of file in the arguments of macro %s called at %d:%d", m.name, name.pos.Line, name.pos.Col)
		case tLParen:
			depth++
		case tRParen:
			depth--
		case tComma:
			if depth == 1 {
				if len(cur) == 0 {
					return 0, errorf(t.pos, "empty argument of macro %s", m.name)
				}
				args = append(args, cur)
				cur = nil
				i++
				continue
			}
		}
		if t.kind == tIdent && t.text == "macro" {
			return 0, errorf(t.pos, "a macro definition inside the arguments of macro %s", m.name)
		}
		if depth == 0 {
			if len(cur) > 0 {
				args = append(args, cur)
			} else if len(args) > 0 {
				return 0, errorf(t.pos, "empty argument of macro %s", m.name)
			}
		} else {
			cur = append(cur, t)
		}
		i++
	}
	if len(args) != len(m.params) {
		return 0, errorf(name.pos, "macro %s takes %d arguments, called with %d", m.name, len(m.params), len(args))
	}
	body := make([]token, 0, len(m.body))
	for _, t := range m.body {
		if isWord(t) {
			if k := slices.Index(m.params, t.text); k >= 0 {
				if len(body)+len(args[k]) > maxExpanded {
					return 0, errorf(name.pos, "macro expansion produces more than %d tokens", maxExpanded)
				}
				body = append(body, args[k]...)
				continue
			}
		}
		body = append(body, t)
	}
	e.stack = append(e.stack, m)
	err := e.stream(body, false)
	e.stack = e.stack[:len(e.stack)-1]
	return i, err
}

// isWord says whether t is an identifier or a reserved word, which may
// name a macro's parameter (Memorax reads reserved words as identifiers).
func isWord(t token) bool { return t.kind == tIdent || t.kind > firstKeyword && t.kind < tokKindEnd }
