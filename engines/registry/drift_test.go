package registry_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/fencecheck/fencecheck/engines/registry"
)

// root is the repository's root, from this package's directory.
var root = filepath.Join("..", "..")

// clients are the directories whose Go sources take the engines' names from
// the registry: they must not spell them out.
var clients = []string{"analyzer", "cmd", "gclplugin"}

// word matches a word that may be an engine's name.
var word = regexp.MustCompile(`[a-z][a-z0-9]*(?:[-+][a-z0-9]+)*`)

// engineWords returns the distinct engine names among the words of s.
func engineWords(s string) []string {
	var names []string
	for _, w := range word.FindAllString(s, -1) {
		if registry.Lookup(w) != nil && !slices.Contains(names, w) {
			names = append(names, w)
		}
	}
	return names
}

// isEngine reports whether s is an engine's name, or one with the bounded
// engine first ("sb+bmc").
func isEngine(s string) bool {
	exact, _ := strings.CutSuffix(s, registry.BoundedSuffix)
	return registry.Lookup(exact) != nil
}

// TestNoHandKeptLists fails when a Go source of the registry's clients
// holds a string literal that is an engine's name, or that lists two
// engines or more (a help text, an error message): a list kept by hand
// drifts from the registry.
func TestNoHandKeptLists(t *testing.T) {
	for _, dir := range clients {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && d.Name() == "testdata" {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			ast.Inspect(f, func(n ast.Node) bool {
				lit, ok := n.(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					return true
				}
				s, err := strconv.Unquote(lit.Value)
				if err != nil {
					return true
				}
				if isEngine(s) {
					t.Errorf("%s: the literal %q is an engine's name: use the registry's constant", fset.Position(lit.Pos()), s)
				} else if names := engineWords(s); len(names) >= 2 {
					t.Errorf("%s: the literal %q names the engines %v: take the list from the registry", fset.Position(lit.Pos()), s, names)
				}
				return true
			})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// engineList matches an -engine= flag with a list of values, in Markdown
// (where a table escapes |) or in a doc comment.
var engineList = regexp.MustCompile(`-engine=((?:[a-z0-9+-]+|\\?\||…|\.\.\.)+)`)

// listed returns the engines of the -engine= lists of text that follow a
// match of prefix (every list when prefix is empty), each list as its
// plain names: a name with the bounded engine first ("sb+bmc") and an
// ellipsis are checked and left out.
func listed(t *testing.T, file, text, prefix string) [][]string {
	t.Helper()
	var lists [][]string
	for _, m := range engineList.FindAllStringSubmatchIndex(text, -1) {
		if prefix != "" && !regexp.MustCompile(prefix+`\s*\[?$`).MatchString(text[:m[0]]) {
			continue
		}
		var names []string
		for _, v := range strings.Split(strings.ReplaceAll(text[m[2]:m[3]], `\|`, "|"), "|") {
			switch {
			case v == "" || v == "…" || v == "...":
			case !isEngine(v):
				t.Errorf("%s: -engine=%s names %q, which is no engine", file, text[m[2]:m[3]], v)
			case registry.Lookup(v) != nil:
				names = append(names, v)
			}
		}
		lists = append(lists, names)
	}
	return lists
}

// TestDocsNameEveryEngine checks the engine lists of the documentation
// against the registry: the analyzer's in the README, the analyzer's doc
// and the plugin's doc, fencemodel's in its doc and docs/architecture.md
// (an -engine= with one engine is an example, and may name any); and that
// the architecture's table has the package of every engine.
func TestDocsNameEveryEngine(t *testing.T) {
	all := registry.Names(registry.All())
	systems := registry.Names(registry.Systems())
	var races []string
	for _, e := range registry.All() {
		if e.Races != "" {
			races = append(races, e.Name)
		}
	}
	read := func(file string) string {
		b, err := os.ReadFile(filepath.Join(root, file))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	for _, tc := range []struct {
		file, prefix string
		want         []string
	}{
		{"README.md", "", systems},
		{"analyzer/doc.go", "", systems},
		{"docs/architecture.md", `fencemodel check`, all},
		{"docs/architecture.md", `fencemodel race`, races},
		{"cmd/fencemodel/main.go", `fencemodel check`, all},
		{"cmd/fencemodel/main.go", `fencemodel race`, races},
	} {
		lists := listed(t, tc.file, read(tc.file), tc.prefix)
		if len(lists) == 0 {
			t.Errorf("%s: no -engine= list after %q", tc.file, tc.prefix)
		}
		for _, got := range lists {
			// One engine is an example (-engine=sb), two or more a list.
			if len(got) >= 2 && !sameSet(got, tc.want) {
				t.Errorf("%s: -engine= lists %v, want %v", tc.file, got, tc.want)
			}
		}
	}
	for _, file := range []string{"docs/architecture.md", "docs/performance.md", "docs/evidence.md", "docs/systems.md"} {
		listed(t, file, read(file), "") // names only engines
	}

	// The plugin's doc shows the setting with the engines it takes.
	m := regexp.MustCompile(`engine: auto +# (.*)`).FindStringSubmatch(read("gclplugin/plugin.go"))
	if m == nil {
		t.Errorf("gclplugin/plugin.go: no engine setting in the doc")
	} else if got := engineWords(m[1]); !sameSet(got, systems) {
		t.Errorf("gclplugin/plugin.go: the engine setting's comment names %v, want %v", got, systems)
	}

	arch := read("docs/architecture.md")
	for _, e := range registry.All() {
		pkg := reflect.TypeOf(e.New(registry.Options{})).Elem().PkgPath()
		dir := pkg[strings.Index(pkg, "/engines/")+1:]
		if !strings.Contains(arch, "| `"+dir+"` |") {
			t.Errorf("docs/architecture.md: the table has no row for %s, the package of the %s engine", dir, e.Name)
		}
	}
}

// sameSet reports whether a and b hold the same names.
func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(slices.Compact(a), slices.Compact(b))
}

// TestArchitectureTable checks the table of docs/architecture.md's
// "Choosing an engine" against the registry's capabilities: a row per
// engine, with its data, how far it decides x86-TSO, whether it decides PSO
// (and how: "—" for no), its answers and the engine of its race question.
func TestArchitectureTable(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(root, "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	start := strings.Index(text, "## Choosing an engine")
	if start < 0 {
		t.Fatal(`docs/architecture.md has no "Choosing an engine"`)
	}
	text = text[start:]
	if end := strings.Index(text[1:], "\n## "); end >= 0 {
		text = text[:end+1]
	}
	rows := map[string][]string{}
	for line := range strings.SplitSeq(text, "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		rows[strings.Trim(cells[0], "`")] = cells[1:]
	}
	for _, e := range registry.All() {
		row, ok := rows[e.Name]
		delete(rows, e.Name)
		if !ok {
			t.Errorf("no row for %s", e.Name)
			continue
		}
		if len(row) != 5 {
			t.Errorf("%s: row %q, want 5 cells after the name", e.Name, row)
			continue
		}
		data := map[registry.Data]string{registry.Finite: "finite", registry.Unbounded: "unbounded"}[e.Data]
		tso := map[registry.TSO]string{registry.AllTSO: "all", registry.FencedTSO: "fenced programs"}[e.TSO]
		answers := map[registry.Answers]string{registry.Proofs: "proofs", registry.Bugs: "bugs", registry.Proofs | registry.Bugs: "proofs and bugs"}[e.Answers]
		races := e.Races
		if races == "" {
			races = "—"
		}
		pso := "—"
		switch {
		case e.Name == registry.Auto:
			pso = registry.Explicit
		case e.PSO:
			pso = "yes"
		}
		for i, want := range []string{data, tso, pso, answers, races} {
			if !strings.HasPrefix(row[i], want) {
				t.Errorf("%s: cell %d is %q, want it to start with %q", e.Name, i+2, row[i], want)
			}
		}
	}
	for name := range rows {
		t.Errorf("a row for %s, which is not registered", name)
	}
}
