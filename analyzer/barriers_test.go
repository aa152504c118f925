package analyzer_test

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
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

// TestBarrierFixesHold checks, at the level of Go source, that a barrier
// belongs to a store (docs/design.md §5): for every file of the packages of
// TestSuggestedFixes, every litmus system through Go (of at most four
// goroutines; all with -long) and generated systems (1000; 3000 with
// -long), with x86-TSO findings:
//
//   - applying the suggested fixes of the cheapest set (every store made an
//     atomic store) leaves no x86-TSO (nor SC) finding, and leaving out any
//     one of them brings an x86-TSO finding back;
//   - the same holds for every other minimal set that -fences=all names,
//     its stores made atomic stores by the test itself.
//
// The systems are analysed together: one analysis of the originals, one of
// those with barriers under -fences=all, then one of every variant, each in
// a package of its own or beside variants of other systems. (The same for
// the models of Table 1, barriers inserted into the model, is
// TestTable1MinimalSets of engines/fence.)
func TestBarrierFixesHold(t *testing.T) {
	t.Parallel()
	var units []*fixUnit
	units = append(units, testdataUnits(t)...)
	units = append(units, litmusUnits(t)...)
	n := longtest.Size(30, 1000)
	if *litmusLong {
		n = 3000
	}
	units = append(units, generatedUnits(n, 20260125)...)
	checkBarrierFixes(t, units)
}

// A fixUnit is one self-contained Go file holding one or more systems.
type fixUnit struct {
	name string // for messages
	kind string // testdata, litmus or generated: for the counts
	pkg  string // the name in its package clause
	file string // base name
	src  []byte
	// solo units get a package of their own: their top-level names may
	// clash with another unit's.
	solo bool
}

// testdataUnits returns the files of the packages of TestSuggestedFixes.
func testdataUnits(t *testing.T) []*fixUnit {
	var out []*fixUnit
	for _, pkg := range []string{"sb", "dekker", "fixes", "unbounded", "storebarriers"} {
		files, err := filepath.Glob(filepath.Join("testdata", "src", pkg, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("no files in testdata/src/%s: %v", pkg, err)
		}
		for _, f := range files {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, &fixUnit{name: pkg + "/" + filepath.Base(f), kind: "testdata", pkg: pkg, file: filepath.Base(f), src: src, solo: true})
		}
	}
	return out
}

// litmusUnits writes every litmus test of the corpus (of at most four
// threads, unless -long) as a Go system, one per file.
func litmusUnits(t *testing.T) []*fixUnit {
	if _, err := os.Stat(corpus); err != nil {
		t.Logf("litmus corpus not found at %s; litmus systems left out: %v", corpus, err)
		return nil
	}
	tests, err := litmus.Load(corpus)
	if err != nil {
		t.Fatal(err)
	}
	var out []*fixUnit
	for i := range tests {
		lt := &tests[i]
		if len(lt.Threads) > 4 && !*litmusLong {
			continue // 6.SB alone takes minutes
		}
		if longtest.Quick() && i%12 != 0 {
			continue // the quick run takes every twelfth test
		}
		fn, err := litmusFunc(fmt.Sprintf("litmus%03d", i), lt)
		if err != nil {
			t.Fatal(err)
		}
		src := fmt.Sprintf("package lit\n\nimport (\n\t\"sync\"\n\t\"sync/atomic\"\n)\n\nvar _ = atomic.AddInt32\n\n// %s: %s %s\n//\n//fencecheck:system\n%s",
			lt.Name, lt.Quantifier, lt.Condition, fn)
		out = append(out, &fixUnit{name: "litmus " + lt.Name, kind: "litmus", pkg: "lit", file: fmt.Sprintf("litmus%03d.go", i), src: []byte(src)})
	}
	return out
}

// generatedUnits returns n generated systems, one per file.
func generatedUnits(n int, seed uint64) []*fixUnit {
	rng := rand.New(rand.NewPCG(seed, 7))
	out := make([]*fixUnit, n)
	for i := range out {
		name := fmt.Sprintf("gen%04d", i)
		out[i] = &fixUnit{name: "generated " + name, kind: "generated", pkg: "gen", file: name + ".go", src: genSystem(rng, name)}
	}
	return out
}

