package analyzer_test

import (
	"fmt"
	"go/token"
	"regexp"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/fencecheck/fencecheck/analyzer"
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
// The packages of a configuration are analysed together.
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
		{"blocking", analyzer.DefaultConfig(), "forever.go", 73, `serve select waits for <-req or its other cases`},
		{"blocking", analyzer.DefaultConfig(), "spin.go", 49, `go@62 l\.held\.CompareAndSwap\(0, 1\) reads 0`},
		{"ticketonce", analyzer.DefaultConfig(), "ticketonce.go", 21, `(?s)go@35 l\.next\.Add\(1\) reads 0\n.*go@35 atomic\.LoadUint32\(&l\.serving\) reads 0`},
		{"corpus/treiber", analyzer.DefaultConfig(), "treiber.go", 78, `use atomic\.LoadPointer and atomic\.StorePointer for every access`},
	}
	// The packages of a configuration are analysed in one run.
	var configs []analyzer.Config
	pkgs := map[string][]string{} // configuration -> its packages
	for _, tt := range tests {
		k := fmt.Sprint(tt.cfg)
		if pkgs[k] == nil {
			configs = append(configs, tt.cfg)
		}
		if !slices.Contains(pkgs[k], tt.pkg) {
			pkgs[k] = append(pkgs[k], tt.pkg)
		}
	}
	related := map[string][]string{} // pkg:file:line -> related messages
	for _, cfg := range configs {
		for _, r := range analysistest.Run(discard{}, analysistest.TestData(), analyzer.New(cfg), pkgs[fmt.Sprint(cfg)]...) {
			for _, d := range r.Diagnostics {
				pos := r.Pass.Fset.Position(d.Pos)
				at := fmt.Sprintf("%s:%s:%d:%s", r.Pass.Pkg.Path(), baseName(pos), pos.Line, fmt.Sprint(cfg))
				for _, rel := range d.Related {
					related[at] = append(related[at], rel.Message)
				}
			}
		}
	}
	for _, tt := range tests {
		rels := related[fmt.Sprintf("%s:%s:%d:%s", tt.pkg, tt.file, tt.line, fmt.Sprint(tt.cfg))]
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
