package chanruns

import (
	"fmt"
	"go/format"
	"math/rand/v2"
	"strings"
)

// A program is one generated system: package pkg of the generated module,
// whose file pkg/pkg.go holds src, with the //fencecheck:system function
// System.
type program struct {
	index int
	pkg   string
	src   string
}

// systemFunc is the name of the //fencecheck:system function of every
// generated program; the run-time harness calls it.
const systemFunc = "System"

// pkgName is the package (and directory) name of program i.
func pkgName(i int) string { return fmt.Sprintf("p%04d", i) }

// generate returns program i of the sequence of seed. Each program draws
// from a generator of its own, seeded with seed and i, so that program i is
// the same whatever the number of programs generated.
func generate(seed uint64, i int) program {
	pkg := pkgName(i)
	for attempt := uint64(0); ; attempt++ {
		g := &generator{r: rand.New(rand.NewPCG(seed, uint64(i)<<16|attempt))}
		if src, ok := g.program(pkg, seed, i); ok {
			return program{index: i, pkg: pkg, src: src}
		}
	}
}

// A chanSpec is one channel of a generated program.
type chanSpec struct {
	name string
	cap  int    // 0, 1 or 2
	elem string // "int" or "struct{}"
}

// isInt reports whether the channel carries ints (values a receiver can
// check).
func (c chanSpec) isInt() bool { return c.elem == "int" }

// A generator draws one program. Statements are strings of Go source,
// their lines indented relative to the block that holds them.
type generator struct {
	r     *rand.Rand
	chans []chanSpec
	useX  bool // the program may access the shared variable x

	usedChan        map[string]bool
	xReads, xWrites int
	usesWG          bool
	panicID         int // numbers the messages of explicit panics
}

// A goroutine is the statement list of one go statement, or of the
// system function's body after its go statements (main).
type goroutine struct {
	inWG  bool
	stmts []string
}

// program draws the whole program and renders it, gofmt-formatted. It
// returns false when the draw uses no channel (then the caller draws
// again).
func (g *generator) program(pkg string, seed uint64, index int) (string, bool) {
	g.usedChan = map[string]bool{}
	nch := 1 + g.r.IntN(2)
	for k := range nch {
		elem := "int"
		if g.r.IntN(3) == 0 {
			elem = "struct{}"
		}
		g.chans = append(g.chans, chanSpec{name: fmt.Sprintf("c%d", k), cap: g.r.IntN(3), elem: elem})
	}
	g.useX = g.r.IntN(10) < 6
	g.usesWG = g.r.IntN(2) == 0

	ngo := 2 + g.r.IntN(2)
	gos := make([]*goroutine, ngo)
	inWG := 0
	for k := range gos {
		gr := &goroutine{inWG: g.usesWG && g.r.IntN(10) < 7}
		n := 1 + g.r.IntN(3)
		for j := range n {
			gr.stmts = append(gr.stmts, g.stmt(true, j == n-1))
		}
		if gr.inWG {
			inWG++
		}
		gos[k] = gr
	}
	if g.usesWG && inWG == 0 {
		gos[0].inWG = true
		inWG = 1
	}
	body := &goroutine{}
	for range g.r.IntN(4) {
		body.stmts = append(body.stmts, g.stmt(false, false))
	}
	if g.usesWG {
		at := g.r.IntN(len(body.stmts) + 1)
		body.stmts = append(body.stmts[:at], append([]string{"wg.Wait()"}, body.stmts[at:]...)...)
	}
	// A variable only written is "declared and not used": make sure x is
	// read somewhere.
	if g.xWrites > 0 && g.xReads == 0 {
		all := append(append([]*goroutine(nil), gos...), body)
		gr := all[g.r.IntN(len(all))]
		at := g.r.IntN(len(gr.stmts) + 1)
		if n := len(gr.stmts); at == n && n > 0 && strings.HasPrefix(gr.stmts[n-1], "select {}") {
			at-- // nothing runs after select {}
		}
		gr.stmts = append(gr.stmts[:at], append([]string{g.xRead()}, gr.stmts[at:]...)...)
	}
	if len(g.usedChan) == 0 {
		return "", false
	}

	var b strings.Builder
	fmt.Fprintf(&b, "// Package %s is program %d of the chanruns generator (seed %d).\npackage %s\n\n", pkg, index, seed, pkg)
	if g.usesWG {
		b.WriteString("import \"sync\"\n\n")
	}
	fmt.Fprintf(&b, "// %s is the generated system.\n//\n//fencecheck:system\nfunc %s() {\n", systemFunc, systemFunc)
	if g.xReads+g.xWrites > 0 {
		b.WriteString("var x int32\n")
	}
	if g.usesWG {
		b.WriteString("var wg sync.WaitGroup\n")
	}
	for _, c := range g.chans {
		if g.usedChan[c.name] {
			fmt.Fprintf(&b, "%s := make(chan %s, %d)\n", c.name, c.elem, c.cap)
		}
	}
	if g.usesWG {
		fmt.Fprintf(&b, "wg.Add(%d)\n", inWG)
	}
	for _, gr := range gos {
		b.WriteString("go func() {\n")
		if gr.inWG {
			b.WriteString("defer wg.Done()\n")
		}
		for _, s := range gr.stmts {
			b.WriteString(s + "\n")
		}
		b.WriteString("}()\n")
	}
	for _, s := range body.stmts {
		b.WriteString(s + "\n")
	}
	b.WriteString("}\n")
	src, err := format.Source([]byte(b.String()))
	if err != nil {
		panic(fmt.Sprintf("generated program %s does not parse: %v\n%s", pkg, err, b.String()))
	}
	return string(src), true
}