// genSystem writes a random system called name: two or three goroutines over
// shared int32 fields (initially 0) in a ring, goroutine g storing to its own
// field and ending on a load of the next one's, as in store buffering, and
// between the two a few random statements: plain stores of constants, plain
// loads into goroutine-local variables, an if/else on a loaded value whose
// arms store to the goroutine's own field (two stores meeting at the join),
// and rarely (with two goroutines) a loop, counted or on a loaded value,
// whose body stores to it (a store reaching the loop head, as the store
// before the loop does). The locals are published by atomic stores once the goroutine's own operations
// are done (they drain the store buffer only then, so they remove no
// outcome), and after wg.Wait a condition on the final loads panics: mostly
// "they all read 0", the store-buffering outcome.
func genSystem(rng *rand.Rand, name string) []byte {
	fields := []string{"x", "y", "z"}
	nprocs := 2
	if rng.IntN(6) == 0 {
		nprocs = 3
	}
	locals := make([]int, nprocs) // per goroutine
	final := make([]int, nprocs)  // the local of the final load
	var bodies []string
	loops := 0
	for g := range nprocs {
		var b strings.Builder
		own := "m." + fields[g]
		load := func(f string) {
			fmt.Fprintf(&b, "\t\tl%d_%d = %s\n", g, locals[g], f)
			locals[g]++
		}
		field := func() string { return "m." + fields[rng.IntN(nprocs)] }
		c := func() int { return 1 + rng.IntN(2) }
		ifElse := func() {
			fmt.Fprintf(&b, "\t\tif %s == %d {\n", field(), rng.IntN(2))
			if nprocs == 2 && rng.IntN(3) == 0 {
				fmt.Fprintf(&b, "\t\t\t%s = %d\n", field(), c())
			}
			fmt.Fprintf(&b, "\t\t\t%s = %d\n\t\t} else {\n", own, c())
			fmt.Fprintf(&b, "\t\t\t%s = %d\n\t\t}\n", own, c())
		}
		if rng.IntN(3) == 0 {
			ifElse() // the join after the if is where the goroutine's stores meet
		} else {
			fmt.Fprintf(&b, "\t\t%s = %d\n", own, c())
		}
		// Statements between the first store and the final load; none with
		// three goroutines, whose searches grow fast (so no loop either).
		extra := rng.IntN(3)
		if nprocs > 2 {
			extra = 0
		}
		for range extra {
			switch k := rng.IntN(20); {
			case k < 7:
				fmt.Fprintf(&b, "\t\t%s = %d\n", field(), c())
			case k < 12:
				load(field())
			case k < 17:
				ifElse()
			case loops > 0:
				// One loop at most: the exact engine takes seconds on more.
				fmt.Fprintf(&b, "\t\t%s = %d\n", own, c())
			case k < 19:
				loops++
				fmt.Fprintf(&b, "\t\tfor k := 0; k < 2; k++ {\n\t\t\t%s = %d\n\t\t}\n", own, c())
			default:
				loops++
				fmt.Fprintf(&b, "\t\tfor %s == %d {\n\t\t\t%s = %d\n\t\t}\n", "m."+fields[(g+1)%nprocs], c(), own, c())
			}
		}
		final[g] = locals[g]
		load("m." + fields[(g+1)%nprocs])
		bodies = append(bodies, b.String())
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "package gen\n\nimport (\n\t\"sync\"\n\t\"sync/atomic\"\n)\n\n//fencecheck:system\nfunc %s() {\n", name)
	// Fields, not variables: a variable only stored to would not compile.
	fmt.Fprintf(&b, "\tvar m struct{ %s int32 }\n", strings.Join(fields[:nprocs], ", "))
	var results []string
	for g := range nprocs {
		for k := range locals[g] {
			results = append(results, fmt.Sprintf("r%d_%d", g, k))
		}
	}
	fmt.Fprintf(&b, "\tvar %s int32\n", strings.Join(results, ", "))
	fmt.Fprintf(&b, "\tvar wg sync.WaitGroup\n\twg.Add(%d)\n", nprocs)
	for g := range nprocs {
		b.WriteString("\tgo func() {\n")
		var names []string
		for k := range locals[g] {
			names = append(names, fmt.Sprintf("l%d_%d", g, k))
		}
		fmt.Fprintf(&b, "\t\tvar %s int32\n", strings.Join(names, ", "))
		b.WriteString(bodies[g])
		for k := range locals[g] {
			fmt.Fprintf(&b, "\t\tatomic.StoreInt32(&r%d_%d, l%d_%d)\n", g, k, g, k)
		}
		b.WriteString("\t\twg.Done()\n\t}()\n")
	}
	b.WriteString("\twg.Wait()\n")
	var conj []string
	for g := range nprocs {
		val := 0
		if rng.IntN(6) == 0 {
			val = 1 + rng.IntN(2)
		}
		conj = append(conj, fmt.Sprintf("r%d_%d == %d", g, final[g], val))
	}
	fmt.Fprintf(&b, "\tif %s {\n\t\tpanic(%q)\n\t}\n}\n", strings.Join(conj, " && "), "reached")
	return b.Bytes()
}

