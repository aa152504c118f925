package native

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/fencecheck/fencecheck/model"
)

// Format prints p in the native format. Every location is listed on a locs
// line, so that their order and the locations without transitions survive a
// round trip, and every transition with a valid position is followed by
// "@ file:line:col". Format does not validate p: parts that name nothing (a
// variable index out of range, say) are printed as placeholders that Parse
// rejects.
func Format(p *model.Program) []byte {
	var b bytes.Buffer
	sep := func() {
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
	}
	switch {
	case p.Ints != model.Wrap64:
		fmt.Fprintf(&b, "program %s integers %v\n", strconv.Quote(p.Name), p.Ints)
	case p.Name != "":
		fmt.Fprintf(&b, "program %s\n", strconv.Quote(p.Name))
	}
	if len(p.Vars) > 0 {
		sep()
		for _, v := range p.Vars {
			fmt.Fprintf(&b, "var %s : %s = %s\n", displayName(v.Name), formatDomain(v.Dom), v.Init)
		}
	}
	for _, q := range p.Procs {
		if q == nil {
			continue
		}
		sep()
		formatProcess(&b, p, q)
	}
	if len(p.Bad) > 0 {
		sep()
		for _, bad := range p.Bad {
			formatBad(&b, p, &bad)
		}
	}
	return b.Bytes()
}

const (
	indent   = "  "
	lineSize = 80 // where locs lines wrap
	posAlign = 60 // transitions longer than this do not widen the @ column
)

func formatProcess(b *bytes.Buffer, p *model.Program, q *model.Process) {
	fmt.Fprintf(b, "process %s {\n", displayName(q.Name))
	for _, r := range q.Regs {
		fmt.Fprintf(b, "%sreg %s : %s = %s\n", indent, regName(r.Name), formatDomain(r.Dom), r.Init)
	}
	line := ""
	for _, l := range q.Locs {
		name := displayLoc(l.Name)
		if line != "" && len(line)+1+len(name) > lineSize {
			b.WriteString(line + "\n")
			line = ""
		}
		if line == "" {
			line = indent + "locs"
		}
		line += " " + name
	}
	if line != "" {
		b.WriteString(line + "\n")
	}
	if len(q.Locs) > 0 {
		fmt.Fprintf(b, "%sinit %s\n", indent, locName(q, q.Init))
	}
	lines := make([]string, len(q.Trans))
	width := 0
	for i, t := range q.Trans {
		lines[i] = fmt.Sprintf("%s%s -> %s : %s", indent, locName(q, t.From), locName(q, t.To), formatOp(p, q, t.Op))
		if n := utf8.RuneCountInString(lines[i]); t.Pos.IsValid() && n <= posAlign {
			width = max(width, n)
		}
	}
	for i, t := range q.Trans {
		b.WriteString(lines[i])
		if t.Pos.IsValid() {
			b.WriteString(strings.Repeat(" ", max(width-utf8.RuneCountInString(lines[i]), 0)))
			b.WriteString("  @ " + formatPos(t.Pos))
		}
		b.WriteByte('\n')
	}
	b.WriteString("}\n")
}

func formatBad(b *bytes.Buffer, p *model.Program, bad *model.BadState) {
	b.WriteString("bad")
	if bad.Name != "" {
		b.WriteString(" " + strconv.Quote(bad.Name))
	}
	if len(bad.Locs) == 0 && bad.Cond == nil {
		b.WriteByte('\n')
		return
	}
	b.WriteString(" :")
	for i, pl := range bad.Locs {
		if i > 0 {
			b.WriteString(" &")
		}
		if pl.Proc >= 0 && pl.Proc < len(p.Procs) && p.Procs[pl.Proc] != nil {
			q := p.Procs[pl.Proc]
			fmt.Fprintf(b, " %s@%s", displayName(q.Name), locName(q, pl.Loc))
		} else {
			fmt.Fprintf(b, " ?%d@?%d", pl.Proc, pl.Loc)
		}
	}
	if bad.Cond != nil {
		if len(bad.Locs) > 0 {
			b.WriteString(" &")
		}
		b.WriteString(" " + formatExpr(p, nil, bad.Cond))
	}
	b.WriteByte('\n')
}

// formatPos formats a transition position as file:line[:col].
func formatPos(pos model.Pos) string {
	s := formatFile(pos.File) + ":" + strconv.Itoa(pos.Line)
	if pos.Col != 0 {
		s += ":" + strconv.Itoa(pos.Col)
	}
	return s
}

func formatFile(f string) string {
	if f == "" || strings.Contains(f, "//") {
		return strconv.Quote(f)
	}
	for i := 0; i < len(f); i++ {
		if !isFileChar(f[i]) {
			return strconv.Quote(f)
		}
	}
	return f
}

func formatDomain(d model.Domain) string {
	if d.Unbounded {
		return "int"
	}
	return fmt.Sprintf("[%d:%d]", d.Lo, d.Hi)
}

// keywords are quoted when they are names, though the parser would know them
// apart by their place.
var keywords = map[string]bool{
	"program": true, "var": true, "process": true, "reg": true, "locs": true,
	"init": true, "bad": true, "int": true, "nop": true, "fence": true, "ssfence": true,
	"assume": true, "read": true, "write": true, "locked": true,
}

func isIdent(s string) bool {
	if s == "" || !isLetter(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isWord(s[i]) {
			return false
		}
	}
	return true
}

// displayName writes a name as an identifier when it is one, else quoted.
func displayName(s string) string {
	if isIdent(s) && !keywords[s] {
		return s
	}
	return strconv.Quote(s)
}

