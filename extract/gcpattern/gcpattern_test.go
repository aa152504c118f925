package gcpattern_test

import (
	"go/token"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"

	"github.com/fencecheck/fencecheck/extract/gcpattern"
	"github.com/fencecheck/fencecheck/internal/longtest"
)

// prelude starts every unit test's source.
const prelude = `package p

import "sync/atomic"

type S struct {
	seq  int32
	a, b int32
}

var x, y, w, v, turn int
var z int32
var flag [2]int
var arr [4]int

//go:noinline
func call() {}

var _ = atomic.AddInt32
`

// TestDescribe runs Describe on the access marked in each snippet (see
// marks) and checks the kind, the other access's line (marked //@other) and,
// where given, the text.
func TestDescribe(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want gcpattern.Kind // 0: no finding
		text string         // regexp the text must match, if not empty
	}{
		// Dead stores.
		{"dead/seqlock writer", `
func write(s *S, v int32) {
	s.seq++ //@store
	s.a = v
	s.b = v
	s.seq++ //@other
}`, gcpattern.DeadStore, `^gc may delete this store, since the store to s\.seq at p\.go:\d+:4 overwrites it ` +
			`\(no load, call or atomic operation between them\), so no other goroutine sees this value$`},
		{"dead/globals", `
func f() {
	x = 1 //@store
	y = 2
	x = 3 //@other
}`, gcpattern.DeadStore, ""},
		{"dead/array element", `
func f() {
	arr[0] = 1 //@store
	arr[1] = 1
	arr[0] = 2 //@other
}`, gcpattern.DeadStore, `the store to arr\[0\] at`},
		{"dead/unused load between", `
func f() {
	x = 1 //@store
	_ = y
	x = 3 //@other
}`, gcpattern.DeadStore, ""},
		{"dead/atomic between", `
func f() {
	x = 1 //@store
	atomic.AddInt32(&z, 1)
	x = 3
}`, 0, ""},
		{"dead/call between", `
func f() {
	x = 1 //@store
	call()
	x = 3
}`, 0, ""},
		{"dead/used load between", `
func f() int {
	x = 1 //@store
	r := y
	x = 3
	return r
}`, 0, ""},
		{"dead/different address", `
func f() {
	x = 1 //@store
	y = 3
}`, 0, ""},
		{"dead/different blocks", `
func f(c bool) {
	x = 1 //@store
	if c {
		y = 1
	}
	x = 2
}`, 0, ""},
		{"dead/nil check of another pointer between", `
func f(p, q *S) {
	p.a = 1 //@store
	q.b = 2
	p.a = 3
}`, 0, ""},
		{"dead/bounds check between", `
func f(i int) {
	x = 1 //@store
	arr[i] = 1
	x = 2
}`, 0, ""},

		// Merged loads.
		{"merged/seqlock reader", `
func read(s *S) (int32, int32, bool) {
	s1 := s.seq //@other
	a := s.a
	b := s.b
	s2 := s.seq //@load
	return a, b, s1 == s2
}`, gcpattern.MergedLoad, `^gc may merge this load with the load of s\.seq at p\.go:\d+:10 ` +
			`\(no store, call or atomic operation between them\), so the second read never happens$`},
		{"merged/seqlock reader loop", `
func read(s *S) (int32, int32) {
	for {
		start := s.seq //@other
		if start%2 == 1 {
			continue
		}
		a, b := s.a, s.b
		if s.seq == start { //@load
			return a, b
		}
	}
}`, gcpattern.MergedLoad, ""},
		{"merged/spin on a global", `
func wait() {
	r := x //@other
	for x == r { //@load
	}
}`, gcpattern.MergedLoad, `so the loop never reads x again`},
		{"merged/spin through a pointer", `
func wait(s *S) {
	r := s.a //@other
	for s.a == r { //@load
	}
}`, gcpattern.MergedLoad, `load of s\.a at`},
		{"merged/store between", `
func f() int {
	r := x
	y = 1
	return r + x //@load
}`, 0, ""},
		{"merged/atomic between", `
func f() int {
	r := x
	atomic.AddInt32(&z, 1)
	return r + x //@load
}`, 0, ""},
		{"merged/call in the loop", `
func wait() {
	r := x
	for x == r { //@load
		call()
	}
}`, 0, ""},
		{"merged/store in the loop", `
func wait() {
	r := x
	for x == r { //@load
		y++
	}
}`, 0, ""},
		{"merged/earlier load does not dominate", `
func f(c bool) int {
	r := 0
	if c {
		r = x
	}
	return r + x //@load
}`, 0, ""},

		// Forwarded loads.
		{"forwarded/same block", `
func f(v int) int {
	turn = v //@other
	return turn //@load
}`, gcpattern.ForwardedLoad, `^gc may replace this load with the value stored to turn at p\.go:\d+:2 ` +
			`\(no call or atomic operation between them\), so it never reads a value another goroutine stored$`},
		{"forwarded/peterson loop", `
func lock(me, other int) {
	flag[me] = 1
	turn = other //@other
	for flag[other] == 1 && turn == other { //@load 2
	}
}`, gcpattern.ForwardedLoad, ""},
		{"forwarded/other field", `
func f(s *S) int32 {
	s.seq = 1 //@other
	s.a = 2
	return s.seq //@load
}`, gcpattern.ForwardedLoad, ""},
		{"forwarded/through three stores", `
func f(v int) int {
	turn = v //@other
	x = 1
	y = 1
	w = 1
	return turn //@load
}`, gcpattern.ForwardedLoad, ""},
		{"forwarded/not through four stores", `
func f(n int) int {
	turn = n
	x = 1
	y = 1
	w = 1
	v = 1
	return turn //@load
}`, 0, ""},
		{"forwarded/atomic between", `
func lock(me, other int) {
	flag[me] = 1
	turn = other
	atomic.AddInt32(&z, 0)
	for flag[other] == 1 && turn == other { //@load 2
	}
}`, 0, ""},
		{"forwarded/store through a pointer between", `
func f(p *int) int {
	x = 1
	*p = 2
	return x //@load
}`, 0, ""},

		// Reordered loads.
		{"reordered/two globals", `
func f() int {
	a := x //@other
	b := y //@load
	return b - a
}`, gcpattern.ReorderedLoads, `^gc may emit this load before the load of x at p\.go:\d+:7 ` +
			`\(same block, no store, call or atomic operation between them\), so the two reads can happen in either order$`},
		{"reordered/two fields", `
func f(p, q *S) int32 {
	a := p.a //@other
	b := q.b //@load
	return b - a
}`, gcpattern.ReorderedLoads, ""},
		{"reordered/dependent address", `
func f(pp **S) int32 {
	return (*pp).a //@load 2
}`, 0, ""},
		{"reordered/store between", `
func f() int {
	a := x
	w = 1
	b := y //@load
	return b - a
}`, 0, ""},
		{"reordered/bounds check between", `
func f(i int) int {
	a := x
	b := arr[i] //@load
	return b - a
}`, 0, ""},

		// Stores that no live value observes.
		{"loop/endless loop", `
func spin() {
	for {
		x = 1 //@store
	}
}`, gcpattern.LoopStore, `^gc may delete this store, since it is in a loop with no exit, call or atomic operation, ` +
			`so other goroutines never see it$`},
		{"loop/branch on a parameter", `
func spin(c bool) {
	for {
		if c {
			x = 1 //@store
		} else {
			y = 2
		}
	}
}`, gcpattern.LoopStore, ""},
		{"loop/store before the loop", `
func spin(p *S) {
	p.a = 0 //@store
	for {
		p.b = 1
	}
}`, gcpattern.LoopStore, `every path from it ends in a loop`},
		{"loop/branch on a load", `
func spin() {
	for {
		if y == 0 {
			x = 1 //@store
		}
	}
}`, 0, ""},
		{"loop/call", `
func spin() {
	for {
		x = 1 //@store
		call()
	}
}`, 0, ""},
		{"loop/exit", `
func f(n int) {
	for i := 0; i < n; i++ {
		x = i //@store
	}
}`, 0, ""},
		{"loop/nil check in the loop", `
func spin(p *S) {
	for {
		p.a = 1 //@store
	}
}`, 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := prelude + tt.src
			b := build(t, src)
			ms, other := marks(src)
			if len(ms) != 1 {
				t.Fatalf("%d marked accesses, want 1", len(ms))
			}
			in := b.access(t, ms[0])
			got, ok := gcpattern.Describe(in, b.where)
			if tt.want == 0 {
				if ok {
					t.Fatalf("Describe(%v) = %v %q, want no finding", in, got.Kind, got.Text)
				}
				return
			}
			if !ok || got.Kind != tt.want {
				t.Fatalf("Describe(%v) = %v, %v (%q), want %v", in, got.Kind, ok, got.Text, tt.want)
			}
			if other != 0 {
				if line := b.fset.Position(got.Other).Line; !got.Other.IsValid() || line != other {
					t.Errorf("Other is on line %d, want %d", line, other)
				}
			} else if tt.want == gcpattern.LoopStore && got.Other.IsValid() {
				t.Errorf("Other = %v, want NoPos", got.Other)
			}
			if strings.HasSuffix(got.Text, ".") || got.Text == "" {
				t.Errorf("text %q: want one sentence without a final period", got.Text)
			}
			if tt.text != "" && !regexp.MustCompile(tt.text).MatchString(got.Text) {
				t.Errorf("text %q does not match %q", got.Text, tt.text)
			}
		})
	}
}