// An edit replaces the bytes [start, end) of a file with text.
type edit struct {
	start, end int
	text       string
}

// applyEdits applies edits to src: identical edits once; overlapping ones
// are an error.
func applyEdits(src []byte, edits []edit) ([]byte, error) {
	es := slices.Clone(edits)
	slices.SortFunc(es, func(a, b edit) int {
		if a.start != b.start {
			return a.start - b.start
		}
		return a.end - b.end
	})
	es = slices.Compact(es)
	var out bytes.Buffer
	at := 0
	for _, e := range es {
		if e.start < at || e.end < e.start || e.end > len(src) {
			return nil, fmt.Errorf("overlapping or invalid edits %+v", es)
		}
		out.Write(src[at:e.start])
		out.WriteString(e.text)
		at = e.end
	}
	out.Write(src[at:])
	return out.Bytes(), nil
}

// A fixFinding is a diagnostic of a unit's file, its suggested fixes as
// edits of the file.
type fixFinding struct {
	line, col int
	msg       string
	fixes     [][]edit
}

// A unitResult is what one analysis says about one file: its diagnostics,
// and, for every plain store statement that the test can make atomic by
// itself, the edit that does (by line and column), with the edit that
// imports sync/atomic under the name the edits use when the file lacks it.
type unitResult struct {
	findings []fixFinding
	stores   map[[2]int]edit
	imports  []edit
}

// A fixJob is one variant of a unit to analyse.
type fixJob struct {
	unit *fixUnit
	src  []byte
	slot int // jobs of one unit need different slots: they go to different packages
}

// analyzeJobs writes the jobs into one module, runs the analyzer with cfg
// on all of it, and returns what it says about each job's file.
func analyzeJobs(t *testing.T, cfg analyzer.Config, jobs []fixJob) []unitResult {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module fixes\n\ngo 1.26\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const perPackage = 25
	byPath := map[string]int{} // file path -> job
	count := map[string]int{}  // shared package key -> files so far
	next := map[string]int{}   // shared package key -> its current directory number
	for i, j := range jobs {
		var pkgDir string
		if j.unit.solo {
			pkgDir = fmt.Sprintf("solo%05d", i)
		} else {
			key := fmt.Sprintf("%s_%d", j.unit.pkg, j.slot)
			if count[key] == perPackage {
				count[key] = 0
				next[key]++
			}
			count[key]++
			pkgDir = fmt.Sprintf("%s_%03d", key, next[key])
		}
		if err := os.MkdirAll(filepath.Join(dir, pkgDir), 0o755); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, pkgDir, j.unit.file)
		if _, dup := byPath[path]; dup {
			t.Fatalf("two jobs write %s", path)
		}
		if err := os.WriteFile(path, j.src, 0o644); err != nil {
			t.Fatal(err)
		}
		byPath[path] = i
	}
	pkgs, err := packages.Load(&packages.Config{Mode: packages.LoadSyntax, Dir: dir}, "./...")
	if err != nil {
		t.Fatal(err)
	}
	if packages.PrintErrors(pkgs) > 0 {
		t.Fatal("the variants do not type-check")
	}
	graph, err := checker.Analyze([]*analysis.Analyzer{analyzer.New(cfg)}, pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]unitResult, len(jobs))
	for act := range graph.All() {
		if !act.IsRoot {
			continue
		}
		if act.Err != nil {
			t.Errorf("%s: %v", act.Package.PkgPath, act.Err)
		}
		fset := act.Package.Fset
		for _, d := range act.Diagnostics {
			pos := fset.Position(d.Pos)
			i, ok := byPath[pos.Filename]
			if !ok {
				t.Errorf("diagnostic outside every job: %s: %s", pos, d.Message)
				continue
			}
			f := fixFinding{line: pos.Line, col: pos.Column, msg: d.Message}
			for _, sf := range d.SuggestedFixes {
				var es []edit
				for _, te := range sf.TextEdits {
					start, end := fset.Position(te.Pos), fset.Position(te.End)
					if start.Filename != pos.Filename || (te.End.IsValid() && end.Filename != pos.Filename) {
						t.Errorf("%s: a fix edits another file, %s", pos, start.Filename)
						continue
					}
					e := edit{start: start.Offset, end: start.Offset, text: string(te.NewText)}
					if te.End.IsValid() {
						e.end = end.Offset
					}
					es = append(es, e)
				}
				f.fixes = append(f.fixes, es)
			}
			out[i].findings = append(out[i].findings, f)
		}
		for _, file := range act.Package.Syntax {
			name := fset.File(file.FileStart).Name()
			if i, ok := byPath[name]; ok {
				out[i].stores, out[i].imports = storeEdits(fset, act.Package.TypesInfo, file, jobs[i].src)
			}
		}
	}
	return out
}

