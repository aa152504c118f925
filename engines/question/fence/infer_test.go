package fence_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/explicit"
	"github.com/fencecheck/fencecheck/engines/question/fence"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/native"
)

// spin is the entry protocol of Dekker's algorithm without the turn: each
// process raises its flag (A -> B), passes a no-op (B -> S), spins at S while
// the other flag is up, and enters CS when it is down. Both at CS is bad. The
// spin location S is on a cycle and numbered before B, so that a barrier at S
// comes first in place order but costs more.
func spin() *model.Program {
	p := &model.Program{Name: "spin", Vars: []model.Var{
		{Name: "flag0", Dom: model.Range(0, 1)},
		{Name: "flag1", Dom: model.Range(0, 1)},
	}}
	bad := model.BadState{Name: "both in CS"}
	for i := range 2 {
		q := &model.Process{Name: fmt.Sprintf("P%d", i)}
		a := q.AddLoc("A", model.Pos{File: "spin", Line: 1})
		s := q.AddLoc("S", model.Pos{File: "spin", Line: 3})
		b := q.AddLoc("B", model.Pos{File: "spin", Line: 2})
		cs := q.AddLoc("CS", model.Pos{File: "spin", Line: 4})
		q.AddTrans(a, model.WriteOp(i, model.C(1)), b, model.Pos{File: "spin", Line: 1})
		q.AddTrans(b, model.NopOp(), s, model.Pos{File: "spin", Line: 2})
		q.AddTrans(s, model.ReadEqOp(1-i, model.C(1)), s, model.Pos{File: "spin", Line: 3})
		q.AddTrans(s, model.ReadEqOp(1-i, model.C(0)), cs, model.Pos{File: "spin", Line: 3})
		p.Procs = append(p.Procs, q)
		bad.Locs = append(bad.Locs, model.ProcLoc{Proc: i, Loc: cs})
	}
	p.Bad = []model.BadState{bad}
	return p
}

// Two programs where two writes reach one location, in the native format.
// In join, P0 stores x on both arms of an if (T -> J, E -> J) and then loads
// y: store buffering, whichever arm ran. In reraise, Dekker's entry with
// back-off, each process raises its flag before its loop (A -> H) and again
// inside it (B2 -> H), after lowering it when the other's flag was up: both
// raisings need a barrier, and the loop head H that both reach is the place
// of neither.
const (
	joinSrc = `program "join"
var x : [0:2] = 0
var y : [0:1] = 0
var z : [0:1] = *
process P0 {
  reg $z : [0:1] = 0
  reg $r : [0:1] = 0
  locs L0 C T E J D
  init L0
  L0 -> C : read $z := z
  C -> T : assume $z == 0
  C -> E : assume $z != 0
  T -> J : write x := 1
  E -> J : write x := 2
  J -> D : read $r := y
}
process P1 {
  reg $r : [0:2] = 0
  L0 -> L1 : write y := 1
  L1 -> L2 : read $r := x
}
bad "both loads saw 0" : P0@D & P1@L2 & P0.$r == 0 && P1.$r == 0
`
	reraiseSrc = `program "reraise"
var flag0 : [0:1] = 0
var flag1 : [0:1] = 0
process P0 {
  reg $f : [0:1] = 0
  locs A H R CS B B2
  init A
  A -> H : write flag0 := 1
  H -> R : read $f := flag1
  R -> CS : assume $f == 0
  R -> B : assume $f == 1
  B -> B2 : write flag0 := 0
  B2 -> H : write flag0 := 1
}
process P1 {
  reg $f : [0:1] = 0
  locs A H R CS B B2
  init A
  A -> H : write flag1 := 1
  H -> R : read $f := flag0
  R -> CS : assume $f == 0
  R -> B : assume $f == 1
  B -> B2 : write flag1 := 0
  B2 -> H : write flag1 := 1
}
bad "both in CS" : P0@CS & P1@CS
`
)

// parsed returns the program of a native-format source.
func parsed(src string) func(testing.TB) *model.Program {
	return func(tb testing.TB) *model.Program {
		tb.Helper()
		p, err := native.Parse("test.fcm", []byte(src))
		if err != nil {
			tb.Fatal(err)
		}
		return p
	}
}

