package native

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/fencecheck/fencecheck/model"
)

// Error is a problem in a model file, at the position where it was found.
type Error struct {
	Pos model.Pos
	Msg string
}

// Error returns "file:line:col: message".
func (e *Error) Error() string { return e.Pos.String() + ": " + e.Msg }

const (
	// maxErrors is how many errors Parse reports before it gives up.
	maxErrors = 10
	// maxDepth bounds the nesting of parentheses and unary operators.
	maxDepth = 1000
	// maxHeight bounds the height of an expression tree.
	maxHeight = 10000
)

// Parse parses the model file src, named filename in positions and errors,
// and validates the program it describes.
//
// On failure the error is an [*Error], or several of them joined by
// [errors.Join] (at most ten), each reading "filename:line:col: message".
// Problems found by [model.Program.Validate] are reported the same way, at
// the place in the file of the declaration or transition concerned.
func Parse(filename string, src []byte) (*model.Program, error) {
	p := &parser{
		file:  filename,
		lx:    newLexer(src),
		prog:  &model.Program{},
		vars:  map[string]int{},
		procs: map[string]int{},
	}
	p.parseFile()
	if len(p.errs) == 0 {
		p.validate()
	}
	switch len(p.errs) {
	case 0:
		for _, e := range p.explicit {
			p.prog.Procs[e.proc].Trans[e.trans].Pos = e.pos
		}
		return p.prog, nil
	case 1:
		return nil, p.errs[0]
	}
	if len(p.errs) > maxErrors {
		p.errs = p.errs[:maxErrors]
	}
	errs := make([]error, len(p.errs))
	for i, e := range p.errs {
		errs[i] = e
	}
	return nil, errors.Join(errs...)
}

// parser is a recursive-descent parser with one token of lookahead beyond
// the current one. Syntax errors abandon the current line (see guard).
type parser struct {
	file     string
	lx       *lexer
	tok      token
	ahead    token
	hasAhead bool
	errs     []*Error
	depth    int

	prog     *model.Program
	vars     map[string]int // shared variables by name
	procs    map[string]int // processes by name
	states   []*procState   // per process, parallel to prog.Procs
	explicit []explicitPos  // transition positions written with @
}

// procState is what the parser knows of a process beyond model.Process.
type procState struct {
	index    int // in prog.Procs
	q        *model.Process
	regs     map[string]int
	locs     map[string]int
	listed   map[string]bool // locations named by a locs line
	initSeen bool
}

type explicitPos struct {
	proc, trans int
	pos         model.Pos
}

// bailout unwinds the parser to the statement being parsed after an error;
// tooMany unwinds it to the top after maxErrors errors.
type (
	bailout struct{}
	tooMany struct{}
)

func (p *parser) next() {
	if p.hasAhead {
		p.tok, p.hasAhead = p.ahead, false
		return
	}
	p.tok = p.lx.next()
}

func (p *parser) peek() token {
	if !p.hasAhead {
		p.ahead, p.hasAhead = p.lx.next(), true
	}
	return p.ahead
}

func (p *parser) pos(t token) model.Pos {
	return model.Pos{File: p.file, Line: t.line, Col: t.col}
}

// report records an error, and abandons parsing after maxErrors.
func (p *parser) report(pos model.Pos, format string, args ...any) {
	p.errs = append(p.errs, &Error{Pos: pos, Msg: fmt.Sprintf(format, args...)})
	if len(p.errs) >= maxErrors {
		panic(tooMany{})
	}
}

// errorf records an error at t and abandons the statement.
func (p *parser) errorf(t token, format string, args ...any) {
	p.report(p.pos(t), format, args...)
	panic(bailout{})
}

// expected reports that the current token is not what was expected.
func (p *parser) expected(what string) {
	if p.tok.kind == tIllegal {
		p.errorf(p.tok, "%s", p.tok.text)
	}
	p.errorf(p.tok, "expected %s, found %v", what, p.tok)
}

// expect consumes the punctuation s.
func (p *parser) expect(s, context string) {
	if !p.tok.is(s) {
		p.expected(strconv.Quote(s) + context)
	}
	p.next()
}

