// Package directive finds and checks the //fencecheck: comments of a Go
// package, the first stage of the front end: the system functions, the
// declared ranges of variables, and the critical and nofence statements,
// each attached to the syntax it annotates, and a diagnostic at every
// comment that is malformed, misplaced, unknown or almost a directive. Once
// the systems are lowered, [Set.Unmatched] reports the directives that
// matched nothing.
package directive

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/fencecheck/fencecheck/model"
)

// Prefix begins every directive.
const Prefix = "//fencecheck:"

// Diagnostic is a problem with the directives, or one the front end found
// in a system, at a position of the package.
type Diagnostic struct {
	Pos     token.Pos
	Message string
	// AfterWritesOnly marks a diagnostic that holds only when barriers go
	// right after plain stores (the default placement): a
	// //fencecheck:nofence on a statement without such a store is unused
	// then, but not when barriers may go anywhere.
	AfterWritesOnly bool
	// Unused marks a directive that matched nothing. A system in a file
	// that the front end was not given (a test file of the package) may use
	// it.
	Unused bool
}

// Cells says what the front end makes of a Go type, for the checks of a
// //fencecheck:range.
type Cells struct {
	// Integral reports whether a variable of the type (of its elements,
	// for an array) is an integer or boolean cell.
	Integral func(types.Type) bool
	// Bool reports whether the type is a boolean type.
	Bool func(types.Type) bool
	// Range is the range of values of an integer or boolean type, with ok
	// false when it is all of int64.
	Range func(types.Type) (lo, hi int64, ok bool)
}

// Set holds the //fencecheck: comments of a package, checked and attached
// to the syntax they annotate.
type Set struct {
	Systems  []*ast.FuncDecl
	Ranges   map[*types.Var]model.Domain
	Critical []ast.Stmt // statements a //fencecheck:critical stands before
	Nofence  []ast.Stmt // statements marked //fencecheck:nofence
	Diags    []Diagnostic

	// The directives that may match nothing, to report those that do:
	// every //fencecheck:range with the variables it bounds, and the
	// comment of each statement of critical and nofence (same index).
	rangeDirs  []rangeDirective
	criticalAt []*ast.Comment
	nofenceAt  []*ast.Comment
	used       usage
	cells      Cells
}

// rangeDirective is one //fencecheck:range and the variables it bounds.
type rangeDirective struct {
	c    *ast.Comment
	vars []*types.Var
}

// directive is one //fencecheck:NAME ARGS comment, or a comment that is
// almost one.
type directive struct {
	c    *ast.Comment
	name string
	args string
	// problems says, for a comment that is almost a directive, what is
	// wrong with it; meant is then the directive probably meant, or "" when
	// no kind is near the one written.
	problems []string
	meant    string
}

// directiveKinds are the kinds of directive, in the order messages list them.
var directiveKinds = []string{"system", "critical", "nofence", "range"}

// parseDirective parses a comment that starts with //fencecheck: or is
// almost such a directive: a space after // or after the colon, a letter in
// upper case, a /* */ comment. ok is false for any other comment, and for
// prose that merely starts with "fencecheck:" after a space (such as the
// summary line of the analyzer's documentation): with a space after // or in
// a /* */ comment, only a kind at most two edits away from a known one makes
// the comment a near miss. A directive of an unknown kind has no problems:
// it is a directive, and [Set.file] reports its kind.
func parseDirective(c *ast.Comment) (dir directive, ok bool) {
	const word = "fencecheck:"
	var body string
	block := false
	switch {
	case strings.HasPrefix(c.Text, "//"):
		body = c.Text[2:]
	case strings.HasPrefix(c.Text, "/*"):
		body, block = strings.TrimSuffix(c.Text[2:], "*/"), true
	default:
		return directive{}, false
	}
	rest := strings.TrimLeft(body, " \t\r\n")
	spaced := len(rest) < len(body)
	if len(rest) < len(word) || !strings.EqualFold(rest[:len(word)], word) {
		return directive{}, false
	}
	tail := rest[len(word):]
	if i := strings.IndexAny(tail, "\r\n"); i >= 0 {
		tail = tail[:i]
	}
	dir.c = c
	switch {
	case block:
		dir.problems = append(dir.problems, "a directive is a // line comment, not a /* */ comment")
	case spaced:
		dir.problems = append(dir.problems, "no space may follow //")
	}
	lower := rest[:len(word)] == word
	if t := strings.TrimLeft(tail, " \t"); len(t) < len(tail) && t != "" {
		dir.problems = append(dir.problems, "no space may follow the colon")
		tail = t
	}
	dir.name, dir.args, _ = strings.Cut(tail, " ")
	if i := strings.IndexByte(dir.name, '\t'); i >= 0 {
		dir.name, dir.args = dir.name[:i], dir.name[i+1:]+" "+dir.args
	}
	// A comment may follow the directive on its line:
	// //fencecheck:range 0..3 // the ring's size.
	dir.args, _, _ = strings.Cut(dir.args, "//")
	dir.args = strings.TrimSpace(dir.args)
	if !slices.Contains(directiveKinds, dir.name) {
		kind, args, near := nearestKind(dir.name)
		sameKind := near && strings.EqualFold(kind, dir.name)
		switch {
		case !near && (spaced || block):
			return directive{}, false // prose
		case len(dir.problems) == 0 && lower && !sameKind:
			// //fencecheck:bogus: a directive of an unknown kind.
			return dir, true
		case sameKind:
			lower = false
		case dir.name == "":
			dir.problems = append(dir.problems, "the kind of directive is missing")
		default:
			dir.problems = append(dir.problems, fmt.Sprintf("%s is not a kind of directive", dir.name))
		}
		if near {
			dir.name, dir.args = kind, strings.TrimSpace(args+" "+dir.args)
		}
	}
	if !lower {
		dir.problems = append(dir.problems, "directives are written in lower case")
	}
	if len(dir.problems) > 0 && slices.Contains(directiveKinds, dir.name) {
		dir.meant = Prefix + dir.name
		if dir.name == "range" && dir.args != "" {
			dir.meant += " " + dir.args
		}
	}
	return dir, true
}

