package fence_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/fencecheck/fencecheck/internal/litmus"
	"github.com/fencecheck/fencecheck/model"
)

// corpus is the shared litmus corpus, beside the repository.
var corpus = filepath.Join("..", "..", "..", "..", "shared", "litmus", "x86-tso.json")

func loadCorpus(tb testing.TB) []litmus.Test {
	tb.Helper()
	if _, err := os.Stat(corpus); err != nil {
		tb.Skipf("litmus corpus not found at %s (it sits beside the repository in the project's checkout): %v", corpus, err)
	}
	tests, err := litmus.Load(corpus)
	if err != nil {
		tb.Fatal(err)
	}
	return tests
}

// Litmus tests in the corpus's JSON form. Each thread ends with a fence at
// location END, and the bad state is the condition with every thread at END.
const (
	sbJSON = `{"name": "SB", "threads": [
		[{"op": "W", "loc": "x", "val": 1}, {"op": "R", "loc": "y", "reg": "EAX"}],
		[{"op": "W", "loc": "y", "val": 1}, {"op": "R", "loc": "x", "reg": "EAX"}]],
		"init": {"x": 0, "y": 0},
		"cond": {"and": [{"reg": {"thread": 0, "reg": "EAX"}, "val": 0}, {"reg": {"thread": 1, "reg": "EAX"}, "val": 0}]}}`
	mpJSON = `{"name": "MP", "threads": [
		[{"op": "W", "loc": "x", "val": 1}, {"op": "W", "loc": "y", "val": 1}],
		[{"op": "R", "loc": "y", "reg": "EAX"}, {"op": "R", "loc": "x", "reg": "EBX"}]],
		"init": {"x": 0, "y": 0},
		"cond": {"and": [{"reg": {"thread": 1, "reg": "EAX"}, "val": 1}, {"reg": {"thread": 1, "reg": "EBX"}, "val": 0}]}}`
	// wrongJSON's outcome is possible under SC: P1 reads x after P0 wrote it.
	wrongJSON = `{"name": "wrong", "threads": [
		[{"op": "W", "loc": "x", "val": 1}, {"op": "R", "loc": "y", "reg": "EAX"}],
		[{"op": "W", "loc": "y", "val": 1}, {"op": "R", "loc": "x", "reg": "EAX"}]],
		"init": {"x": 0, "y": 0},
		"cond": {"and": [{"reg": {"thread": 0, "reg": "EAX"}, "val": 1}, {"reg": {"thread": 1, "reg": "EAX"}, "val": 1}]}}`
	// sbGapJSON is SB with a load of z between P0's store and load: the
	// store stays buffered across it, so P0's barrier may go after the store
	// or after the load of z.
	sbGapJSON = `{"name": "SB+gap", "threads": [
		[{"op": "W", "loc": "x", "val": 1}, {"op": "R", "loc": "z", "reg": "ECX"}, {"op": "R", "loc": "y", "reg": "EAX"}],
		[{"op": "W", "loc": "y", "val": 1}, {"op": "R", "loc": "x", "reg": "EAX"}]],
		"init": {"x": 0, "y": 0, "z": 0},
		"cond": {"and": [{"reg": {"thread": 0, "reg": "EAX"}, "val": 0}, {"reg": {"thread": 1, "reg": "EAX"}, "val": 0}]}}`
)

// litmusProgram converts a litmus test in JSON to a program.
func litmusProgram(tb testing.TB, src string) *model.Program {
	tb.Helper()
	var lt litmus.Test
	if err := json.Unmarshal([]byte(src), &lt); err != nil {
		tb.Fatalf("bad litmus JSON: %v", err)
	}
	p, err := lt.Program()
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

// loc returns the index of location name in process proc of p.
func loc(tb testing.TB, p *model.Program, proc int, name string) int {
	tb.Helper()
	l := p.Procs[proc].LocIndex(name)
	if l < 0 {
		tb.Fatalf("process %d has no location %s", proc, name)
	}
	return l
}

// sequential builds a program with shared variables vars (domain [0:3],
// initially 0) and one process per list of operations, run in sequence from
// L0 through L1, L2, ...; every process has registers r and s in [0:3]. It
// has no bad state; the caller adds one.
func sequential(vars []string, procs ...[]model.Op) *model.Program {
	p := &model.Program{Name: "seq"}
	for _, v := range vars {
		p.Vars = append(p.Vars, model.Var{Name: v, Dom: model.Range(0, 3)})
	}
	for i, ops := range procs {
		q := &model.Process{Name: "P" + string(rune('0'+i)), Regs: []model.Reg{
			{Name: "r", Dom: model.Range(0, 3)}, {Name: "s", Dom: model.Range(0, 3)},
		}}
		l := q.AddLoc("L0", model.Pos{File: "seq", Line: 1})
		for k, o := range ops {
			n := q.AddLoc("L"+string(rune('1'+k)), model.Pos{File: "seq", Line: k + 2})
			q.AddTrans(l, o, n, model.Pos{File: "seq", Line: k + 1})
			l = n
		}
		p.Procs = append(p.Procs, q)
	}
	return p
}

// run builds a trace of p under m by executing steps: "0", "1", ... take the
// only transition leaving the current location of that process (the first
// one when there are several), "f0", "f1", ... flush that process's oldest
// buffered write. It fails the test on a disabled step.
func run(tb testing.TB, p *model.Program, m model.Model, steps ...string) *model.Trace {
	tb.Helper()
	var s model.State
	if err := p.Initial(func(st model.State) { s = st }); err != nil {
		tb.Fatal(err)
	}
	tr := &model.Trace{Model: m, InitMem: s.Copy().Mem, InitRegs: s.Copy().Regs}
	for _, spec := range steps {
		flush := spec[0] == 'f'
		proc := int(spec[len(spec)-1] - '0')
		trans := -1
		if !flush {
			trans = p.Procs[proc].Out(s.Locs[proc])[0]
		}
		st, ns, err := p.Exec(s, proc, trans, flush, m)
		if err != nil {
			tb.Fatalf("step %s: %v", spec, err)
		}
		tr.Steps = append(tr.Steps, st)
		s = ns
	}
	return tr
}
