package gcpattern_test

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/tools/go/ssa"

	"github.com/fencecheck/fencecheck/extract/gcpattern"
	"github.com/fencecheck/fencecheck/internal/longtest"
)

// An asmFunc is one function of an assembly test: what Describe must say
// about its marked access, and what its listing must show.
type asmFunc struct {
	name  string         // the function, without package
	want  gcpattern.Kind // Describe's answer for the access marked in it (0: none)
	check func(l listing) (observed string, ok bool)
}

// TestAgainstGC compiles one small package per pattern with
// "go build -gcflags=-S" for linux/amd64 and checks, on the listing, that gc
// really rewrites the accesses Describe reports (and leaves alone the ones
// it does not report, where the negative case is one gc keeps). What gc
// 1.26 emits, as checked here:
//
//   - dead store: the seqlock writer `s.seq++; s.a = v; s.b = v; s.seq++`
//     has one store to s.seq (MOVL CX, (AX)) for two in the source; with an
//     atomic add before s.a = v, both remain (two INCL (AX)). A store to
//     another pointer's field between keeps both: the other pointer's nil
//     check reads memory.
//   - merged loads: the seqlock reader loop loads s.seq once (the second
//     check is gone); with an atomic add before the second check, twice.
//     `r := x; for x == r {}` compiles to a JMP to itself with no load of x
//     at all; with an atomic add in the loop, x is loaded in the loop.
//   - forwarding: Peterson's `turn = other; for flag[other] == 1 && turn ==
//     other {}` never loads turn, although the load of turn is in another
//     go/ssa block than the store (after the && branch): gc forwards along
//     memory states, not blocks. With an atomic add after the store, turn is
//     loaded in the loop. `turn = v` followed by three stores to other
//     variables and `return turn` loads nothing; with four, turn is loaded.
//   - reordering: `a := x; b := y; return b - a` loads y first and folds the
//     load of x into SUBQ; with an atomic add between, x is loaded first.
//   - loop stores: `for { g = 1 }` has no store; neither has `for { if c {g =
//     1} else {h = 2} }`, nor `p.a = 0` before `for { p.b = 1 }`. The store
//     stays when the loop branches on a loaded value, calls or does an atomic
//     operation, or when its own pointer is nil-checked in the loop.
func TestAgainstGC(t *testing.T) {
	if longtest.Quick() {
		t.Skip("compiles packages with go build")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go command not found")
	}
	tests := []struct {
		name  string
		src   string
		funcs []asmFunc
	}{
		{"dead store", `package p

import "sync/atomic"

type S struct {
	seq  int32
	a, b int32
}

var z int32

//go:noinline
func Write(s *S, v int32) {
	s.seq++ //@store
	s.a = v
	s.b = v
	s.seq++
}

//go:noinline
func WriteAtomic(s *S, v int32) {
	s.seq++ //@store
	atomic.AddInt32(&z, 0)
	s.a = v
	s.b = v
	s.seq++
}

//go:noinline
func OtherPointer(p, q *S) {
	p.a = 1 //@store
	q.b = 2
	p.a = 3
}
`, []asmFunc{
			{"Write", gcpattern.DeadStore, stores("(AX)", 1)},
			{"WriteAtomic", 0, stores("(AX)", 2)},
			{"OtherPointer", 0, stores("4(AX)", 2)},
		}},
		{"merged loads", `package p

import "sync/atomic"

type S struct {
	seq  int32
	a, b int32
}

var x int
var z int32

//go:noinline
func Read(s *S) (int32, int32) {
	for {
		start := s.seq
		if start%2 == 1 {
			continue
		}
		a, b := s.a, s.b
		if s.seq == start { //@load
			return a, b
		}
	}
}

//go:noinline
func ReadAtomic(s *S) (int32, int32) {
	for {
		start := s.seq
		if start%2 == 1 {
			continue
		}
		a, b := s.a, s.b
		atomic.AddInt32(&z, 0)
		if s.seq == start { //@load
			return a, b
		}
	}
}

//go:noinline
func Wait() {
	r := x
	for x == r { //@load
	}
}

//go:noinline
func WaitAtomic() {
	r := x
	for x == r { //@load
		atomic.AddInt32(&z, 0)
	}
}
`, []asmFunc{
			{"Read", gcpattern.MergedLoad, loads("(AX)", 1)},
			{"ReadAtomic", 0, loads("(AX)", 2)},
			{"Wait", gcpattern.MergedLoad, all(loads("p.x(SB)", 0), jumpsBack)},
			{"WaitAtomic", 0, loads("p.x(SB)", 2)},
		}},
		{"forwarded loads", `package p

import "sync/atomic"

var turn, a, b, c, d int
var flag [2]int32
var z int32

//go:noinline
func Lock(me, other int) {
	flag[me] = 1
	turn = other
	for flag[other] == 1 && turn == other { //@load 2
	}
}

//go:noinline
func LockAtomic(me, other int) {
	flag[me] = 1
	turn = other
	atomic.AddInt32(&z, 0)
	for flag[other] == 1 && turn == other { //@load 2
	}
}

//go:noinline
func Three(v int) int {
	turn = v
	a = 1
	b = 1
	c = 1
	return turn //@load
}

//go:noinline
func Four(v int) int {
	turn = v
	a = 1
	b = 1
	c = 1
	d = 1
	return turn //@load
}
`, []asmFunc{
			{"Lock", gcpattern.ForwardedLoad, loads("p.turn(SB)", 0)},
			{"LockAtomic", 0, loads("p.turn(SB)", 1)},
			{"Three", gcpattern.ForwardedLoad, loads("p.turn(SB)", 0)},
			{"Four", 0, loads("p.turn(SB)", 1)},
		}},
		{"reordered loads", `package p

import "sync/atomic"

var x, y int
var z int32

//go:noinline
func Two() int {
	a := x
	b := y //@load
	return b - a
}

//go:noinline
func TwoAtomic() int {
	a := x
	atomic.AddInt32(&z, 0)
	b := y //@load
	return b - a
}
`, []asmFunc{
			{"Two", gcpattern.ReorderedLoads, firstLoad("p.y(SB)", "p.x(SB)")},
			{"TwoAtomic", 0, firstLoad("p.x(SB)", "p.y(SB)")},
		}},
		{"loop stores", `package p

import "sync/atomic"

type S struct{ a, b int }

var g, h int
var z int32

//go:noinline
func Spin() {
	for {
		g = 1 //@store
	}
}

//go:noinline
func SpinIf(c bool) {
	for {
		if c {
			g = 1 //@store
		} else {
			h = 2
		}
	}
}

//go:noinline
func Before(p *S) {
	p.a = 1 //@store
	for {
		p.b = 1
	}
}

//go:noinline
func SpinAtomic() {
	for {
		g = 1 //@store
		atomic.AddInt32(&z, 1)
	}
}

//go:noinline
func SpinLoad() {
	for {
		if h == 0 {
			g = 1 //@store
		}
	}
}

//go:noinline
func SpinPointer(p *S) {
	for {
		p.b = 1 //@store
	}
}
`, []asmFunc{
			{"Spin", gcpattern.LoopStore, stores("p.g(SB)", 0)},
			{"SpinIf", gcpattern.LoopStore, all(stores("p.g(SB)", 0), stores("p.h(SB)", 0))},
			{"Before", gcpattern.LoopStore, all(stores("(AX)", 0), stores("8(AX)", 0))},
			{"SpinAtomic", 0, stores("p.g(SB)", 1)},
			{"SpinLoad", 0, stores("p.g(SB)", 1)},
			{"SpinPointer", 0, stores("8(AX)", 1)},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			asm := compile(t, gobin, tt.src)
			b := build(t, tt.src)
			marked := map[string]ssa.Instruction{}
			ms, _ := marks(tt.src)
			for _, m := range ms {
				in := b.access(t, m)
				marked[in.Parent().Name()] = in
			}
			for _, fn := range tt.funcs {
				l, ok := asm["p."+fn.name]
				if !ok {
					t.Errorf("%s: no listing", fn.name)
					continue
				}
				if obs, ok := fn.check(l); !ok {
					t.Errorf("%s: gc emitted %s\n%s", fn.name, obs, strings.Join(l, "\n"))
				} else {
					t.Logf("%s: %s", fn.name, obs)
				}
				in, ok := marked[fn.name]
				if !ok {
					t.Errorf("%s: no marked access", fn.name)
					continue
				}
				got, ok := gcpattern.Describe(in, b.where)
				if !ok {
					got.Kind = 0
				}
				if got.Kind != fn.want {
					t.Errorf("%s: Describe(%v) = %v (%s), want %v", fn.name, in, got.Kind, got.Text, fn.want)
				}
			}
		})
	}
}