// places parses "P0@L0->L1 P1@L1" against p: process@from->to is the place
// of the write from from to to (process@from->to#t names transition t), and
// process@location the place after a location.
func places(tb testing.TB, p *model.Program, s string) []fence.Place {
	tb.Helper()
	var out []fence.Place
	for _, f := range strings.Fields(s) {
		proc, l, ok := strings.Cut(f, "@")
		if !ok {
			tb.Fatalf("bad place %q", f)
		}
		qi := p.ProcIndex(proc)
		if qi < 0 {
			tb.Fatalf("no process %s", proc)
		}
		from, to, edge := strings.Cut(l, "->")
		if !edge {
			out = append(out, fence.AfterLoc(qi, loc(tb, p, qi, l)))
			continue
		}
		to, idx, indexed := strings.Cut(to, "#")
		fl, tl := loc(tb, p, qi, from), loc(tb, p, qi, to)
		found := -1
		for ti, tr := range p.Procs[qi].Trans {
			if tr.From == fl && tr.To == tl && tr.Op.Kind == model.Write && (!indexed || fmt.Sprint(ti) == idx) {
				found = ti
				break
			}
		}
		if found < 0 {
			tb.Fatalf("no write %s in %s", l, proc)
		}
		out = append(out, fence.AfterWrite(qi, found))
	}
	return out
}

func setsText(p *model.Program, sets [][]fence.Place) string {
	var parts []string
	for _, set := range sets {
		var names []string
		for _, pl := range set {
			names = append(names, pl.Format(p))
		}
		parts = append(parts, "{"+strings.Join(names, " ")+"}")
	}
	return strings.Join(parts, " ")
}

