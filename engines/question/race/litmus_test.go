package race_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/explicit"
	"github.com/fencecheck/fencecheck/engines/pred"
	"github.com/fencecheck/fencecheck/engines/question/race"
	"github.com/fencecheck/fencecheck/engines/sb"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/native"
)

// tr is a transition of a litmus process.
type tr struct {
	from int
	op   model.Op
	to   int
}

// seq returns the transitions of a process that runs ops in sequence.
func seq(ops ...model.Op) []tr {
	var ts []tr
	for k, op := range ops {
		ts = append(ts, tr{k, op, k + 1})
	}
	return ts
}

// litmus builds a program over the variables vars, all in [0:2] and 0 at
// first unless init says otherwise, with one process per transition list;
// every process has the registers $r and $s in [0:2] and starts at location 0.
func litmus(vars []string, init map[string]int64, procs ...[]tr) *model.Program {
	p := &model.Program{Name: "litmus"}
	for _, v := range vars {
		p.Vars = append(p.Vars, model.Var{Name: v, Dom: model.Range(0, 2), Init: model.Init{Value: init[v]}})
	}
	dom := model.Range(0, 2)
	for i, ts := range procs {
		q := &model.Process{Name: fmt.Sprintf("P%d", i), Regs: []model.Reg{{Name: "r", Dom: dom}, {Name: "s", Dom: dom}}}
		n := 0
		for _, t := range ts {
			n = max(n, t.from, t.to)
		}
		for l := 0; l <= n; l++ {
			q.AddLoc(fmt.Sprintf("L%d", l), model.Pos{})
		}
		for _, t := range ts {
			q.AddTrans(t.from, t.op, t.to, model.Pos{})
		}
		p.Procs = append(p.Procs, q)
	}
	return p
}

// Variable indices of the litmus programs, by the order of their names.
const (
	vx = 0
	vy = 1
	vz = 2
)

// atomicReadEq returns an atomic load of x that waits until it reads v.
func atomicReadEq(x int, v int64) model.Op {
	op := model.ReadEqOp(x, model.C(v))
	op.Atomic = true
	return op
}

// counter returns a process that increments c (variable vy) in plain steps,
// inside a critical section of the mutex m (variable vx) when lock is set:
// the lock is a compare-and-swap from 0 to 1 that retries, the unlock a
// locked store of 0, or a plain store when plainUnlock is set.
func counter(lock, plainUnlock bool) []tr {
	inc := []model.Op{
		model.ReadOp(vy, 0),
		model.WriteOp(vy, model.Bin(model.OpAdd, model.R(0), model.C(1))),
	}
	if !lock {
		return seq(inc...)
	}
	unlock := model.LockedOp(model.WriteOp(vx, model.C(0)))
	if plainUnlock {
		unlock = model.WriteOp(vx, model.C(0))
	}
	ts := seq(append(append([]model.Op{model.CASSuccess(vx, -1, model.C(0), model.C(1))}, inc...), unlock)...)
	return append(ts, tr{0, model.CASFailure(vx, -1, model.C(0)), 0})
}

