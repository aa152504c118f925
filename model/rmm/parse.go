package rmm

import (
	"math"
	"strconv"

	"github.com/fencecheck/fencecheck/model"
)

// Limits that keep the reader fast on any input.
const (
	maxDepth     = 500  // nesting of statements and expressions
	maxProcesses = 1000 // processes after process(N) is expanded
)

// bailout carries a syntax or translation error up to Parse.
type bailout struct{ err *Error }

type parser struct {
	toks  []token
	i     int
	depth int
}

func (p *parser) peek() token { return p.toks[p.i] }

func (p *parser) peekKind() tokKind { return p.toks[p.i].kind }

func (p *parser) next() token {
	t := p.toks[p.i]
	if t.kind != tEOF {
		p.i++
	}
	return t
}

func (p *parser) fail(pos model.Pos, format string, args ...any) {
	panic(bailout{errorf(pos, format, args...)})
}

// expect consumes a token of kind k, or fails saying what was expected.
func (p *parser) expect(k tokKind, context string) token {
	t := p.next()
	if t.kind != k {
		if context != "" {
			context = " " + context
		}
		p.fail(t.pos, "expected %v%s, found %s", k, context, t.describe())
	}
	return t
}

func (p *parser) got(k tokKind) bool {
	if p.peekKind() == k {
		p.next()
		return true
	}
	return false
}

func (p *parser) enter(pos model.Pos) {
	p.depth++
	if p.depth > maxDepth {
		p.fail(pos, "nesting deeper than %d levels", maxDepth)
	}
}

func (p *parser) leave() { p.depth-- }

// parseFile parses a whole .rmm file:
//
//	forbidden TUPLES [predicates BEXPRS] [data DECLS] PROCESS...
func (p *parser) parseFile() *fileAST {
	f := &fileAST{}
	if p.peekKind() != kwForbidden {
		t := p.peek()
		p.fail(t.pos, "expected 'forbidden' at the start of an .rmm file, found %s", t.describe())
	}
	p.next()
	f.forbidden = p.parseForbidden()
	if p.got(kwPredicates) {
		// Predicates are hints for Memorax's predicate abstraction; they
		// do not change the program, so they are checked and dropped.
		p.parseBExpr()
		for p.got(tSemi) {
			if k := p.peekKind(); k == kwData || k == kwProcess {
				break
			}
			p.parseBExpr()
		}
	}
	if p.got(kwData) {
		f.globals = p.parseDecls(tIdent)
	}
	if p.peekKind() != kwProcess {
		t := p.peek()
		p.fail(t.pos, "expected 'data' or 'process', found %s", t.describe())
	}
	for p.peekKind() == kwProcess {
		f.procs = append(f.procs, p.parseProcess())
	}
	if t := p.peek(); t.kind != tEOF {
		p.fail(t.pos, "expected ';', 'process' or end of file, found %s", t.describe())
	}
	return f
}

// parseForbidden parses LABEL... { ; LABEL... }, where a label may be *.
func (p *parser) parseForbidden() []badTuple {
	var tuples []badTuple
	for {
		t := p.peek()
		if t.kind != tIdent && t.kind != tStar {
			p.fail(t.pos, "expected a label or '*' in the forbidden states, found %s", t.describe())
		}
		tuple := badTuple{pos: t.pos}
		for k := p.peekKind(); k == tIdent || k == tStar; k = p.peekKind() {
			t := p.next()
			e := badEntry{pos: t.pos}
			if t.kind == tIdent {
				e.label = t.text
			}
			tuple.entries = append(tuple.entries, e)
		}
		tuples = append(tuples, tuple)
		if !p.got(tSemi) {
			return tuples
		}
		if k := p.peekKind(); k != tIdent && k != tStar {
			return tuples // a ';' after the last tuple
		}
	}
}

