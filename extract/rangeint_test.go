package extract_test

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/explicit"
	"github.com/fencecheck/fencecheck/engines/question/race"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/native"
)

// outcomes explores every state of p under m (store buffers bounded by
// bound under TSO) and returns, sorted, the memories of the final states
// (no step enabled), "name=value" by variable name, and the bad states and
// faults reached, "bad: name" and "fault: message".
func outcomes(t *testing.T, p *model.Program, m model.Model, bound int) []string {
	t.Helper()
	const maxStates = 1_000_000
	seen := map[string]bool{}
	found := map[string]bool{}
	var queue []model.State
	add := func(s model.State) {
		k := string(s.AppendKey(nil))
		if !seen[k] {
			seen[k] = true
			queue = append(queue, s)
		}
	}
	if err := p.Initial(add); err != nil {
		t.Fatal(err)
	}
	for len(queue) > 0 {
		if len(seen) > maxStates {
			t.Fatalf("more than %d states under %v:\n%s", maxStates, m, native.Format(p))
		}
		s := queue[0]
		queue = queue[1:]
		if s.Fault != nil {
			found["fault: "+s.Fault.Msg] = true
			continue
		}
		if b := p.MatchBad(s); b >= 0 {
			found["bad: "+p.Bad[b].Name] = true
			continue
		}
		final := true
		p.Successors(s, m, bound, func(_ model.Step, ns model.State) {
			final = false
			add(ns)
		})
		if final {
			var mem []string
			for i, v := range p.Vars {
				mem = append(mem, fmt.Sprintf("%s=%d", v.Name, s.Mem[i]))
			}
			slices.Sort(mem)
			found[strings.Join(mem, " ")] = true
		}
	}
	return slices.Sorted(maps.Keys(found))
}

// finiteness maps each variable of p to whether its domain is finite.
func finiteness(p *model.Program) map[string]bool {
	out := map[string]bool{}
	for _, v := range p.Vars {
		out[v.Name] = !v.Dom.Unbounded
	}
	return out
}

// TestRangeOverInt checks that range-over-int loops (for range N, for j :=
// range N), which go/ssa builds as one block that loops to itself, lower
// like the equivalent three-clause loops: the code after the loop is
// reachable and the counters take the values of the iterations, no more.
func TestRangeOverInt(t *testing.T) {
	tests := []struct {
		sys, equiv string   // a system and its three-clause equivalent ("" if none)
		final      []string // the outcomes, under SC and TSO
	}{
		{"countRange", "countFor", []string{"done=1 n=3 wg=0"}},
		{"indexRange", "indexFor", []string{"a[0]=1 a[1]=1 after=1 sum=1 wg=0"}},
		{"boundRange", "boundFor", []string{"done=1 k=2 n=1 wg=0", "done=1 k=2 n=2 wg=0"}},
		{"inlinedRange", "inlinedFor", []string{"done=1 n=2 wg=0"}},
		{"gotoSelf", "", []string{"done=1 n=3 wg=0"}},
	}
	for _, tt := range tests {
		t.Run(tt.sys, func(t *testing.T) {
			s := system(t, "rangeint", tt.sys)
			var e *model.Program
			if tt.equiv != "" {
				e = system(t, "rangeint", tt.equiv).Program
				// The same variables, each finite in both or in neither:
				// a counter's bound follows from the number of writes,
				// which the two lowerings count differently.
				if got, want := finiteness(s.Program), finiteness(e); !maps.Equal(got, want) {
					t.Errorf("domains %v, want those of %s, %v", varDomains(s.Program), tt.equiv, varDomains(e))
				}
			}
			for _, m := range []model.Model{model.SC, model.TSO} {
				got := outcomes(t, s.Program, m, 2)
				if !slices.Equal(got, tt.final) {
					t.Errorf("%v: outcomes %q, want %q\n%s", m, got, tt.final, native.Format(s.Program))
				}
				if e != nil {
					if eq := outcomes(t, e, m, 2); !slices.Equal(got, eq) {
						t.Errorf("%v: outcomes %q, but %s has %q", m, got, tt.equiv, eq)
					}
				}
				res, err := (&explicit.Engine{Bound: 2}).Check(context.Background(), s.Program, m)
				if err != nil {
					t.Fatal(err)
				}
				if res.Status != engines.Safe {
					t.Errorf("%v: %v, want safe\n%s", m, res, native.Format(s.Program))
				}
			}
		})
	}
}

// TestRangeOverIntRace checks that a store after a range-over-int loop is
// reachable: it races with the system function's load.
func TestRangeOverIntRace(t *testing.T) {
	s := system(t, "rangeint", "raceAfter")
	p := s.Program
	res, err := race.Check(context.Background(), &explicit.Engine{MaxStates: 1_000_000}, p, race.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != engines.Unsafe {
		t.Fatalf("race check: %v, want a race on x\n%s", res.Status, native.Format(p))
	}
	var got []string
	for _, r := range res.Races {
		var ops []string
		for _, a := range []race.Access{r.A, r.B} {
			q := p.Procs[a.Proc]
			tr := q.Trans[a.Trans]
			ops = append(ops, fmt.Sprintf("%s %v@%d", q.Name, tr.Op.Kind, tr.Pos.Line))
		}
		slices.Sort(ops)
		got = append(got, p.Vars[r.Var].Name+": "+strings.Join(ops, ", "))
	}
	slices.Sort(got)
	got = slices.Compact(got)
	if want := []string{"x: go@205 write@209, main read@212"}; !slices.Equal(got, want) {
		t.Errorf("races %q, want %q\n%s", got, want, native.Format(p))
	}
}

// TestRangeOverIntSpawns checks that a range-over-int loop around a go
// statement in the set-up spawns a goroutine per iteration.
func TestRangeOverIntSpawns(t *testing.T) {
	s := system(t, "rangeint", "spawnRange")
	if got, want := procNames(s.Program), []string{"go@225(i=0)", "go@225(i=1)", "main"}; !slices.Equal(got, want) {
		t.Errorf("processes = %v, want %v", got, want)
	}
}
