package extract

import (
	"go/token"
	"maps"
	"slices"
	"strings"
	"testing"
)

// TestDropImporters checks that a package that cannot be read from source
// takes the packages that import it, directly or not, with it.
func TestDropImporters(t *testing.T) {
	l := &progLoader{
		fset: token.NewFileSet(),
		parsed: map[string]*parsedPackage{
			"a": {imports: []string{"b"}},
			"b": {imports: []string{"c"}},
			"c": {},
			"d": {imports: []string{"fmt"}},
		},
		noSource: map[string]string{},
	}
	l.drop("c", "broken")
	if got := slices.Sorted(maps.Keys(l.parsed)); !slices.Equal(got, []string{"d"}) {
		t.Errorf("left %v, want [d]", got)
	}
	if l.noSource["c"] != "broken" || !strings.Contains(l.noSource["a"], "it imports c") {
		t.Errorf("reasons: %v", l.noSource)
	}
}