// pick returns a channel, marked used.
func (g *generator) pick() chanSpec {
	c := g.chans[g.r.IntN(len(g.chans))]
	g.usedChan[c.name] = true
	return c
}

// value is a value to send: 1, 2 or 3.
func (g *generator) value() int { return 1 + g.r.IntN(3) }

// panicMsg returns a fresh message for an explicit panic.
func (g *generator) panicMsg(what string) string {
	g.panicID++
	return fmt.Sprintf("%q", fmt.Sprintf("%s (check %d)", what, g.panicID))
}

// stmt draws one statement of a goroutine (inGo) or of the body; last says
// it is the goroutine's last, where select {} may go.
func (g *generator) stmt(inGo, last bool) string {
	for {
		switch k := g.r.IntN(100); {
		case k < 24:
			return g.send(g.pick())
		case k < 48:
			return g.recv(g.pick(), true)
		case k < 56:
			return "close(" + g.pick().name + ")"
		case k < 71:
			return g.selectStmt()
		case k < 78:
			return g.rangeStmt(g.pick())
		case k < 84:
			c := g.pick()
			inner := g.send(c)
			if g.r.IntN(2) == 0 {
				inner = g.recv(c, false)
			}
			return fmt.Sprintf("for range %d {\n%s\n}", 2+g.r.IntN(2), inner)
		case k < 86:
			c := g.pick()
			return fmt.Sprintf("if len(%s) > cap(%s) {\npanic(%s)\n}", c.name, c.name, g.panicMsg("len beyond cap"))
		case k < 88:
			if inGo && last {
				return "select {}"
			}
		default:
			if !g.useX {
				continue
			}
			if g.r.IntN(3) == 0 {
				return g.xRead()
			}
			g.xWrites++
			if g.r.IntN(4) == 0 {
				return "x++"
			}
			return fmt.Sprintf("x = %d", g.value())
		}
	}
}

// xRead reads the shared variable x in a check that never fails (x is
// only ever 0 to 3 plus the number of increments).
func (g *generator) xRead() string {
	g.xReads++
	return fmt.Sprintf("if x > 20 {\npanic(%s)\n}", g.panicMsg("x out of range"))
}

// send is a send of a value on c.
func (g *generator) send(c chanSpec) string {
	if c.isInt() {
		return fmt.Sprintf("%s <- %d", c.name, g.value())
	}
	return c.name + " <- struct{}{}"
}

// recv is a receive from c, plain or checking its value; with commaOk,
// possibly a v, ok receive (whose !ok branch may return).
func (g *generator) recv(c chanSpec, commaOk bool) string {
	n := 2
	if commaOk {
		n = 4
	}
	switch k := g.r.IntN(n); {
	case k == 1 && c.isInt():
		v := g.value()
		return fmt.Sprintf("if <-%s == %d {\npanic(%s)\n}", c.name, v, g.panicMsg(fmt.Sprintf("received %d", v)))
	case k == 2:
		return fmt.Sprintf("if _, ok := <-%s; !ok {\nreturn\n}", c.name)
	case k == 3 && c.isInt():
		v := g.value()
		return fmt.Sprintf("if v, ok := <-%s; ok && v == %d {\npanic(%s)\n}", c.name, v, g.panicMsg(fmt.Sprintf("received %d", v)))
	case k == 3:
		return fmt.Sprintf("if _, ok := <-%s; ok {\npanic(%s)\n}", c.name, g.panicMsg("received a value"))
	}
	return "<-" + c.name
}

// rangeStmt is a for-range loop over c.
func (g *generator) rangeStmt(c chanSpec) string {
	if c.isInt() && g.r.IntN(2) == 0 {
		v := g.value()
		return fmt.Sprintf("for v := range %s {\nif v == %d {\npanic(%s)\n}\n}", c.name, v, g.panicMsg(fmt.Sprintf("ranged over %d", v)))
	}
	return fmt.Sprintf("for range %s {\n}", c.name)
}

// selectStmt is a select of two cases, or of one case and a default when
// the two cases would both be on one unbuffered channel: fencecheck
// reports such a select as unsupported ("a select with two cases on the
// unbuffered channel c", extract/chans.go, extract/diag_test.go).
func (g *generator) selectStmt() string {
	type selCase struct {
		c    chanSpec
		send bool
	}
	cases := []selCase{{c: g.pick(), send: g.r.IntN(2) == 0}}
	second := selCase{c: g.pick(), send: g.r.IntN(2) == 0}
	dflt := g.r.IntN(10) < 3
	if second.c.name == cases[0].c.name && second.c.cap == 0 {
		dflt = true
	} else {
		cases = append(cases, second)
	}
	var b strings.Builder
	b.WriteString("select {\n")
	for _, sc := range cases {
		c := sc.c
		switch {
		case sc.send && c.isInt():
			fmt.Fprintf(&b, "case %s <- %d:\n", c.name, g.value())
		case sc.send:
			fmt.Fprintf(&b, "case %s <- struct{}{}:\n", c.name)
		case c.isInt() && g.r.IntN(2) == 0:
			v := g.value()
			fmt.Fprintf(&b, "case v := <-%s:\nif v == %d {\npanic(%s)\n}\n", c.name, v, g.panicMsg(fmt.Sprintf("selected %d", v)))
		default:
			fmt.Fprintf(&b, "case <-%s:\n", c.name)
		}
		if g.useX && g.r.IntN(4) == 0 {
			g.xWrites++
			fmt.Fprintf(&b, "x = %d\n", g.value())
		}
	}
	if dflt {
		b.WriteString("default:\n")
	}
	b.WriteString("}")
	return b.String()
}