// nearestKind returns the kind of directive that name probably means: the
// kind itself in another case, a kind followed by its arguments without the
// space (range0..3: range, with args 0..3), or a kind at most two edits
// away (sytem: system). near is false when no kind is that close.
func nearestKind(name string) (kind, args string, near bool) {
	lower := strings.ToLower(name)
	if lower == "" {
		return "", "", false
	}
	for _, k := range directiveKinds {
		if lower == k {
			return k, "", true
		}
	}
	for _, k := range directiveKinds {
		if strings.HasPrefix(lower, k) && !unicode.IsLetter(rune(lower[len(k)])) {
			return k, name[len(k):], true
		}
	}
	best, dist := "", 3
	for _, k := range directiveKinds {
		if d := editDistance(lower, k); d < dist {
			best, dist = k, d
		}
	}
	return best, "", best != ""
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// written quotes what a comment that is almost a directive says, up to a
// comment that follows it on its line (//Fencecheck:system // why).
func (dir directive) written() string {
	text := dir.c.Text
	if i := strings.IndexAny(text, "\r\n"); i >= 0 {
		text = text[:i] + " ..."
	}
	if i := strings.Index(text[2:], " //"); i >= 0 && strings.HasPrefix(text, "//") {
		text = text[:2+i]
	}
	return strconv.Quote(strings.TrimSpace(text))
}

// malformed is the message for a comment that is almost a directive.
func (dir directive) malformed() string {
	how := "want //fencecheck:system, critical, nofence or range"
	if dir.meant != "" {
		how = "write " + dir.meant
	}
	return fmt.Sprintf("malformed directive %s: %s (%s)", dir.written(), strings.Join(dir.problems, "; "), how)
}

// parseRange parses "LO..HI".
func parseRange(s string) (model.Domain, error) {
	lo, hi, ok := strings.Cut(s, "..")
	if !ok {
		return model.Domain{}, fmt.Errorf("want LO..HI, got %q", s)
	}
	l, err := strconv.ParseInt(strings.TrimSpace(lo), 0, 64)
	if err != nil {
		return model.Domain{}, fmt.Errorf("bad lower bound %q", lo)
	}
	h, err := strconv.ParseInt(strings.TrimSpace(hi), 0, 64)
	if err != nil {
		return model.Domain{}, fmt.Errorf("bad upper bound %q", hi)
	}
	if l > h {
		return model.Domain{}, fmt.Errorf("empty range %d..%d", l, h)
	}
	return model.Range(l, h), nil
}

// Has reports whether any comment of files is a directive or almost one
// (// fencecheck:system, /* fencecheck:system */, //Fencecheck:system),
// which [Collect] reports. A package without directives costs one pass
// over its comments.
func Has(files []*ast.File) bool {
	for _, f := range files {
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				if _, ok := parseDirective(c); ok {
					return true
				}
			}
		}
	}
	return false
}

