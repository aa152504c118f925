package native

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/fencecheck/fencecheck/model"
)

// The programs below are built in Go; together they use every operation,
// every operator, extreme constants and every shape of bad state.

func sbProgram() *model.Program {
	p := &model.Program{Name: "sb", Vars: []model.Var{
		{Name: "x", Dom: model.Range(0, 1)},
		{Name: "y", Dom: model.Range(0, 1)},
	}}
	for i, xy := range [][2]int{{0, 1}, {1, 0}} {
		q := &model.Process{Name: fmt.Sprintf("P%d", i), Regs: []model.Reg{{Name: "r", Dom: model.Range(0, 1)}}}
		l0 := q.AddLoc("L0", model.Pos{})
		l1 := q.AddLoc("L1", model.Pos{})
		l2 := q.AddLoc("L2", model.Pos{})
		q.AddTrans(l0, model.WriteOp(xy[0], model.C(1)), l1, model.Pos{File: "sb.go", Line: 10 + i, Col: 2})
		q.AddTrans(l1, model.ReadOp(xy[1], 0), l2, model.Pos{File: "sb.go", Line: 11 + i, Col: 7})
		p.Procs = append(p.Procs, q)
	}
	p.Bad = []model.BadState{{
		Name: "both loads saw 0",
		Locs: []model.ProcLoc{{Proc: 0, Loc: 2}, {Proc: 1, Loc: 2}},
		Cond: model.Bin(model.OpAnd,
			model.Bin(model.OpEq, model.RegRef{Proc: 0, Reg: 0}, model.C(0)),
			model.Bin(model.OpEq, model.RegRef{Proc: 1, Reg: 0}, model.C(0))),
	}}
	return p
}

// everyOpProgram uses every kind of operation, including the locked shapes
// that package model builds.
func everyOpProgram() *model.Program {
	p := &model.Program{Name: "every op", Vars: []model.Var{
		{Name: "x", Dom: model.Range(-3, 3), Init: model.Init{Value: -3}},
		{Name: "n", Dom: model.Unbounded, Init: model.Init{Value: math.MinInt64}},
		{Name: "l.flag[0]", Dom: model.Range(0, 1), Init: model.Init{Any: true}},
	}}
	q := &model.Process{Name: "worker", Regs: []model.Reg{
		{Name: "r", Dom: model.Range(-3, 3), Init: model.Init{Any: true}},
		{Name: "t0", Dom: model.Unbounded, Init: model.Init{Value: math.MaxInt64}},
	}}
	ops := []model.Op{
		model.NopOp(),
		model.FenceOp(),
		model.SSFenceOp(),
		model.AssignOp(0, model.Bin(model.OpAdd, model.R(0), model.C(1))),
		model.GuardOp(model.Bin(model.OpNe, model.R(1), model.C(-1))),
		model.ReadOp(0, 0),
		model.ReadOp(1, -1),
		model.ReadEqOp(2, model.C(1)),
		model.AtomicReadOp(0, 1),
		{Kind: model.Read, Var: 2, Reg: -1, Expr: model.C(0), Atomic: true},
		{Kind: model.Read, Var: 0, Reg: 1, Expr: model.Bin(model.OpSub, model.C(0), model.R(0))},
		model.WriteOp(1, model.R(1)),
		model.WriteOp(2, model.C(0)),
		model.LockedOp(),
		model.LockedOp(model.NopOp()),
		model.Exchange(2, 0, model.C(1)),
		model.Exchange(2, -1, model.C(0)),
		model.FetchAdd(1, 1, model.C(-1)),
		model.CASSuccess(2, 0, model.C(0), model.C(1)),
		model.CASSuccess(2, -1, model.C(0), model.C(1)),
		model.CASFailure(2, 0, model.C(0)),
		model.LockedOp(model.GuardOp(model.Bin(model.OpEq, model.V(0), model.V(1))), model.AssignOp(1, model.V(1)), model.WriteOp(0, model.R(0))),
		// Unused fields, which come back as the constructors set them.
		{Kind: model.Nop},
		{Kind: model.Fence, Var: 2, Reg: 1},
		{Kind: model.Write, Var: 1, Reg: 0, Expr: model.C(5)},
	}
	q.AddLoc("start", model.Pos{})
	for i, o := range ops {
		l := q.AddLoc(fmt.Sprintf("L%d", i), model.Pos{})
		q.AddTrans(l-1, o, l, model.Pos{File: "every.go", Line: 3 + i, Col: 1 + i%3})
	}
	q.AddLoc("isolated", model.Pos{})
	q.Init = 1
	p.Procs = append(p.Procs, q)
	p.Bad = []model.BadState{
		{Name: "cond only", Cond: model.Bin(model.OpGe, model.V(1), model.RegRef{Proc: 0, Reg: 1})},
		{Locs: []model.ProcLoc{{Proc: 0, Loc: 3}}},
		{Name: "everything"},
		{},
		{Name: "two", Locs: []model.ProcLoc{{Proc: 0, Loc: 0}, {Proc: 0, Loc: 0}}, Cond: model.V(2)},
	}
	return p
}

