package extract_test

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// unitFile matches a file named in the package documentation's list of
// stages.
var unitFile = regexp.MustCompile(`\b[a-z0-9_]+\.go\b`)

// TestStages checks that every file of the package belongs to exactly one
// unit of the stages its documentation lists, so that a new family of Go
// constructs lands in a unit of its own and says so.
func TestStages(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "extract.go", nil, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		t.Fatal(err)
	}
	doc := f.Doc.Text()
	start := strings.Index(doc, "# Stages")
	if start < 0 {
		t.Fatal("the package documentation has no # Stages section")
	}
	section := doc[start+len("# Stages"):]
	if end := strings.Index(section, "\n# "); end >= 0 {
		section = section[:end]
	}
	listed := map[string]int{}
	for _, name := range unitFile.FindAllString(section, -1) {
		listed[name]++
	}
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		switch listed[name] {
		case 0:
			t.Errorf("%s is in no unit of the stages in extract.go's package documentation: add it to the family of constructs it lowers, or a family of its own", name)
		case 1:
		default:
			t.Errorf("%s is in %d units of the stages", name, listed[name])
		}
	}
	for name := range listed {
		if !slices.Contains(names, name) {
			if _, err := os.Stat(name); err != nil {
				t.Errorf("the stages name %s, which the package does not have", name)
			}
		}
	}
}