// Collect finds, checks and attaches every directive of files; cells says
// what the front end makes of the types a //fencecheck:range annotates.
func Collect(fset *token.FileSet, files []*ast.File, info *types.Info, cells Cells) *Set {
	d := &Set{Ranges: map[*types.Var]model.Domain{}, cells: cells}
	for _, f := range files {
		d.file(fset, f, info)
	}
	return d
}

func (d *Set) errorf(pos token.Pos, format string, args ...any) {
	d.Diags = append(d.Diags, Diagnostic{Pos: pos, Message: fmt.Sprintf(format, args...)})
}

func (d *Set) file(fset *token.FileSet, f *ast.File, info *types.Info) {
	line := func(p token.Pos) int { return fset.Position(p).Line }

	// Doc comments of functions carry //fencecheck:system.
	sysDoc := map[*ast.Comment]*ast.FuncDecl{}
	for _, decl := range f.Decls {
		if fd, ok := decl.(*ast.FuncDecl); ok && fd.Doc != nil {
			for _, c := range fd.Doc.List {
				sysDoc[c] = fd
			}
		}
	}
	// Declarations a //fencecheck:range may annotate, by the line of their names.
	declsByLine := map[int][]*ast.Ident{}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ValueSpec:
			for _, id := range n.Names {
				declsByLine[line(id.Pos())] = append(declsByLine[line(id.Pos())], id)
			}
		case *ast.Field:
			for _, id := range n.Names {
				declsByLine[line(id.Pos())] = append(declsByLine[line(id.Pos())], id)
			}
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE {
				for _, e := range n.Lhs {
					if id, ok := e.(*ast.Ident); ok {
						declsByLine[line(id.Pos())] = append(declsByLine[line(id.Pos())], id)
					}
				}
			}
		case *ast.RangeStmt:
			if n.Tok == token.DEFINE {
				for _, e := range []ast.Expr{n.Key, n.Value} {
					if id, ok := e.(*ast.Ident); ok {
						declsByLine[line(id.Pos())] = append(declsByLine[line(id.Pos())], id)
					}
				}
			}
		}
		return true
	})

	for _, cg := range f.Comments {
		for _, c := range cg.List {
			dir, ok := parseDirective(c)
			if !ok {
				continue
			}
			if len(dir.problems) > 0 {
				d.errorf(c.Pos(), "%s", dir.malformed())
				continue
			}
			switch dir.name {
			case "system":
				fd := sysDoc[c]
				if fd == nil {
					d.errorf(c.Pos(), "misplaced //fencecheck:system: it must be in the doc comment of a function declaration")
					continue
				}
				if dir.args != "" {
					d.errorf(c.Pos(), "malformed //fencecheck:system: it takes no arguments (got %q)", dir.args)
					continue
				}
				if fd.Body == nil {
					d.errorf(c.Pos(), "misplaced //fencecheck:system: %s has no body", fd.Name.Name)
					continue
				}
				if slices.Contains(d.Systems, fd) {
					d.errorf(c.Pos(), "duplicate //fencecheck:system: %s is marked already", fd.Name.Name)
					continue
				}
				d.Systems = append(d.Systems, fd)
			case "range":
				dom, err := parseRange(dir.args)
				if err != nil {
					d.errorf(c.Pos(), "malformed //fencecheck:range: %v", err)
					continue
				}
				l := line(c.Pos())
				ids := declsByLine[l]
				if len(ids) == 0 || ids[0].Pos() > c.Pos() {
					// Not a trailing comment: the declaration on the next line.
					ids = declsByLine[line(c.End())+1]
				}
				if len(ids) == 0 {
					d.errorf(c.Pos(), "misplaced //fencecheck:range: it must annotate a variable or field declaration (on its line or the line before)")
					continue
				}
				rd := rangeDirective{c: c}
				reported := false
				for _, id := range ids {
					v, _ := info.Defs[id].(*types.Var)
					switch {
					case v == nil:
						continue
					case v.Kind() == types.ParamVar || v.Kind() == types.RecvVar || v.Kind() == types.ResultVar:
						d.errorf(c.Pos(), "misplaced //fencecheck:range: %s is a parameter or result, not a variable or field", id.Name)
					case d.cells.Bool(elemType(v.Type())):
						d.errorf(c.Pos(), "misplaced //fencecheck:range: %s is a bool, whose only values are false and true", id.Name)
					case !d.cells.Integral(v.Type()):
						d.errorf(c.Pos(), "misplaced //fencecheck:range: %s has type %s, not an integer type", id.Name, v.Type())
					case !d.rangeFits(dom, v.Type()):
						d.errorf(c.Pos(), "malformed //fencecheck:range: no value of %s's type %s is in %d..%d", id.Name, v.Type(), dom.Lo, dom.Hi)
					case !d.rangeWithin(dom, v.Type()):
						lo, hi, _ := d.cells.Range(elemType(v.Type()))
						d.errorf(c.Pos(), "malformed //fencecheck:range: %d..%d goes beyond the values of %s's type %s (%d..%d)", dom.Lo, dom.Hi, id.Name, v.Type(), lo, hi)
					default:
						d.Ranges[v] = dom
						rd.vars = append(rd.vars, v)
						continue
					}
					reported = true
				}
				switch {
				case len(rd.vars) > 0:
					d.rangeDirs = append(d.rangeDirs, rd)
				case !reported:
					d.errorf(c.Pos(), "misplaced //fencecheck:range: %s is not a variable or field", ids[0].Name)
				}
			case "critical", "nofence":
				if dir.args != "" {
					d.errorf(c.Pos(), "malformed //fencecheck:%s: it takes no arguments (got %q)", dir.name, dir.args)
					continue
				}
				s, own, msg := stmtFor(fset, f, c)
				if s == nil {
					d.errorf(c.Pos(), "misplaced //fencecheck:%s: %s", dir.name, msg)
					continue
				}
				if dir.name == "critical" {
					if !own {
						d.errorf(c.Pos(), "misplaced //fencecheck:critical: it must stand on its own line, before a statement")
						continue
					}
					d.Critical = append(d.Critical, s)
					d.criticalAt = append(d.criticalAt, c)
				} else {
					d.Nofence = append(d.Nofence, s)
					d.nofenceAt = append(d.nofenceAt, c)
				}
			default:
				if kind, args, near := nearestKind(dir.name); near {
					d.errorf(c.Pos(), "unknown directive //fencecheck:%s (did you mean %s%s?)", dir.name, Prefix, strings.TrimSpace(kind+" "+args))
					continue
				}
				d.errorf(c.Pos(), "unknown directive //fencecheck:%s (want system, critical, nofence or range)", dir.name)
			}
		}
	}
}

