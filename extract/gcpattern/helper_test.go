package gcpattern_test

import (
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
)

// stdImporter reads the standard library's export data; it is not safe for
// concurrent use, so build holds buildMu while it type-checks.
var (
	stdImporter = importer.Default()
	buildMu     sync.Mutex
)

// built is a one-file package p in SSA form.
type built struct {
	fset *token.FileSet
	pkg  *ssa.Package
	src  string
}

// build type-checks src as package p (file p.go) and builds its SSA form.
func build(tb testing.TB, src string) *built {
	tb.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		tb.Fatal(err)
	}
	conf := &types.Config{Importer: stdImporter, GoVersion: "go1.26"}
	buildMu.Lock()
	defer buildMu.Unlock()
	pkg, _, err := ssautil.BuildPackage(conf, fset, types.NewPackage("p", "p"), []*ast.File{f}, ssa.SanityCheckFunctions)
	if err != nil {
		tb.Fatal(err)
	}
	return &built{fset, pkg, src}
}

// A mark is an access named in the source by a comment at the end of its
// line: "//@load" or "//@store", optionally followed by N to pick the N-th
// such access on the line, counted by column.
type mark struct {
	line  int
	store bool
	nth   int
}

// marks returns the marks of src, and the line of the "//@other" comment (0
// when there is none).
func marks(src string) (ms []mark, other int) {
	for i, l := range strings.Split(src, "\n") {
		_, c, ok := strings.Cut(l, "//@")
		if !ok {
			continue
		}
		word, arg, _ := strings.Cut(strings.TrimSpace(c), " ")
		m := mark{line: i + 1, nth: 1}
		if n, err := strconv.Atoi(arg); err == nil {
			m.nth = n
		}
		switch word {
		case "load":
			ms = append(ms, m)
		case "store":
			m.store = true
			ms = append(ms, m)
		case "other":
			other = i + 1
		}
	}
	return ms, other
}

// access returns the instruction m names.
func (b *built) access(tb testing.TB, m mark) ssa.Instruction {
	tb.Helper()
	var found []ssa.Instruction
	for fn := range ssautil.AllFunctions(b.pkg.Prog) {
		if fn.Pkg != b.pkg {
			continue
		}
		for _, blk := range fn.Blocks {
			for _, in := range blk.Instrs {
				if !in.Pos().IsValid() || b.fset.Position(in.Pos()).Line != m.line {
					continue
				}
				switch in := in.(type) {
				case *ssa.Store:
					if m.store {
						found = append(found, in)
					}
				case *ssa.UnOp:
					if !m.store && in.Op == token.MUL {
						found = append(found, in)
					}
				}
			}
		}
	}
	sort.SliceStable(found, func(i, j int) bool { return found[i].Pos() < found[j].Pos() })
	if m.nth > len(found) {
		tb.Fatalf("line %d: %d accesses of the marked kind, want at least %d", m.line, len(found), m.nth)
	}
	return found[m.nth-1]
}

// where formats a position as the analyzer does: base name, line, column.
func (b *built) where(p token.Pos) string {
	pos := b.fset.Position(p)
	return fmt.Sprintf("%s:%d:%d", filepath.Base(pos.Filename), pos.Line, pos.Column)
}
