package native

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// tokKind is the kind of a token.
type tokKind uint8

const (
	tEOF     tokKind = iota
	tNewline         // end of a line
	tIdent           // identifier; text is the identifier
	tInt             // run of digits; text is the digits
	tString          // string literal; text is its value
	tReg             // $name or $"name"; text is the name
	tFile            // unquoted file name after @; text is the name
	tPunct           // operator or delimiter; text is its spelling
	tIllegal         // lexical error; text is the message
)

// token is one lexical element with the position of its first byte.
type token struct {
	kind      tokKind
	text      string
	line, col int
}

// is reports whether t is the punctuation s.
func (t token) is(s string) bool { return t.kind == tPunct && t.text == s }

// isKeyword reports whether t is the identifier kw.
func (t token) isKeyword(kw string) bool { return t.kind == tIdent && t.text == kw }

// String describes t for an error message.
func (t token) String() string {
	switch t.kind {
	case tEOF:
		return "end of file"
	case tNewline:
		return "end of line"
	case tString:
		return "string " + shorten(strconv.Quote(t.text))
	case tReg:
		return "register " + shorten(regName(t.text))
	case tIllegal:
		return t.text
	}
	return strconv.Quote(shorten(t.text))
}

func shorten(s string) string {
	const max = 32
	if len(s) <= max {
		return s
	}
	i := max
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "..."
}

// lexer splits a model file into tokens. It makes progress on every call,
// whatever the input.
type lexer struct {
	src       []byte
	off       int
	line      int
	lineStart int // offset of the first byte of the current line
}

func newLexer(src []byte) *lexer {
	l := &lexer{src: src, line: 1}
	if strings.HasPrefix(string(src[:min(len(src), 3)]), "\uFEFF") {
		l.off, l.lineStart = 3, 3
	}
	return l
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' }
func isDigit(c byte) bool  { return '0' <= c && c <= '9' }
func isWord(c byte) bool   { return isLetter(c) || isDigit(c) }

// isFileChar reports whether c may appear in an unquoted file name.
func isFileChar(c byte) bool {
	return isWord(c) || strings.IndexByte("./-+~", c) >= 0
}

// twoCharOps are the punctuation tokens of two bytes.
var twoCharOps = []string{":=", "->", "==", "!=", "<=", ">=", "&&", "||", "&^", "<<", ">>"}

// threeCharOps are matched before twoCharOps.
var threeCharOps = []string{">>>"}

const oneCharOps = ":;{}()[].@&*+-/%<>!=|^,"

func (l *lexer) skipBlank() {
	for l.off < len(l.src) {
		c := l.src[l.off]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			l.off++
		case c == '#' || c == '/' && l.off+1 < len(l.src) && l.src[l.off+1] == '/':
			for l.off < len(l.src) && l.src[l.off] != '\n' {
				l.off++
			}
		default:
			return
		}
	}
}

func (l *lexer) start() token {
	return token{line: l.line, col: l.off - l.lineStart + 1}
}

// next returns the next token.
func (l *lexer) next() token {
	l.skipBlank()
	t := l.start()
	if l.off >= len(l.src) {
		t.kind = tEOF
		return t
	}
	c := l.src[l.off]
	switch {
	case c == '\n':
		l.off++
		l.line++
		l.lineStart = l.off
		t.kind = tNewline
	case isWord(c):
		w := l.word()
		switch {
		case isLetter(c):
			t.kind, t.text = tIdent, w
		case isAllDigits(w):
			t.kind, t.text = tInt, w
		default:
			t.kind, t.text = tIllegal, fmt.Sprintf("malformed number %q", shorten(w))
		}
	case c == '"':
		t.text, t.kind = l.string()
	case c == '$':
		l.off++
		switch {
		case l.off < len(l.src) && isWord(l.src[l.off]):
			t.kind, t.text = tReg, l.word()
		case l.off < len(l.src) && l.src[l.off] == '"':
			t.text, t.kind = l.string()
			if t.kind == tString {
				t.kind = tReg
			}
		default:
			t.kind, t.text = tIllegal, "expected a register name after $"
		}
	default:
		for _, op := range threeCharOps {
			if bytes.HasPrefix(l.src[l.off:], []byte(op)) {
				l.off += len(op)
				t.kind, t.text = tPunct, op
				return t
			}
		}
		for _, op := range twoCharOps {
			if l.off+1 < len(l.src) && l.src[l.off] == op[0] && l.src[l.off+1] == op[1] {
				l.off += 2
				t.kind, t.text = tPunct, op
				return t
			}
		}
		if strings.IndexByte(oneCharOps, c) >= 0 {
			l.off++
			t.kind, t.text = tPunct, string(c)
			return t
		}
		t.kind = tIllegal
		if c < utf8.RuneSelf {
			l.off++
			t.text = fmt.Sprintf("unexpected character %q", rune(c))
			return t
		}
		r, size := utf8.DecodeRune(l.src[l.off:])
		l.off += size
		if r == utf8.RuneError && size == 1 {
			t.text = fmt.Sprintf("invalid UTF-8 byte 0x%02x", c)
		} else {
			t.text = fmt.Sprintf("unexpected character %q", r)
		}
	}
	return t
}

func isAllDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return s != ""
}

// word scans a run of letters, digits and _.
func (l *lexer) word() string {
	start := l.off
	for l.off < len(l.src) && isWord(l.src[l.off]) {
		l.off++
	}
	return string(l.src[start:l.off])
}

// string scans a Go string literal at l.off and returns its value and
// tString, or a message and tIllegal.
func (l *lexer) string() (string, tokKind) {
	start := l.off
	l.off++ // opening quote
	for {
		if l.off >= len(l.src) || l.src[l.off] == '\n' {
			return "unterminated string literal", tIllegal
		}
		c := l.src[l.off]
		l.off++
		if c == '"' {
			break
		}
		if c == '\\' && l.off < len(l.src) && l.src[l.off] != '\n' {
			l.off++
		}
	}
	s, err := strconv.Unquote(string(l.src[start:l.off]))
	if err != nil {
		return fmt.Sprintf("invalid string literal %s", shorten(string(l.src[start:l.off]))), tIllegal
	}
	return s, tString
}

// fileName scans the file of a position after @: a string literal or a run of
// file-name characters.
func (l *lexer) fileName() token {
	for l.off < len(l.src) && (l.src[l.off] == ' ' || l.src[l.off] == '\t') {
		l.off++
	}
	t := l.start()
	if l.off < len(l.src) && l.src[l.off] == '"' {
		t.text, t.kind = l.string()
		return t
	}
	start := l.off
	for l.off < len(l.src) && isFileChar(l.src[l.off]) {
		if l.src[l.off] == '/' && l.off+1 < len(l.src) && l.src[l.off+1] == '/' {
			break
		}
		l.off++
	}
	if l.off == start {
		t.kind, t.text = tIllegal, "expected a file name after @"
		return t
	}
	t.kind, t.text = tFile, string(l.src[start:l.off])
	return t
}