// parseDecls parses NAME = VALUE [: DOMAIN] {[,] NAME = VALUE [: DOMAIN]},
// where NAME is an identifier (data) or a register (registers).
func (p *parser) parseDecls(kind tokKind) []decl {
	what := "a variable declaration"
	if kind == tReg {
		what = "a register declaration"
	}
	var ds []decl
	seen := map[string]model.Pos{}
	for {
		t := p.peek()
		if t.kind != kind {
			p.fail(t.pos, "expected %s, found %s", what, t.describe())
		}
		d := p.parseDecl()
		if first, dup := seen[d.name]; dup {
			name := d.name
			if kind == tReg {
				name = "$" + name
			}
			p.fail(d.pos, "%s declared twice in this section (first at %v)", name, first)
		}
		seen[d.name] = d.pos
		ds = append(ds, d)
		p.got(tComma) // Memorax separates declarations by spaces, its grammar by commas
		if p.peekKind() != kind {
			return ds
		}
	}
}

func (p *parser) parseDecl() decl {
	name := p.next()
	d := decl{name: name.text, pos: name.pos, dom: model.Unbounded}
	p.expect(tEq, "after "+name.describe())
	switch t := p.next(); t.kind {
	case tStar:
		d.init = model.Init{Any: true}
	case tNat, tMinus:
		d.init = model.Init{Value: p.parseIntFrom(t)}
	default:
		p.fail(t.pos, "expected an initial value (a number or '*'), found %s", t.describe())
	}
	if !p.got(tColon) {
		return d
	}
	switch t := p.next(); {
	case t.kind == tLBrack:
		lo := p.parseIntFrom(p.next())
		p.expect(tColon, "between the bounds of a domain")
		hi := p.parseIntFrom(p.next())
		p.expect(tRBrack, "after a domain")
		if lo > hi {
			p.fail(t.pos, "empty domain [%d:%d]", lo, hi)
		}
		d.dom = model.Range(lo, hi)
	case t.kind == tIdent && t.text == "Z":
	default:
		p.fail(t.pos, "expected a domain ([LO:HI] or Z), found %s", t.describe())
	}
	if !d.init.Any && !d.dom.Contains(d.init.Value) {
		p.fail(d.pos, "initial value %d of %s is outside its domain %v", d.init.Value, name.text, rmmDomain(d.dom))
	}
	return d
}

// parseIntFrom parses an integer literal that starts with token t: a
// number, or '-' and a number.
func (p *parser) parseIntFrom(t token) int64 {
	neg := false
	if t.kind == tMinus {
		neg = true
		t = p.next()
	}
	if t.kind != tNat {
		p.fail(t.pos, "expected an integer, found %s", t.describe())
	}
	return p.natValue(t, neg)
}

// natValue converts a number token, negated if neg.
func (p *parser) natValue(t token, neg bool) int64 {
	u, err := strconv.ParseUint(t.text, 10, 64)
	switch {
	case err == nil && !neg && u <= math.MaxInt64:
		return int64(u)
	case err == nil && neg && u <= math.MaxInt64:
		return -int64(u)
	case err == nil && neg && u == 1<<63:
		return math.MinInt64
	}
	p.fail(t.pos, "integer %s is out of range", t.text)
	return 0
}

// parseProcess parses process [(N)] {data DECLS | registers DECLS} text STMTS.
func (p *parser) parseProcess() *procDecl {
	kw := p.next()
	pd := &procDecl{pos: kw.pos, count: 1}
	if p.got(tLParen) {
		t := p.expect(tNat, "(the number of copies of the process)")
		n, err := strconv.ParseUint(t.text, 10, 64)
		if err != nil || n < 1 || n > maxProcesses {
			p.fail(t.pos, "the number of copies of a process must be between 1 and %d", maxProcesses)
		}
		pd.count = int(n)
		p.expect(tRParen, "after the number of copies")
	}
	var seenData, seenRegs bool
	for {
		switch t := p.peek(); t.kind {
		case kwData:
			if seenData {
				p.fail(t.pos, "second 'data' section in one process")
			}
			seenData = true
			p.next()
			pd.data = p.parseDecls(tIdent)
			continue
		case kwRegisters:
			if seenRegs {
				p.fail(t.pos, "second 'registers' section in one process")
			}
			seenRegs = true
			p.next()
			pd.regs = p.parseDecls(tReg)
			continue
		case kwText:
			p.next()
		default:
			p.fail(t.pos, "expected 'data', 'registers' or 'text', found %s", t.describe())
		}
		break
	}
	pd.text = p.parseStmtList()
	return pd
}