// operatorsProgram writes expressions that need every parenthesisation.
func operatorsProgram() *model.Program {
	p := &model.Program{Vars: []model.Var{{Name: "v", Dom: model.Unbounded}}}
	q := &model.Process{Name: "P", Regs: []model.Reg{
		{Name: "a", Dom: model.Unbounded}, {Name: "b", Dom: model.Unbounded}, {Name: "c", Dom: model.Unbounded},
	}}
	a, b, c := model.R(0), model.R(1), model.R(2)
	bin := model.Bin
	neg := func(x model.Expr) model.Expr { return model.Unary{Op: model.OpNeg, X: x} }
	not := model.Not
	exprs := []model.Expr{
		model.C(math.MinInt64), model.C(math.MaxInt64), model.C(-1), model.C(0),
		neg(model.C(5)), neg(model.C(0)), neg(model.C(-5)), neg(model.C(math.MinInt64)), neg(model.C(math.MaxInt64)),
		neg(neg(a)), not(not(a)), neg(not(a)), not(neg(a)), not(model.C(-1)), neg(neg(model.C(-2))),
		neg(bin(model.OpAdd, a, b)), not(bin(model.OpEq, a, b)),
		bin(model.OpSub, bin(model.OpSub, a, b), c), bin(model.OpSub, a, bin(model.OpSub, b, c)),
		bin(model.OpMul, bin(model.OpAdd, a, b), c), bin(model.OpAdd, a, bin(model.OpMul, b, c)),
		bin(model.OpDiv, a, bin(model.OpMod, b, c)), bin(model.OpMod, bin(model.OpDiv, a, b), c),
		bin(model.OpAnd, bin(model.OpOr, a, b), c), bin(model.OpOr, a, bin(model.OpAnd, b, c)),
		bin(model.OpEq, bin(model.OpLt, a, b), bin(model.OpGt, b, c)),
		bin(model.OpNe, a, bin(model.OpLe, b, c)), bin(model.OpGe, bin(model.OpGe, a, b), c),
		bin(model.OpSub, a, model.C(-5)), bin(model.OpAdd, model.C(-5), model.C(math.MinInt64)),
		bin(model.OpMul, neg(a), model.C(-3)), neg(bin(model.OpMul, model.C(5), a)),
		bin(model.OpSub, model.C(0), neg(model.C(1))),
		bin(model.OpOr, bin(model.OpAnd, bin(model.OpEq, a, model.C(0)), not(bin(model.OpGt, a, model.C(1)))), bin(model.OpLt, c, model.C(-9))),
	}
	l := q.AddLoc("L0", model.Pos{})
	for _, e := range exprs {
		q.AddTrans(l, model.AssignOp(0, e), l, model.Pos{})
		q.AddTrans(l, model.GuardOp(e), l, model.Pos{File: "ops.go", Line: 1})
		q.AddTrans(l, model.LockedOp(model.WriteOp(0, bin(model.OpAdd, model.V(0), e))), l, model.Pos{})
	}
	p.Procs = append(p.Procs, q)
	for _, e := range exprs {
		p.Bad = append(p.Bad, model.BadState{Cond: bin(model.OpEq, model.V(0), qualify(e, 0))})
	}
	return p
}