// TestDescribeNotAnAccess checks that Describe answers false, without
// panicking, for instructions that are not plain loads and stores.
func TestDescribeNotAnAccess(t *testing.T) {
	b := build(t, prelude+`
func f(p *S, c chan int) int32 {
	p.a = 1
	<-c
	var s struct{ a, b int }
	s.a = int(p.a)
	return p.a + int32(s.b)
}`)
	if _, ok := gcpattern.Describe(nil, nil); ok {
		t.Error("Describe(nil) = true")
	}
	if _, ok := gcpattern.Describe((*ssa.Store)(nil), nil); ok {
		t.Error("Describe((*ssa.Store)(nil)) = true")
	}
	if _, ok := gcpattern.Describe((*ssa.UnOp)(nil), nil); ok {
		t.Error("Describe((*ssa.UnOp)(nil)) = true")
	}
	if _, ok := gcpattern.Describe(&ssa.Store{}, nil); ok {
		t.Error("Describe(&ssa.Store{}) = true")
	}
	if _, ok := gcpattern.Describe(&ssa.UnOp{Op: token.MUL}, nil); ok {
		t.Error("Describe(&ssa.UnOp{Op: token.MUL}) = true")
	}
	fn := b.pkg.Func("f")
	for _, blk := range fn.Blocks {
		for _, in := range blk.Instrs {
			f, ok := gcpattern.Describe(in, nil)
			switch in := in.(type) {
			case *ssa.Store, *ssa.UnOp:
				if in, isLoad := in.(*ssa.UnOp); isLoad && in.Op != token.MUL && ok {
					t.Errorf("Describe(%v) = %v, want false for a non-load", in, f.Kind)
				}
			default:
				if ok {
					t.Errorf("Describe(%v) = %v, want false", in, f.Kind)
				}
			}
		}
	}
}