func TestInfer(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name    string
		prog    func(testing.TB) *model.Program
		opts    fence.Options
		exclude string // places, in the form of places()
		want    fence.Status
		sets    string // want, in the form of setsText
		costs   []int
		bound   string
	}{
		{name: "SB needs one barrier per process", prog: lit(sbJSON),
			want: fence.Fixable, sets: "{P0@L0->L1 P1@L0->L1}", costs: []int{2}},
		{name: "SB, all sets", prog: lit(sbJSON), opts: fence.Options{All: true},
			want: fence.Fixable, sets: "{P0@L0->L1 P1@L0->L1}", costs: []int{2}},
		{name: "SB anywhere", prog: lit(sbJSON), opts: fence.Options{All: true, Placement: fence.Anywhere},
			want: fence.Fixable, sets: "{P0@L0->L1 P1@L0->L1}", costs: []int{2}},
		{name: "MP is correct under TSO", prog: lit(mpJSON), want: fence.Correct},
		{name: "wrong under SC", prog: lit(wrongJSON), want: fence.WrongUnderSC},
		{name: "SB with a cure excluded", prog: lit(sbJSON), exclude: "P0@L0->L1", want: fence.NotFixable},
		{name: "SB with a cure excluded by its location", prog: lit(sbJSON), exclude: "P0@L1", want: fence.NotFixable},
		{name: "SB with a gap, after writes", prog: lit(sbGapJSON), opts: fence.Options{All: true},
			want: fence.Fixable, sets: "{P0@L0->L1 P1@L0->L1}", costs: []int{2}},
		{name: "SB with a gap, anywhere", prog: lit(sbGapJSON), opts: fence.Options{All: true, Placement: fence.Anywhere},
			want: fence.Fixable, sets: "{P0@L0->L1 P1@L0->L1} {P0@L2 P1@L0->L1}", costs: []int{2, 2}},
		{name: "SB with a gap, after writes, the write's place excluded", prog: lit(sbGapJSON),
			exclude: "P0@L1", want: fence.NotFixable},
		{name: "SB with a gap, anywhere, the write's place excluded", prog: lit(sbGapJSON),
			opts: fence.Options{Placement: fence.Anywhere}, exclude: "P0@L1",
			want: fence.Fixable, sets: "{P0@L2 P1@L0->L1}", costs: []int{2}},
		{name: "spin, cheapest avoids the loop", prog: func(testing.TB) *model.Program { return spin() },
			opts: fence.Options{Placement: fence.Anywhere},
			want: fence.Fixable, sets: "{P0@A->B P1@A->B}", costs: []int{2}},
		{name: "spin, all sets cheapest first", prog: func(testing.TB) *model.Program { return spin() },
			opts: fence.Options{Placement: fence.Anywhere, All: true},
			want: fence.Fixable, sets: "{P0@A->B P1@A->B} {P0@A->B P1@S} {P0@S P1@A->B} {P0@S P1@S}",
			costs: []int{2, 11, 11, 20}},
		// A barrier belongs to a store: where two writes reach one
		// location, each write has its own place, and a set has both.
		{name: "join after an if, after writes", prog: parsed(joinSrc), opts: fence.Options{All: true},
			want: fence.Fixable, sets: "{P0@T->J P0@E->J P1@L0->L1}", costs: []int{3}},
		{name: "join after an if, anywhere", prog: parsed(joinSrc), opts: fence.Options{All: true, Placement: fence.Anywhere},
			want: fence.Fixable, sets: "{P0@J P1@L0->L1} {P0@T->J P0@E->J P1@L0->L1}", costs: []int{2, 3}},
		{name: "join after an if, one arm's place excluded", prog: parsed(joinSrc), exclude: "P0@E->J",
			want: fence.NotFixable},
		{name: "re-raised flag, after writes", prog: parsed(reraiseSrc), opts: fence.Options{All: true},
			want: fence.Fixable, sets: "{P0@A->H P0@B2->H P1@A->H P1@B2->H}",
			costs: []int{2 + 2*fence.LoopCost}},
		{name: "re-raised flag, cheapest", prog: parsed(reraiseSrc),
			want: fence.Fixable, sets: "{P0@A->H P0@B2->H P1@A->H P1@B2->H}",
			costs: []int{2 + 2*fence.LoopCost}},
		{name: "re-raised flag, anywhere: one barrier at the loop head", prog: parsed(reraiseSrc),
			opts: fence.Options{Placement: fence.Anywhere},
			want: fence.Fixable, sets: "{P0@H P1@H}", costs: []int{2 * fence.LoopCost}},
		{name: "spin with barriers is correct (the barriers bound the buffers: exact)", prog: func(tb testing.TB) *model.Program {
			p := spin()
			return fence.Insert(p, places(tb, p, "P0@A->B P1@A->B"))
		}, want: fence.Correct},
	} {
		for _, workers := range []int{1, 2} {
			t.Run(fmt.Sprintf("%s/workers=%d", tc.name, workers), func(t *testing.T) {
				p := tc.prog(t)
				opts := tc.opts
				opts.Exclude = places(t, p, tc.exclude)
				opts.Workers = workers
				eng := &explicit.Engine{}
				res, err := fence.Infer(ctx, eng, p, opts)
				if err != nil {
					t.Fatal(err)
				}
				t.Log(res.Summary(p))
				if !reflect.DeepEqual(p, tc.prog(t)) {
					t.Error("Infer modified the program")
				}
				if res.Status != tc.want {
					t.Fatalf("status %v, want %v", res.Status, tc.want)
				}
				if got := setsText(p, res.Sets); got != tc.sets {
					t.Errorf("sets %s, want %s", got, tc.sets)
				}
				if !reflect.DeepEqual(res.Costs, tc.costs) {
					t.Errorf("costs %v, want %v", res.Costs, tc.costs)
				}
				if res.Bound != tc.bound {
					t.Errorf("bound %q, want %q", res.Bound, tc.bound)
				}
				checkResult(t, ctx, eng, p, opts, res)
			})
		}
	}
}

func lit(src string) func(testing.TB) *model.Program {
	return func(tb testing.TB) *model.Program { return litmusProgram(tb, src) }
}