// endLine checks that the current token ends the line, and consumes it.
func (p *parser) endLine(after string) {
	switch p.tok.kind {
	case tNewline:
		p.next()
	case tEOF:
	case tIllegal:
		p.errorf(p.tok, "%s", p.tok.text)
	default:
		p.errorf(p.tok, "unexpected %v after %s", p.tok, after)
	}
}

func (p *parser) skipNewlines() {
	for p.tok.kind == tNewline {
		p.next()
	}
}

// skipLine skips to the end of the current line.
func (p *parser) skipLine() {
	for p.tok.kind != tNewline && p.tok.kind != tEOF {
		p.next()
	}
}

// guard runs f, which parses one statement. If f reports an error, guard
// skips the rest of the line and returns false.
func (p *parser) guard(f func()) (ok bool) {
	defer func() {
		if r := recover(); r != nil {
			if _, isBailout := r.(bailout); !isBailout {
				panic(r)
			}
			p.depth = 0
			p.skipLine()
			ok = false
		}
	}()
	f()
	return true
}

func (p *parser) parseFile() {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(tooMany); !ok {
				panic(r)
			}
		}
	}()
	p.next()
	named := false
	for first := true; ; first = false {
		p.skipNewlines()
		t := p.tok
		switch {
		case t.kind == tEOF:
			if len(p.prog.Procs) == 0 && len(p.errs) == 0 {
				p.report(p.pos(t), "the model declares no process")
			}
			return
		case t.isKeyword("program"):
			p.guard(func() { p.programDecl(first, named) })
			named = true
		case t.isKeyword("var"):
			p.guard(p.varDecl)
		case t.isKeyword("process"):
			p.processDecl()
		case t.isKeyword("bad"):
			p.guard(p.badDecl)
		default:
			p.guard(func() { p.expected("a declaration (program, var, process or bad)") })
		}
	}
}

func (p *parser) programDecl(first, named bool) {
	kw := p.tok
	if named {
		p.errorf(kw, "a second program line")
	}
	if !first {
		p.errorf(kw, "the program line must come first")
	}
	p.next()
	p.prog.Name = p.name("a program name")
	if p.tok.isKeyword("integers") {
		p.next()
		switch {
		case p.tok.isKeyword(model.Mathematical.String()):
			p.prog.Ints = model.Mathematical
		case p.tok.isKeyword(model.Wrap64.String()):
			p.prog.Ints = model.Wrap64
		default:
			p.expected("wrap64 or mathematical")
		}
		p.next()
	}
	p.endLine("the program line")
}

// name parses an identifier or a string literal.
func (p *parser) name(what string) string {
	if p.tok.kind != tIdent && p.tok.kind != tString {
		p.expected(what)
	}
	s := p.tok.text
	p.next()
	return s
}

func (p *parser) varDecl() {
	p.next()
	nameTok := p.tok
	name := p.name("a variable name")
	if i, dup := p.vars[name]; dup {
		p.errorf(nameTok, "shared variable %s declared twice (first at %s)", displayName(name), lineCol(p.prog.Vars[i].Pos))
	}
	dom, init := p.domainInit(" after the variable name")
	p.vars[name] = len(p.prog.Vars)
	p.prog.Vars = append(p.prog.Vars, model.Var{Name: name, Dom: dom, Init: init, Pos: p.pos(nameTok)})
	p.endLine("the variable declaration")
}

// domainInit parses ": domain = init".
func (p *parser) domainInit(context string) (model.Domain, model.Init) {
	p.expect(":", context)
	var dom model.Domain
	switch t := p.tok; {
	case t.isKeyword("int"):
		p.next()
		dom = model.Unbounded
	case t.is("["):
		p.next()
		lo := p.integer("the lower bound of the domain")
		p.expect(":", " between the bounds of the domain")
		hi := p.integer("the upper bound of the domain")
		p.expect("]", " after the domain")
		if lo > hi {
			p.errorf(t, "empty domain [%d:%d]: the lower bound exceeds the upper", lo, hi)
		}
		dom = model.Range(lo, hi)
	default:
		p.expected("a domain ([lo:hi] or int)")
	}
	p.expect("=", " after the domain")
	var init model.Init
	if p.tok.is("*") {
		p.next()
		init.Any = true
	} else {
		init.Value = p.integer("an initial value (an integer or *)")
	}
	return dom, init
}

