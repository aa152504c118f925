package analyzer_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/fencecheck/fencecheck/analyzer"
	"github.com/fencecheck/fencecheck/internal/litmus"
	"github.com/fencecheck/fencecheck/internal/longtest"
)

// corpus is the shared litmus corpus, beside the repository.
var corpus = filepath.Join("..", "..", "shared", "litmus", "x86-tso.json")

// litmusDump names a directory to keep the generated module in, for reading.
var litmusDump = flag.String("litmus.dump", "", "write the Go module generated from the litmus corpus to this directory")

var litmusLong = flag.Bool("long", false, "check the Go memory model verdicts of every litmus test, not every fourth")

// litmusPerPackage is how many litmus systems go into one generated package:
// enough to share the loading and type checking, few enough that the
// packages are analysed in parallel.
const litmusPerPackage = 50

// A litmusSystem is one litmus test written as a Go system.
type litmusSystem struct {
	test       *litmus.Test
	pkg        string
	file       string // base name of the generated file
	start, end int    // the lines of the system function
}

// TestLitmusGo writes every litmus test of the corpus as a Go system
// (goroutines storing to and loading from int32 variables, atomic.SwapInt32
// for XCHG, atomic.AddInt32 on a dummy for MFENCE, the final condition checked
// after wg.Wait with a panic), runs the analyzer on them, and requires its
// verdict to match the corpus: an outcome allowed by x86-TSO and forbidden
// under SC gets x86-TSO barrier diagnostics, an outcome allowed under SC gets
// one SC diagnostic, and a forbidden outcome gets nothing.
func TestLitmusGo(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat(corpus); err != nil {
		t.Skipf("litmus corpus not found at %s (it sits beside the repository in the project's checkout): %v", corpus, err)
	}
	tests, err := litmus.Load(corpus)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if *litmusDump != "" {
		dir = *litmusDump
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if longtest.Quick() {
		// 6.SB alone would take most of the time; the quick run takes
		// every sixth test of at most four threads.
		var quick []litmus.Test
		for i, lt := range tests {
			if i%6 == 0 && len(lt.Threads) <= 4 {
				quick = append(quick, lt)
			}
		}
		tests = quick
	}
	systems := writeLitmusModule(t, dir, tests)

	// 6.SB (six goroutines, six barriers) takes more than the default budget
	// per system: its fence search checks dozens of barrier sets.
	cfg := tsoOnly()
	cfg.Budget = 3 * time.Minute
	cfg.Blocking = false // litmus tests ask about memory, not waiting
	diags := analyze(t, dir, analyzer.New(cfg))

	bySystem := diagsBySystem(t, systems, diags)
	agree := 0
	for _, s := range systems {
		lt := s.test
		msgs := bySystem[s]
		var want string
		switch {
		case litmus.Allowed(lt.SC):
			want = "SC"
		case litmus.Allowed(lt.TSO):
			want = "x86-TSO"
		default:
			want = "nothing"
		}
		got := verdict(msgs)
		if got != want {
			t.Errorf("%s (%s; tso %s, sc %s): got %s, want %s:\n%s", lt.Name, lt.Condition, lt.TSO, lt.SC, got, want, strings.Join(msgs, "\n"))
			continue
		}
		agree++
	}
	t.Logf("litmus through the Go front end: %d/%d verdicts match x86-TSO", agree, len(systems))
}

// litmusAtomic makes litmusPackage write every plain load and store of a
// test as an atomic.Load or atomic.Store.
var litmusAtomic bool

// TestLitmusGoRaces checks the Go memory model's verdicts on the litmus
// corpus (every fourth test, every twenty-fourth in the quick run; all with -long): written with plain loads and
// stores, a test without locked operations or fences is reported racy;
// written with atomic loads and stores, it has no race and its verdict is
// its SC verdict (an outcome allowed under SC is an SC finding, a forbidden
// one nothing), with no x86-TSO finding.
//
// It sets litmusAtomic, which the litmus writers of other tests read: it
// does not run in parallel (Go runs the parallel tests after it).
func TestLitmusGoRaces(t *testing.T) {
	if _, err := os.Stat(corpus); err != nil {
		t.Skipf("litmus corpus not found at %s: %v", corpus, err)
	}
	all, err := litmus.Load(corpus)
	if err != nil {
		t.Fatal(err)
	}
	var tests []litmus.Test
	for i, lt := range all {
		every := 4
		if longtest.Quick() {
			every = 24
		}
		if (*litmusLong || i%every == 0) && len(lt.Threads) <= 4 {
			tests = append(tests, lt)
		}
	}
	for _, atomicMode := range []bool{false, true} {
		name := "plain"
		if atomicMode {
			name = "atomic"
		}
		t.Run(name, func(t *testing.T) {
			litmusAtomic = atomicMode
			defer func() { litmusAtomic = false }()
			dir := t.TempDir()
			systems := writeLitmusModule(t, dir, tests)
			cfg := analyzer.DefaultConfig()
			cfg.Budget = 3 * time.Minute
			cfg.Blocking = false
			diags := analyze(t, dir, analyzer.New(cfg))
			bySystem := diagsBySystem(t, systems, diags)
			agree := 0
			for _, s := range systems {
				lt := s.test
				var races, others []string
				for _, m := range bySystem[s] {
					if strings.HasPrefix(m, "race:") {
						races = append(races, m)
					} else {
						others = append(others, m)
					}
				}
				if !atomicMode {
					pure := !slices.ContainsFunc(lt.Threads, func(ins []litmus.Instr) bool {
						return slices.ContainsFunc(ins, func(in litmus.Instr) bool { return in.Op != "W" && in.Op != "R" })
					})
					shared := false
					for i, a := range lt.Threads {
						for j, b := range lt.Threads {
							for _, x := range a {
								for _, y := range b {
									shared = shared || (i != j && x.Op == "W" && x.Loc == y.Loc)
								}
							}
						}
					}
					if pure && shared && len(races) == 0 {
						t.Errorf("%s: plain accesses, but no race reported:\n%s", lt.Name, strings.Join(others, "\n"))
						continue
					}
					agree++
					continue
				}
				want := "nothing"
				if litmus.Allowed(lt.SC) {
					want = "SC"
				}
				if got := verdict(others); len(races) > 0 || got != want {
					t.Errorf("%s (%s; sc %s): atomic version got %s with %d races, want %s:\n%s", lt.Name, lt.Condition, lt.SC, got, len(races), want, strings.Join(bySystem[s], "\n"))
					continue
				}
				agree++
			}
			t.Logf("litmus through Go, %s accesses: %d/%d as the Go memory model says", name, agree, len(systems))
		})
	}
}

// writeLitmusModule writes the module litmus into dir: its go.mod and the
// tests as Go systems, litmusPerPackage to a package. It returns the
// systems in the order of tests.
func writeLitmusModule(t *testing.T, dir string, tests []litmus.Test) []*litmusSystem {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module litmus\n\ngo 1.26\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var systems []*litmusSystem
	for start := 0; start < len(tests); start += litmusPerPackage {
		batch := tests[start:min(start+litmusPerPackage, len(tests))]
		pkg := fmt.Sprintf("p%02d", start/litmusPerPackage)
		src, syss, err := litmusPackage(pkg, batch)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(dir, pkg), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, pkg, "litmus.go"), src, 0o644); err != nil {
			t.Fatal(err)
		}
		systems = append(systems, syss...)
	}
	return systems
}