// checkResult checks what every result must satisfy, whatever the program.
func checkResult(t *testing.T, ctx context.Context, eng engines.Engine, p *model.Program, opts fence.Options, res *fence.Result) {
	t.Helper()
	if res.Stats.Checks < 1 {
		t.Errorf("%d engine checks", res.Stats.Checks)
	}
	if res.Status == fence.Correct {
		if res.Trace != nil {
			t.Error("a correct program with a trace")
		}
		return
	}
	// The first trace is a TSO counterexample of p itself.
	if res.Trace == nil || res.Trace.Model != model.TSO {
		t.Fatalf("no TSO trace")
	}
	if _, err := p.Replay(res.Trace); err != nil {
		t.Errorf("first trace: %v", err)
	}
	if !reflect.DeepEqual(res.Overtakings, fence.Overtakings(p, res.Trace)) {
		t.Error("Overtakings are not those of the first trace")
	}
	allowed := map[fence.Place]bool{}
	for _, pl := range fence.Candidates(p, opts.Placement, opts.Exclude) {
		allowed[pl] = true
	}
	switch res.Status {
	case fence.Fixable:
		if len(res.Sets) == 0 || (!opts.All && len(res.Sets) != 1) {
			t.Fatalf("%d sets", len(res.Sets))
		}
		for i, set := range res.Sets {
			for _, pl := range set {
				if !allowed[pl] {
					t.Errorf("set %d has %s, which the placement excludes", i, pl.Format(p))
				}
			}
			if c := fence.Cost(p, set); res.Costs[i] != c {
				t.Errorf("set %d: cost %d, Cost says %d", i, res.Costs[i], c)
			}
			if i > 0 && len(set) < len(res.Sets[i-1]) {
				t.Errorf("sets not cheapest first")
			}
			if err := fence.CheckMinimal(ctx, eng, p, set); err != nil {
				t.Errorf("set %d: %v", i, err)
			}
		}
	case fence.WrongUnderSC:
		if res.SCTrace == nil || res.SCTrace.Model != model.SC {
			t.Fatal("no SC trace")
		}
		if _, err := p.Replay(res.SCTrace); err != nil {
			t.Errorf("SC trace: %v", err)
		}
	case fence.NotFixable:
		if res.Witness == nil {
			t.Fatal("no witness")
		}
		if _, err := p.Replay(res.Witness); err != nil {
			t.Errorf("witness: %v", err)
		}
		if len(res.WitnessOvertakings) == 0 {
			t.Error("a witness without overtakings (it would be an SC trace)")
		}
		for _, o := range res.WitnessOvertakings {
			for _, pl := range o.Places {
				if allowed[pl] && !containsPlace(res.WitnessFences, pl) {
					t.Errorf("witness overtaking has an allowed place %s", pl.Format(p))
				}
			}
		}
		// The witness is also a trace with barriers at WitnessFences.
		fp := fence.Insert(p, res.WitnessFences)
		r, err := eng.Check(ctx, fp, model.TSO)
		if err != nil || r.Status != engines.Unsafe {
			t.Errorf("with barriers at the witness's fences: %v, %v", r, err)
		}
	}
}

func containsPlace(s []fence.Place, pl fence.Place) bool {
	for _, x := range s {
		if x == pl {
			return true
		}
	}
	return false
}

func TestInferNotFixableWitness(t *testing.T) {
	p := litmusProgram(t, sbJSON)
	res, err := fence.Infer(context.Background(), &explicit.Engine{}, p, fence.Options{Exclude: places(t, p, "P1@L0->L1")})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != fence.NotFixable {
		t.Fatalf("got %s, want not fixable", res.Summary(p))
	}
	// A trace may show one overtaking only; whichever the engine shows first,
	// the witness is P1's overtaking, possibly with P0's barrier in place.
	for _, pl := range res.WitnessFences {
		if pl != places(t, p, "P0@L0->L1")[0] {
			t.Errorf("witness fence %s", pl.Format(p))
		}
	}
	for _, o := range res.WitnessOvertakings {
		if o.Proc != 1 {
			t.Errorf("witness overtaking of P%d", o.Proc)
		}
	}
}

// fakeEngine answers through a function.
type fakeEngine struct {
	check func(ctx context.Context, p *model.Program, m model.Model) (*engines.Result, error)
}

func (*fakeEngine) Name() string { return "fake" }

func (e *fakeEngine) Check(ctx context.Context, p *model.Program, m model.Model) (*engines.Result, error) {
	return e.check(ctx, p, m)
}

