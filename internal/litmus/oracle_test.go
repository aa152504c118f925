package litmus_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/fencecheck/fencecheck/internal/litmus"
	"github.com/fencecheck/fencecheck/internal/longtest"
)

// corpus is the shared litmus corpus, beside the repository.
var corpus = filepath.Join("..", "..", "..", "shared", "litmus", "x86-tso.json")

// TestOracleAgreesWithHerd checks the oracle against the corpus: its TSO and
// SC verdicts are herd7's, test by test, so that its PSO verdicts, which the
// corpus does not give, come from a semantics checked on the two others.
func TestOracleAgreesWithHerd(t *testing.T) {
	if _, err := os.Stat(corpus); err != nil {
		t.Skipf("litmus corpus not found at %s (it sits beside the repository in the project's checkout): %v", corpus, err)
	}
	tests, err := litmus.Load(corpus)
	if err != nil {
		t.Fatal(err)
	}
	// The quick run takes every fourth test.
	step := longtest.Size(4, 1)
	weaker := 0
	for i, lt := range tests {
		if i%step != 0 {
			continue
		}
		got := map[litmus.Memory]bool{}
		for _, c := range []struct {
			mem  litmus.Memory
			want string
		}{{litmus.SC, lt.SC}, {litmus.TSO, lt.TSO}, {litmus.PSO, ""}} {
			ok, _, err := lt.Reachable(c.mem)
			if err != nil {
				t.Fatalf("%s: %v", lt.Name, err)
			}
			got[c.mem] = ok
			if c.want != "" && ok != litmus.Allowed(c.want) {
				t.Errorf("%s: the oracle says allowed=%v under memory %d, herd says %s", lt.Name, ok, c.mem, c.want)
			}
		}
		// PSO allows everything TSO allows, and TSO everything SC allows.
		if got[litmus.SC] && !got[litmus.TSO] || got[litmus.TSO] && !got[litmus.PSO] {
			t.Errorf("%s: allowed under SC %v, TSO %v, PSO %v: not monotone", lt.Name, got[litmus.SC], got[litmus.TSO], got[litmus.PSO])
		}
		if got[litmus.PSO] && !got[litmus.TSO] {
			weaker++
		}
	}
	t.Logf("%d tests; %d allowed under PSO and forbidden under TSO", len(tests), weaker)
	if weaker == 0 {
		t.Error("no test tells PSO from TSO")
	}
}

// TestOracleHandChecked checks the oracle on tests whose verdicts are known
// by hand: message passing, allowed under PSO only; with a fence between
// the writes it is forbidden; store buffering, allowed under TSO and PSO;
// 2+2W, allowed under PSO only.
func TestOracleHandChecked(t *testing.T) {
	w := func(loc string, v int64) litmus.Instr { return litmus.Instr{Op: "W", Loc: loc, Val: v} }
	r := func(loc, reg string) litmus.Instr { return litmus.Instr{Op: "R", Loc: loc, Reg: reg} }
	mfence := litmus.Instr{Op: "MFENCE"}
	reg := func(th int, name string, v int64) *litmus.Cond {
		c := &litmus.Cond{Val: v}
		c.Reg = &struct {
			Thread int    `json:"thread"`
			Reg    string `json:"reg"`
		}{th, name}
		return c
	}
	mem := func(loc string, v int64) *litmus.Cond { return &litmus.Cond{Mem: loc, Val: v} }
	and := func(cs ...*litmus.Cond) *litmus.Cond { return &litmus.Cond{And: cs} }
	for _, tc := range []struct {
		name         string
		threads      [][]litmus.Instr
		cond         *litmus.Cond
		sc, tso, pso bool
	}{
		{"MP", [][]litmus.Instr{{w("x", 1), w("y", 1)}, {r("y", "a"), r("x", "b")}},
			and(reg(1, "a", 1), reg(1, "b", 0)), false, false, true},
		{"MP+mfence", [][]litmus.Instr{{w("x", 1), mfence, w("y", 1)}, {r("y", "a"), r("x", "b")}},
			and(reg(1, "a", 1), reg(1, "b", 0)), false, false, false},
		{"SB", [][]litmus.Instr{{w("x", 1), r("y", "a")}, {w("y", 1), r("x", "b")}},
			and(reg(0, "a", 0), reg(1, "b", 0)), false, true, true},
		{"2+2W", [][]litmus.Instr{{w("x", 1), w("y", 2)}, {w("y", 1), w("x", 2)}},
			and(mem("x", 1), mem("y", 1)), false, false, true},
		{"CoWR", [][]litmus.Instr{{w("x", 1), r("x", "a")}},
			reg(0, "a", 0), false, false, false},
	} {
		lt := litmus.Test{Name: tc.name, Threads: tc.threads, Cond: tc.cond}
		for mem, want := range map[litmus.Memory]bool{litmus.SC: tc.sc, litmus.TSO: tc.tso, litmus.PSO: tc.pso} {
			got, _, err := lt.Reachable(mem)
			if err != nil || got != want {
				t.Errorf("%s under memory %d: allowed=%v (%v), want %v", tc.name, mem, got, err, want)
			}
		}
	}
}
