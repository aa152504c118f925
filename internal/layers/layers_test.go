package layers

import (
	"fmt"
	"go/build"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// module is the module's path, and root its directory from here.
const (
	module = "github.com/fencecheck/fencecheck"
	root   = "../.."
)

// A floor is one line of the picture: its name, its rank (0 at the
// bottom), whether its packages are kept apart, and the patterns of its
// packages (an import path relative to the module, or one ending in "/..."
// for it and every package below it).
type floor struct {
	name     string
	rank     int
	apart    bool
	patterns []string
}

// TestLayers checks the floors of docs/architecture.md against the
// packages of the module and their imports.
func TestLayers(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join(root, "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	floors, err := picture(string(doc))
	if err != nil {
		t.Fatalf("docs/architecture.md: %v", err)
	}
	table, err := packageTable(string(doc))
	if err != nil {
		t.Fatalf("docs/architecture.md: %v", err)
	}
	pkgs, err := modulePackages(root)
	if err != nil {
		t.Fatal(err)
	}

	// Every package has one floor by the picture and the same by the
	// table; every pattern of either names a package.
	byName := map[string]*floor{}
	for _, f := range floors {
		byName[f.name] = f
	}
	var pictured, tabled []string
	for _, f := range floors {
		pictured = append(pictured, f.patterns...)
	}
	for pattern, name := range table {
		if byName[name] == nil {
			t.Errorf("the table puts %s on floor %q, which the picture does not draw", pattern, name)
		}
		tabled = append(tabled, pattern)
	}
	for _, pattern := range pictured {
		if !slices.ContainsFunc(keys(pkgs), func(p string) bool { return matches(pattern, p) }) {
			t.Errorf("the picture names %s, which is no package of the module", pattern)
		}
	}
	for _, pattern := range tabled {
		if !slices.ContainsFunc(keys(pkgs), func(p string) bool { return matches(pattern, p) }) {
			t.Errorf("the table names %s, which is no package of the module", pattern)
		}
	}
	floorOf := map[string]*floor{}
	for _, p := range keys(pkgs) {
		var drawn *floor
		for _, f := range floors {
			if best(f.patterns, p) != "" && (drawn == nil || len(best(f.patterns, p)) > len(best(drawn.patterns, p))) {
				drawn = f
			}
		}
		if drawn == nil {
			t.Errorf("%s stands on no floor of the picture", p)
			continue
		}
		pattern := best(tabled, p)
		switch {
		case pattern == "":
			t.Errorf("%s has no row in the table", p)
		case table[pattern] != drawn.name:
			t.Errorf("%s is on floor %s in the picture and on %s in the table", p, drawn.name, table[pattern])
		}
		floorOf[p] = drawn
	}

	// Imports go down, or stay on a floor whose packages are not apart.
	for _, p := range keys(pkgs) {
		from := floorOf[p]
		if from == nil {
			continue
		}
		for _, imp := range pkgs[p] {
			to := floorOf[imp]
			switch {
			case to == nil:
			case to.rank > from.rank:
				t.Errorf("%s (floor %s) imports %s, on floor %s above it", p, from.name, imp, to.name)
			case to == from && from.apart:
				t.Errorf("%s imports %s: both are on floor %s, whose packages are kept apart", p, imp, from.name)
			}
		}
	}
}

// picture parses the drawing of the floors: the first code block after
// the heading "## Layers", one floor a line, the top floor first, as a
// name and the patterns of its packages. A group prefix/{a b} stands for
// prefix/a and prefix/b; a "|" between packages keeps the floor's
// packages apart.
func picture(doc string) ([]*floor, error) {
	i := strings.Index(doc, "\n## Layers\n")
	if i < 0 {
		return nil, fmt.Errorf(`no heading "## Layers"`)
	}
	block := doc[i:]
	start := strings.Index(block, "\n```\n")
	if start < 0 {
		return nil, fmt.Errorf("no picture under Layers")
	}
	block = block[start+len("\n```\n"):]
	end := strings.Index(block, "\n```")
	if end < 0 {
		return nil, fmt.Errorf("the picture under Layers is not closed")
	}
	line := regexp.MustCompile(`^([a-z]+) {2,}(\S.*)$`)
	group := regexp.MustCompile(`(\S*)\{([^}]*)\}`)
	var floors []*floor
	for l := range strings.SplitSeq(block[:end], "\n") {
		m := line.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		f := &floor{name: m[1], apart: strings.Contains(m[2], "|")}
		spec := group.ReplaceAllStringFunc(m[2], func(g string) string {
			parts := group.FindStringSubmatch(g)
			var out []string
			for _, name := range strings.Fields(strings.ReplaceAll(parts[2], "|", " ")) {
				out = append(out, parts[1]+name)
			}
			return strings.Join(out, " ")
		})
		f.patterns = strings.Fields(strings.ReplaceAll(spec, "|", " "))
		floors = append(floors, f)
	}
	if len(floors) == 0 {
		return nil, fmt.Errorf("the picture under Layers draws no floor")
	}
	for k, f := range floors {
		f.rank = len(floors) - 1 - k
	}
	return floors, nil
}

// packageTable parses the table whose header is "| package | floor | job |":
// the patterns of its first column (in backquotes, separated by commas)
// and their floors. A floor "—" marks a row that is not of the module.
func packageTable(doc string) (map[string]string, error) {
	i := strings.Index(doc, "\n| package | floor | job |\n")
	if i < 0 {
		return nil, fmt.Errorf(`no table headed "| package | floor | job |"`)
	}
	out := map[string]string{}
	for l := range strings.SplitSeq(doc[i+1:], "\n") {
		if !strings.HasPrefix(l, "|") {
			break
		}
		cells := strings.Split(strings.Trim(l, "|"), "|")
		if len(cells) < 3 || !strings.Contains(cells[0], "`") {
			continue // the header and the rule under it
		}
		name := strings.TrimSpace(cells[1])
		if name == "—" {
			continue
		}
		for _, p := range strings.Split(cells[0], ",") {
			p = strings.Trim(strings.TrimSpace(p), "`")
			if _, dup := out[p]; dup {
				return nil, fmt.Errorf("the table has two rows for %s", p)
			}
			out[p] = name
		}
	}
	return out, nil
}

// modulePackages returns the packages of the module below dir (import
// paths relative to the module, "" for its root) with the packages of the module
// their non-test files import, as go/build sees them in the default build
// context. Folders named testdata, folders starting with "." or "_", and
// nested modules are left out.
func modulePackages(dir string) (map[string][]string, error) {
	out := map[string][]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		name := d.Name()
		if path != dir {
			if name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
				return filepath.SkipDir
			}
		}
		pkg, err := build.Default.ImportDir(path, 0)
		if err != nil {
			if _, none := err.(*build.NoGoError); none {
				return nil
			}
			return fmt.Errorf("reading the package in %s: %w", path, err)
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		var imports []string
		for _, imp := range pkg.Imports {
			if imp == module {
				imports = append(imports, "")
			} else if r, ok := strings.CutPrefix(imp, module+"/"); ok {
				imports = append(imports, r)
			}
		}
		if rel == "." {
			rel = ""
		}
		out[filepath.ToSlash(rel)] = imports
		return nil
	})
	return out, err
}

// matches reports whether pattern names the package p.
func matches(pattern, p string) bool {
	if base, ok := strings.CutSuffix(pattern, "/..."); ok {
		return p == base || strings.HasPrefix(p, base+"/")
	}
	return p == pattern
}

// best returns the longest of patterns that names p, or "".
func best(patterns []string, p string) string {
	out := ""
	for _, pattern := range patterns {
		if matches(pattern, p) && len(pattern) > len(out) {
			out = pattern
		}
	}
	return out
}

// keys returns the packages of pkgs in order.
func keys(pkgs map[string][]string) []string {
	out := make([]string, 0, len(pkgs))
	for p := range pkgs {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}
