package sb_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/explicit"
	"github.com/fencecheck/fencecheck/engines/sb"
	"github.com/fencecheck/fencecheck/internal/litmus"
	"github.com/fencecheck/fencecheck/model"
)

// corpus is the shared litmus corpus, beside the repository.
var corpus = filepath.Join("..", "..", "..", "shared", "litmus", "x86-tso.json")

func loadCorpus(t testing.TB) []litmus.Test {
	t.Helper()
	if _, err := os.Stat(corpus); err != nil {
		t.Skipf("litmus corpus not found at %s: %v", corpus, err)
	}
	tests, err := litmus.Load(corpus)
	if err != nil {
		t.Fatal(err)
	}
	return tests
}

// TestLitmus requires the x86-TSO verdict of every litmus test of the
// corpus from the engine.
func TestLitmus(t *testing.T) {
	tests := loadCorpus(t)
	if len(tests) != 394 {
		t.Errorf("corpus has %d tests, want 394", len(tests))
	}
	agree := 0
	var slowest time.Duration
	slowName := ""
	for _, lt := range tests {
		p, err := lt.Program()
		if err != nil {
			t.Fatalf("%s: %v", lt.Name, err)
		}
		res, err := (&sb.Engine{}).Check(context.Background(), p, model.TSO)
		if err != nil {
			t.Fatalf("%s: %v", lt.Name, err)
		}
		if res.Stats.Duration > slowest {
			slowest, slowName = res.Stats.Duration, lt.Name
		}
		got := "forbidden"
		switch res.Status {
		case engines.Unsafe:
			got = "allowed"
		case engines.Inconclusive:
			got = res.String()
		}
		if got != lt.TSO {
			t.Errorf("%s: got %s, want %s (%s)", lt.Name, got, lt.TSO, lt.Condition)
			continue
		}
		agree++
	}
	t.Logf("litmus: %d/%d verdicts agree with x86-TSO; slowest %s (%v)", agree, len(tests), slowName, slowest)
}