// storeEdits returns, for every statement of file that stores to one
// variable of a type that package sync/atomic has functions for (x = e,
// x += e, x++, x--), the edit that makes it the matching atomic call, by
// the statement's line and column; and the edits that import sync/atomic
// under the name those calls use, when the file does not import it.
func storeEdits(fset *token.FileSet, info *types.Info, file *ast.File, src []byte) (map[[2]int]edit, []edit) {
	name := ""
	for _, imp := range file.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == "sync/atomic" {
			name = "atomic"
			if imp.Name != nil {
				name = imp.Name.Name
			}
		}
	}
	var imports []edit
	if name == "" || name == "_" || name == "." {
		name = "fcatomic"
		off := fset.Position(file.Name.End()).Offset
		imports = append(imports, edit{start: off, end: off, text: "\n\nimport fcatomic \"sync/atomic\""})
	}
	text := func(n ast.Node) string {
		return string(src[fset.Position(n.Pos()).Offset:fset.Position(n.End()).Offset])
	}
	suffix := func(e ast.Expr) string {
		tv, ok := info.Types[e]
		if !ok {
			return ""
		}
		b, ok := tv.Type.(*types.Basic)
		if !ok {
			return ""
		}
		switch b.Kind() {
		case types.Int32:
			return "Int32"
		case types.Int64:
			return "Int64"
		case types.Uint32:
			return "Uint32"
		case types.Uint64:
			return "Uint64"
		}
		return ""
	}
	stores := map[[2]int]edit{}
	ast.Inspect(file, func(n ast.Node) bool {
		var call string
		switch s := n.(type) {
		case *ast.AssignStmt:
			if len(s.Lhs) != 1 || len(s.Rhs) != 1 {
				return true
			}
			sfx := suffix(s.Lhs[0])
			switch {
			case sfx == "":
			case s.Tok == token.ASSIGN:
				call = fmt.Sprintf("%s.Store%s(&%s, %s)", name, sfx, text(s.Lhs[0]), text(s.Rhs[0]))
			case s.Tok == token.ADD_ASSIGN:
				call = fmt.Sprintf("%s.Add%s(&%s, %s)", name, sfx, text(s.Lhs[0]), text(s.Rhs[0]))
			}
		case *ast.IncDecStmt:
			if sfx := suffix(s.X); sfx != "" && (s.Tok == token.INC || strings.HasPrefix(sfx, "Int")) {
				d := "1"
				if s.Tok == token.DEC {
					d = "-1"
				}
				call = fmt.Sprintf("%s.Add%s(&%s, %s)", name, sfx, text(s.X), d)
			}
		}
		if call != "" {
			p := fset.Position(n.Pos())
			stores[[2]int{p.Line, p.Column}] = edit{start: p.Offset, end: fset.Position(n.End()).Offset, text: call}
		}
		return true
	})
	return stores, imports
}

// otherSetsRE finds the other minimal sets in a barrier diagnostic.
var (
	otherSetsRE = regexp.MustCompile(`The other minimal barrier sets: (.*?)\.(?: \(|$|\n)`)
	afterPosRE  = regexp.MustCompile(`^after [^:]+:(\d+):(\d+)$`)
)