// qualify replaces the unqualified registers of e by those of process proc.
func qualify(e model.Expr, proc int) model.Expr {
	switch e := e.(type) {
	case model.RegRef:
		if e.Proc < 0 {
			e.Proc = proc
		}
		return e
	case model.Unary:
		e.X = qualify(e.X, proc)
		return e
	case model.Binary:
		e.X, e.Y = qualify(e.X, proc), qualify(e.Y, proc)
		return e
	}
	return e
}

// namesProgram uses names that must be quoted, keywords as names, numeric
// locations and unusual positions.
func namesProgram() *model.Program {
	p := &model.Program{Name: "names \"quoted\"\n", Vars: []model.Var{
		{Name: "read", Dom: model.Range(0, 1)},
		{Name: "a b", Dom: model.Range(0, 1)},
		{Name: "", Dom: model.Range(0, 1)},
		{Name: "π", Dom: model.Range(0, 1)},
	}}
	for _, name := range []string{"process", "with space", "P.1"} {
		q := &model.Process{Name: name, Regs: []model.Reg{
			{Name: "0", Dom: model.Range(0, 1)},
			{Name: "x.y", Dom: model.Range(0, 1)},
			{Name: "", Dom: model.Range(0, 1)},
		}}
		for _, l := range []string{"init", "locs", "0", "007", "L-1", "", "reg", "->"} {
			q.AddLoc(l, model.Pos{})
		}
		q.AddTrans(0, model.ReadOp(0, 0), 1, model.Pos{File: "dir with space/f.go", Line: 1, Col: 2})
		q.AddTrans(1, model.ReadOp(1, 1), 2, model.Pos{File: `C:\src\f.go`, Line: 3, Col: 0})
		q.AddTrans(2, model.ReadOp(2, 2), 3, model.Pos{File: "", Line: 4, Col: 5})
		q.AddTrans(3, model.LockedOp(model.ReadOp(3, -1)), 4, model.Pos{File: "a//b.go", Line: 6, Col: -7})
		q.AddTrans(4, model.NopOp(), 5, model.Pos{File: "x:1:2", Line: 8, Col: 9})
		q.AddTrans(5, model.NopOp(), 6, model.Pos{File: "only a file"})
		q.AddTrans(6, model.NopOp(), 7, model.Pos{Line: 1 << 40, Col: 1 << 40})
		q.Init = 7
		p.Procs = append(p.Procs, q)
	}
	p.Bad = []model.BadState{{
		Name: "",
		Locs: []model.ProcLoc{{Proc: 1, Loc: 0}, {Proc: 2, Loc: 7}},
		Cond: model.Bin(model.OpAdd, model.RegRef{Proc: 0, Reg: 1}, model.Bin(model.OpAdd, model.V(2), model.RegRef{Proc: 2, Reg: 2})),
	}}
	return p
}

func goPrograms() map[string]*model.Program {
	return map[string]*model.Program{
		"sb":        sbProgram(),
		"every op":  everyOpProgram(),
		"operators": operatorsProgram(),
		"names":     namesProgram(),
		"minimal":   {Procs: []*model.Process{{Name: "P", Locs: []model.Loc{{Name: "L"}}}}},
	}
}

