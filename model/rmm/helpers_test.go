package rmm

import (
	"fmt"
	"strings"
	"testing"

	"github.com/fencecheck/fencecheck/model"
)

// dump prints the processes of p one transition per line, as
// "P0 L0 -> q1: write x := 1", then the bad states as "bad P0@CS P1@CS".
func dump(p *model.Program) string {
	var b strings.Builder
	for _, q := range p.Procs {
		for _, t := range q.Trans {
			fmt.Fprintf(&b, "%s %s -> %s: %s\n", q.Name, q.Locs[t.From].Name, q.Locs[t.To].Name, t.Op.Format(p, q))
		}
	}
	for _, bs := range p.Bad {
		b.WriteString("bad")
		for _, pl := range bs.Locs {
			q := p.Procs[pl.Proc]
			fmt.Fprintf(&b, " %s@%s", q.Name, q.Locs[pl.Loc].Name)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// mustParse parses src as file "t.rmm" and fails the test on error.
func mustParse(t *testing.T, src string) *model.Program {
	t.Helper()
	p, err := Parse("t.rmm", []byte(src))
	if err != nil {
		t.Fatalf("Parse: %v\nsource:\n%s", err, src)
	}
	return p
}

// checkReach checks with reach, at the given buffer bound, whether the
// forbidden state of p is reachable under SC (sc) and under TSO (tso), and
// that no faulting state is.
func checkReach(t *testing.T, p *model.Program, bound int, sc, tso bool) {
	t.Helper()
	for _, c := range []struct {
		m    model.Model
		want bool
	}{{model.SC, sc}, {model.TSO, tso}} {
		bad, fault := reach(t, p, c.m, bound)
		if bad != c.want {
			t.Errorf("%v: forbidden state reachable = %v, want %v", c.m, bad, c.want)
		}
		if fault {
			t.Errorf("%v: a faulting state is reachable", c.m)
		}
	}
}

// reach explores every state of p under m, with store buffers bounded by
// bound entries, and reports whether a bad state (of p.Bad) and whether a
// faulting state are reachable. It gives up past limit states.
func reach(t *testing.T, p *model.Program, m model.Model, bound int) (bad, fault bool) {
	t.Helper()
	const limit = 200000
	seen := map[string]bool{}
	var queue []model.State
	key := func(s model.State) string { return fmt.Sprint(s.Locs, s.Regs, s.Mem, s.Bufs) }
	push := func(s model.State) {
		if k := key(s); !seen[k] {
			seen[k] = true
			queue = append(queue, s)
		}
	}
	if err := p.Initial(push); err != nil {
		t.Fatalf("Initial: %v", err)
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		if s.Fault != nil {
			fault = true
			continue
		}
		if p.MatchBad(s) >= 0 {
			bad = true
		}
		p.Successors(s, m, bound, func(_ model.Step, ns model.State) { push(ns) })
		if len(seen) > limit {
			t.Fatalf("more than %d states", limit)
		}
	}
	return bad, fault
}