// barrierSets returns the minimal sets of x86-TSO findings of a file under
// -fences=all, each as the sorted lines and columns of its stores: first the
// set of the diagnostics, then those they name; nil and an explanation when
// a set names something other than a store.
func barrierSets(xs []fixFinding) ([][][2]int, string) {
	var first [][2]int
	others := ""
	for _, f := range xs {
		first = append(first, [2]int{f.line, f.col})
		if m := otherSetsRE.FindStringSubmatch(f.msg); m != nil {
			others = m[1]
		}
	}
	sets := [][][2]int{sortedPos(first)}
	if others == "" {
		return sets, ""
	}
	for _, s := range strings.Split(others, "; ") {
		var set [][2]int
		for _, p := range strings.Split(strings.Trim(s, "{}"), ", ") {
			m := afterPosRE.FindStringSubmatch(p)
			if m == nil {
				return nil, fmt.Sprintf("a barrier %q not after a store", p)
			}
			line, _ := strconv.Atoi(m[1])
			col, _ := strconv.Atoi(m[2])
			set = append(set, [2]int{line, col})
		}
		sets = append(sets, sortedPos(set))
	}
	return sets, ""
}

func sortedPos(ps [][2]int) [][2]int {
	ps = slices.Clone(ps)
	slices.SortFunc(ps, func(a, b [2]int) int {
		if a[0] != b[0] {
			return a[0] - b[0]
		}
		return a[1] - b[1]
	})
	return slices.Compact(ps)
}

// A fixTrial is one variant to check: the unit with some barriers applied,
// and whether an x86-TSO finding must remain.
type fixTrial struct {
	unit    *fixUnit
	src     []byte
	what    string // which barriers, for messages
	finding bool   // an x86-TSO finding must remain (a barrier was left out)
}