// normalize returns a comparable copy of p with what a round trip does not
// keep made canonical: positions other than those of transitions are
// dropped, so are invalid transition positions, and operations, domains and
// initial values are put in the form the parser builds.
func normalize(p *model.Program) any {
	type proc struct {
		Name  string
		Regs  []model.Reg
		Locs  []model.Loc
		Init  int
		Trans []model.Transition
	}
	type prog struct {
		Name  string
		Vars  []model.Var
		Procs []proc
		Bad   []model.BadState
	}
	n := prog{Name: p.Name}
	for _, v := range p.Vars {
		v.Dom, v.Init, v.Pos = canonDomain(v.Dom), canonInit(v.Init), model.Pos{}
		n.Vars = append(n.Vars, v)
	}
	for _, q := range p.Procs {
		c := proc{Name: q.Name, Init: q.Init}
		for _, r := range q.Regs {
			r.Dom, r.Init, r.Pos = canonDomain(r.Dom), canonInit(r.Init), model.Pos{}
			c.Regs = append(c.Regs, r)
		}
		for _, l := range q.Locs {
			c.Locs = append(c.Locs, model.Loc{Name: l.Name})
		}
		for _, t := range q.Trans {
			t.Op = canonOp(t.Op)
			if !t.Pos.IsValid() {
				t.Pos = model.Pos{}
			}
			c.Trans = append(c.Trans, t)
		}
		n.Procs = append(n.Procs, c)
	}
	for _, b := range p.Bad {
		b.Pos = model.Pos{}
		if len(b.Locs) == 0 {
			b.Locs = nil
		}
		n.Bad = append(n.Bad, b)
	}
	return n
}

func canonDomain(d model.Domain) model.Domain {
	if d.Unbounded {
		return model.Unbounded
	}
	return d
}

func canonInit(in model.Init) model.Init {
	if in.Any {
		return model.Init{Any: true}
	}
	return in
}

func canonOp(o model.Op) model.Op {
	switch o.Kind {
	case model.Nop:
		return model.NopOp()
	case model.Fence:
		return model.FenceOp()
	case model.Assign:
		return model.AssignOp(o.Reg, o.Expr)
	case model.Guard:
		return model.GuardOp(o.Expr)
	case model.Read:
		return model.Op{Kind: model.Read, Var: o.Var, Reg: o.Reg, Expr: o.Expr}
	case model.Write:
		return model.WriteOp(o.Var, o.Expr)
	case model.Locked:
		var body []model.Op
		for _, b := range o.Body {
			body = append(body, canonOp(b))
		}
		return model.LockedOp(body...)
	}
	return o
}

// roundTrip checks that Parse(Format(p)) is p and that formatting is stable.
func roundTrip(t *testing.T, p *model.Program) {
	t.Helper()
	if err := p.Validate(); err != nil {
		t.Fatalf("test program is not valid: %v", err)
	}
	text := Format(p)
	got, err := Parse("rt.fcm", text)
	if err != nil {
		t.Fatalf("Parse(Format(p)): %v\n%s", err, text)
	}
	// Transitions without a valid position get their place in the file.
	for i, q := range got.Procs {
		for j := range q.Trans {
			if !p.Procs[i].Trans[j].Pos.IsValid() {
				if pos := q.Trans[j].Pos; pos.File != "rt.fcm" || !pos.IsValid() {
					t.Errorf("transition %d of %s: position %v, want one in rt.fcm", j, q.Name, pos)
				}
				q.Trans[j].Pos = model.Pos{}
			}
		}
	}
	if want, have := normalize(p), normalize(got); !reflect.DeepEqual(want, have) {
		t.Fatalf("round trip changed the program\nformatted:\n%s\nwant %+v\nhave %+v", text, want, have)
	}
	if again := Format(got); !bytes.Equal(again, text) {
		t.Fatalf("Format is not stable:\nfirst:\n%s\nsecond:\n%s", text, again)
	}
}

func TestRoundTripGoPrograms(t *testing.T) {
	for name, p := range goPrograms() {
		t.Run(name, func(t *testing.T) { roundTrip(t, p) })
	}
}

