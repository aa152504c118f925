package chanruns

import (
	"cmp"
	"fmt"
	"go/format"
	"math/rand/v2"
	"regexp"
	"slices"
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
// which go/format indents.
type generator struct {
	r     *rand.Rand
	chans []chanSpec
	useX  bool // the program may access the shared variable x

	usedChan map[string]bool
	usesWG   bool
	panicID  int // numbers the messages of explicit panics
}

// A proc is one goroutine of a generated program, or the system
// function's body after its go statements (main): its statements, drawn as
// items that sort by key.
type proc struct {
	main  bool
	inWG  bool
	items []item
}

// An item is one statement of a proc.
type item struct {
	key  float64
	text string
	// What the statement is, for the rewrites of the protocol style.
	op   string // "send", "recv", "close", "" for anything else
	ch   int    // its channel, for send, recv and close
	lone bool   // a plain send or receive, which the rewrites may put in a select
}

// add adds a statement at a random place of p.
func (g *generator) add(p *proc, it item) {
	if it.key == 0 {
		it.key = g.r.Float64()
	}
	p.items = append(p.items, it)
}

// stmts returns the statements of p in order.
func (p *proc) stmts() []string {
	items := slices.Clone(p.items)
	slices.SortStableFunc(items, func(a, b item) int { return cmp.Compare(a.key, b.key) })
	var out []string
	for _, it := range items {
		out = append(out, it.text)
	}
	return out
}

// program draws the whole program and renders it, gofmt-formatted. It
// returns false when the draw uses no channel (then the caller draws
// again). A quarter of the programs are in the random style, each
// statement drawn on its own; the others in the protocol style, whose
// sends and receives balance before a few rewrites and mutations.
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
	procs := make([]*proc, ngo+1)
	for k := range procs {
		procs[k] = &proc{main: k == ngo, inWG: k < ngo && g.usesWG && g.r.IntN(10) < 7}
	}
	style := "protocol"
	if g.r.IntN(4) == 0 {
		style = "random"
		g.randomStyle(procs)
	} else {
		g.protocolStyle(procs)
	}
	gos, body := procs[:ngo], procs[ngo]
	inWG := 0
	for _, p := range gos {
		if p.inWG {
			inWG++
		}
	}
	if g.usesWG && inWG == 0 {
		gos[0].inWG = true
		inWG = 1
	}
	if g.usesWG {
		g.add(body, item{text: "wg.Wait()"})
	}
	// What the statements use, after the mutations: a variable only
	// written is "declared and not used", so x is then read somewhere.
	var all strings.Builder
	for _, p := range procs {
		for _, it := range p.items {
			all.WriteString(it.text + "\n")
		}
	}
	xRE := regexp.MustCompile(`\bx\b`)
	if xRE.MatchString(all.String()) && !strings.Contains(all.String(), xReadCond) {
		g.add(procs[g.r.IntN(len(procs))], item{text: g.xRead()})
		all.WriteString(xReadCond)
	}
	useX := xRE.MatchString(all.String())
	used := 0
	for _, c := range g.chans {
		g.usedChan[c.name] = regexp.MustCompile(`\b` + c.name + `\b`).MatchString(all.String())
		if g.usedChan[c.name] {
			used++
		}
	}
	if used == 0 {
		return "", false
	}
	// Nothing may follow select {} (go vet: unreachable code).
	for _, p := range procs {
		for i := range p.items {
			if p.items[i].text == "select {}" {
				p.items[i].key = 2
			}
		}
	}

	var b strings.Builder
	fmt.Fprintf(&b, "// Package %s is program %d of the chanruns generator (seed %d, %s style).\npackage %s\n\n", pkg, index, seed, style, pkg)
	if g.usesWG {
		b.WriteString("import \"sync\"\n\n")
	}
	fmt.Fprintf(&b, "// %s is the generated system.\n//\n//fencecheck:system\nfunc %s() {\n", systemFunc, systemFunc)
	if useX {
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
	for _, p := range gos {
		b.WriteString("go func() {\n")
		if p.inWG {
			b.WriteString("defer wg.Done()\n")
		}
		for _, s := range p.stmts() {
			b.WriteString(s + "\n")
		}
		b.WriteString("}()\n")
	}
	for _, s := range body.stmts() {
		b.WriteString(s + "\n")
	}
	b.WriteString("}\n")
	src, err := format.Source([]byte(b.String()))
	if err != nil {
		panic(fmt.Sprintf("generated program %s does not parse: %v\n%s", pkg, err, b.String()))
	}
	return string(src), true
}

// randomStyle draws one to three statements for each goroutine and up to
// three for the body, each on its own.
func (g *generator) randomStyle(procs []*proc) {
	for _, p := range procs {
		n := 1 + g.r.IntN(3)
		if p.main {
			n = g.r.IntN(4)
		}
		for j := range n {
			last := j == n-1 && !p.main
			g.add(p, item{text: g.stmt(!p.main, last), key: float64(j+1) / float64(n+1)})
		}
	}
}

// protocolStyle draws balanced traffic: each channel carries one to three
// messages, each sent by one proc and received by another; the last sender
// often closes the channel after its sends, a lone receiver of a closed
// channel often ranges over it, and a receiver of two messages may take
// them in a loop of two selects. Then a few rewrites: a send that gives up
// when the body closes a quit channel, a send or receive that becomes a
// select with default, accesses to x, and, in a third of the programs, a
// mutation (a statement dropped, or one of the random style added).
func (g *generator) protocolStyle(procs []*proc) {
	for ci, c := range g.chans {
		g.usedChan[c.name] = true
		m := 1 + g.r.IntN(3)
		oneSender, oneReceiver := g.r.IntN(2) == 0, g.r.IntN(2) == 0
		sender, receiver := g.r.IntN(len(procs)), -1
		for {
			receiver = g.r.IntN(len(procs))
			if receiver != sender {
				break
			}
		}
		var senders []int
		for range m {
			s, r := sender, receiver
			if !oneSender {
				s = g.r.IntN(len(procs))
			}
			if !oneReceiver {
				r = g.r.IntN(len(procs))
			}
			for r == s {
				r = g.r.IntN(len(procs))
			}
			v := g.value()
			g.add(procs[s], item{text: g.sendValue(c, v), op: "send", ch: ci, lone: true})
			recv := g.recvMsg(c, false)
			g.add(procs[r], item{text: recv, op: "recv", ch: ci, lone: !strings.HasPrefix(recv, "if")})
			if !slices.Contains(senders, s) {
				senders = append(senders, s)
			}
		}
		if g.r.IntN(2) == 0 {
			continue
		}
		// The close: by a sender after its own sends, or, now and then,
		// by anyone anywhere.
		closer, key := senders[g.r.IntN(len(senders))], 0.0
		for _, it := range procs[closer].items {
			if it.op == "send" && it.ch == ci {
				key = max(key, it.key)
			}
		}
		key += (1 - key) * g.r.Float64()
		if g.r.IntN(6) == 0 {
			closer, key = g.r.IntN(len(procs)), 0
		}
		g.add(procs[closer], item{text: "close(" + c.name + ")", op: "close", ch: ci, key: key})
		// Receivers of a closed channel: a lone one (not the closer) may
		// range over it; others may receive with v, ok.
		if oneReceiver && receiver != closer && g.r.IntN(2) == 0 {
			p := procs[receiver]
			first := 2.0
			var keep []item
			for _, it := range p.items {
				if it.op == "recv" && it.ch == ci {
					first = min(first, it.key)
					continue
				}
				keep = append(keep, it)
			}
			p.items = append(keep, item{text: g.rangeStmt(c), key: first})
			continue
		}
		for _, p := range procs {
			for i, it := range p.items {
				if it.op == "recv" && it.ch == ci && g.r.IntN(3) == 0 {
					p.items[i].text = g.recvMsg(c, true)
					p.items[i].lone = false
				}
			}
		}
	}
	// A receiver of two messages may take them in a loop of two selects.
	for _, p := range procs {
		if g.r.IntN(3) != 0 {
			continue
		}
		var at []int
		for i, it := range p.items {
			if it.op == "recv" && it.lone {
				at = append(at, i)
			}
		}
		if len(at) < 2 {
			continue
		}
		a, b := p.items[at[0]], p.items[at[1]]
		ca, cb := g.chans[a.ch], g.chans[b.ch]
		text := fmt.Sprintf("for range 2 {\nselect {\n%s\n%s\n}\n}", g.recvCase(ca), g.recvCase(cb))
		merged := item{text: text, key: min(a.key, b.key)}
		p.items = slices.Delete(p.items, at[1], at[1]+1)
		p.items[at[0]] = merged
	}
	// A send that gives up when the body closes a quit channel.
	if len(g.chans) == 1 && g.r.IntN(4) == 0 {
		if it := g.pickItem(procs[:len(procs)-1], "send"); it != nil {
			quit := chanSpec{name: "c1", cap: 0, elem: "struct{}"}
			g.chans = append(g.chans, quit)
			g.usedChan[quit.name] = true
			it.text = fmt.Sprintf("select {\ncase %s:\ncase <-%s:\n}", it.text, quit.name)
			it.lone = false
			g.add(procs[len(procs)-1], item{text: "close(" + quit.name + ")", op: "close", ch: 1})
		}
	}
	// A send or a receive that gives up at once.
	if g.r.IntN(5) == 0 {
		op := "send"
		if g.r.IntN(2) == 0 {
			op = "recv"
		}
		if it := g.pickItem(procs, op); it != nil {
			it.text = fmt.Sprintf("select {\ncase %s:\ndefault:\n}", it.text)
			it.lone = false
		}
	}
	if g.useX {
		for range 1 + g.r.IntN(3) {
			p := procs[g.r.IntN(len(procs))]
			if g.r.IntN(3) == 0 {
				g.add(p, item{text: g.xRead()})
				continue
			}
			g.add(p, item{text: fmt.Sprintf("x = %d", g.value())})
		}
	}
	if g.r.IntN(3) == 0 {
		p := procs[g.r.IntN(len(procs))]
		if len(p.items) > 0 && g.r.IntN(2) == 0 {
			i := g.r.IntN(len(p.items))
			p.items = slices.Delete(p.items, i, i+1)
		} else {
			g.add(p, item{text: g.stmt(!p.main, false)})
		}
	}
}

// pickItem returns a random plain item of the procs that does op, or nil.
func (g *generator) pickItem(procs []*proc, op string) *item {
	var its []*item
	for _, p := range procs {
		for i := range p.items {
			if p.items[i].op == op && p.items[i].lone {
				its = append(its, &p.items[i])
			}
		}
	}
	if len(its) == 0 {
		return nil
	}
	return its[g.r.IntN(len(its))]
}

// sendValue is a send of v on c (of struct{}{} on a channel of struct{}).
func (g *generator) sendValue(c chanSpec, v int) string {
	if c.isInt() {
		return fmt.Sprintf("%s <- %d", c.name, v)
	}
	return c.name + " <- struct{}{}"
}

// recvMsg is the receive of one message from c: plain, checking the
// value, or, with commaOk (the channel may be closed), a v, ok receive.
func (g *generator) recvMsg(c chanSpec, commaOk bool) string {
	if commaOk {
		return g.recv(c, true)
	}
	if c.isInt() && g.r.IntN(4) == 0 {
		v := g.value()
		return fmt.Sprintf("if <-%s == %d {\npanic(%s)\n}", c.name, v, g.panicMsg(fmt.Sprintf("received %d", v)))
	}
	return "<-" + c.name
}

// recvCase is a select case receiving from c, maybe checking the value.
func (g *generator) recvCase(c chanSpec) string {
	if c.isInt() && g.r.IntN(3) == 0 {
		v := g.value()
		return fmt.Sprintf("case v := <-%s:\nif v == %d {\npanic(%s)\n}", c.name, v, g.panicMsg(fmt.Sprintf("selected %d", v)))
	}
	return "case <-" + c.name + ":"
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
		case k < 77:
			return g.rangeStmt(g.pick())
		case k < 82:
			c := g.pick()
			inner := g.send(c)
			if g.r.IntN(2) == 0 {
				inner = g.recv(c, false)
			}
			return fmt.Sprintf("for range %d {\n%s\n}", 2+g.r.IntN(2), inner)
		case k < 86:
			c := g.pick()
			if c.cap > 0 && g.r.IntN(2) == 0 {
				n := 1 + g.r.IntN(c.cap)
				return fmt.Sprintf("if len(%s) == %d {\npanic(%s)\n}", c.name, n, g.panicMsg(fmt.Sprintf("len %d", n)))
			}
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
			if g.r.IntN(4) == 0 {
				return "x++"
			}
			return fmt.Sprintf("x = %d", g.value())
		}
	}
}

// xReadCond is the condition of the checks that read x.
const xReadCond = "x > 20"

// xRead reads the shared variable x in a check that never fails (x is
// only ever 0 to 3 plus the number of increments).
func (g *generator) xRead() string {
	return fmt.Sprintf("if %s {\npanic(%s)\n}", xReadCond, g.panicMsg("x out of range"))
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

// selectStmt is a select of two cases, on one channel or two, with or
// without a default.
func (g *generator) selectStmt() string {
	type selCase struct {
		c    chanSpec
		send bool
	}
	cases := []selCase{{c: g.pick(), send: g.r.IntN(2) == 0}}
	second := selCase{c: g.pick(), send: g.r.IntN(2) == 0}
	dflt := g.r.IntN(10) < 3
	cases = append(cases, second)
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
			fmt.Fprintf(&b, "x = %d\n", g.value())
		}
	}
	if dflt {
		b.WriteString("default:\n")
	}
	b.WriteString("}")
	return b.String()
}