// parseStmtList parses LSTMT {; LSTMT}. A ';' after the last statement is
// allowed before '}', 'or', 'process' and the end of the file.
func (p *parser) parseStmtList() []lstmt {
	list := []lstmt{p.parseLStmt()}
	for p.got(tSemi) {
		switch p.peekKind() {
		case tRBrace, kwOr, kwProcess, tEOF:
			return list
		}
		list = append(list, p.parseLStmt())
	}
	return list
}

// parseLStmt parses {LABEL :} STMT.
func (p *parser) parseLStmt() lstmt {
	var ls lstmt
	for p.peekKind() == tIdent {
		t := p.next()
		if p.peekKind() != tColon {
			nt := p.peek()
			p.fail(t.pos, "unexpected identifier %s: expected a statement (a label is followed by ':', found %s)", t.text, nt.describe())
		}
		p.next()
		ls.labels = append(ls.labels, labelRef{name: t.text, pos: t.pos})
	}
	ls.s = p.parseStmt()
	return ls
}

func (p *parser) parseStmt() *stmt {
	t := p.next()
	p.enter(t.pos)
	defer p.leave()
	s := &stmt{pos: t.pos}
	switch t.kind {
	case kwNop:
		s.kind = sNop
	case kwRead, kwSyncRd:
		if t.kind == kwSyncRd {
			s.flavor = sync
		}
		p.expect(tColon, "after "+t.describe())
		if r := p.peek(); r.kind == tReg {
			p.next()
			s.kind, s.reg, s.regPos = sReadReg, r.text, r.pos
			p.expect(tAssign, "after the register of an assigning read")
			s.loc = p.parseMemLoc()
		} else {
			s.kind = sReadEq
			s.loc = p.parseMemLoc()
			if n := p.peek(); n.kind == tAssign {
				p.fail(n.pos, "expected '=' in a read that compares; an assigning read is written read: $reg := %s", s.loc)
			}
			p.expect(tEq, "in a read (read: x = value, or read: $reg := x)")
			s.e = p.parseExpr()
		}
	case kwWrite, kwSyncWr:
		if t.kind == kwSyncWr {
			s.flavor = sync
		}
		p.parseWrite(s, t)
	case kwLocked:
		switch n := p.peek(); n.kind {
		case kwWrite:
			p.next()
			s.flavor = locked
			p.parseWrite(s, n)
		case tLBrace:
			p.next()
			s.kind = sLocked
			s.alts = p.parseAlternatives("locked block", n)
		default:
			p.fail(n.pos, "expected 'write' or '{' after 'locked', found %s", n.describe())
		}
	case kwSLocked:
		n := p.expect(kwWrite, "after 'slocked'")
		s.flavor = slocked
		p.parseWrite(s, n)
	case kwFence, kwSSFence, kwLLFence:
		s.kind = sFence
		switch t.kind {
		case kwSSFence:
			s.flavor = ssFence
		case kwLLFence:
			s.flavor = llFence
		}
	case kwCas:
		s.kind = sCas
		p.expect(tLParen, "after 'cas'")
		s.loc = p.parseMemLoc()
		p.expect(tComma, "after the variable of a cas")
		s.e = p.parseExpr()
		p.expect(tComma, "after the expected value of a cas")
		s.e2 = p.parseExpr()
		p.expect(tRParen, "at the end of a cas")
	case tReg:
		s.kind, s.reg, s.regPos = sAssign, t.text, t.pos
		if n := p.peek(); n.kind == tEq {
			p.fail(n.pos, "expected ':=' in an assignment to $%s, found '='", t.text)
		}
		p.expect(tAssign, "after $"+t.text)
		s.e = p.parseExpr()
	case kwIf:
		s.kind = sIf
		s.e = p.parseBExpr()
		p.expect(kwThen, "after the condition of 'if'")
		s.body = []lstmt{p.parseLStmt()}
		if p.got(kwElse) {
			e := p.parseLStmt()
			s.els = &e
		}
	case kwWhile:
		s.kind = sWhile
		s.e = p.parseBExpr()
		p.expect(kwDo, "after the condition of 'while'")
		s.body = []lstmt{p.parseLStmt()}
	case kwGoto:
		s.kind = sGoto
		l := p.expect(tIdent, "(a label) after 'goto'")
		s.label = labelRef{name: l.text, pos: l.pos}
	case kwEither:
		s.kind = sEither
		s.alts = p.parseAlternatives("either", p.expect(tLBrace, "after 'either'"))
	case tLBrace:
		s.kind = sSeq
		s.body = p.parseStmtList()
		p.closeBrace(t)
	case kwAssume:
		s.kind = sAssume
		p.expect(tColon, "after 'assume'")
		s.e = p.parseBExpr()
	case kwElse:
		p.fail(t.pos, "unexpected 'else' (the 'then' part of an if is a single statement: use { ... } to group several)")
	case kwOr:
		p.fail(t.pos, "unexpected 'or' outside 'either { ... }' and 'locked { ... }'")
	default:
		p.fail(t.pos, "expected a statement, found %s", t.describe())
	}
	return s
}