// diagsBySystem groups the messages of diags by the system whose lines
// hold them; a diagnostic outside every system is an error.
func diagsBySystem(t *testing.T, systems []*litmusSystem, diags []diag) map[*litmusSystem][]string {
	t.Helper()
	bySystem := make(map[*litmusSystem][]string)
	for _, d := range diags {
		i := slices.IndexFunc(systems, func(s *litmusSystem) bool {
			return s.pkg == d.pkg && d.line >= s.start && d.line <= s.end
		})
		if i < 0 {
			t.Errorf("%s/litmus.go:%d: diagnostic outside every system: %s", d.pkg, d.line, d.msg)
			continue
		}
		bySystem[systems[i]] = append(bySystem[systems[i]], d.msg)
	}
	return bySystem
}

// verdict classifies the diagnostics of one system.
func verdict(msgs []string) string {
	if len(msgs) == 0 {
		return "nothing"
	}
	kind := ""
	for _, m := range msgs {
		k, _, _ := strings.Cut(m, ":")
		if kind != "" && k != kind {
			return "mixed"
		}
		kind = k
	}
	if kind == "SC" && len(msgs) > 1 {
		return "several SC"
	}
	if kind == "x86-TSO" && slices.ContainsFunc(msgs, func(m string) bool { return !strings.Contains(m, "fix: add a barrier after this") }) {
		return "x86-TSO without a barrier to add"
	}
	return kind
}

