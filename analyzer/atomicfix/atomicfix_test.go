package atomicfix

import (
	"go/ast"
	"go/format"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
)

// load type-checks src as package p.
func load(t *testing.T, src string) *Package {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{
		Types:      map[ast.Expr]types.TypeAndValue{},
		Defs:       map[*ast.Ident]types.Object{},
		Uses:       map[*ast.Ident]types.Object{},
		Selections: map[*ast.SelectorExpr]*types.Selection{},
		Scopes:     map[ast.Node]*types.Scope{},
	}
	conf := types.Config{Importer: importer.Default()}
	pkg, err := conf.Check("p", fset, []*ast.File{f}, info)
	if err != nil {
		t.Fatalf("type-check: %v\n%s", err, src)
	}
	return NewPackage(fset, []*ast.File{f}, info, pkg)
}

// lookup finds the variable "x" (package level or local, by name) or the
// field "T.f".
func lookup(t *testing.T, p *Package, name string) *types.Var {
	t.Helper()
	typ, field, isField := strings.Cut(name, ".")
	if isField {
		st := p.Types.Scope().Lookup(typ).Type().Underlying().(*types.Struct)
		for f := range st.Fields() {
			if f.Name() == field {
				return f
			}
		}
		t.Fatalf("no field %s", name)
	}
	for id, obj := range p.Info.Defs {
		if v, ok := obj.(*types.Var); ok && id.Name == name && !v.IsField() {
			return v
		}
	}
	t.Fatalf("no variable %s", name)
	return nil
}

// apply applies edits (sorted, insertions at one point in order) to the
// file's source.
func apply(p *Package, src string, edits []analysis.TextEdit) string {
	tf := p.Fset.File(p.Files[0].FileStart)
	sorted := slices.Clone(edits)
	slices.SortStableFunc(sorted, func(a, b analysis.TextEdit) int { return int(a.Pos) - int(b.Pos) })
	var b strings.Builder
	last := 0
	for _, e := range sorted {
		start, end := tf.Offset(e.Pos), tf.Offset(e.End)
		if start < last {
			start = last // coalesced deletions
		}
		b.WriteString(src[last:start])
		b.Write(e.NewText)
		if end > last {
			last = end
		}
	}
	b.WriteString(src[last:])
	return b.String()
}

// body returns src without its package clause and imports.
func body(src string) string {
	_, rest, _ := strings.Cut(src, "\n\n")
	if strings.HasPrefix(rest, "import (") {
		_, rest, _ = strings.Cut(rest, ")\n\n")
	} else if strings.HasPrefix(rest, "import") {
		_, rest, _ = strings.Cut(rest, "\n\n")
	}
	return rest
}