// stmtFor finds the statement a comment annotates: the statement that ends on
// the comment's line before it (a trailing comment; own is false), or else the
// first statement that starts after it, when the comment stands on its own
// line (own is true).
func stmtFor(fset *token.FileSet, f *ast.File, c *ast.Comment) (s ast.Stmt, own bool, why string) {
	line := func(p token.Pos) int { return fset.Position(p).Line }
	cl := line(c.Pos())
	// The innermost statement list containing the comment.
	var list []ast.Stmt
	var found bool
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil || n.Pos() > c.Pos() || n.End() < c.End() {
			return false
		}
		switch n := n.(type) {
		case *ast.BlockStmt:
			list, found = n.List, true
		case *ast.CaseClause:
			list, found = n.Body, true
		case *ast.CommClause:
			list, found = n.Body, true
		}
		return true
	})
	if !found {
		return nil, false, "it must be inside a function body"
	}
	for i, st := range list {
		if st.End() <= c.Pos() && line(st.End()) == cl {
			// Trailing comment on st's last line, unless another statement
			// starts on that line after the comment.
			return st, false, ""
		}
		if st.Pos() >= c.End() {
			if line(st.Pos()) == cl {
				return nil, false, "it must not share its line with the statement after it"
			}
			if i > 0 && line(list[i-1].End()) == cl {
				return list[i-1], false, ""
			}
			return st, true, ""
		}
	}
	return nil, false, "no statement follows it in its block"
}

// rangeFits reports whether some value of type t (of its elements, for an
// array) lies in dom.
func (d *Set) rangeFits(dom model.Domain, t types.Type) bool {
	lo, hi, ok := d.cells.Range(elemType(t))
	return !ok || dom.Lo <= hi && lo <= dom.Hi
}

// rangeWithin reports whether every value of dom is a value of type t (of
// its elements, for an array).
func (d *Set) rangeWithin(dom model.Domain, t types.Type) bool {
	lo, hi, ok := d.cells.Range(elemType(t))
	return !ok || lo <= dom.Lo && dom.Hi <= hi
}

// elemType is t, or the type of its elements for an array (of arrays).
func elemType(t types.Type) types.Type {
	for {
		a, ok := t.Underlying().(*types.Array)
		if !ok {
			return t
		}
		t = a.Elem()
	}
}