func TestKindString(t *testing.T) {
	for k, want := range map[gcpattern.Kind]string{
		gcpattern.DeadStore:      "dead store",
		gcpattern.MergedLoad:     "merged load",
		gcpattern.ForwardedLoad:  "forwarded load",
		gcpattern.ReorderedLoads: "reordered loads",
		gcpattern.LoopStore:      "loop store",
		0:                        "Kind(0)",
		99:                       "Kind(99)",
	} {
		if got := k.String(); got != want {
			t.Errorf("Kind(%d).String() = %q, want %q", int(k), got, want)
		}
	}
}

// TestDescribeStd runs Describe on every instruction of a few standard
// packages: it must not panic, and every finding must be one sentence.
func TestDescribeStd(t *testing.T) {
	if longtest.Quick() {
		t.Skip("loads standard packages with the go command")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go command not found")
	}
	cfg := &packages.Config{Mode: packages.LoadSyntax}
	pkgs, err := packages.Load(cfg, "sync", "sync/atomic", "strings", "slices", "bufio", "container/list")
	if err != nil {
		t.Fatal(err)
	}
	if packages.PrintErrors(pkgs) > 0 {
		t.Fatal("errors loading packages")
	}
	prog, _ := ssautil.Packages(pkgs, ssa.InstantiateGenerics)
	prog.Build()
	kinds := map[gcpattern.Kind]int{}
	n := 0
	for fn := range ssautil.AllFunctions(prog) {
		for _, b := range fn.Blocks {
			for _, in := range b.Instrs {
				n++
				f, ok := gcpattern.Describe(in, nil)
				if !ok {
					continue
				}
				kinds[f.Kind]++
				if f.Text == "" || strings.HasSuffix(f.Text, ".") || strings.Contains(f.Text, "\n") {
					t.Errorf("%s: %v: text %q", prog.Fset.Position(in.Pos()), f.Kind, f.Text)
				}
			}
		}
	}
	t.Logf("%d instructions, findings by kind: %v", n, kinds)
}
