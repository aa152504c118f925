package sb_test

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/explicit"
	"github.com/fencecheck/fencecheck/engines/sb"
	"github.com/fencecheck/fencecheck/internal/cputime"
	"github.com/fencecheck/fencecheck/internal/longtest"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/modelfile"
)

// wide is the domain [0:2^63-1], far too wide to enumerate.
var wide = model.Range(0, math.MaxInt64)

// manyIdle returns a program of n processes of m locations each, in a
// loop of nops, and a process that writes x and reads it back; the bad
// state names only that process. The processes the bad state leaves free
// have m^n location tuples, which the sb engine must not enumerate.
func manyIdle(n, m int, bug bool) *model.Program {
	p := &model.Program{Name: "idle", Vars: []model.Var{{Name: "x", Dom: model.Range(0, 1)}}}
	for i := range n {
		q := &model.Process{Name: fmt.Sprintf("I%d", i)}
		for k := range m {
			q.AddLoc(fmt.Sprintf("L%d", k), model.Pos{})
		}
		for k := range m {
			q.AddTrans(k, model.NopOp(), (k+1)%m, model.Pos{})
		}
		p.Procs = append(p.Procs, q)
	}
	w := &model.Process{Name: "W", Regs: []model.Reg{{Name: "r", Dom: model.Range(0, 1)}}}
	w.AddLoc("A", model.Pos{})
	w.AddLoc("B", model.Pos{})
	w.AddLoc("C", model.Pos{})
	w.AddTrans(0, model.WriteOp(0, model.C(1)), 1, model.Pos{})
	w.AddTrans(1, model.ReadOp(0, 0), 2, model.Pos{})
	p.Procs = append(p.Procs, w)
	want := int64(0) // unreachable: the process reads its own store
	if bug {
		want = 1
	}
	p.Bad = []model.BadState{{Name: "read", Locs: []model.ProcLoc{{Proc: n, Loc: 2}},
		Cond: model.Bin(model.OpEq, model.RegRef{Proc: n, Reg: 0}, model.C(want))}}
	return p
}

// TestFreeProcessesNotEnumerated checks that the bad states' constraints
// leave the processes they do not name free: with 7 idle processes of 30
// locations each (2·10^10 location tuples), the SB search answers at once.
func TestFreeProcessesNotEnumerated(t *testing.T) {
	for _, bug := range []bool{false, true} {
		p := manyIdle(7, 30, bug)
		for _, e := range []*sb.Engine{{}, {Backward: true, NoPrune: true, MaxConstraints: 100_000}} {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			res, err := e.Check(ctx, p, model.TSO)
			cancel()
			if err != nil {
				t.Fatal(err)
			}
			want := engines.Safe
			if bug {
				want = engines.Unsafe
			}
			if res.Status != want {
				t.Errorf("bug=%v backward=%v: %v, want %v", bug, e.Backward, res, want)
			}
		}
	}
}

// TestWideDomains checks that domains too wide to enumerate end in an
// inconclusive answer that says so, at once (well within the 20 s budget),
// in every place the engines
// used to enumerate them, and that a wide domain whose values are never
// enumerated is no obstacle.
func TestWideDomains(t *testing.T) {
	sbProg := func(dom model.Domain, init model.Init) *model.Program {
		w := func(x int) model.Op { return model.WriteOp(x, model.C(1)) }
		p := straightLine([][]model.Op{{w(0), model.ReadOp(1, 0)}, {w(1), model.ReadOp(0, 0)}}, []int64{0, 0})
		for i := range p.Vars {
			p.Vars[i].Dom, p.Vars[i].Init = dom, init
		}
		for _, q := range p.Procs {
			q.Regs[0].Dom = dom
		}
		return p
	}
	// A bad-state condition that fixes no value of a wide register.
	wideCond := sbProg(wide, model.Init{})
	wideCond.Bad[0].Cond = model.Bin(model.OpLt, model.RegRef{Proc: 0, Reg: 0}, model.C(1))
	// The same, where the program names the few values the wide cells take.
	fewValues := sbProg(wide, model.Init{})
	fewValues.Bad[0].Cond = wideCond.Bad[0].Cond
	for i := range fewValues.Vars {
		fewValues.Vars[i].Values = []int64{0, 1}
	}
	for _, q := range fewValues.Procs {
		q.Regs[0].Values = []int64{0, 1}
	}
	// A read of a wide variable into a narrow register can fault on 2^63-2 values.
	wideRead := sbProg(wide, model.Init{})
	for _, q := range wideRead.Procs {
		q.Regs[0].Dom = model.Range(0, 1)
	}
	for _, tc := range []struct {
		name    string
		p       *model.Program
		engines []engines.Engine
		want    engines.Status
		reason  string
	}{
		{"any initial value", sbProg(wide, model.Init{Any: true}),
			[]engines.Engine{&sb.Engine{}, &sb.Engine{Backward: true}, &explicit.Engine{}}, engines.Inconclusive, "initial states"},
		{"condition over a wide register", wideCond,
			[]engines.Engine{&sb.Engine{Backward: true, NoPrune: true}}, engines.Inconclusive, "too wide"},
		{"read into a narrow register", wideRead,
			[]engines.Engine{&sb.Engine{}}, engines.Inconclusive, "can fault on"},
		{"a wide register's few values", fewValues,
			[]engines.Engine{&sb.Engine{Backward: true, NoPrune: true}, &sb.Engine{}}, engines.Unsafe, ""},
		{"wide but never enumerated", sbProg(wide, model.Init{}),
			[]engines.Engine{&sb.Engine{}, &sb.Engine{Backward: true, NoPrune: true}, &explicit.Engine{}}, engines.Unsafe, ""},
	} {
		for _, e := range tc.engines {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			var res *engines.Result
			var err error
			_, cpu := cputime.Measure(func() { res, err = e.Check(ctx, tc.p, model.TSO) })
			cancel()
			if err != nil {
				t.Fatalf("%s, %s: %v", tc.name, e.Name(), err)
			}
			if res.Status != tc.want || !strings.Contains(res.Reason, tc.reason) {
				t.Errorf("%s, %s: %v, want %v (%q)", tc.name, e.Name(), res, tc.want, tc.reason)
			}
			if cpu > 15*time.Second {
				t.Errorf("%s, %s: took %v of CPU time", tc.name, e.Name(), cpu)
			}
		}
	}
}

// TestBudgetHonoured runs the scale models under a short deadline and a
// small constraint budget: every run must end soon after its budget.
func TestBudgetHonoured(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "scale", "*.fcm"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no scale models: %v", err)
	}
	for _, f := range files {
		if strings.Contains(f, "stores") && longtest.Quick() {
			continue
		}
		p, err := modelfile.Load(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range []engines.Engine{&sb.Engine{}, &sb.Engine{MaxConstraints: 5000}, &explicit.Engine{}} {
			const budget = 500 * time.Millisecond
			ctx, cancel := context.WithTimeout(context.Background(), budget)
			var res *engines.Result
			var err error
			// CPU time: on a loaded machine the deadline passes before the
			// engine has had its share, and the wall time after it grows.
			_, cpu := cputime.Measure(func() { res, err = e.Check(ctx, p, model.TSO) })
			cancel()
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			if cpu > budget+time.Second {
				t.Errorf("%s, %s: %v after %v of CPU time, budget %v", filepath.Base(f), e.Name(), res, cpu, budget)
			}
		}
	}
}