// A listing is the instructions of one function, each "OP\tOPERANDS".
type listing []string

var (
	funcHeader = regexp.MustCompile(`^(\S+) STEXT`)
	instrLine  = regexp.MustCompile(`^\t0x[0-9a-f]+ \d+ \([^)]*\)\t(.*)$`)
)

// compile builds src as module p for linux/amd64 and returns the listing of
// each function.
func compile(t *testing.T, gobin, src string) map[string]listing {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module p\n\ngo 1.26\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "p.go"), []byte(src), 0o666); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(gobin, "build", "-o", os.DevNull, "-gcflags=-S", "./")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=", "GOTOOLCHAIN=local", "GOWORK=off",
		"GOOS=linux", "GOARCH=amd64", "GOAMD64=v1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go build -gcflags=-S: %v\n%s", err, out)
	}
	funcs := map[string]listing{}
	var cur string
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if m := funcHeader.FindStringSubmatch(line); m != nil {
			cur = m[1]
			continue
		}
		if !strings.HasPrefix(line, "\t") {
			cur = ""
			continue
		}
		m := instrLine.FindStringSubmatch(line)
		if cur == "" || m == nil || strings.Contains(m[1], "PCDATA") || strings.Contains(m[1], "FUNCDATA") {
			continue
		}
		funcs[cur] = append(funcs[cur], m[1])
	}
	if len(funcs) == 0 {
		t.Fatalf("no functions in the listing:\n%s", out)
	}
	return funcs
}