func TestRoundTripRandom(t *testing.T) {
	const n = 500
	r := rand.New(rand.NewPCG(1, 2))
	for i := range n {
		p := randomProgram(r)
		t.Run(fmt.Sprint(i), func(t *testing.T) { roundTrip(t, p) })
	}
}

// TestFormatSyntax pins the printed form of a program.
func TestFormatSyntax(t *testing.T) {
	const want = `program "sb"

var x : [0:1] = 0
var y : [0:1] = 0

process P0 {
  reg $r : [0:1] = 0
  locs L0 L1 L2
  init L0
  L0 -> L1 : write x := 1  @ sb.go:10:2
  L1 -> L2 : read $r := y  @ sb.go:11:7
}

process P1 {
  reg $r : [0:1] = 0
  locs L0 L1 L2
  init L0
  L0 -> L1 : write y := 1  @ sb.go:11:2
  L1 -> L2 : read $r := x  @ sb.go:12:7
}

bad "both loads saw 0" : P0@L2 & P1@L2 & P0.$r == 0 && P1.$r == 0
`
	if got := string(Format(sbProgram())); got != want {
		t.Errorf("Format:\n%s\nwant:\n%s", got, want)
	}
}

// TestFormatExpr pins the printing of expressions, parentheses included.
func TestFormatExpr(t *testing.T) {
	p := operatorsProgram()
	q := p.Procs[0]
	var lines []string
	for _, tr := range q.Trans {
		if tr.Op.Kind == model.Assign {
			lines = append(lines, formatExpr(p, q, tr.Op.Expr))
		}
	}
	want := []string{
		"-9223372036854775808", "9223372036854775807", "-1", "0",
		"-(5)", "-(0)", "- -5", "- -9223372036854775808", "-(9223372036854775807)",
		"- -$a", "!!$a", "-!$a", "!-$a", "!-1", "- - -2",
		"-($a + $b)", "!($a == $b)",
		"$a - $b - $c", "$a - ($b - $c)",
		"($a + $b) * $c", "$a + $b * $c",
		"$a / ($b % $c)", "$a / $b % $c",
		"($a || $b) && $c", "$a || $b && $c",
		"$a < $b == ($b > $c)",
		"$a != ($b <= $c)", "$a >= $b >= $c",
		"$a - -5", "-5 + -9223372036854775808",
		"-$a * -3", "-(5 * $a)",
		"0 - -(1)",
		"$a == 0 && !($a > 1) || $c < -9",
	}
	if got := strings.Join(lines, "\n"); got != strings.Join(want, "\n") {
		t.Errorf("expressions:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
	}
}

// TestPositions checks the positions Parse gives to what it declares.
func TestPositions(t *testing.T) {
	src := `program "p"
var x : [0:1] = 0
process P {
  reg $r : [0:1] = 0
  locs A
  init B
  B -> C : read $r := x   @ src.go:7:3
	C -> A : nop
}
bad : P@A
`
	p, err := Parse("m.fcm", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	pos := func(line, col int) model.Pos { return model.Pos{File: "m.fcm", Line: line, Col: col} }
	q := p.Procs[0]
	checks := []struct {
		what      string
		got, want model.Pos
	}{
		{"var x", p.Vars[0].Pos, pos(2, 5)},
		{"reg $r", q.Regs[0].Pos, pos(4, 7)},
		{"loc A", q.Locs[0].Pos, pos(5, 8)},
		{"loc B", q.Locs[1].Pos, pos(6, 8)},
		{"loc C", q.Locs[2].Pos, pos(7, 8)},
		{"transition 0", q.Trans[0].Pos, model.Pos{File: "src.go", Line: 7, Col: 3}},
		{"transition 1", q.Trans[1].Pos, pos(8, 2)},
		{"bad", p.Bad[0].Pos, pos(10, 1)},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s: position %v, want %v", c.what, c.got, c.want)
		}
	}
	if q.Init != 1 || len(q.Locs) != 3 {
		t.Errorf("init %d of %d locations, want 1 of 3", q.Init, len(q.Locs))
	}
}

// TestSyntaxVariants parses forms the printer does not produce.
func TestSyntaxVariants(t *testing.T) {
	src := "\uFEFF" + `# a comment
program sb   // identifiers do as names
var x : [ -2 : 2 ] = -2
process P {
  reg $r : int = *
  init -> reg : $r := - 5 +
      3 * (1 -
      2)                        // continued after an operator
  reg -> "init" : locked { read $r := x; write x := 0; }
  "init" -> 3 : read x == -1 @ "a file.go":4
}
bad cs : P@init &
  P@reg && P.$r == 1 || P.$r == 2
`
	p, err := Parse("v.fcm", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	q := p.Procs[0]
	if p.Name != "sb" || len(q.Locs) != 3 || q.Locs[0].Name != "init" || q.Locs[1].Name != "reg" || q.Locs[2].Name != "3" {
		t.Fatalf("parsed %q with locations %v", p.Name, q.Locs)
	}
	want := model.Bin(model.OpAdd, model.C(-5), model.Bin(model.OpMul, model.C(3), model.Bin(model.OpSub, model.C(1), model.C(2))))
	if got := q.Trans[0].Op.Expr; !reflect.DeepEqual(got, want) {
		t.Errorf("expression %v, want %v", got, want)
	}
	if n := len(q.Trans[1].Op.Body); n != 2 {
		t.Errorf("locked body of %d operations, want 2", n)
	}
	if got := q.Trans[2].Pos; got != (model.Pos{File: "a file.go", Line: 4}) {
		t.Errorf("position %v, want a file.go:4", got)
	}
	if b := p.Bad[0]; b.Name != "cs" || len(b.Locs) != 2 || b.Cond == nil {
		t.Errorf("bad state %+v", b)
	}
}

// TestDocExample parses the example of the package documentation.
func TestDocExample(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "// # Example\n//\n")
	if !ok {
		t.Fatal("doc.go has no example section")
	}
	var src strings.Builder
	for _, line := range strings.Split(rest, "\n") {
		if line == "//" {
			src.WriteString("\n")
			continue
		}
		code, ok := strings.CutPrefix(line, "//\t")
		if !ok {
			break
		}
		src.WriteString(code + "\n")
	}
	p, err := Parse("doc.fcm", []byte(src.String()))
	if err != nil {
		t.Fatalf("%v\n%s", err, src.String())
	}
	if len(p.Procs) != 2 || len(p.Bad) != 1 || len(p.Vars) != 4 {
		t.Errorf("the example has %d variables, %d processes and %d bad states", len(p.Vars), len(p.Procs), len(p.Bad))
	}
}

// TestIntegersLine checks that the program line carries the integers of a
// program through Format and Parse: mathematical ones are printed and read
// back, Go's are the default and need no word.
func TestIntegersLine(t *testing.T) {
	for _, tt := range []struct {
		src  string
		want model.Integers
	}{
		{"program p integers mathematical\nprocess P {\n  L0 -> L1 : nop\n}\n", model.Mathematical},
		{"program p integers wrap64\nprocess P {\n  L0 -> L1 : nop\n}\n", model.Wrap64},
		{"program p\nprocess P {\n  L0 -> L1 : nop\n}\n", model.Wrap64},
		{"process P {\n  L0 -> L1 : nop\n}\n", model.Wrap64},
	} {
		p, err := Parse("p.fcm", []byte(tt.src))
		if err != nil {
			t.Fatal(err)
		}
		if p.Ints != tt.want {
			t.Errorf("%q: integers %v, want %v", tt.src, p.Ints, tt.want)
		}
		back, err := Parse("p.fcm", Format(p))
		if err != nil {
			t.Fatalf("%q printed: %v\n%s", tt.src, err, Format(p))
		}
		if back.Ints != p.Ints {
			t.Errorf("%q printed and read back: integers %v, want %v", tt.src, back.Ints, p.Ints)
		}
	}
}