func TestInferInconclusive(t *testing.T) {
	ctx := context.Background()
	p := litmusProgram(t, sbJSON)
	base := &explicit.Engine{}
	nFences := func(fp *model.Program) int {
		n := 0
		for qi, q := range fp.Procs {
			n += len(q.Trans) - len(p.Procs[qi].Trans)
		}
		return n
	}
	for _, tc := range []struct {
		name   string
		engine engines.Engine
		opts   fence.Options
		reason string
	}{
		{"at once", &fakeEngine{func(ctx context.Context, fp *model.Program, m model.Model) (*engines.Result, error) {
			return &engines.Result{Status: engines.Inconclusive, Model: m, Reason: "out of states"}, nil
		}}, fence.Options{}, "out of states"},
		{"on the sufficient set", &fakeEngine{func(ctx context.Context, fp *model.Program, m model.Model) (*engines.Result, error) {
			// The sufficient set drains every read: the inference asks
			// under SC first, then under TSO.
			if nFences(fp) == 2 || m == model.SC {
				return &engines.Result{Status: engines.Inconclusive, Model: m, Reason: "out of time"}, nil
			}
			return base.Check(ctx, fp, m)
		}}, fence.Options{All: true}, "out of time"},
		{"under SC", &fakeEngine{func(ctx context.Context, fp *model.Program, m model.Model) (*engines.Result, error) {
			if m == model.SC {
				return &engines.Result{Status: engines.Inconclusive, Model: m, Reason: "SC budget"}, nil
			}
			return base.Check(ctx, fp, m)
		}}, fence.Options{Exclude: []fence.Place{fence.AfterLoc(0, 1)}}, "SC budget"},
		{"check budget", base, fence.Options{MaxChecks: 2}, "budget of 2 engine checks"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := fence.Infer(ctx, tc.engine, p, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != fence.Inconclusive || !strings.Contains(res.Reason, tc.reason) {
				t.Fatalf("got %s, want inconclusive: %s", res.Summary(p), tc.reason)
			}
			if len(res.Sets) != 0 || res.Bound != "" {
				t.Errorf("inconclusive result with sets %v, bound %q", res.Sets, res.Bound)
			}
		})
	}
	t.Run("cancelled", func(t *testing.T) {
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		res, err := fence.Infer(cctx, base, p, fence.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if res.Status != fence.Inconclusive {
			t.Fatalf("got %s, want inconclusive", res.Summary(p))
		}
	})
}

func TestInferErrors(t *testing.T) {
	ctx := context.Background()
	p := litmusProgram(t, sbJSON)
	boom := errors.New("boom")
	for _, tc := range []struct {
		name   string
		engine engines.Engine
		opts   fence.Options
		want   string
	}{
		{"engine error", &fakeEngine{func(context.Context, *model.Program, model.Model) (*engines.Result, error) {
			return nil, boom
		}}, fence.Options{}, "boom"},
		{"trace that does not replay", &fakeEngine{func(ctx context.Context, fp *model.Program, m model.Model) (*engines.Result, error) {
			r, err := (&explicit.Engine{}).Check(ctx, fp, m)
			if err == nil && r.Trace != nil {
				r.Trace.Steps = r.Trace.Steps[1:]
			}
			return r, err
		}}, fence.Options{}, "does not replay"},
		{"unsafe without a trace", &fakeEngine{func(ctx context.Context, fp *model.Program, m model.Model) (*engines.Result, error) {
			return &engines.Result{Status: engines.Unsafe, Model: m}, nil
		}}, fence.Options{}, "without a TSO trace"},
		{"excluded place out of range", &explicit.Engine{}, fence.Options{Exclude: []fence.Place{fence.AfterLoc(5, 0)}}, "names no process"},
		{"excluded place not a write", &explicit.Engine{}, fence.Options{Exclude: []fence.Place{fence.AfterWrite(0, 1)}}, "not a write"},
		{"excluded place of both kinds", &explicit.Engine{}, fence.Options{Exclude: []fence.Place{{Proc: 0, Loc: 1, Trans: 0}}}, "both a location and a transition"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := fence.Infer(ctx, tc.engine, p, tc.opts)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, %v; want an error containing %q", res, err, tc.want)
			}
			if tc.name == "engine error" && !errors.Is(err, boom) {
				t.Errorf("error %v does not wrap the engine's", err)
			}
		})
	}
}

func TestCheckMinimal(t *testing.T) {
	ctx := context.Background()
	p := litmusProgram(t, sbJSON)
	eng := &explicit.Engine{}
	for _, tc := range []struct {
		set  string
		want string // "" for minimal
	}{
		{"P0@L0->L1 P1@L0->L1", ""},
		{"P0@L1 P1@L1", ""},
		{"P0@L0->L1", "not enough"},
		{"P0@L0 P0@L0->L1 P1@L0->L1", "not minimal"},
		{"P0@L1 P0@L0->L1 P1@L0->L1", "not minimal"},
	} {
		err := fence.CheckMinimal(ctx, eng, p, places(t, p, tc.set))
		if (err == nil) != (tc.want == "") || (err != nil && !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%s: got %v, want %q", tc.set, err, tc.want)
		}
	}
}