// operands splits an instruction into its opcode and operands.
func operands(instr string) (string, []string) {
	op, rest, _ := strings.Cut(instr, "\t")
	if rest == "" {
		return op, nil
	}
	return op, strings.Split(rest, ", ")
}

// isStore reports whether instr writes mem: mem is its last operand (the
// destination in Go assembler order) and it is not a comparison.
func isStore(instr, mem string) bool {
	op, args := operands(instr)
	if len(args) == 0 || args[len(args)-1] != mem {
		return false
	}
	return !strings.HasPrefix(op, "CMP") && !strings.HasPrefix(op, "TEST")
}

// isLoad reports whether instr reads mem as a source operand.
func isLoad(instr, mem string) bool {
	op, args := operands(instr)
	for i, a := range args {
		if a != mem {
			continue
		}
		if i < len(args)-1 || strings.HasPrefix(op, "CMP") || strings.HasPrefix(op, "TEST") {
			return true
		}
	}
	return false
}

func count(l listing, mem string, is func(instr, mem string) bool) int {
	n := 0
	for _, in := range l {
		if is(in, mem) {
			n++
		}
	}
	return n
}

// stores checks that the listing stores to mem want times.
func stores(mem string, want int) func(listing) (string, bool) {
	return func(l listing) (string, bool) {
		n := count(l, mem, isStore)
		return fmt.Sprintf("%d stores to %s", n, mem), n == want
	}
}

// loads checks that the listing loads from mem want times.
func loads(mem string, want int) func(listing) (string, bool) {
	return func(l listing) (string, bool) {
		n := count(l, mem, isLoad)
		return fmt.Sprintf("%d loads from %s", n, mem), n == want
	}
}

// firstLoad checks that mem1 is loaded, and before mem2.
func firstLoad(mem1, mem2 string) func(listing) (string, bool) {
	return func(l listing) (string, bool) {
		for _, in := range l {
			switch {
			case isLoad(in, mem1):
				return fmt.Sprintf("the load from %s first", mem1), true
			case isLoad(in, mem2):
				return fmt.Sprintf("the load from %s first", mem2), false
			}
		}
		return "neither load", false
	}
}

// jumpsBack checks that the listing has an unconditional jump backwards or
// to itself: a loop.
func jumpsBack(l listing) (string, bool) {
	for _, in := range l {
		if op, args := operands(in); op == "JMP" && len(args) == 1 {
			return "a JMP " + args[0], true
		}
	}
	return "no JMP", false
}

// all checks every one of checks.
func all(checks ...func(listing) (string, bool)) func(listing) (string, bool) {
	return func(l listing) (string, bool) {
		var obs []string
		ok := true
		for _, c := range checks {
			o, good := c(l)
			obs = append(obs, o)
			ok = ok && good
		}
		return strings.Join(obs, ", "), ok
	}
}