// displayLoc is displayName for locations, which may also be numbers.
func displayLoc(s string) string {
	if isAllDigits(s) {
		return s
	}
	return displayName(s)
}

// regName writes a register name with its $.
func regName(s string) string {
	for i := 0; i < len(s); i++ {
		if !isWord(s[i]) {
			return "$" + strconv.Quote(s)
		}
	}
	if s == "" {
		return `$""`
	}
	return "$" + s
}

func locName(q *model.Process, l int) string {
	if l >= 0 && l < len(q.Locs) {
		return displayLoc(q.Locs[l].Name)
	}
	return fmt.Sprintf("?%d", l)
}

func varName(p *model.Program, x int) string {
	if x >= 0 && x < len(p.Vars) {
		return displayName(p.Vars[x].Name)
	}
	return fmt.Sprintf("?%d", x)
}

func regOf(q *model.Process, r int) string {
	if q != nil && r >= 0 && r < len(q.Regs) {
		return regName(q.Regs[r].Name)
	}
	return fmt.Sprintf("$?%d", r)
}

// formatOp writes o, an operation of q.
func formatOp(p *model.Program, q *model.Process, o model.Op) string {
	var b strings.Builder
	writeOp(&b, p, q, o)
	return b.String()
}

func writeOp(b *strings.Builder, p *model.Program, q *model.Process, o model.Op) {
	switch o.Kind {
	case model.Nop, model.Fence, model.SSFence:
		b.WriteString(o.Kind.String())
	case model.Assign:
		b.WriteString(regOf(q, o.Reg) + " := ")
		writeExpr(b, p, q, o.Expr, 0)
	case model.Guard:
		b.WriteString("assume ")
		writeExpr(b, p, q, o.Expr, 0)
	case model.Read:
		if o.Atomic {
			b.WriteString("atomic ")
		}
		b.WriteString("read ")
		if o.Reg >= 0 {
			b.WriteString(regOf(q, o.Reg) + " := ")
		}
		b.WriteString(varName(p, o.Var))
		if o.Expr != nil {
			b.WriteString(" == ")
			writeExpr(b, p, q, o.Expr, 0)
		}
	case model.Write:
		b.WriteString("write " + varName(p, o.Var) + " := ")
		writeExpr(b, p, q, o.Expr, 0)
	case model.Locked:
		b.WriteString("locked {")
		for i, s := range o.Body {
			if i > 0 {
				b.WriteString(";")
			}
			b.WriteString(" ")
			writeOp(b, p, q, s)
		}
		b.WriteString(" }")
	default:
		fmt.Fprintf(b, "?%v", o.Kind)
	}
}

// formatExpr writes e, an expression of q (nil in a bad-state condition).
func formatExpr(p *model.Program, q *model.Process, e model.Expr) string {
	var b strings.Builder
	writeExpr(&b, p, q, e, 0)
	return b.String()
}

// precedence returns how tightly a binary operator binds, as in the parser.
func precedence(op model.BinOp) int {
	switch op {
	case model.OpOr:
		return 1
	case model.OpAnd:
		return 2
	case model.OpEq, model.OpNe, model.OpLt, model.OpLe, model.OpGt, model.OpGe:
		return 3
	case model.OpAdd, model.OpSub, model.OpBitOr, model.OpXor:
		return 4
	}
	return 5
}

// unaryPrec is above every binary precedence.
const unaryPrec = 6

// writeExpr writes e with the parentheses needed where an operator of
// precedence outer surrounds it. Negative constants need none: the parser
// reads a minus sign before a literal as part of it, and unary operators bind
// tightest.
func writeExpr(b *strings.Builder, p *model.Program, q *model.Process, e model.Expr, outer int) {
	switch e := e.(type) {
	case model.Const:
		b.WriteString(strconv.FormatInt(e.Value, 10))
	case model.RegRef:
		if e.Proc < 0 {
			b.WriteString(regOf(q, e.Reg))
		} else if e.Proc < len(p.Procs) && p.Procs[e.Proc] != nil {
			rq := p.Procs[e.Proc]
			b.WriteString(displayName(rq.Name) + "." + regOf(rq, e.Reg))
		} else {
			fmt.Fprintf(b, "?%d.$?%d", e.Proc, e.Reg)
		}
	case model.VarRef:
		b.WriteString(varName(p, e.Var))
	case model.Unary:
		b.WriteString(e.Op.String())
		if c, ok := e.X.(model.Const); ok && c.Value >= 0 && e.Op == model.OpNeg {
			// -(5) is the negation of 5; -5 is the constant.
			fmt.Fprintf(b, "(%d)", c.Value)
			return
		}
		var x strings.Builder
		writeExpr(&x, p, q, e.X, unaryPrec)
		if e.Op == model.OpNeg && strings.HasPrefix(x.String(), "-") {
			b.WriteString(" ")
		}
		b.WriteString(x.String())
	case model.Binary:
		prec := precedence(e.Op)
		if prec <= outer {
			b.WriteString("(")
		}
		writeExpr(b, p, q, e.X, prec-1)
		b.WriteString(" " + e.Op.String() + " ")
		writeExpr(b, p, q, e.Y, prec)
		if prec <= outer {
			b.WriteString(")")
		}
	case model.Wrap:
		b.WriteString(e.TypeName() + "(")
		writeExpr(b, p, q, e.X, 0)
		b.WriteString(")")
	case model.Float:
		b.WriteString(e.Op.Name(e.Bits) + "(")
		writeExpr(b, p, q, e.X, 0)
		if !e.Op.Unary() {
			b.WriteString(", ")
			writeExpr(b, p, q, e.Y, 0)
		}
		b.WriteString(")")
	default:
		fmt.Fprintf(b, "?%T", e)
	}
}