func TestCandidatesAndCost(t *testing.T) {
	names := func(p *model.Program, set []fence.Place) string {
		var out []string
		for _, pl := range set {
			out = append(out, pl.Format(p))
		}
		return strings.Join(out, " ")
	}
	for _, tc := range []struct {
		name    string
		prog    func(testing.TB) *model.Program
		g       fence.Placement
		exclude string
		want    string
	}{
		{"spin, after writes", func(testing.TB) *model.Program { return spin() }, fence.AfterWrites, "", "P0@A->B P1@A->B"},
		{"spin, anywhere minus P0@S", func(testing.TB) *model.Program { return spin() }, fence.Anywhere, "P0@S",
			"P0@A->B P0@A P0@CS P1@A->B P1@A P1@S P1@CS"},
		{"join, after writes: one place per arm", parsed(joinSrc), fence.AfterWrites, "", "P0@T->J P0@E->J P1@L0->L1"},
		{"join, anywhere: the join is a place of its own", parsed(joinSrc), fence.Anywhere, "",
			"P0@T->J P0@E->J P0@L0 P0@C P0@T P0@E P0@J P0@D P1@L0->L1 P1@L0 P1@L2"},
		{"join, one arm excluded", parsed(joinSrc), fence.AfterWrites, "P0@E->J", "P0@T->J P1@L0->L1"},
		{"join, the join excluded: both arms", parsed(joinSrc), fence.AfterWrites, "P0@J", "P1@L0->L1"},
		{"reraise, after writes", parsed(reraiseSrc), fence.AfterWrites, "P1@H",
			"P0@A->H P0@B->B2 P0@B2->H P1@B->B2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := tc.prog(t)
			if got := names(p, fence.Candidates(p, tc.g, places(t, p, tc.exclude))); got != tc.want {
				t.Errorf("candidates %s, want %s", got, tc.want)
			}
		})
	}
	for _, tc := range []struct {
		prog func(testing.TB) *model.Program
		set  string
		want int
	}{
		{func(testing.TB) *model.Program { return spin() }, "", 0},
		{func(testing.TB) *model.Program { return spin() }, "P0@A", 1},
		{func(testing.TB) *model.Program { return spin() }, "P0@A->B", 1},
		{func(testing.TB) *model.Program { return spin() }, "P0@S", fence.LoopCost},
		{func(testing.TB) *model.Program { return spin() }, "P0@A->B P1@S", 1 + fence.LoopCost},
		// The store before the loop reaches the loop head, but runs once; the
		// one inside the loop, and the head itself, run on every iteration.
		{parsed(reraiseSrc), "P0@A->H", 1},
		{parsed(reraiseSrc), "P0@B2->H", fence.LoopCost},
		{parsed(reraiseSrc), "P0@H", fence.LoopCost},
		{parsed(reraiseSrc), "P0@A->H P0@B2->H", 1 + fence.LoopCost},
	} {
		p := tc.prog(t)
		if got := fence.Cost(p, places(t, p, tc.set)); got != tc.want {
			t.Errorf("%s: Cost(%s) = %d, want %d", p.Name, tc.set, got, tc.want)
		}
	}
	// A cycle through several locations: A -> B -> S -> CS -> A.
	p := spin()
	q := p.Procs[0]
	q.AddTrans(q.LocIndex("CS"), model.NopOp(), q.LocIndex("A"), model.Pos{})
	if got := fence.Cost(p, places(t, p, "P0@A P0@B P0@CS P0@A->B")); got != 4*fence.LoopCost {
		t.Errorf("cost on a long cycle = %d, want %d", got, 4*fence.LoopCost)
	}
	for _, s := range []string{"after-writes", "anywhere"} {
		g, err := fence.ParsePlacement(s)
		if err != nil || g.String() != s {
			t.Errorf("ParsePlacement(%q) = %v, %v", s, g, err)
		}
	}
	if _, err := fence.ParsePlacement("nowhere"); err == nil {
		t.Error("ParsePlacement accepted nowhere")
	}
}