// integer parses an optionally negative integer literal.
func (p *parser) integer(what string) int64 {
	t := p.tok
	neg := false
	if t.is("-") {
		neg = true
		p.next()
	}
	if p.tok.kind != tInt {
		p.expected(what)
	}
	v := p.literal(t, neg)
	p.next()
	return v
}

// literal converts the digits of the current token, negated if neg; start
// is where the literal begins, for errors.
func (p *parser) literal(start token, neg bool) int64 {
	u, err := strconv.ParseUint(p.tok.text, 10, 64)
	switch {
	case err != nil, !neg && u > math.MaxInt64, neg && u > 1<<63:
		sign := ""
		if neg {
			sign = "-"
		}
		p.errorf(start, "integer %s%s out of range", sign, shorten(p.tok.text))
	case neg:
		return int64(-u) // -(1<<63) wraps to math.MinInt64
	}
	return int64(u)
}

func (p *parser) processDecl() {
	var st *procState
	var nameTok, lbrace token
	ok := p.guard(func() {
		p.next()
		nameTok = p.tok
		name := p.name("a process name")
		if _, dup := p.procs[name]; dup {
			p.errorf(nameTok, "process %s declared twice", displayName(name))
		}
		lbrace = p.tok
		p.expect("{", " after the process name")
		st = &procState{
			index:  len(p.prog.Procs),
			q:      &model.Process{Name: name},
			regs:   map[string]int{},
			locs:   map[string]int{},
			listed: map[string]bool{},
		}
		p.procs[name] = len(p.prog.Procs)
		p.prog.Procs = append(p.prog.Procs, st.q)
		p.states = append(p.states, st)
	})
	if !ok {
		p.skipBlock()
		return
	}
	for {
		p.skipNewlines()
		switch {
		case p.tok.is("}"):
			p.next()
			p.guard(func() { p.endLine("}") })
			if len(st.q.Locs) == 0 {
				p.report(p.pos(nameTok), "process %s has no location", displayName(st.q.Name))
			}
			return
		case p.tok.kind == tEOF:
			p.report(p.pos(lbrace), "unterminated process %s: missing }", displayName(st.q.Name))
			return
		case isTopKeyword(p.tok) && !p.peek().is("->"):
			p.report(p.pos(p.tok), "unterminated process %s: missing } before %s", displayName(st.q.Name), p.tok.text)
			return
		default:
			p.guard(func() { p.procStmt(st) })
		}
	}
}

// isTopKeyword reports whether t starts a top-level declaration.
func isTopKeyword(t token) bool {
	return t.isKeyword("var") || t.isKeyword("process") || t.isKeyword("bad") || t.isKeyword("program")
}

// skipBlock skips the body of a process whose header did not parse: up to
// and including a line that starts with }, or up to a line that starts a
// top-level declaration.
func (p *parser) skipBlock() {
	for {
		p.skipNewlines()
		t := p.tok
		switch {
		case t.kind == tEOF, isTopKeyword(t):
			return
		case t.is("}"):
			p.skipLine()
			return
		}
		p.skipLine()
	}
}

func (p *parser) procStmt(st *procState) {
	t := p.tok
	if t.kind == tIdent && !p.peek().is("->") {
		switch t.text {
		case "reg":
			p.regDecl(st)
			return
		case "locs":
			p.locsDecl(st)
			return
		case "init":
			p.initDecl(st)
			return
		}
	}
	if !isLocToken(t) {
		p.expected("reg, locs, init or a transition")
	}
	p.transition(st)
}

func (p *parser) regDecl(st *procState) {
	p.next()
	t := p.tok
	if t.kind != tReg {
		p.expected("a register name ($name)")
	}
	p.next()
	if i, dup := st.regs[t.text]; dup {
		p.errorf(t, "register %s declared twice in process %s (first at %s)", regName(t.text), displayName(st.q.Name), lineCol(st.q.Regs[i].Pos))
	}
	dom, init := p.domainInit(" after the register name")
	st.regs[t.text] = len(st.q.Regs)
	st.q.Regs = append(st.q.Regs, model.Reg{Name: t.text, Dom: dom, Init: init, Pos: p.pos(t)})
	p.endLine("the register declaration")
}

