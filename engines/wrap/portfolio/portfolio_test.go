package portfolio_test

import (
	"context"
	"errors"
	"os"
	"testing"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/bmc"
	"github.com/fencecheck/fencecheck/engines/explicit"
	"github.com/fencecheck/fencecheck/engines/sb"
	"github.com/fencecheck/fencecheck/engines/wrap/portfolio"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/native"
)

// fake answers res and err (or, when seq is set, its answers in turn),
// and counts its calls.
type fake struct {
	name  string
	res   *engines.Result
	seq   []*engines.Result
	err   error
	calls int
}

func (f *fake) Name() string { return f.name }

func (f *fake) Check(ctx context.Context, p *model.Program, m model.Model) (*engines.Result, error) {
	f.calls++
	if f.seq != nil {
		return f.seq[f.calls-1], nil
	}
	return f.res, f.err
}

// load parses one of the bundled model files.
func load(t *testing.T, name string) *model.Program {
	t.Helper()
	file := "../../../testdata/models/" + name + ".fcm"
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	p, err := native.Parse(file, src)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestChoice(t *testing.T) {
	p := load(t, "sb")
	real, err := (&explicit.Engine{}).Check(context.Background(), p, model.TSO)
	if err != nil || real.Status != engines.Unsafe {
		t.Fatalf("explicit: %v %v", real, err)
	}
	safe := &engines.Result{Status: engines.Safe}
	bounded := &engines.Result{Status: engines.Safe, Bound: "executions of at most 2 loop iterations per process"}
	inconclusive := &engines.Result{Status: engines.Inconclusive, Reason: "budget"}
	// A counterexample that does not replay: the bounded engine is wrong.
	bogus := &engines.Result{Status: engines.Unsafe, Trace: &model.Trace{Model: model.TSO, Steps: []model.Step{{Proc: 0, Trans: 1}}}}
	tests := []struct {
		name           string
		exact, bounded *fake
		want           *engines.Result
		wantErr        bool
		exactRuns      bool
	}{
		{"bounded counterexample", &fake{name: "x", res: safe}, &fake{name: "b", res: real}, real, false, false},
		{"bounded proof without bound", &fake{name: "x", res: real}, &fake{name: "b", res: safe}, safe, false, false},
		{"bounded proof within a bound", &fake{name: "x", res: real}, &fake{name: "b", res: bounded}, real, false, true},
		{"bounded inconclusive", &fake{name: "x", res: safe}, &fake{name: "b", res: inconclusive}, safe, false, true},
		{"bounded error is ignored", &fake{name: "x", res: safe}, &fake{name: "b", err: errors.New("cannot take it")}, safe, false, true},
		{"exact inconclusive", &fake{name: "x", res: inconclusive}, &fake{name: "b", res: bounded}, inconclusive, false, true},
		{"bounded trace that does not replay", &fake{name: "x", res: safe}, &fake{name: "b", res: bogus}, nil, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := &portfolio.Engine{Exact: tt.exact, Bounded: tt.bounded}
			got, err := e.Check(context.Background(), p, model.TSO)
			if tt.wantErr {
				if err == nil {
					t.Fatalf("no error; result %v", got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
			if ran := tt.exact.calls > 0; ran != tt.exactRuns {
				t.Errorf("exact engine ran: %v, want %v", ran, tt.exactRuns)
			}
		})
	}
	t.Run("a bounded engine without a counterexample is not asked again under that model", func(t *testing.T) {
		exact, bnd := &fake{name: "x", res: safe}, &fake{name: "b", res: bounded}
		e := &portfolio.Engine{Exact: exact, Bounded: bnd}
		for _, m := range []model.Model{model.TSO, model.TSO, model.SC, model.SC} {
			if _, err := e.Check(context.Background(), p, m); err != nil {
				t.Fatal(err)
			}
		}
		if bnd.calls != 2 || exact.calls != 4 {
			t.Errorf("bounded engine asked %d times, exact %d; want 2 and 4", bnd.calls, exact.calls)
		}
	})
	t.Run("a bounded engine out of budget is asked again, until three times in a row", func(t *testing.T) {
		exact := &fake{name: "x", res: safe}
		// Cut, cut, a counterexample (which resets the run), then cut
		// three times: the later checks skip it.
		bnd := &fake{name: "b", seq: []*engines.Result{inconclusive, inconclusive, real, inconclusive, inconclusive, inconclusive}}
		e := &portfolio.Engine{Exact: exact, Bounded: bnd}
		for range 8 {
			if _, err := e.Check(context.Background(), p, model.TSO); err != nil {
				t.Fatal(err)
			}
		}
		if bnd.calls != 6 || exact.calls != 7 {
			t.Errorf("bounded engine asked %d times, exact %d; want 6 and 7", bnd.calls, exact.calls)
		}
		// Under another model it starts afresh.
		bnd.seq, bnd.calls, bnd.res = nil, 0, inconclusive
		if _, err := e.Check(context.Background(), p, model.SC); err != nil {
			t.Fatal(err)
		}
		if bnd.calls != 1 {
			t.Errorf("bounded engine asked %d times under SC, want 1", bnd.calls)
		}
	})
	if name := (&portfolio.Engine{Exact: &sb.Engine{}, Bounded: &bmc.Engine{}}).Name(); name != "sb+bmc" {
		t.Errorf("Name() = %q", name)
	}
}

// TestAgrees runs the portfolio of sb and bmc on the bundled model files
// with finite domains and checks that it gives sb's verdict on each, under SC and TSO.
func TestAgrees(t *testing.T) {
	files := []string{"dekker", "mp", "mp_atomic", "peterson", "sb", "spinlock", "wg_chain"}
	for _, name := range files {
		p := load(t, name)
		if !p.Finite() {
			continue // sb needs finite domains
		}
		for _, m := range []model.Model{model.SC, model.TSO} {
			want, err := (&sb.Engine{}).Check(context.Background(), p, m)
			if err != nil {
				t.Fatal(err)
			}
			got, err := (&portfolio.Engine{Exact: &sb.Engine{}, Bounded: &bmc.Engine{}}).Check(context.Background(), p, m)
			if err != nil {
				t.Fatal(err)
			}
			if got.Status != want.Status {
				t.Errorf("%s under %v: portfolio %v, sb %v", name, m, got, want)
			}
		}
	}
}
