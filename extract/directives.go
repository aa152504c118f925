package extract

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"github.com/fencecheck/fencecheck/model"
)

// directives holds the //fencecheck: comments of a package, checked and
// attached to the syntax they annotate.
type directives struct {
	systems  []*ast.FuncDecl
	ranges   map[*types.Var]model.Domain
	critical []ast.Stmt // statements a //fencecheck:critical stands before
	nofence  []ast.Stmt // statements marked //fencecheck:nofence
	diags    []Diagnostic
}

// directive is one //fencecheck:NAME ARGS comment.
type directive struct {
	c    *ast.Comment
	name string
	args string
}

func parseDirective(c *ast.Comment) (directive, bool) {
	if !strings.HasPrefix(c.Text, directivePrefix) {
		return directive{}, false
	}
	rest := c.Text[len(directivePrefix):]
	name, args, _ := strings.Cut(rest, " ")
	return directive{c: c, name: name, args: strings.TrimSpace(args)}, true
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

// collectDirectives finds, checks and attaches every directive of files.
func collectDirectives(fset *token.FileSet, files []*ast.File, info *types.Info) *directives {
	d := &directives{ranges: map[*types.Var]model.Domain{}}
	for _, f := range files {
		d.file(fset, f, info)
	}
	return d
}

func (d *directives) errorf(pos token.Pos, format string, args ...any) {
	d.diags = append(d.diags, Diagnostic{Pos: pos, Message: fmt.Sprintf(format, args...)})
}

func (d *directives) file(fset *token.FileSet, f *ast.File, info *types.Info) {
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
		}
		return true
	})

	for _, cg := range f.Comments {
		for _, c := range cg.List {
			dir, ok := parseDirective(c)
			if !ok {
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
				d.systems = append(d.systems, fd)
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
				for _, id := range ids {
					v, _ := info.Defs[id].(*types.Var)
					if v == nil {
						continue
					}
					if !isIntegral(v.Type()) {
						d.errorf(c.Pos(), "misplaced //fencecheck:range: %s has type %s, not an integer type", id.Name, v.Type())
						continue
					}
					d.ranges[v] = dom
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
					d.critical = append(d.critical, s)
				} else {
					d.nofence = append(d.nofence, s)
				}
			default:
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

func isIntegral(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	if ok {
		return b.Info()&(types.IsInteger|types.IsBoolean) != 0
	}
	if a, ok := t.Underlying().(*types.Array); ok {
		return isIntegral(a.Elem())
	}
	if _, ok := atomicKind(t); ok {
		return true
	}
	return false
}
