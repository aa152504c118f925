package rmm

import (
	"fmt"
	"unicode/utf8"

	"github.com/fencecheck/fencecheck/model"
)

// tokKind is the kind of a token.
type tokKind uint8

const (
	tEOF tokKind = iota
	tIdent
	tReg // $name; text holds the name without the dollar
	tNat // decimal digits; text holds them

	// Operators.
	tEq     // =
	tNe     // !=
	tLt     // <
	tGt     // >
	tLe     // <=
	tGe     // >=
	tAssign // :=
	tColon  // :
	tSemi   // ;
	tComma  // ,
	tLParen // (
	tRParen // )
	tLBrace // {
	tRBrace // }
	tLBrack // [
	tRBrack // ]
	tPlus   // +
	tMinus  // -
	tStar   // *
	tAndAnd // &&
	tOrOr   // ||
	tAt     // @
	firstKeyword

	// Keywords (reserved words of the language).
	kwAssume
	kwCas
	kwData
	kwDo
	kwEither
	kwElse
	kwFalse
	kwFence
	kwForbidden
	kwGoto
	kwIf
	kwLLFence
	kwLocked
	kwMe
	kwMy
	kwNop
	kwNot
	kwOr
	kwOther
	kwPredicates
	kwProcess
	kwRead
	kwRegisters
	kwSLocked
	kwSSFence
	kwSyncRd
	kwSyncWr
	kwText
	kwThen
	kwTrue
	kwWhile
	kwWrite
	tokKindEnd
)

var keywords = map[string]tokKind{
	"assume":     kwAssume,
	"cas":        kwCas,
	"data":       kwData,
	"do":         kwDo,
	"either":     kwEither,
	"else":       kwElse,
	"false":      kwFalse,
	"fence":      kwFence,
	"forbidden":  kwForbidden,
	"goto":       kwGoto,
	"if":         kwIf,
	"llfence":    kwLLFence,
	"locked":     kwLocked,
	"me":         kwMe,
	"my":         kwMy,
	"nop":        kwNop,
	"not":        kwNot,
	"or":         kwOr,
	"other":      kwOther,
	"predicates": kwPredicates,
	"process":    kwProcess,
	"read":       kwRead,
	"registers":  kwRegisters,
	"slocked":    kwSLocked,
	"ssfence":    kwSSFence,
	"syncrd":     kwSyncRd,
	"syncwr":     kwSyncWr,
	"text":       kwText,
	"then":       kwThen,
	"true":       kwTrue,
	"while":      kwWhile,
	"write":      kwWrite,
}

var opText = [...]string{
	tEq: "=", tNe: "!=", tLt: "<", tGt: ">", tLe: "<=", tGe: ">=",
	tAssign: ":=", tColon: ":", tSemi: ";", tComma: ",",
	tLParen: "(", tRParen: ")", tLBrace: "{", tRBrace: "}", tLBrack: "[", tRBrack: "]",
	tPlus: "+", tMinus: "-", tStar: "*", tAndAnd: "&&", tOrOr: "||", tAt: "@",
}

// String describes a token kind for error messages.
func (k tokKind) String() string {
	switch {
	case k == tEOF:
		return "end of file"
	case k == tIdent:
		return "identifier"
	case k == tReg:
		return "register"
	case k == tNat:
		return "number"
	case k < firstKeyword && int(k) < len(opText) && opText[k] != "":
		return "'" + opText[k] + "'"
	case k > firstKeyword && k < tokKindEnd:
		for s, kk := range keywords {
			if kk == k {
				return "'" + s + "'"
			}
		}
	}
	return fmt.Sprintf("token(%d)", k)
}

// token is one lexical token.
type token struct {
	kind tokKind
	text string
	pos  model.Pos
}

// describe names the token as it appears, for error messages.
func (t token) describe() string {
	switch t.kind {
	case tEOF:
		return "end of file"
	case tIdent:
		return fmt.Sprintf("identifier %s", t.text)
	case tReg:
		return fmt.Sprintf("register $%s", t.text)
	case tNat:
		return fmt.Sprintf("number %s", t.text)
	}
	if t.kind > firstKeyword {
		return "reserved word " + t.kind.String()
	}
	return t.kind.String()
}