func (p *parser) parseWrite(s *stmt, t token) {
	s.kind = sWrite
	p.expect(tColon, "after "+t.describe())
	s.loc = p.parseMemLoc()
	if n := p.peek(); n.kind == tEq {
		p.fail(n.pos, "expected ':=' in a write, found '='")
	}
	p.expect(tAssign, "in a write")
	s.e = p.parseExpr()
}

// parseAlternatives parses STMTS {or STMTS} } after the opening brace.
func (p *parser) parseAlternatives(what string, open token) [][]lstmt {
	alts := [][]lstmt{p.parseStmtList()}
	for p.got(kwOr) {
		alts = append(alts, p.parseStmtList())
	}
	p.closeBrace(open)
	return alts
}

func (p *parser) closeBrace(open token) {
	t := p.next()
	if t.kind != tRBrace {
		p.fail(t.pos, "expected '}' to close the '{' at %d:%d, found %s", open.pos.Line, open.pos.Col, t.describe())
	}
}

// parseMemLoc parses x, x[my], x[N] or [EXPR].
func (p *parser) parseMemLoc() *memloc {
	t := p.next()
	switch t.kind {
	case tIdent:
		m := &memloc{kind: mlGlobal, name: t.text, pos: t.pos}
		if !p.got(tLBrack) {
			return m
		}
		switch n := p.next(); n.kind {
		case kwMy:
			m.kind = mlMy
		case tNat:
			m.kind, m.idx = mlOther, p.natValue(n, false)
		default:
			p.fail(n.pos, "expected 'my' or a process number in %s[...], found %s", t.text, n.describe())
		}
		p.expect(tRBrack, "after the process of "+t.text)
		return m
	case tLBrack:
		m := &memloc{kind: mlPtr, pos: t.pos}
		m.ptr = p.parseExpr()
		p.expect(tRBrack, "at the end of a pointer")
		return m
	case tReg:
		p.fail(t.pos, "expected a shared variable, found register $%s (registers are not in memory)", t.text)
	}
	p.fail(t.pos, "expected a shared variable, found %s", t.describe())
	return nil
}

// Expressions.
//
//	EXPR  = UNIT {(+|-) UNIT}
//	UNIT  = REG | NAT | - UNIT | ( EXPR )
//	BEXPR = AND {|| AND}
//	AND   = NOTS {&& NOTS}
//	NOTS  = not NOTS | ATOM
//	ATOM  = true | false | [ BEXPR ] | EXPR (=|!=|<|>|<=|>=) EXPR

func (p *parser) node(kind exprKind, pos model.Pos, op model.BinOp, x, y *aexpr) *aexpr {
	e := &aexpr{kind: kind, pos: pos, op: op, x: x, y: y, depth: 1}
	if x != nil {
		e.depth = x.depth + 1
	}
	if y != nil && y.depth >= e.depth {
		e.depth = y.depth + 1
	}
	if e.depth > maxDepth {
		p.fail(pos, "expression nested deeper than %d levels", maxDepth)
	}
	return e
}

