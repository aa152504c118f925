package extract_test

import (
	"testing"

	"github.com/fencecheck/fencecheck/extract"
	"github.com/fencecheck/fencecheck/model"
)

// TestBlockingSearchMatchesEnumeration checks BlockingSearch.At against
// the bad states the enumeration of the places makes: every system of the
// testdata with blocking bugs is lowered both ways, and in every state a
// search under SC reaches (up to a bound), At finds a blocking bug of the
// same name exactly when one of the enumerated bad states holds.
func TestBlockingSearchMatchesEnumeration(t *testing.T) {
	const maxStates = 50_000
	checked, bugs := 0, 0
	for _, name := range []string{"taskpool", "limitgroup", "funcvals", "fanout", "errsent", "rtcalls", "runtimevariants", "misc", "blockmix"} {
		l := load(t, name)
		enumerated, _ := extract.Package(l.fset, l.pkg, l.files, l.info)
		old := extract.SetBlockingLimit(0)
		searched, _ := extract.Package(l.fset, l.pkg, l.files, l.info)
		extract.SetBlockingLimit(old)
		if len(enumerated) != len(searched) {
			t.Fatalf("%s: %d systems enumerated, %d searched", name, len(enumerated), len(searched))
		}
		for i, e := range enumerated {
			sr := searched[i]
			var blocking []model.BadState
			for _, b := range e.Program.Bad {
				if b.Name == extract.DeadlockName || b.Name == extract.LeakName {
					blocking = append(blocking, b)
				}
			}
			if sr.Blocking == nil {
				if len(blocking) > 0 {
					t.Errorf("%s: %d blocking bad states enumerated, no search", e.Name, len(blocking))
				}
				continue
			}
			p := e.Program
			p.Index()
			kind := func(st model.State) string {
				for _, b := range blocking {
					if model.InBadState(p, st, &b) {
						return b.Name
					}
				}
				return ""
			}
			n, mismatches := 0, 0
			seen := map[string]bool{}
			var queue []model.State
			add := func(st model.State) {
				k := string(st.AppendKey(nil))
				if !seen[k] && len(seen) < maxStates {
					seen[k] = true
					queue = append(queue, st)
				}
			}
			if err := p.Initial(add); err != nil {
				t.Fatal(err)
			}
			for len(queue) > 0 {
				st := queue[0]
				queue = queue[1:]
				n++
				want := kind(st)
				if want != "" {
					bugs++
				}
				got, ok := sr.Blocking.At(sr.Program, st)
				if !ok {
					got.Name = ""
				}
				if st.Fault == nil && got.Name != want && mismatches < 3 {
					mismatches++
					t.Errorf("%s: a state at %v: the enumeration says %q, the search %q", e.Name, st.Locs, want, got.Name)
				}
				p.Successors(st, model.SC, 0, func(_ model.Step, ns model.State) { add(ns) })
			}
			if n > 0 {
				checked++
			}
		}
	}
	t.Logf("%d systems compared, %d states in blocking bugs", checked, bugs)
	if checked < 5 || bugs == 0 {
		t.Errorf("only %d systems with blocking bugs compared, %d states in one", checked, bugs)
	}
}