func isLocToken(t token) bool { return t.kind == tIdent || t.kind == tInt || t.kind == tString }

// loc parses a location name of st's process and returns its index,
// declaring the location if it is new.
func (p *parser) loc(st *procState, what string) int {
	t := p.tok
	if !isLocToken(t) {
		p.expected(what)
	}
	p.next()
	if i, ok := st.locs[t.text]; ok {
		return i
	}
	return p.addLoc(st, t)
}

func (p *parser) addLoc(st *procState, t token) int {
	i := len(st.q.Locs)
	st.locs[t.text] = i
	st.q.Locs = append(st.q.Locs, model.Loc{Name: t.text, Pos: p.pos(t)})
	return i
}

func (p *parser) locsDecl(st *procState) {
	p.next()
	if !isLocToken(p.tok) {
		p.expected("location names after locs")
	}
	for isLocToken(p.tok) {
		t := p.tok
		if st.listed[t.text] {
			p.errorf(t, "location %s listed twice in process %s", displayLoc(t.text), displayName(st.q.Name))
		}
		st.listed[t.text] = true
		if _, ok := st.locs[t.text]; !ok {
			p.addLoc(st, t)
		}
		p.next()
	}
	p.endLine("the locations")
}

func (p *parser) initDecl(st *procState) {
	kw := p.tok
	p.next()
	if st.initSeen {
		p.errorf(kw, "process %s has a second init line", displayName(st.q.Name))
	}
	l := p.loc(st, "the initial location")
	p.endLine("the initial location")
	st.initSeen = true
	st.q.Init = l
}

func (p *parser) transition(st *procState) {
	start := p.tok
	from := p.loc(st, "a location")
	p.expect("->", " after the source location")
	to := p.loc(st, "the target location")
	p.expect(":", " after the target location")
	op := p.op(st, false)
	var explicit *model.Pos
	if p.tok.is("@") {
		pos := p.position()
		explicit = &pos
	}
	p.endLine("the operation")
	q := st.q
	if explicit != nil {
		p.explicit = append(p.explicit, explicitPos{proc: st.index, trans: len(q.Trans), pos: *explicit})
	}
	q.Trans = append(q.Trans, model.Transition{From: from, To: to, Op: op, Pos: p.pos(start)})
}

// position parses "@ file:line[:col]"; the current token is @.
func (p *parser) position() model.Pos {
	var ft token
	if p.hasAhead {
		// Not reached: nothing looks past an @. Read the file name as a
		// token all the same rather than misparse.
		p.next()
		ft = p.tok
	} else {
		ft = p.lx.fileName()
	}
	switch ft.kind {
	case tString, tFile, tIdent, tInt:
	case tIllegal:
		p.errorf(ft, "%s", ft.text)
	default:
		p.errorf(ft, "expected a file name after @, found %v", ft)
	}
	p.next()
	pos := model.Pos{File: ft.text}
	p.expect(":", " after the file name")
	lineTok := p.tok
	line := p.integer("a line number")
	if line <= 0 || int64(int(line)) != line {
		p.errorf(lineTok, "line number %d out of range", line)
	}
	pos.Line = int(line)
	if p.tok.is(":") {
		p.next()
		colTok := p.tok
		col := p.integer("a column number")
		if int64(int(col)) != col {
			p.errorf(colTok, "column number %d out of range", col)
		}
		pos.Col = int(col)
	}
	return pos
}