// checkBarrierFixes runs the check of TestBarrierFixesHold on units.
func checkBarrierFixes(t *testing.T, units []*fixUnit) {
	start := time.Now()
	// Thousands of systems are analysed at once: a generous budget, so that
	// a loaded machine does not make one inconclusive.
	cheapest := tsoOnly()
	cheapest.Budget = 5 * time.Minute
	// The question is the barriers: waiting forever is none of it (and its
	// bad states would only slow the thousands of analyses down).
	cheapest.Blocking = false
	all := cheapest
	all.Fences = analyzer.FencesAll
	var jobs []fixJob
	for _, u := range units {
		jobs = append(jobs, fixJob{unit: u, src: u.src})
	}
	r0 := analyzeJobs(t, cheapest, jobs)
	// -fences=all, on the files with barriers.
	jobs = jobs[:0]
	var withBarriers []int
	for i, u := range units {
		if slices.ContainsFunc(r0[i].findings, func(f fixFinding) bool { return strings.HasPrefix(f.msg, "x86-TSO:") }) {
			jobs = append(jobs, fixJob{unit: u, src: u.src})
			withBarriers = append(withBarriers, i)
		}
	}
	rAll := make([]unitResult, len(units))
	for k, r := range analyzeJobs(t, all, jobs) {
		rAll[withBarriers[k]] = r
	}
	t.Logf("analysed %d files under -fences=cheapest, the %d with barriers under -fences=all, in %v", len(units), len(jobs), time.Since(start).Round(time.Millisecond))

	type counts struct{ files, fixable, unfixable, skipped, sets, barriers, trials int }
	stats := map[string]*counts{}
	var trials []fixTrial
	for i, u := range units {
		c := stats[u.kind]
		if c == nil {
			c = &counts{}
			stats[u.kind] = c
		}
		c.files++
		xs := x86Findings(t, u, r0[i].findings)
		if len(xs) == 0 {
			continue
		}
		if slices.ContainsFunc(xs, func(f fixFinding) bool { return len(f.fixes) == 0 }) {
			c.unfixable++ // a store that no automatic fix rewrites (fixes/advice.go)
			continue
		}
		c.fixable++
		// The cheapest set: its suggested fixes, all and all but one.
		for leave := -1; leave < len(xs); leave++ {
			var es []edit
			for k, f := range xs {
				if k != leave {
					es = append(es, f.fixes[0]...)
				}
			}
			src, err := applyEdits(u.src, es)
			if err != nil {
				t.Errorf("%s: %v", u.name, err)
				break
			}
			tr := fixTrial{unit: u, src: src, what: "the fixes of the cheapest set", finding: leave >= 0}
			if leave >= 0 {
				tr.what += fmt.Sprintf(" but that of line %d", xs[leave].line)
			}
			trials = append(trials, tr)
		}
		c.sets++
		c.barriers += len(xs)
		// The sets of -fences=all, the stores made atomic by the test.
		xsAll := x86Findings(t, u, rAll[i].findings)
		sets, why := barrierSets(xsAll)
		if sets == nil {
			t.Errorf("%s: -fences=all: %s", u.name, why)
			continue
		}
		cheap := sortedPos(positions(xs))
		for si, set := range sets {
			if slices.Equal(set, cheap) {
				continue // checked above, with the analyzer's own fixes
			}
			var es []edit
			for _, p := range set {
				e, ok := rAll[i].stores[p]
				if !ok {
					es = nil
					break
				}
				es = append(es, e)
			}
			if es == nil {
				c.skipped++
				t.Logf("%s: set %d of -fences=all has a store the test cannot make atomic: %v", u.name, si+1, set)
				continue
			}
			for leave := -1; leave < len(set); leave++ {
				var sub []edit
				for k, e := range es {
					if k != leave {
						sub = append(sub, e)
					}
				}
				if len(sub) > 0 {
					sub = append(sub, rAll[i].imports...)
				}
				src, err := applyEdits(u.src, sub)
				if err != nil {
					t.Errorf("%s: %v", u.name, err)
					break
				}
				tr := fixTrial{unit: u, src: src, what: fmt.Sprintf("the stores of set %d of -fences=all %v made atomic", si+1, set), finding: leave >= 0}
				if leave >= 0 {
					tr.what += fmt.Sprintf(" but that of line %d", set[leave][0])
				}
				trials = append(trials, tr)
			}
			c.sets++
			c.barriers += len(set)
		}
	}
	// Every variant of a unit in a package of its own slot.
	slot := map[*fixUnit]int{}
	jobs = jobs[:0]
	for _, tr := range trials {
		jobs = append(jobs, fixJob{unit: tr.unit, src: tr.src, slot: slot[tr.unit]})
		slot[tr.unit]++
		stats[tr.unit.kind].trials++
	}
	res := analyzeJobs(t, cheapest, jobs)
	for k, tr := range trials {
		var x86, bad []string
		for _, f := range res[k].findings {
			switch kind, _, _ := strings.Cut(f.msg, ":"); kind {
			case "x86-TSO":
				x86 = append(x86, fmt.Sprintf("line %d: %s", f.line, f.msg))
			case "SC", "inconclusive", "internal error":
				bad = append(bad, fmt.Sprintf("line %d: %s", f.line, f.msg))
			}
		}
		switch {
		case len(bad) > 0:
			t.Errorf("%s, with %s:\n%s\n%s", tr.unit.name, tr.what, strings.Join(bad, "\n"), tr.src)
		case !tr.finding && len(x86) > 0:
			t.Errorf("%s, with %s: x86-TSO findings remain:\n%s\n%s", tr.unit.name, tr.what, strings.Join(x86, "\n"), tr.src)
		case tr.finding && len(x86) == 0:
			t.Errorf("%s, with %s: no x86-TSO finding, so the barrier left out is not needed\n%s", tr.unit.name, tr.what, tr.src)
		}
	}
	for _, kind := range []string{"testdata", "litmus", "generated"} {
		if c := stats[kind]; c != nil {
			t.Logf("%s: %d files, %d with x86-TSO barriers (%d more without an automatic fix); %d minimal sets (%d barriers) applied, %d sets skipped; %d variants analysed",
				kind, c.files, c.fixable, c.unfixable, c.sets, c.barriers, c.skipped, c.trials)
		}
	}
	t.Logf("%d variants in %v in all", len(trials), time.Since(start).Round(time.Millisecond))
}

// x86Findings returns the x86-TSO findings of u, failing the test on a
// finding that says the analysis failed.
func x86Findings(t *testing.T, u *fixUnit, fs []fixFinding) []fixFinding {
	t.Helper()
	var xs []fixFinding
	for _, f := range fs {
		switch kind, _, _ := strings.Cut(f.msg, ":"); kind {
		case "x86-TSO":
			xs = append(xs, f)
		case "inconclusive", "internal error":
			t.Errorf("%s: line %d: %s", u.name, f.line, f.msg)
		}
	}
	return xs
}

func positions(fs []fixFinding) [][2]int {
	var ps [][2]int
	for _, f := range fs {
		ps = append(ps, [2]int{f.line, f.col})
	}
	return ps
}