// litmusCases are hand-written programs with the variables they race on.
var litmusCases = []struct {
	name string
	p    *model.Program
	want []string
}{
	{"two plain writes", litmus([]string{"x"}, nil,
		seq(model.WriteOp(vx, model.C(1))),
		seq(model.WriteOp(vx, model.C(2)))),
		[]string{"x"}},
	{"plain write, atomic load", litmus([]string{"x"}, nil,
		seq(model.WriteOp(vx, model.C(1))),
		seq(model.AtomicReadOp(vx, 0))),
		[]string{"x"}},
	{"plain load, exchange", litmus([]string{"x"}, nil,
		seq(model.ReadOp(vx, 0)),
		seq(model.Exchange(vx, -1, model.C(1)))),
		[]string{"x"}},
	{"two plain loads", litmus([]string{"x"}, nil,
		seq(model.ReadOp(vx, 0)),
		seq(model.ReadOp(vx, 1))),
		nil},
	{"atomic load, exchange", litmus([]string{"x"}, nil,
		seq(model.AtomicReadOp(vx, 0)),
		seq(model.Exchange(vx, -1, model.C(1)))),
		nil},
	{"fetch-and-add, compare-and-swap", litmus([]string{"x"}, nil,
		seq(model.FetchAdd(vx, 0, model.C(1))),
		[]tr{{0, model.CASSuccess(vx, -1, model.C(0), model.C(2)), 1}, {0, model.CASFailure(vx, 0, model.C(0)), 1}}),
		nil},
	{"message passing", litmus([]string{"x", "y"}, nil,
		seq(model.WriteOp(vx, model.C(1)), model.Exchange(vy, -1, model.C(1))),
		seq(atomicReadEq(vy, 1), model.ReadOp(vx, 0))),
		nil},
	{"message passing, spin on the flag", litmus([]string{"x", "y"}, nil,
		seq(model.WriteOp(vx, model.C(1)), model.LockedOp(model.WriteOp(vy, model.C(1)))),
		[]tr{
			{0, model.AtomicReadOp(vy, 0), 1},
			{1, model.GuardOp(model.Bin(model.OpEq, model.R(0), model.C(0))), 0},
			{1, model.GuardOp(model.Bin(model.OpEq, model.R(0), model.C(1))), 2},
			{2, model.ReadOp(vx, 1), 3},
		}),
		nil},
	// A plain flag orders nothing: the data race too.
	{"message passing, plain flag", litmus([]string{"x", "y"}, nil,
		seq(model.WriteOp(vx, model.C(1)), model.WriteOp(vy, model.C(1))),
		seq(model.ReadEqOp(vy, model.C(1)), model.ReadOp(vx, 0))),
		[]string{"x", "y"}},
	{"message passing, data read before the flag", litmus([]string{"x", "y"}, nil,
		seq(model.WriteOp(vx, model.C(1)), model.Exchange(vy, -1, model.C(1))),
		seq(model.ReadOp(vx, 0), atomicReadEq(vy, 1))),
		[]string{"x"}},
	{"ownership passes with the flag", litmus([]string{"x", "y"}, nil,
		seq(model.WriteOp(vx, model.C(1)), model.Exchange(vy, -1, model.C(1))),
		seq(atomicReadEq(vy, 1), model.WriteOp(vx, model.C(2)))),
		nil},
	{"wait group", litmus([]string{"x", "y", "z"}, map[string]int64{"z": 2},
		seq(model.WriteOp(vx, model.C(1)), model.FetchAdd(vz, -1, model.C(-1))),
		seq(model.WriteOp(vy, model.C(1)), model.FetchAdd(vz, -1, model.C(-1))),
		seq(atomicReadEq(vz, 0), model.ReadOp(vx, 0), model.ReadOp(vy, 1))),
		nil},
	{"mutex-protected counter", litmus([]string{"m", "c"}, nil, counter(true, false), counter(true, false)),
		nil},
	{"unprotected counter", litmus([]string{"m", "c"}, nil, counter(false, false), counter(false, false)),
		[]string{"c"}},
	{"counter, one side unprotected", litmus([]string{"m", "c"}, nil, counter(true, false), counter(false, false)),
		[]string{"c"}},
	// The next lock observes a plain store: the critical sections are not
	// ordered either.
	{"counter with a plain unlock", litmus([]string{"m", "c"}, nil, counter(true, true), counter(true, false)),
		[]string{"c", "m"}},
	{"atomic counter", litmus([]string{"c"}, nil,
		seq(model.FetchAdd(vx, -1, model.C(1))),
		seq(model.FetchAdd(vx, -1, model.C(1)))),
		nil},
	{"try-lock", litmus([]string{"m", "x"}, nil,
		[]tr{
			{0, model.CASSuccess(vx, -1, model.C(0), model.C(1)), 1},
			{0, model.CASFailure(vx, -1, model.C(0)), 3},
			{1, model.WriteOp(vy, model.C(1)), 2},
			{2, model.LockedOp(model.WriteOp(vx, model.C(0))), 3},
		},
		[]tr{
			{0, model.CASSuccess(vx, -1, model.C(0), model.C(1)), 1},
			{0, model.CASFailure(vx, -1, model.C(0)), 3},
			{1, model.ReadOp(vy, 0), 2},
			{2, model.LockedOp(model.WriteOp(vx, model.C(0))), 3},
		}),
		nil},
	// A locked body reads memory through the expressions of its guards and
	// writes too, not only through its reads.
	{"locked guard on memory, plain write", litmus([]string{"x", "y"}, nil,
		seq(model.LockedOp(model.GuardOp(model.Bin(model.OpEq, model.V(vx), model.C(0))), model.WriteOp(vy, model.C(1)))),
		seq(model.WriteOp(vx, model.C(1)))),
		[]string{"x"}},
	{"locked copy, plain write", litmus([]string{"x", "y"}, nil,
		seq(model.LockedOp(model.WriteOp(vy, model.V(vx)))),
		seq(model.WriteOp(vx, model.C(1)))),
		[]string{"x"}},
	{"locked copy, plain load", litmus([]string{"x", "y"}, nil,
		seq(model.LockedOp(model.WriteOp(vy, model.V(vx)))),
		seq(model.ReadOp(vx, 0))),
		nil},
	// P1 is synchronised after P0's release of x, but P2 writes z after
	// that release and orders its write before P1's read by a plain flag
	// only: the write of z races with the read.
	{"access after the release that is acquired", litmus([]string{"x", "y", "z"}, nil,
		seq(model.ReadOp(vz, 0), model.Exchange(vx, -1, model.C(1))),
		seq(model.ReadEqOp(vy, model.C(1)), atomicReadEq(vx, 1), model.ReadOp(vz, 0)),
		seq(atomicReadEq(vx, 1), model.WriteOp(vz, model.C(1)), model.WriteOp(vy, model.C(1)))),
		[]string{"y", "z"}},
	// Happens-before is transitive through P1, which does not touch z.
	{"synchronisation relayed", litmus([]string{"x", "y", "z"}, nil,
		seq(model.WriteOp(vz, model.C(1)), model.Exchange(vy, -1, model.C(1))),
		seq(atomicReadEq(vy, 1), model.Exchange(vx, -1, model.C(1))),
		seq(atomicReadEq(vx, 1), model.ReadOp(vz, 0))),
		nil},
	// P1 is synchronised after P2's store of y, but P2 saw P0's store of y
	// by a plain load: P0's write of x is not ordered before P1's read.
	{"release by a process that did not synchronise", litmus([]string{"x", "y"}, nil,
		seq(model.WriteOp(vx, model.C(1)), model.Exchange(vy, -1, model.C(1))),
		seq(atomicReadEq(vy, 2), model.ReadOp(vx, 0)),
		seq(model.ReadEqOp(vy, model.C(1)), model.Exchange(vy, -1, model.C(2)))),
		[]string{"x", "y"}},
	{"a fence does not synchronise", litmus([]string{"x", "y"}, nil,
		seq(model.WriteOp(vx, model.C(1)), model.FenceOp(), model.Exchange(vy, -1, model.C(1))),
		seq(model.FenceOp(), model.ReadOp(vx, 0))),
		[]string{"x"}},
}

