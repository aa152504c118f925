package floatruns

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
)

// state is the shared state of a generated system as the simulator holds
// it: a and c float64 fields, b a float32 field, bits the float64 that an
// atomic uint64 holds.
type state struct {
	a, c, bits float64
	b          float32
}

// local is what a goroutine keeps between the two steps of a statement
// that loads and then stores.
type local struct{ old float64 }

// A step is one atomic step of a statement: under a mutex, one atomic
// operation, or one plain or atomic load or store.
type step func(s *state, l *local)

// A stmt is one statement of a goroutine: its Go text and its steps.
type stmt struct {
	src   string
	steps []step
	plain bool // it loads and stores s.c without synchronisation
}

// A check is one test of the system function's body after wg.Wait: its Go
// text (which panics on the line it is written on) and its condition.
type check struct {
	src   string
	fails func(s *state) bool
}

// program is one generated system.
type program struct {
	pkg    string
	src    string
	procs  [2][]stmt
	checks []check
	lines  []int // the line of each check's panic in src
	racy   bool  // both goroutines touch s.c without synchronisation
	init   state // the fields' values before the go statements
}

// constants are the operands the statements draw: simple values, values
// that round, overflow (1e308 * 10 is +Inf) or underflow, float32
// rounding (16777217), infinities and negative zero, from which NaNs and
// signed zeros follow.
var constants = []float64{0.1, 0.2, 0.5, 1.5, -2.5, 3, 10, 1e308, 1e-300, 16777217, 0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1)}

// lit writes f as a Go expression of type float64 (or float32 when w is
// 32): a literal, or negZero, math.Inf(±1), math.NaN() for the values that
// have no literal.
func lit(f float64, w int) string {
	var s string
	switch {
	case math.IsNaN(f):
		s = "math.NaN()"
	case math.IsInf(f, 1):
		s = "math.Inf(1)"
	case math.IsInf(f, -1):
		s = "math.Inf(-1)"
	case f == 0 && math.Signbit(f):
		s = "negZero"
	default:
		s = strconv.FormatFloat(f, 'g', -1, w)
		if !strings.ContainsAny(s, ".e") {
			s += ".0"
		}
		if w == 32 {
			return "float32(" + s + ")"
		}
		return s
	}
	if w == 32 {
		return "float32(" + s + ")"
	}
	return s
}

var ops = []string{"+", "-", "*", "/"}

func apply64(op string, x, y float64) float64 {
	switch op {
	case "+":
		return x + y
	case "-":
		return x - y
	case "*":
		return x * y
	}
	return x / y
}

func apply32(op string, x, y float32) float32 {
	switch op {
	case "+":
		return x + y
	case "-":
		return x - y
	case "*":
		return x * y
	}
	return x / y
}

// genStmt draws a statement.
func genStmt(r *rand.Rand) stmt {
	k := constants[r.IntN(len(constants))]
	op := ops[r.IntN(len(ops))]
	switch n := r.IntN(20); {
	case n < 5:
		return stmt{src: fmt.Sprintf("s.mu.Lock(); s.a = s.a %s %s; s.mu.Unlock()", op, lit(k, 64)),
			steps: []step{func(s *state, _ *local) { s.a = apply64(op, s.a, k) }}}
	case n < 8:
		k32 := float32(k)
		return stmt{src: fmt.Sprintf("s.mu.Lock(); s.b = s.b %s %s; s.mu.Unlock()", op, lit(float64(k32), 32)),
			steps: []step{func(s *state, _ *local) { s.b = apply32(op, s.b, k32) }}}
	case n < 9:
		return stmt{src: "s.mu.Lock(); s.a = -s.a; s.mu.Unlock()",
			steps: []step{func(s *state, _ *local) { s.a = -s.a }}}
	case n < 10:
		return stmt{src: "s.mu.Lock(); s.b = float32(s.a); s.mu.Unlock()",
			steps: []step{func(s *state, _ *local) { s.b = float32(s.a) }}}
	case n < 11:
		return stmt{src: "s.mu.Lock(); s.a = float64(s.b) * 2; s.mu.Unlock()",
			steps: []step{func(s *state, _ *local) { s.a = float64(s.b) * 2 }}}
	case n < 16:
		return stmt{src: fmt.Sprintf("casAdd(&s.bits, %s)", lit(k, 64)),
			steps: []step{func(s *state, _ *local) { s.bits += k }}}
	case n < 18:
		return stmt{src: fmt.Sprintf("lossyAdd(&s.bits, %s)", lit(k, 64)),
			steps: []step{func(s *state, l *local) { l.old = s.bits }, func(s *state, l *local) { s.bits = l.old + k }}}
	}
	return stmt{src: fmt.Sprintf("s.c += %s", lit(k, 64)), plain: true,
		steps: []step{func(s *state, l *local) { l.old = s.c }, func(s *state, l *local) { s.c = l.old + k }}}
}