// op parses an operation of st's process; inLocked is set in a locked body.
func (p *parser) op(st *procState, inLocked bool) model.Op {
	t := p.tok
	ctx := &exprCtx{st: st, mem: inLocked}
	switch {
	case t.kind == tReg:
		r := p.reg(st)
		p.expect(":=", " after the register")
		return model.AssignOp(r, p.expr(ctx))
	case t.kind != tIdent:
		// fall through to the error below
	case t.text == "nop":
		p.next()
		return model.NopOp()
	case t.text == "fence", t.text == "ssfence":
		if inLocked {
			p.errorf(t, "a %s inside a locked block", map[string]string{"fence": "fence", "ssfence": "store-store fence"}[t.text])
		}
		p.next()
		if t.text == "ssfence" {
			return model.SSFenceOp()
		}
		return model.FenceOp()
	case t.text == "assume":
		p.next()
		return model.GuardOp(p.expr(ctx))
	case t.text == "atomic":
		p.next()
		if !p.tok.isKeyword("read") {
			p.expected(`"read" after atomic (only loads are marked atomic; locked blocks are atomic already)`)
		}
		o := p.op(st, inLocked)
		o.Atomic = true
		return o
	case t.text == "read":
		p.next()
		r := -1
		if p.tok.kind == tReg {
			r = p.reg(st)
			p.expect(":=", " after the register")
		}
		x := p.varRef("a shared variable to read")
		o := model.ReadOp(x, r)
		if p.tok.is("==") {
			p.next()
			o.Expr = p.expr(ctx)
		}
		return o
	case t.text == "write":
		p.next()
		x := p.varRef("a shared variable to write")
		p.expect(":=", " after the variable")
		return model.WriteOp(x, p.expr(ctx))
	case t.text == "locked":
		if inLocked {
			p.errorf(t, "a locked block inside a locked block")
		}
		p.next()
		lbrace := p.tok
		p.expect("{", " after locked")
		var body []model.Op
		for !p.tok.is("}") {
			if p.tok.kind == tNewline || p.tok.kind == tEOF {
				p.errorf(lbrace, "unterminated locked block: missing } before %v", p.tok)
			}
			body = append(body, p.op(st, true))
			switch {
			case p.tok.is(";"):
				p.next()
			case p.tok.is("}"), p.tok.kind == tNewline, p.tok.kind == tEOF:
			default:
				p.expected(`";" or "}" in the locked block`)
			}
		}
		p.next()
		return model.LockedOp(body...)
	}
	if inLocked {
		p.expected("an operation (read, write, assume, nop or $reg := expr)")
	}
	p.expected("an operation (nop, fence, ssfence, assume, read, write, locked or $reg := expr)")
	panic("unreachable")
}

// reg parses a register of st's process.
func (p *parser) reg(st *procState) int {
	t := p.tok
	r, ok := st.regs[t.text]
	if !ok {
		p.errorf(t, "unknown register %s in process %s", regName(t.text), displayName(st.q.Name))
	}
	p.next()
	return r
}

// varRef parses the name of a shared variable.
func (p *parser) varRef(what string) int {
	t := p.tok
	name := p.name(what)
	x, ok := p.vars[name]
	if !ok {
		p.errorf(t, "unknown shared variable %s", displayName(name))
	}
	return x
}

func (p *parser) badDecl() {
	kw := p.tok
	p.next()
	b := model.BadState{Pos: p.pos(kw)}
	context := " after bad"
	if p.tok.kind == tIdent || p.tok.kind == tString {
		b.Name = p.tok.text
		p.next()
		context = " after the name of the bad state"
	}
	if p.tok.kind != tNewline && p.tok.kind != tEOF {
		p.expect(":", context)
		if p.tok.kind == tNewline || p.tok.kind == tEOF {
			p.expected("P@L or a condition after :")
		}
		for {
			if (p.tok.kind == tIdent || p.tok.kind == tString) && p.peek().is("@") {
				pt := p.tok
				pi, ok := p.procs[pt.text]
				if !ok {
					p.errorf(pt, "unknown process %s", displayName(pt.text))
				}
				p.next() // @
				p.next()
				lt := p.tok
				if !isLocToken(lt) {
					p.expected("a location after @")
				}
				li, ok := p.states[pi].locs[lt.text]
				if !ok {
					p.errorf(lt, "process %s has no location %s", displayName(pt.text), displayLoc(lt.text))
				}
				p.next()
				b.Locs = append(b.Locs, model.ProcLoc{Proc: pi, Loc: li})
			} else {
				b.Cond = p.expr(&exprCtx{mem: true})
				if p.tok.is("&") {
					p.errorf(p.tok, "unexpected & after the condition of a bad state (locations P@L come first; the condition uses &&)")
				}
				break
			}
			if !p.tok.is("&") && !p.tok.is("&&") {
				break
			}
			p.next()
			p.skipNewlines()
		}
	}
	p.endLine("the bad state")
	p.prog.Bad = append(p.prog.Bad, b)
}