// A diag is a diagnostic of a generated package.
type diag struct {
	pkg  string
	line int
	msg  string
}

// analyze runs a on every package of the module in dir and returns its
// diagnostics.
func analyze(t *testing.T, dir string, a *analysis.Analyzer) []diag {
	t.Helper()
	cfg := &packages.Config{Mode: packages.LoadSyntax, Dir: dir}
	pkgs, err := packages.Load(cfg, "./...")
	if err != nil {
		t.Fatal(err)
	}
	if packages.PrintErrors(pkgs) > 0 {
		t.Fatal("the generated packages do not type-check")
	}
	graph, err := checker.Analyze([]*analysis.Analyzer{a}, pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	var out []diag
	for act := range graph.All() {
		if act.Analyzer != a || !act.IsRoot {
			continue
		}
		if act.Err != nil {
			t.Errorf("%s: %v", act.Package.PkgPath, act.Err)
		}
		for _, d := range act.Diagnostics {
			pos := act.Package.Fset.Position(d.Pos)
			msg := d.Message
			for _, r := range d.Related {
				msg += "\n\t" + r.Message
			}
			out = append(out, diag{pkg: strings.TrimPrefix(act.Package.PkgPath, "litmus/"), line: pos.Line, msg: msg})
		}
	}
	return out
}

// litmusPackage writes tests as the systems of one Go package.
func litmusPackage(pkg string, tests []litmus.Test) ([]byte, []*litmusSystem, error) {
	var b strings.Builder
	line := 1
	emit := func(format string, args ...any) {
		s := fmt.Sprintf(format, args...)
		line += strings.Count(s, "\n")
		b.WriteString(s)
	}
	emit("// Code generated from the x86-TSO litmus corpus. DO NOT EDIT.\n\n")
	emit("package %s\n\nimport (\n\t\"sync\"\n\t\"sync/atomic\"\n)\n", pkg)
	var systems []*litmusSystem
	for i := range tests {
		lt := &tests[i]
		s := &litmusSystem{test: lt, pkg: pkg, file: "litmus.go"}
		emit("\n// %s: %s %s (x86-TSO %s, SC %s)\n//\n//fencecheck:system\n", lt.Name, lt.Quantifier, lt.Condition, lt.TSO, lt.SC)
		s.start = line
		src, err := litmusFunc(fmt.Sprintf("litmus%d", i), lt)
		if err != nil {
			return nil, nil, err
		}
		emit("%s", src)
		s.end = line - 1
		systems = append(systems, s)
	}
	return []byte(b.String()), systems, nil
}

var ident = regexp.MustCompile(`[^A-Za-z0-9_]`)

// litmusFunc writes one litmus test as a Go system function called name.
func litmusFunc(name string, lt *litmus.Test) (string, error) {
	typ := "int32"
	if litmusMaxAbs(lt) > 1<<31-1 {
		typ = "int64"
	}
	loc := func(l string) string { return "m_" + ident.ReplaceAllString(l, "_") }
	reg := func(th int, r string) string { return fmt.Sprintf("r%d_%s", th, ident.ReplaceAllString(r, "_")) }

	// Locations and registers, in a stable order.
	var locs []string
	addLoc := func(l string) {
		if !slices.Contains(locs, l) {
			locs = append(locs, l)
		}
	}
	type regKey struct {
		th  int
		reg string
	}
	var regs []regKey
	addReg := func(th int, r string) {
		if r != "" && !slices.Contains(regs, regKey{th, r}) {
			regs = append(regs, regKey{th, r})
		}
	}
	for k := range lt.Init {
		if !strings.Contains(k, ":") {
			addLoc(k)
		}
	}
	for _, ins := range lt.Threads {
		for _, in := range ins {
			if in.Loc != "" {
				addLoc(in.Loc)
			}
		}
	}
	var walk func(c *litmus.Cond)
	walk = func(c *litmus.Cond) {
		if c == nil {
			return
		}
		if c.Mem != "" {
			addLoc(c.Mem)
		}
		if c.Reg != nil {
			addReg(c.Reg.Thread, c.Reg.Reg)
		}
		for _, d := range slices.Concat(c.And, c.Or) {
			walk(d)
		}
		walk(c.Not)
	}
	walk(lt.Cond)
	slices.Sort(locs)
	slices.SortFunc(regs, func(a, b regKey) int {
		if a.th != b.th {
			return a.th - b.th
		}
		return strings.Compare(a.reg, b.reg)
	})

	var b strings.Builder
	fmt.Fprintf(&b, "func %s() {\n", name)
	for _, l := range locs {
		fmt.Fprintf(&b, "\tvar %s %s = %d\n", loc(l), typ, lt.Init[l])
	}
	for _, r := range regs {
		fmt.Fprintf(&b, "\tvar %s %s = %d\n", reg(r.th, r.reg), typ, lt.Init[fmt.Sprintf("%d:%s", r.th, r.reg)])
	}
	if slices.ContainsFunc(lt.Threads, func(ins []litmus.Instr) bool {
		return slices.ContainsFunc(ins, func(in litmus.Instr) bool { return in.Op == "MFENCE" })
	}) {
		fmt.Fprintf(&b, "\tvar fence %s\n", typ)
	}
	fmt.Fprintf(&b, "\tvar wg sync.WaitGroup\n\twg.Add(%d)\n", len(lt.Threads))
	suffix := strings.ToUpper(typ[:1]) + typ[1:]
	for th, ins := range lt.Threads {
		b.WriteString("\tgo func() {\n")
		// Loads go to goroutine-local registers. They are published to the
		// main goroutine at the end, after every operation of the test, by
		// atomic stores: like wg.Done, which follows them, these drain the
		// store buffer only once the test's own operations are done, so they
		// remove no outcome, and they add no buffered store to explore.
		var local []string
		for _, in := range ins {
			target := ""
			if in.Reg != "" && !slices.Contains(regs, regKey{th, in.Reg}) {
				// A register the condition does not name: discard the value.
				target = "_ = "
			} else if in.Reg != "" {
				target = "l" + reg(th, in.Reg) + " = "
				if !slices.Contains(local, in.Reg) {
					local = append(local, in.Reg)
					target = "l" + reg(th, in.Reg) + " := "
				}
			}
			switch {
			case in.Op == "W" && litmusAtomic:
				fmt.Fprintf(&b, "\t\tatomic.Store%s(&%s, %d)\n", suffix, loc(in.Loc), in.Val)
			case in.Op == "R" && litmusAtomic:
				if target == "_ = " || target == "" {
					target = "_ = "
				}
				fmt.Fprintf(&b, "\t\t%satomic.Load%s(&%s)\n", target, suffix, loc(in.Loc))
			}
			switch in.Op {
			case "W":
				if !litmusAtomic {
					fmt.Fprintf(&b, "\t\t%s = %d\n", loc(in.Loc), in.Val)
				}
			case "R":
				if !litmusAtomic {
					fmt.Fprintf(&b, "\t\t%s%s\n", target, loc(in.Loc))
				}
			case "MFENCE":
				fmt.Fprintf(&b, "\t\tatomic.Add%s(&fence, 0)\n", suffix)
			case "XCHG":
				fmt.Fprintf(&b, "\t\t%satomic.Swap%s(&%s, %d)\n", target, suffix, loc(in.Loc), in.Val)
			case "LOCKADD":
				if target != "" && target != "_ = " {
					fmt.Fprintf(&b, "\t\t%satomic.Add%s(&%s, %d) - %d\n", target, suffix, loc(in.Loc), in.Val, in.Val)
				} else {
					fmt.Fprintf(&b, "\t\tatomic.Add%s(&%s, %d)\n", suffix, loc(in.Loc), in.Val)
				}
			case "CMPXCHG":
				if target != "" && target != "_ = " {
					return "", fmt.Errorf("%s: CMPXCHG with a register is not written as Go", lt.Name)
				}
				fmt.Fprintf(&b, "\t\tatomic.CompareAndSwap%s(&%s, %d, %d)\n", suffix, loc(in.Loc), in.Expect, in.Val)
			default:
				return "", fmt.Errorf("%s: unknown operation %q", lt.Name, in.Op)
			}
		}
		for _, r := range local {
			fmt.Fprintf(&b, "\t\tatomic.Store%s(&%s, l%s)\n", suffix, reg(th, r), reg(th, r))
		}
		b.WriteString("\t\twg.Done()\n\t}()\n")
	}
	b.WriteString("\twg.Wait()\n")
	cond, err := litmusCond(lt.Cond, loc, reg)
	if err != nil {
		return "", fmt.Errorf("%s: %w", lt.Name, err)
	}
	fmt.Fprintf(&b, "\tif %s {\n\t\tpanic(%q)\n\t}\n}\n", cond, "reached: "+lt.Condition)
	return b.String(), nil
}

// litmusCond writes a litmus condition as a Go boolean expression.
func litmusCond(c *litmus.Cond, loc func(string) string, reg func(int, string) string) (string, error) {
	if c == nil {
		return "", fmt.Errorf("no condition")
	}
	join := func(op string, cs []*litmus.Cond) (string, error) {
		var parts []string
		for _, d := range cs {
			s, err := litmusCond(d, loc, reg)
			if err != nil {
				return "", err
			}
			parts = append(parts, "("+s+")")
		}
		return strings.Join(parts, " "+op+" "), nil
	}
	switch {
	case len(c.And) > 0:
		return join("&&", c.And)
	case len(c.Or) > 0:
		return join("||", c.Or)
	case c.Not != nil:
		s, err := litmusCond(c.Not, loc, reg)
		return "!(" + s + ")", err
	case c.Mem != "":
		return fmt.Sprintf("%s == %d", loc(c.Mem), c.Val), nil
	case c.Reg != nil:
		return fmt.Sprintf("%s == %d", reg(c.Reg.Thread, c.Reg.Reg), c.Val), nil
	}
	return "", fmt.Errorf("empty condition")
}

// litmusMaxAbs returns the largest absolute value that lt mentions.
func litmusMaxAbs(lt *litmus.Test) int64 {
	var m int64
	abs := func(v int64) {
		if v < 0 {
			v = -v
		}
		m = max(m, v)
	}
	for _, v := range lt.Init {
		abs(v)
	}
	for _, th := range lt.Threads {
		for _, in := range th {
			abs(in.Val)
			abs(in.Expect)
		}
	}
	var walk func(c *litmus.Cond)
	walk = func(c *litmus.Cond) {
		if c == nil {
			return
		}
		abs(c.Val)
		for _, d := range slices.Concat(c.And, c.Or) {
			walk(d)
		}
		walk(c.Not)
	}
	walk(lt.Cond)
	return m
}