// genCheck draws a test of one field against its value v after the
// goroutines ran in program order.
func genCheck(r *rand.Rand, field string, get func(*state) float64, w int, v float64) check {
	name := "s." + field
	if field == "bits" {
		name = "math.Float64frombits(s.bits)"
	}
	bits := func(f float64) uint64 {
		if w == 32 {
			return uint64(math.Float32bits(float32(f)))
		}
		return math.Float64bits(f)
	}
	switch r.IntN(4) {
	case 0:
		f := "math.Float64bits"
		if w == 32 {
			f = "math.Float32bits"
		}
		want := bits(v)
		return check{src: fmt.Sprintf("if %s(%s) != %#x {", f, name, want),
			fails: func(s *state) bool { return bits(get(s)) != want }}
	case 1:
		if math.IsNaN(v) {
			return check{src: fmt.Sprintf("if %s == %s {", name, name),
				fails: func(s *state) bool { return get(s) == get(s) }}
		}
		return check{src: fmt.Sprintf("if %s != %s {", name, lit(v, w)),
			fails: func(s *state) bool { return get(s) != v }}
	case 2:
		want := int64(v)
		return check{src: fmt.Sprintf("if int64(%s) != %d {", name, want),
			fails: func(s *state) bool { return int64(get(s)) != want }}
	}
	return check{src: fmt.Sprintf("if %s < %s {", name, lit(v, w)),
		fails: func(s *state) bool { return get(s) < v }}
}

// generate draws program i of a seed.
func generate(seed uint64, i int) program {
	r := rand.New(rand.NewPCG(seed, uint64(i)))
	p := program{pkg: fmt.Sprintf("p%d", i)}
	init := &p.init
	init.a = constants[r.IntN(len(constants))]
	init.b = float32(constants[r.IntN(len(constants))])
	touchC := [2]bool{}
	for g := range p.procs {
		for range 1 + r.IntN(3) {
			st := genStmt(r)
			touchC[g] = touchC[g] || st.plain
			p.procs[g] = append(p.procs[g], st)
		}
	}
	p.racy = touchC[0] && touchC[1]
	// The value of each field after the goroutines ran one after the other.
	seq := *init
	for g := range p.procs {
		var l local
		for _, st := range p.procs[g] {
			for _, f := range st.steps {
				f(&seq, &l)
			}
		}
	}
	fields := []struct {
		name string
		get  func(*state) float64
		w    int
	}{
		{"a", func(s *state) float64 { return s.a }, 64},
		{"b", func(s *state) float64 { return float64(s.b) }, 32},
		{"bits", func(s *state) float64 { return s.bits }, 64},
		{"c", func(s *state) float64 { return s.c }, 64},
	}
	for _, f := range fields {
		p.checks = append(p.checks, genCheck(r, f.name, f.get, f.w, f.get(&seq)))
	}
	p.src, p.lines = render(p)
	return p
}

// render writes the program's Go source and returns the lines of the
// checks' panics.
func render(p program) (string, []int) {
	init := p.init
	var b strings.Builder
	line := 1
	w := func(format string, args ...any) {
		s := fmt.Sprintf(format, args...)
		b.WriteString(s + "\n")
		line += strings.Count(s, "\n") + 1
	}
	w("// Package %s is a generated system over floats.", p.pkg)
	w("package %s\n", p.pkg)
	w("import (\n\t\"math\"\n\t\"sync\"\n\t\"sync/atomic\"\n)\n")
	w("var negZero = math.Copysign(0, -1)\n")
	w("type state struct {\n\tmu   sync.Mutex\n\ta, c float64\n\tb    float32\n\tbits uint64\n}\n")
	w("func casAdd(p *uint64, d float64) {\n\tfor {\n\t\told := atomic.LoadUint64(p)\n\t\tif atomic.CompareAndSwapUint64(p, old, math.Float64bits(math.Float64frombits(old)+d)) {\n\t\t\treturn\n\t\t}\n\t}\n}\n")
	w("func lossyAdd(p *uint64, d float64) {\n\told := atomic.LoadUint64(p)\n\tatomic.StoreUint64(p, math.Float64bits(math.Float64frombits(old)+d))\n}\n")
	w("// System is the generated system.\n//\n//fencecheck:system\nfunc System() {")
	w("\tvar s state")
	w("\ts.a = %s", lit(init.a, 64))
	w("\ts.b = %s", lit(float64(init.b), 32))
	w("\tvar wg sync.WaitGroup")
	w("\twg.Add(2)")
	for g := range p.procs {
		w("\tgo func() {")
		for _, st := range p.procs[g] {
			w("\t\t%s", st.src)
		}
		w("\t\twg.Done()\n\t}()")
	}
	w("\twg.Wait()")
	var lines []int
	for i, c := range p.checks {
		w("\t%s", c.src)
		lines = append(lines, line)
		w("\t\tpanic(\"check %d\")\n\t}", i)
	}
	w("}")
	return b.String(), lines
}

// outcomes returns the lines of the panics that some interleaving of the
// goroutines' steps reaches (the first failing check of its final state),
// under sequential consistency, which is every behaviour of these systems
// on x86-TSO too: the mutex and the atomic operations drain the store
// buffers, and the only plain accesses load and store one variable.
func outcomes(p program) map[int]bool {
	seen := map[int]bool{}
	var steps [2][]step
	for g := range p.procs {
		for _, st := range p.procs[g] {
			steps[g] = append(steps[g], st.steps...)
		}
	}
	var walk func(s state, ls [2]local, i, j int)
	walk = func(s state, ls [2]local, i, j int) {
		if i == len(steps[0]) && j == len(steps[1]) {
			for k, c := range p.checks {
				if c.fails(&s) {
					seen[p.lines[k]] = true
					return
				}
			}
			return
		}
		if i < len(steps[0]) {
			s2, ls2 := s, ls
			steps[0][i](&s2, &ls2[0])
			walk(s2, ls2, i+1, j)
		}
		if j < len(steps[1]) {
			s2, ls2 := s, ls
			steps[1][j](&s2, &ls2[1])
			walk(s2, ls2, i, j+1)
		}
	}
	walk(p.init, [2]local{}, 0, 0)
	return seen
}