// exprCtx says what an expression may name: registers of st's process, or
// (st nil, in a bad-state condition) qualified registers; shared memory
// when mem is set.
type exprCtx struct {
	st  *procState
	mem bool
}

func (p *parser) expr(ctx *exprCtx) model.Expr { return p.binary(ctx, 1).e }

// node is an expression and its height (a constant has height 1), which
// bounds the recursion of everything that walks it.
type node struct {
	e model.Expr
	h int
}

// Binary operators and their precedence (higher binds tighter).
var binOps = map[string]struct {
	op   model.BinOp
	prec int
}{
	"||": {model.OpOr, 1},
	"&&": {model.OpAnd, 2},
	"==": {model.OpEq, 3}, "!=": {model.OpNe, 3},
	"<": {model.OpLt, 3}, "<=": {model.OpLe, 3},
	">": {model.OpGt, 3}, ">=": {model.OpGe, 3},
	"+": {model.OpAdd, 4}, "-": {model.OpSub, 4},
	"|": {model.OpBitOr, 4}, "^": {model.OpXor, 4},
	"*": {model.OpMul, 5}, "/": {model.OpDiv, 5}, "%": {model.OpMod, 5},
	"&": {model.OpBitAnd, 5}, "&^": {model.OpAndNot, 5},
	"<<": {model.OpShl, 5}, ">>": {model.OpShr, 5}, ">>>": {model.OpShrU, 5},
}

func (p *parser) binary(ctx *exprCtx, minPrec int) node {
	x := p.unary(ctx)
	for p.tok.kind == tPunct {
		b, ok := binOps[p.tok.text]
		if !ok || b.prec < minPrec {
			break
		}
		opTok := p.tok
		p.next()
		p.skipNewlines()
		if b.op == model.OpBitAnd && ctx.st == nil && (p.tok.kind == tIdent || p.tok.kind == tString) && p.peek().is("@") {
			p.errorf(opTok, "unexpected & after the condition of a bad state (locations P@L come first; the condition uses &&)")
		}
		y := p.binary(ctx, b.prec+1)
		x = p.combine(opTok, model.Binary{Op: b.op, X: x.e, Y: y.e}, max(x.h, y.h))
	}
	return x
}

// combine returns the node of e, an operator at t over operands of height at
// most h.
func (p *parser) combine(t token, e model.Expr, h int) node {
	if h >= maxHeight {
		p.errorf(t, "expression of more than %d nested operations", maxHeight)
	}
	return node{e, h + 1}
}

// nest counts one more level of parser recursion.
func (p *parser) nest(t token) {
	p.depth++
	if p.depth > maxDepth {
		p.errorf(t, "expression nested more than %d deep", maxDepth)
	}
}

func (p *parser) unary(ctx *exprCtx) node {
	t := p.tok
	var op model.BinOp
	switch {
	case t.is("-"):
		if p.peek().kind == tInt {
			p.next()
			v := p.literal(t, true)
			p.next()
			return node{model.Const{Value: v}, 1}
		}
		op = model.OpNeg
	case t.is("!"):
		op = model.OpNot
	case t.is("^"):
		op = model.OpCompl
	default:
		return p.primary(ctx)
	}
	p.nest(t)
	p.next()
	x := p.unary(ctx)
	p.depth--
	return p.combine(t, model.Unary{Op: op, X: x.e}, x.h)
}