func TestRewrite(t *testing.T) {
	tests := []struct {
		name     string
		src      string
		cells    []string // the first is rewritten, the others fixed with it
		wantForm string
		want     string // the body after package and imports, gofmt'd
	}{
		{
			name: "typed int32 variable, store load increment",
			src: `package p

var x int32

func f() int32 {
	x = 1
	x++
	x--
	x += 2
	x -= 3
	x *= 4
	return x + x
}
`,
			cells:    []string{"x"},
			wantForm: "typed",
			want: `var x atomic.Int32

func f() int32 {
	x.Store(1)
	x.Add(1)
	x.Add(-1)
	x.Add(2)
	x.Add(-(3))
	x.Store(x.Load() * (4))
	return x.Load() + x.Load()
}
`,
		},
		{
			name: "int field of an array, converted",
			src: `package p

type lock struct {
	flag [2]int
	turn int
}

func (l *lock) enter(me int) {
	l.flag[me] = 1
	for l.flag[1-me] == 1 && l.turn != me {
	}
}
`,
			cells:    []string{"lock.flag", "lock.turn"},
			wantForm: "typed",
			want: `type lock struct {
	flag [2]atomic.Int64
	turn int
}

func (l *lock) enter(me int) {
	l.flag[me].Store(int64(1))
	for int(l.flag[1-me].Load()) == 1 && l.turn != me {
	}
}
`,
		},
		{
			name: "unsigned decrement and subtraction",
			src: `package p

var n uint32

func f(d uint32) {
	n--
	n -= d
}
`,
			cells:    []string{"n"},
			wantForm: "typed",
			want: `var n atomic.Uint32

func f(d uint32) {
	n.Add(^uint32(0))
	n.Add(^(d - 1))
}
`,
		},
		{
			name: "bool and existing sync/atomic calls",
			src: `package p

import "sync/atomic"

var done bool
var c int64

func f() bool {
	atomic.AddInt64(&c, 1)
	atomic.StoreInt64(&c, 0)
	if atomic.CompareAndSwapInt64(&c, 0, 1) {
		done = true
	}
	return done && atomic.LoadInt64(&c) > 0
}
`,
			cells:    []string{"c", "done"},
			wantForm: "typed",
			want: `var done bool
var c atomic.Int64

func f() bool {
	c.Add(1)
	c.Store(0)
	if c.CompareAndSwap(0, 1) {
		done = true
	}
	return done && c.Load() > 0
}
`,
		},
		{
			name: "one of several names",
			src: `package p

func f() {
	var a, b, c int32
	a = b
	c = a
	_ = c
}
`,
			cells:    []string{"b"},
			wantForm: "typed",
			want: `func f() {
	var a, c int32
	var b atomic.Int32
	a = b.Load()
	c = a
	_ = c
}
`,
		},
		{
			name: "named type",
			src: `package p

type state int32

const busy state = 1

var s state

func f() bool {
	s = busy
	return s == busy
}
`,
			cells:    []string{"s"},
			wantForm: "typed",
			want: `type state int32

const busy state = 1

var s atomic.Int32

func f() bool {
	s.Store(int32(busy))
	return state(s.Load()) == busy
}
`,
		},
		{
			name: "function form: a composite literal sets the field",
			src: `package p

type T struct{ seq uint64 }

var t = &T{seq: 2}

func f() uint64 {
	t.seq++
	t.seq = 4
	return t.seq
}
`,
			cells:    []string{"T.seq"},
			wantForm: "function",
			want: `type T struct{ seq uint64 }

var t = &T{seq: 2}

func f() uint64 {
	atomic.AddUint64(&t.seq, 1)
	atomic.StoreUint64(&t.seq, 4)
	return atomic.LoadUint64(&t.seq)
}
`,
		},
		{
			name: "function form: an initialised variable with a named type",
			src: `package p

type ticket uint32

var next ticket = 3

func f() ticket {
	next = next + 1
	return next
}
`,
			cells:    []string{"next"},
			wantForm: "function",
			want: `type ticket uint32

var next ticket = 3

func f() ticket {
	atomic.StoreUint32((*uint32)(&next), uint32(ticket(atomic.LoadUint32((*uint32)(&next)))+1))
	return ticket(atomic.LoadUint32((*uint32)(&next)))
}
`,
		},
		{
			name: "pointer",
			src: `package p

type node struct{ v int }

var head *node

func f() int {
	head = &node{v: 1}
	return head.v
}
`,
			cells:    []string{"head"},
			wantForm: "typed",
			want: `type node struct{ v int }

var head atomic.Pointer[node]

func f() int {
	head.Store(&node{v: 1})
	return head.Load().v
}
`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := load(t, tt.src)
			var together []*types.Var
			for _, c := range tt.cells[1:] {
				together = append(together, lookup(t, p, c))
			}
			fix, err := p.Rewrite(lookup(t, p, tt.cells[0]), together...)
			if err != nil {
				t.Fatalf("Rewrite: %v", err)
			}
			if fix.Form != tt.wantForm {
				t.Errorf("form %s, want %s", fix.Form, tt.wantForm)
			}
			out := apply(p, tt.src, fix.Edits)
			formatted, err := format.Source([]byte(out))
			if err != nil {
				t.Fatalf("the fixed source does not parse: %v\n%s", err, out)
			}
			// The fixed package type-checks.
			load(t, string(formatted))
			got := body(string(formatted))
			if got != tt.want {
				t.Errorf("fixed:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

func TestRewriteRefuses(t *testing.T) {
	tests := []struct {
		name, src, cell, want string
	}{
		{"int8", "package p\n\nvar x int8\n\nfunc f() { x = 1 }\n", "x", "sync/atomic has no type for int8"},
		{"bool with its address passed on", "package p\n\nvar b bool\n\nfunc g(*bool) {}\n\nfunc f() { g(&b) }\n", "b", "its address is taken"},
		{"int with :=", "package p\n\nfunc f() int {\n\tn := 0\n\tgo func() { n = 1 }()\n\treturn n\n}\n", "n", "declared with :="},
		{"tuple assignment", "package p\n\nvar x, y int32\n\nfunc f() { x, y = 1, 2 }\n", "x", "assigned together"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := load(t, tt.src)
			_, err := p.Rewrite(lookup(t, p, tt.cell))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Rewrite error %v, want one containing %q", err, tt.want)
			}
		})
	}
}
