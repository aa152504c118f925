package analyzer_test

import (
	"fmt"
	"go/token"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/fencecheck/fencecheck/analyzer"
	"github.com/fencecheck/fencecheck/internal/longtest"
)

// fencesAll is tsoOnly with every minimal barrier set reported.
func fencesAll() analyzer.Config {
	c := tsoOnly()
	c.Fences = analyzer.FencesAll
	return c
}

// TestRelated checks the details a finding gives under its headline, in
// its related positions (the fix's advice, the other minimal barrier sets,
// the steps of the interleaving, the overtaking loads), which `// want`
// comments do not see: for each finding at file:line, some related
// message matches the pattern, or their lines joined with newlines do.
// The quick run takes every other analysis (package and configuration).
func TestRelated(t *testing.T) {
	t.Parallel()
	tests := []struct {
		pkg     string
		cfg     analyzer.Config
		file    string
		line    int
		related string
	}{
		{"fixes", tsoOnly(), "existing.go", 22, `make it atomic\.AddUint32\(&c\.a, 1\) \(LOCK XADD drains the store buffer\)`},
		{"fixes", tsoOnly(), "existing.go", 28, `make it atomic\.AddUint32\(&c\.b, 2\)`},
		{"fixes", tsoOnly(), "advice.go", 23, `add a barrier after this store: change the type of f\.up to atomic\.Bool and store with its Store method \(XCHG drains the store buffer\)`},
		{"fixes", tsoOnly(), "advice.go", 28, `change the type of f\.down to atomic\.Bool`},
		{"fixes", tsoOnly(), "advice.go", 46, `change the type of f\.s to atomic\.Int32 and store with its Store method`},
		{"fixes", tsoOnly(), "advice.go", 51, `change the type of f\.n to atomic\.Int64 and store with its Store method`},
		{"fixes", tsoOnly(), "renamed.go", 18, `make it satomic\.StoreUint64\(&x, 1\)`},
		{"fixes", tsoOnly(), "renamed.go", 23, `make it satomic\.StoreUint64\(&y, 1\)`},
		{"fixes", tsoOnly(), "store64.go", 15, `make it atomic\.StoreInt64\(&x, 1\) \(XCHG drains the store buffer\)`},
		{"fixes", tsoOnly(), "store64.go", 20, `make it atomic\.StoreInt64\(&y, 2\)`},
		{"storebarriers", tsoOnly(), "dekker.go", 23, `add a barrier after this store: make it atomic\.StoreInt32\(&l\.flag\[me\], 1\) \(XCHG drains the store buffer\)`},
		{"storebarriers", tsoOnly(), "join.go", 28, `add a barrier after this store: make it atomic\.StoreInt32\(&y, 1\) \(XCHG drains the store buffer\)`},
		{"unbounded", tsoOnly(), "unbounded.go", 20, `make it atomic\.AddInt64\(&y, 7\)`},
		{"fencesall", fencesAll(), "all.go", 14, `The other minimal barrier sets: \{after all\.go:14:3, after all\.go:21:3\}; \{after all\.go:15:3, after all\.go:20:3\}; \{after all\.go:15:3, after all\.go:21:3\}`},
		{"fencesall", fencesAll(), "all.go", 20, `The other minimal barrier sets:`},
		{"races", analyzer.DefaultConfig(), "races.go", 17, `make it an atomic\.Int64`},
		{"races", analyzer.DefaultConfig(), "races.go", 91, `make it an atomic\.Bool`},
		{"sliced", analyzer.DefaultConfig(), "sliced.go", 26, `\(no automatic fix: sync/atomic has no type for \[\]int32\)`},
		{"sliced", analyzer.DefaultConfig(), "sliced.go", 27, `make it an atomic\.Int32`},
		{"sliced", analyzer.DefaultConfig(), "sliced.go", 103, `\(no automatic fix: sync/atomic has no type for sliced\.point\)`},
		{"sliced", analyzer.DefaultConfig(), "sliced.go", 107, `(?s)go@\d+ load c\.p\.x: 1\n.*go@\d+ load c\.p\.y: 0`},
		{"nofence", tsoOnly(), "nofence.go", 23, `the load of y at nofence\.go:13:8 overtakes the store to x at nofence\.go:12:3`},
		// Steps of sync methods and sync/atomic calls are the calls the
		// source makes, not the atomic operations they are lowered to.
		{"blocking", analyzer.DefaultConfig(), "cond.go", 82, `(?s)go@78\(i=0\) mu\.Unlock\(\)\n.*go@78\(i=0\) wg\.Done\(\)`},
		{"blocking", analyzer.DefaultConfig(), "spin.go", 49, `go@62 l\.held\.CompareAndSwap\(0, 1\) reads 0`},
		{"ticket", analyzer.DefaultConfig(), "ticket.go", 20, `(?s)go@33 l\.next\.Add\(1\) reads 0\n.*go@33 atomic\.LoadUint32\(&l\.serving\) reads 0`},
		{"corpus/treiber", analyzer.DefaultConfig(), "treiber.go", 78, `use atomic\.LoadPointer and atomic\.StorePointer for every access`},
	}
	type key struct {
		pkg, cfg string
	}
	results := map[key]map[string][]string{} // file:line -> related messages
	order := map[key]int{}                   // the order in which the analyses first come
	for _, tt := range tests {
		k := key{tt.pkg, fmt.Sprint(tt.cfg)}
		if _, ok := order[k]; !ok {
			order[k] = len(order)
		}
		if longtest.Quick() && order[k]%2 != 0 {
			continue // the quick run takes every other analysis; the long suites all
		}
		if results[k] == nil {
			byPos := map[string][]string{}
			for _, r := range analysistest.Run(discard{}, analysistest.TestData(), analyzer.New(tt.cfg), tt.pkg) {
				for _, d := range r.Diagnostics {
					pos := r.Pass.Fset.Position(d.Pos)
					at := fmt.Sprintf("%s:%d", baseName(pos), pos.Line)
					for _, rel := range d.Related {
						byPos[at] = append(byPos[at], rel.Message)
					}
				}
			}
			results[k] = byPos
		}
		rels := results[k][fmt.Sprintf("%s:%d", tt.file, tt.line)]
		re := regexp.MustCompile(tt.related)
		ok := re.MatchString(strings.Join(rels, "\n"))
		for _, r := range rels {
			ok = ok || re.MatchString(r)
		}
		if !ok {
			t.Errorf("%s/%s:%d: no related message matches %q; they are:\n\t%s", tt.pkg, tt.file, tt.line, tt.related, strings.Join(rels, "\n\t"))
		}
	}
}

// baseName is the file name of pos.
func baseName(pos token.Position) string {
	i := strings.LastIndexAny(pos.Filename, "/\\")
	return pos.Filename[i+1:]
}