func (p *parser) primary(ctx *exprCtx) node {
	t := p.tok
	switch t.kind {
	case tInt:
		v := p.literal(t, false)
		p.next()
		return node{model.Const{Value: v}, 1}
	case tReg:
		if ctx.st == nil {
			p.errorf(t, "unqualified register %s in a bad-state condition (write P.%s)", regName(t.text), regName(t.text))
		}
		return node{model.RegRef{Proc: -1, Reg: p.reg(ctx.st)}, 1}
	case tIdent, tString:
		if p.peek().is(".") {
			return node{p.qualified(ctx), 1}
		}
		if bits, signed, ok := wrapType(t); ok && p.peek().is("(") {
			p.nest(t)
			p.next()
			p.next()
			x := p.binary(ctx, 1)
			p.expect(")", " to close "+t.text+"(")
			p.depth--
			return p.combine(t, model.Wrap{X: x.e, Bits: bits, Signed: signed}, x.h)
		}
		if op, bits, ok := model.ParseFloatOp(t.text); ok && t.kind == tIdent && p.peek().is("(") {
			return p.float(ctx, t, op, bits)
		}
		x, ok := p.vars[t.text]
		if !ok {
			p.errorf(t, "unknown shared variable %s", displayName(t.text))
		}
		if !ctx.mem {
			p.errorf(t, "shared variable %s named outside a locked block (read it into a register)", displayName(t.text))
		}
		p.next()
		return node{model.VarRef{Var: x}, 1}
	case tPunct:
		if t.is("(") {
			p.nest(t)
			p.next()
			x := p.binary(ctx, 1)
			p.expect(")", " to close (")
			p.depth--
			return x
		}
	}
	p.expected("an expression")
	panic("unreachable")
}

// float parses a float operation fadd64(x, y), f64toi32(x); the current
// token is its name t and the next one is "(".
func (p *parser) float(ctx *exprCtx, t token, op model.FloatOp, bits uint8) node {
	p.nest(t)
	p.next()
	p.next()
	x := p.binary(ctx, 1)
	h := x.h
	var y model.Expr
	if !op.Unary() {
		p.expect(",", " between the operands of "+t.text)
		yn := p.binary(ctx, 1)
		y, h = yn.e, max(h, yn.h)
	}
	p.expect(")", " to close "+t.text+"(")
	p.depth--
	return p.combine(t, model.F(op, bits, x.e, y), h)
}

// wrapType reports whether t names an integer type intN or uintN, with N
// from 1 to model.MaxWrapBits: the name of a [model.Wrap] (uint8(e)).
func wrapType(t token) (bits uint8, signed, ok bool) {
	if t.kind != tIdent {
		return 0, false, false
	}
	digits, unsigned := strings.CutPrefix(t.text, "uint")
	if !unsigned {
		var isInt bool
		if digits, isInt = strings.CutPrefix(t.text, "int"); !isInt {
			return 0, false, false
		}
	}
	n, err := strconv.Atoi(digits)
	if err != nil || n < 1 || n > model.MaxWrapBits || strconv.Itoa(n) != digits {
		return 0, false, false
	}
	return uint8(n), !unsigned, true
}

// qualified parses P.$r; the current token is P and the next one is ".".
func (p *parser) qualified(ctx *exprCtx) model.Expr {
	pt := p.tok
	p.next() // .
	p.next()
	rt := p.tok
	if rt.kind != tReg {
		p.expected("a register after " + displayName(pt.text) + ".")
	}
	full := displayName(pt.text) + "." + regName(rt.text)
	if ctx.st != nil {
		p.errorf(pt, "qualified register %s outside a bad-state condition", full)
	}
	pi, ok := p.procs[pt.text]
	if !ok {
		p.errorf(pt, "unknown process %s", displayName(pt.text))
	}
	r, ok := p.states[pi].regs[rt.text]
	if !ok {
		p.errorf(rt, "unknown register %s", full)
	}
	p.next()
	return model.RegRef{Proc: pi, Reg: r}
}

// validate runs model.Program.Validate and records its problems. Positions
// are those of the model file: explicit transition positions are put in
// place only afterwards.
func (p *parser) validate() {
	err := p.prog.Validate()
	if err == nil {
		return
	}
	var errs []error
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		errs = j.Unwrap()
	} else {
		errs = []error{err}
	}
	for _, e := range errs {
		var prob model.Problem
		pos, msg := model.Pos{File: p.file, Line: 1, Col: 1}, e.Error()
		if errors.As(e, &prob) {
			msg = prob.Msg
			if prob.Pos.IsValid() {
				pos = prob.Pos
			}
		}
		// Validate names things as they are; keep each error on its line.
		p.errs = append(p.errs, &Error{Pos: pos, Msg: lineBreaks.Replace(msg)})
	}
}

var lineBreaks = strings.NewReplacer("\n", `\n`, "\r", `\r`)

// lineCol formats the line and column of pos.
func lineCol(pos model.Pos) string { return fmt.Sprintf("%d:%d", pos.Line, pos.Col) }