func (p *parser) parseExpr() *aexpr {
	x := p.parseUnit()
	for {
		var op model.BinOp
		switch p.peekKind() {
		case tPlus:
			op = model.OpAdd
		case tMinus:
			op = model.OpSub
		default:
			return x
		}
		t := p.next()
		x = p.node(eBin, t.pos, op, x, p.parseUnit())
	}
}

func (p *parser) parseUnit() *aexpr {
	t := p.next()
	p.enter(t.pos)
	defer p.leave()
	switch t.kind {
	case tReg:
		return &aexpr{kind: eReg, pos: t.pos, name: t.text, depth: 1}
	case tNat:
		return &aexpr{kind: eNum, pos: t.pos, val: p.natValue(t, false), depth: 1}
	case tMinus:
		if n := p.peek(); n.kind == tNat {
			p.next()
			return &aexpr{kind: eNum, pos: t.pos, val: p.natValue(n, true), depth: 1}
		}
		x := p.parseUnit()
		if x.kind == eNum && x.val != math.MinInt64 {
			x.val, x.pos = -x.val, t.pos
			return x
		}
		return p.node(eNeg, t.pos, model.OpNeg, x, nil)
	case tLParen:
		x := p.parseExpr()
		if n := p.next(); n.kind != tRParen {
			p.fail(n.pos, "expected ')' to close the '(' at %d:%d, found %s", t.pos.Line, t.pos.Col, n.describe())
		}
		return x
	case kwMe, kwOther, tAt:
		p.fail(t.pos, "%s is not supported in expressions (Memorax does not support it either)", t.describe())
	case tIdent:
		p.fail(t.pos, "shared variable %s cannot be used in an expression: read it into a register first", t.text)
	case kwTrue, kwFalse, kwNot:
		p.fail(t.pos, "expected an integer expression, found %s", t.describe())
	}
	p.fail(t.pos, "expected an expression, found %s", t.describe())
	return nil
}

func (p *parser) parseBExpr() *aexpr {
	x := p.parseAnd()
	for p.peekKind() == tOrOr {
		t := p.next()
		x = p.node(eBin, t.pos, model.OpOr, x, p.parseAnd())
	}
	return x
}

func (p *parser) parseAnd() *aexpr {
	x := p.parseNot()
	for p.peekKind() == tAndAnd {
		t := p.next()
		x = p.node(eBin, t.pos, model.OpAnd, x, p.parseNot())
	}
	return x
}

func (p *parser) parseNot() *aexpr {
	t := p.peek()
	if t.kind != kwNot {
		return p.parseAtom()
	}
	p.next()
	p.enter(t.pos)
	defer p.leave()
	return p.node(eNot, t.pos, model.OpNot, p.parseNot(), nil)
}

func (p *parser) parseAtom() *aexpr {
	t := p.peek()
	p.enter(t.pos)
	defer p.leave()
	switch t.kind {
	case kwTrue, kwFalse:
		p.next()
		e := &aexpr{kind: eNum, pos: t.pos, depth: 1}
		if t.kind == kwTrue {
			e.val = 1
		}
		return e
	case tLBrack:
		p.next()
		x := p.parseBExpr()
		if n := p.next(); n.kind != tRBrack {
			p.fail(n.pos, "expected ']' to close the '[' at %d:%d, found %s", t.pos.Line, t.pos.Col, n.describe())
		}
		return x
	}
	x := p.parseExpr()
	var op model.BinOp
	switch n := p.peek(); n.kind {
	case tEq:
		op = model.OpEq
	case tNe:
		op = model.OpNe
	case tLt:
		op = model.OpLt
	case tGt:
		op = model.OpGt
	case tLe:
		op = model.OpLe
	case tGe:
		op = model.OpGe
	default:
		p.fail(n.pos, "expected a comparison (=, !=, <, >, <=, >=), found %s", n.describe())
	}
	opTok := p.next()
	return p.node(eBin, opTok.pos, op, x, p.parseExpr())
}

func itoa(v int64) string { return strconv.FormatInt(v, 10) }

// rmmDomain formats a domain in .rmm syntax.
func rmmDomain(d model.Domain) string {
	if d.Unbounded {
		return "Z"
	}
	return "[" + itoa(d.Lo) + ":" + itoa(d.Hi) + "]"
}