// litmusEngines returns the engines the litmus cases run with: explicit,
// sb and, when Z3 is available, pred.
func litmusEngines() []engines.Engine {
	engs := []engines.Engine{&explicit.Engine{}, &sb.Engine{}}
	if z3() {
		engs = append(engs, &pred.Engine{})
	}
	return engs
}

// TestLitmus checks the races of hand-written programs: the oracle and
// race.Check with every engine find races on exactly the expected
// variables, and race.Check finds exactly the oracle's pairs.
func TestLitmus(t *testing.T) {
	for _, tc := range litmusCases {
		t.Run(tc.name, func(t *testing.T) {
			or, _, _, err := oracles(tc.p)
			if err != nil {
				t.Fatal(err)
			}
			if got := racyVars(tc.p, or.races); !slices.Equal(got, tc.want) {
				t.Fatalf("the oracle finds races on %v, want %v\n%s", got, tc.want, native.Format(tc.p))
			}
			for _, eng := range litmusEngines() {
				res, err := race.Check(context.Background(), eng, tc.p, race.Options{})
				if err != nil {
					t.Fatalf("%s: %v", eng.Name(), err)
				}
				if out, err := compare(tc.p, res, or); err != nil || out != decided {
					t.Fatalf("%s: %v (%v)", eng.Name(), err, res.Status)
				}
				want := engines.Safe
				if len(tc.want) > 0 {
					want = engines.Unsafe
				}
				if res.Status != want {
					t.Errorf("%s: status %v, want %v", eng.Name(), res.Status, want)
				}
			}
		})
	}
}

// TestKey checks that races between accesses with the same keys are found
// once: three processes write x at one position.
func TestKey(t *testing.T) {
	w := seq(model.WriteOp(vx, model.C(1)))
	p := litmus([]string{"x"}, nil, w, w, w)
	for _, tc := range []struct {
		name string
		key  func(race.Access) string
		want int
	}{
		{"every transition apart", nil, 3},
		{"by operation", func(a race.Access) string { return p.Procs[a.Proc].Trans[a.Trans].Op.Format(p, nil) }, 1},
	} {
		res, err := race.Check(context.Background(), &explicit.Engine{}, p, race.Options{Key: tc.key})
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != engines.Unsafe || len(res.Races) != tc.want {
			t.Errorf("%s: %v with %d races, want %d", tc.name, res.Status, len(res.Races), tc.want)
		}
		for _, r := range res.Races {
			if err := checkRace(p, r); err != nil {
				t.Errorf("%s: %v", tc.name, err)
			}
		}
	}
}

// TestFault checks a program that faults under SC before every pair is
// decided: the answer is Inconclusive, says so, and keeps the races found
// before the fault.
func TestFault(t *testing.T) {
	// P0 adds 2, then 1 to x in [0:2]: the second add faults, so the write
	// of y, which races with P1's read, is never reached.
	p := litmus([]string{"x", "y"}, nil,
		seq(model.FetchAdd(vx, -1, model.C(2)), model.FetchAdd(vx, -1, model.C(1)), model.WriteOp(vy, model.C(1))),
		seq(model.ReadOp(vx, 0), model.ReadOp(vy, 0)))
	or, _, _, err := oracles(p)
	if err != nil {
		t.Fatal(err)
	}
	if !or.fault {
		t.Fatal("the oracle reaches no fault")
	}
	res, err := race.Check(context.Background(), &explicit.Engine{}, p, race.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != engines.Inconclusive || !res.Faults || res.Reason == "" {
		t.Fatalf("status %v, faults %v, reason %q; want inconclusive at a fault", res.Status, res.Faults, res.Reason)
	}
	if out, err := compare(p, res, or); err != nil || out != stoppedAtFault {
		t.Fatalf("%v (outcome %d)", err, out)
	}
	if len(res.Races) == 0 {
		t.Error("no race found before the fault")
	}
}