// lex splits src into tokens. The last token is always tEOF.
func lex(file string, src []byte) ([]token, error) {
	var toks []token
	line, lineStart := 1, 0
	pos := func(i int) model.Pos { return model.Pos{File: file, Line: line, Col: i - lineStart + 1} }
	i := 0
	for i < len(src) {
		c := src[i]
		switch {
		case c == '\n':
			i++
			line, lineStart = line+1, i
			continue
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			i++
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			start := pos(i)
			i += 2
			closed := false
			for i < len(src) {
				if src[i] == '*' && i+1 < len(src) && src[i+1] == '/' {
					i += 2
					closed = true
					break
				}
				if src[i] == '\n' {
					line, lineStart = line+1, i+1
				}
				i++
			}
			if !closed {
				return nil, errorf(start, "comment not terminated")
			}
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			continue
		case isLetter(c):
			j := i + 1
			for j < len(src) && (isLetter(src[j]) || isDigit(src[j])) {
				j++
			}
			word := string(src[i:j])
			k, ok := keywords[word]
			if !ok {
				k = tIdent
			}
			toks = append(toks, token{kind: k, text: word, pos: pos(i)})
			i = j
			continue
		case isDigit(c):
			j := i + 1
			for j < len(src) && isDigit(src[j]) {
				j++
			}
			if j < len(src) && isLetter(src[j]) {
				return nil, errorf(pos(j), "unexpected %q after number", src[j])
			}
			toks = append(toks, token{kind: tNat, text: string(src[i:j]), pos: pos(i)})
			i = j
			continue
		case c == '$':
			j := i + 1
			for j < len(src) && (isLetter(src[j]) || isDigit(src[j])) {
				j++
			}
			if j == i+1 {
				return nil, errorf(pos(i), "register name expected after '$'")
			}
			toks = append(toks, token{kind: tReg, text: string(src[i+1 : j]), pos: pos(i)})
			i = j
			continue
		}
		// Operators: longest match first.
		var k tokKind
		n := 1
		two := ""
		if i+1 < len(src) {
			two = string(src[i : i+2])
		}
		switch two {
		case ":=":
			k, n = tAssign, 2
		case "!=":
			k, n = tNe, 2
		case "<=":
			k, n = tLe, 2
		case ">=":
			k, n = tGe, 2
		case "&&":
			k, n = tAndAnd, 2
		case "||":
			k, n = tOrOr, 2
		default:
			switch c {
			case '=':
				k = tEq
			case '<':
				k = tLt
			case '>':
				k = tGt
			case ':':
				k = tColon
			case ';':
				k = tSemi
			case ',':
				k = tComma
			case '(':
				k = tLParen
			case ')':
				k = tRParen
			case '{':
				k = tLBrace
			case '}':
				k = tRBrace
			case '[':
				k = tLBrack
			case ']':
				k = tRBrack
			case '+':
				k = tPlus
			case '-':
				k = tMinus
			case '*':
				k = tStar
			case '@':
				k = tAt
			default:
				return nil, badChar(pos(i), src[i:])
			}
		}
		toks = append(toks, token{kind: k, text: string(src[i : i+n]), pos: pos(i)})
		i += n
	}
	toks = append(toks, token{kind: tEOF, pos: pos(i)})
	return toks, nil
}

func badChar(pos model.Pos, rest []byte) error {
	r, size := utf8.DecodeRune(rest)
	if r == utf8.RuneError && size <= 1 {
		return errorf(pos, "invalid byte 0x%02x", rest[0])
	}
	switch r {
	case '!':
		return errorf(pos, "unexpected '!' (negation is written 'not', inequality '!=')")
	case '&', '|':
		return errorf(pos, "unexpected %q (conjunction is '&&', disjunction '||')", r)
	}
	return errorf(pos, "unexpected character %q", r)
}

func isLetter(c byte) bool { return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool  { return '0' <= c && c <= '9' }