// TestLitmusBackward runs the litmus tests through the SB search alone
// (with pruning), each with a budget; with -long only. Every conclusive
// verdict must agree.
func TestLitmusBackward(t *testing.T) {
	if !*long {
		t.Skip("with -long only")
	}
	tests := loadCorpus(t)
	agree, inconclusive := 0, 0
	for _, lt := range tests {
		p, err := lt.Program()
		if err != nil {
			t.Fatalf("%s: %v", lt.Name, err)
		}
		if !smallDomains(p) {
			inconclusive++
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		res, err := (&sb.Engine{Backward: true}).Check(ctx, p, model.TSO)
		cancel()
		if err != nil {
			t.Fatalf("%s: %v", lt.Name, err)
		}
		if res.Status == engines.Inconclusive {
			inconclusive++
			continue
		}
		got := "forbidden"
		if res.Status == engines.Unsafe {
			got = "allowed"
		}
		if got != lt.TSO {
			t.Errorf("%s: got %s, want %s", lt.Name, got, lt.TSO)
			continue
		}
		agree++
	}
	t.Logf("SB search alone: %d/%d agree, %d inconclusive within 5 s", agree, len(tests), inconclusive)
}

// smallDomains reports whether every domain of p has at most 16 values (the
// SB search enumerates them).
func smallDomains(p *model.Program) bool {
	for _, v := range p.Vars {
		if v.Dom.Size() > 16 {
			return false
		}
	}
	return true
}

// deepBuffer returns a program whose bug needs n stores pending in P0's
// buffer at once: P0 stores x, then n-1 times y (in a counting loop when
// loop is set), then reads z = 0; P1 stores z, fences and reads x = 0. P1's
// read of x comes after P0's read of z (P1's store to z lands at its fence,
// after P0 read 0), so x := 1 and every later store of P0 are still pending
// when P0 reads z.
func deepBuffer(n int, loop bool) *model.Program {
	p := &model.Program{Name: fmt.Sprintf("deep%d", n), Vars: []model.Var{
		{Name: "x", Dom: model.Range(0, 1)}, {Name: "y", Dom: model.Range(0, 1)}, {Name: "z", Dom: model.Range(0, 1)}}}
	q := &model.Process{Name: "P0", Regs: []model.Reg{{Name: "c", Dom: model.Range(0, int64(n))}}}
	l := q.AddLoc("L0", model.Pos{})
	next := func() int { return q.AddLoc(fmt.Sprintf("L%d", len(q.Locs)), model.Pos{}) }
	m := next()
	q.AddTrans(l, model.WriteOp(0, model.C(1)), m, model.Pos{})
	l = m
	if loop {
		w, body, after := next(), next(), next()
		q.AddTrans(l, model.GuardOp(model.Bin(model.OpLt, model.R(0), model.C(int64(n-1)))), w, model.Pos{})
		q.AddTrans(w, model.WriteOp(1, model.C(1)), body, model.Pos{})
		q.AddTrans(body, model.AssignOp(0, model.Bin(model.OpAdd, model.R(0), model.C(1))), l, model.Pos{})
		q.AddTrans(l, model.GuardOp(model.Bin(model.OpEq, model.R(0), model.C(int64(n-1)))), after, model.Pos{})
		l = after
	} else {
		for range n - 1 {
			m := next()
			q.AddTrans(l, model.WriteOp(1, model.C(1)), m, model.Pos{})
			l = m
		}
	}
	end := next()
	q.AddTrans(l, model.ReadEqOp(2, model.C(0)), end, model.Pos{})
	r := &model.Process{Name: "P1"}
	r.AddLoc("L0", model.Pos{})
	r.AddLoc("L1", model.Pos{})
	r.AddLoc("L2", model.Pos{})
	r.AddLoc("L3", model.Pos{})
	r.AddTrans(0, model.WriteOp(2, model.C(1)), 1, model.Pos{})
	r.AddTrans(1, model.FenceOp(), 2, model.Pos{})
	r.AddTrans(2, model.ReadEqOp(0, model.C(0)), 3, model.Pos{})
	p.Procs = []*model.Process{q, r}
	p.Bad = []model.BadState{{Name: "both read 0", Locs: []model.ProcLoc{{Proc: 0, Loc: end}, {Proc: 1, Loc: 3}}}}
	return p
}

// TestDeepBuffer: the bug of deepBuffer(8) is missed by every explicit
// search with buffers bounded below 8 and found by the engine, with a trace
// that holds 8 stores in P0's buffer.
func TestDeepBuffer(t *testing.T) {
	for _, loop := range []bool{false, true} {
		t.Run(fmt.Sprintf("loop=%v", loop), func(t *testing.T) {
			p := deepBuffer(8, loop)
			for bound := 1; bound < 8; bound++ {
				res, err := (&explicit.Engine{Bound: bound}).Check(context.Background(), p, model.TSO)
				if err != nil {
					t.Fatal(err)
				}
				if res.Status != engines.Safe {
					t.Fatalf("explicit with bound %d: %v, want safe", bound, res)
				}
			}
			res, err := (&sb.Engine{}).Check(context.Background(), p, model.TSO)
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != engines.Unsafe {
				t.Fatalf("got %v, want unsafe", res)
			}
			states, err := p.Replay(res.Trace)
			if err != nil {
				t.Fatal(err)
			}
			deepest := 0
			for _, s := range states {
				deepest = max(deepest, len(s.Bufs[0]))
			}
			if deepest < 8 {
				t.Errorf("the trace holds at most %d stores in P0's buffer, want 8", deepest)
			}
		})
	}
}

// producer returns a program whose producer publishes forever (d := 1;
// f := 1 in an endless loop), so its buffer grows without bound, and whose
// consumer reads f = 1 and then d; the bad state is d = 0 after f = 1,
// unreachable under TSO (stores land in order). With fifo unset, the
// consumer instead checks the opposite order (reads d = 1, then f), and the
// bad state f = 0 is reachable.
func producer(fifo bool) *model.Program {
	p := &model.Program{Name: "producer", Vars: []model.Var{
		{Name: "d", Dom: model.Range(0, 1)}, {Name: "f", Dom: model.Range(0, 1)}}}
	q := &model.Process{Name: "P"}
	q.AddLoc("L0", model.Pos{})
	q.AddLoc("L1", model.Pos{})
	q.AddTrans(0, model.WriteOp(0, model.C(1)), 1, model.Pos{})
	q.AddTrans(1, model.WriteOp(1, model.C(1)), 0, model.Pos{})
	c := &model.Process{Name: "C", Regs: []model.Reg{{Name: "r", Dom: model.Range(0, 1)}}}
	for i := range 3 {
		c.AddLoc(fmt.Sprintf("L%d", i), model.Pos{})
	}
	first, second := 1, 0
	if !fifo {
		first, second = 0, 1
	}
	c.AddTrans(0, model.ReadEqOp(first, model.C(1)), 1, model.Pos{})
	c.AddTrans(1, model.ReadOp(second, 0), 2, model.Pos{})
	p.Procs = []*model.Process{q, c}
	p.Bad = []model.BadState{{Name: "stale read", Locs: []model.ProcLoc{{Proc: 1, Loc: 2}},
		Cond: model.Bin(model.OpEq, model.RegRef{Proc: 1, Reg: 0}, model.C(0))}}
	return p
}

// TestUnboundedBuffer: an endless producer, safe and unsafe variants; the
// engine terminates with the exact verdict, in both modes.
func TestUnboundedBuffer(t *testing.T) {
	for _, tc := range []struct {
		fifo bool
		want engines.Status
	}{{true, engines.Safe}, {false, engines.Unsafe}} {
		for _, e := range []*sb.Engine{{}, {Backward: true}} {
			t.Run(fmt.Sprintf("fifo=%v/backward=%v", tc.fifo, e.Backward), func(t *testing.T) {
				res, err := e.Check(context.Background(), producer(tc.fifo), model.TSO)
				if err != nil {
					t.Fatal(err)
				}
				if res.Status != tc.want {
					t.Fatalf("got %v, want %v", res, tc.want)
				}
			})
		}
	}
}
