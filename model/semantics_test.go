package model_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/fencecheck/fencecheck/model"
)

// twoProcs builds a program with shared x, y in [0:3] (both 0) and two
// processes, each with register $r, running ops in sequence.
func twoProcs(p0, p1 []model.Op) *model.Program {
	p := &model.Program{Name: "t", Vars: []model.Var{
		{Name: "x", Dom: model.Range(0, 3)},
		{Name: "y", Dom: model.Range(0, 3)},
	}}
	for i, ops := range [][]model.Op{p0, p1} {
		q := &model.Process{Name: []string{"P0", "P1"}[i], Regs: []model.Reg{{Name: "r", Dom: model.Range(0, 3)}}}
		l := q.AddLoc("L0", model.Pos{})
		for k, o := range ops {
			n := q.AddLoc("L"+string(rune('1'+k)), model.Pos{})
			q.AddTrans(l, o, n, model.Pos{})
			l = n
		}
		p.Procs = append(p.Procs, q)
	}
	return p
}

func initial(t *testing.T, p *model.Program) model.State {
	t.Helper()
	var s model.State
	n := 0
	if err := p.Initial(func(st model.State) { s = st; n++ }); err != nil || n != 1 {
		t.Fatalf("Initial: %v, %d states", err, n)
	}
	return s
}

// run executes the named steps ("0", "1": next transition of process i;
// "f0", "f1": flush of process i) and fails on the first disabled one.
func run(t *testing.T, p *model.Program, m model.Model, s model.State, steps ...string) model.State {
	t.Helper()
	for _, st := range steps {
		flush := strings.HasPrefix(st, "f")
		proc := int(st[len(st)-1] - '0')
		trans := -1
		if !flush {
			trans = p.Procs[proc].Out(s.Locs[proc])[0]
		}
		_, ns, err := p.Exec(s, proc, trans, flush, m)
		if err != nil {
			t.Fatalf("step %s: %v", st, err)
		}
		s = ns
	}
	return s
}

func enabled(p *model.Program, m model.Model, s model.State, proc int) error {
	out := p.Procs[proc].Out(s.Locs[proc])
	var err error
	for _, ti := range out {
		if _, _, err = p.Exec(s, proc, ti, false, m); err == nil {
			return nil
		}
	}
	return err
}

func TestTSORules(t *testing.T) {
	one, two := model.C(1), model.C(2)
	x, y := 0, 1
	for _, tc := range []struct {
		name   string
		p0, p1 []model.Op
		m      model.Model
		steps  []string
		check  func(t *testing.T, s model.State)
	}{
		{
			name: "store goes to the buffer, not memory", m: model.TSO,
			p0: []model.Op{model.WriteOp(x, one)}, steps: []string{"0"},
			check: func(t *testing.T, s model.State) {
				if s.Mem[x] != 0 || len(s.Bufs[0]) != 1 || s.Bufs[0][0] != (model.BufEntry{Var: x, Val: 1}) {
					t.Errorf("mem %v bufs %v", s.Mem, s.Bufs)
				}
			},
		},
		{
			name: "under SC a store reaches memory at once", m: model.SC,
			p0: []model.Op{model.WriteOp(x, one)}, steps: []string{"0"},
			check: func(t *testing.T, s model.State) {
				if s.Mem[x] != 1 || len(s.Bufs[0]) != 0 {
					t.Errorf("mem %v bufs %v", s.Mem, s.Bufs)
				}
			},
		},
		{
			name: "a load reads its own newest buffered store", m: model.TSO,
			p0:    []model.Op{model.WriteOp(x, one), model.WriteOp(x, two), model.ReadOp(x, 0)},
			steps: []string{"0", "0", "0"},
			check: func(t *testing.T, s model.State) {
				if s.Regs[0][0] != 2 || s.Mem[x] != 0 {
					t.Errorf("r = %d, mem %v", s.Regs[0][0], s.Mem)
				}
			},
		},
		{
			name: "another process reads memory, not the buffer", m: model.TSO,
			p0: []model.Op{model.WriteOp(x, one)}, p1: []model.Op{model.ReadOp(x, 0)},
			steps: []string{"0", "1"},
			check: func(t *testing.T, s model.State) {
				if s.Regs[1][0] != 0 {
					t.Errorf("P1 read %d, want 0", s.Regs[1][0])
				}
			},
		},
		{
			name: "a load of another variable reads memory past the buffer", m: model.TSO,
			p0: []model.Op{model.WriteOp(x, one), model.ReadOp(y, 0)}, p1: []model.Op{model.WriteOp(y, two)},
			steps: []string{"1", "f1", "0", "0"},
			check: func(t *testing.T, s model.State) {
				if s.Regs[0][0] != 2 {
					t.Errorf("P0 read y = %d, want 2", s.Regs[0][0])
				}
			},
		},
		{
			name: "flushes leave in FIFO order", m: model.TSO,
			p0: []model.Op{model.WriteOp(x, one), model.WriteOp(y, two)}, steps: []string{"0", "0", "f0"},
			check: func(t *testing.T, s model.State) {
				if s.Mem[x] != 1 || s.Mem[y] != 0 || len(s.Bufs[0]) != 1 {
					t.Errorf("mem %v bufs %v", s.Mem, s.Bufs)
				}
			},
		},
		{
			name: "exchange reads and writes memory atomically", m: model.TSO,
			p0: []model.Op{model.Exchange(x, 0, two)}, steps: []string{"0"},
			check: func(t *testing.T, s model.State) {
				if s.Mem[x] != 2 || s.Regs[0][0] != 0 || len(s.Bufs[0]) != 0 {
					t.Errorf("mem %v regs %v bufs %v", s.Mem, s.Regs, s.Bufs)
				}
			},
		},
		{
			name: "fetch-add", m: model.TSO,
			p0: []model.Op{model.FetchAdd(x, 0, two), model.FetchAdd(x, 0, one)}, steps: []string{"0", "0"},
			check: func(t *testing.T, s model.State) {
				if s.Mem[x] != 3 || s.Regs[0][0] != 2 {
					t.Errorf("mem %v regs %v", s.Mem, s.Regs)
				}
			},
		},
		{
			name: "compare-and-swap succeeds on the expected value", m: model.TSO,
			p0: []model.Op{model.CASSuccess(x, 0, model.C(0), two)}, steps: []string{"0"},
			check: func(t *testing.T, s model.State) {
				if s.Mem[x] != 2 || s.Regs[0][0] != 0 {
					t.Errorf("mem %v regs %v", s.Mem, s.Regs)
				}
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := twoProcs(tc.p0, tc.p1)
			if err := p.Validate(); err != nil {
				t.Fatal(err)
			}
			tc.check(t, run(t, p, tc.m, initial(t, p), tc.steps...))
		})
	}
}

func TestTSODisabled(t *testing.T) {
	x := 0
	one := model.C(1)
	for _, tc := range []struct {
		name  string
		p0    []model.Op
		steps []string
		want  string
	}{
		{"fence waits for an empty buffer", []model.Op{model.WriteOp(x, one), model.FenceOp()}, []string{"0"}, "store buffer is not empty"},
		{"exchange waits for an empty buffer", []model.Op{model.WriteOp(x, one), model.Exchange(x, 0, one)}, []string{"0"}, "store buffer is not empty"},
		{"CAS success needs the expected value", []model.Op{model.CASSuccess(x, 0, model.C(1), one)}, nil, "value read is not the one required"},
		{"CAS failure needs another value", []model.Op{model.CASFailure(x, 0, model.C(0))}, nil, "guard does not hold"},
		{"CAS failure still waits for the buffer", []model.Op{model.WriteOp(x, one), model.CASFailure(x, 0, model.C(0))}, []string{"0"}, "store buffer is not empty"},
		{"read with a required value", []model.Op{model.ReadEqOp(x, one)}, nil, "value read is not the one required"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := twoProcs(tc.p0, nil)
			s := run(t, p, model.TSO, initial(t, p), tc.steps...)
			err := enabled(p, model.TSO, s, 0)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an error containing %q", err, tc.want)
			}
		})
	}
	// After the flush, the fence is enabled.
	p := twoProcs([]model.Op{model.WriteOp(x, one), model.FenceOp()}, nil)
	s := run(t, p, model.TSO, initial(t, p), "0", "f0")
	if err := enabled(p, model.TSO, s, 0); err != nil {
		t.Errorf("fence after flush: %v", err)
	}
	// A flush of an empty buffer is not a step.
	if _, _, err := p.Exec(initial(t, p), 0, -1, true, model.TSO); err == nil {
		t.Error("flush of an empty buffer succeeded")
	}
}

func TestDomainFault(t *testing.T) {
	p := twoProcs([]model.Op{model.WriteOp(0, model.C(4))}, nil)
	s := run(t, p, model.SC, initial(t, p), "0")
	if s.Fault == nil || !strings.Contains(s.Fault.Msg, "outside [0:3]") || !p.IsBad(s) {
		t.Fatalf("fault = %+v", s.Fault)
	}
	p = twoProcs([]model.Op{model.AssignOp(0, model.Bin(model.OpDiv, model.C(1), model.R(0)))}, nil)
	if s := run(t, p, model.SC, initial(t, p), "0"); s.Fault == nil {
		t.Fatal("division by zero did not fault")
	}
}

// sbProgram is the store-buffering litmus test: the bad state r0 = r1 = 0 is
// reachable under TSO only.
func sbProgram() *model.Program {
	p := twoProcs(
		[]model.Op{model.WriteOp(0, model.C(1)), model.ReadOp(1, 0)},
		[]model.Op{model.WriteOp(1, model.C(1)), model.ReadOp(0, 0)},
	)
	p.Bad = []model.BadState{{
		Locs: []model.ProcLoc{{Proc: 0, Loc: 2}, {Proc: 1, Loc: 2}},
		Cond: model.Bin(model.OpAnd,
			model.Bin(model.OpEq, model.RegRef{Proc: 0, Reg: 0}, model.C(0)),
			model.Bin(model.OpEq, model.RegRef{Proc: 1, Reg: 0}, model.C(0))),
	}}
	return p
}

func TestReplay(t *testing.T) {
	p := sbProgram()
	good := func() *model.Trace {
		return &model.Trace{
			Model: model.TSO, InitMem: []int64{0, 0}, InitRegs: [][]int64{{0}, {0}},
			Steps: []model.Step{
				{Proc: 0, Trans: 0, Var: 0, Val: 1},
				{Proc: 1, Trans: 0, Var: 1, Val: 1},
				{Proc: 0, Trans: 1, Var: 1, Val: 0},
				{Proc: 1, Trans: 1, Var: 0, Val: 0},
			},
		}
	}
	states, err := p.Replay(good())
	if err != nil {
		t.Fatalf("valid trace: %v", err)
	}
	if len(states) != 5 {
		t.Errorf("%d states, want 5", len(states))
	}
	if txt := p.FormatTrace(good(), states); !strings.Contains(txt, "buffers: P0[x=1] P1[y=1]") {
		t.Errorf("trace text lacks buffers:\n%s", txt)
	}

	for _, tc := range []struct {
		name  string
		edit  func(*model.Trace)
		model model.Model
		index int
		want  string
	}{
		{"wrong value", func(tr *model.Trace) { tr.Steps[2].Val = 1 }, model.TSO, 2, "semantics gives y = 0"},
		{"wrong location", func(tr *model.Trace) { tr.Steps[0].Trans = 1 }, model.TSO, 0, "it is at L0"},
		{"flush of an empty buffer", func(tr *model.Trace) {
			tr.Steps = append([]model.Step{{Proc: 0, Trans: -1, Flush: true}}, tr.Steps...)
		}, model.TSO, 0, "cannot flush"},
		{"not bad at the end", func(tr *model.Trace) { tr.Steps = tr.Steps[:3] }, model.TSO, 3, "does not end in a bad state"},
		{"SC forbids the outcome", func(tr *model.Trace) {}, model.SC, 2, "semantics gives y = 1"},
		{"bad initial memory", func(tr *model.Trace) { tr.InitMem[0] = 2 }, model.TSO, -1, "initial value of x is 0, not 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := good()
			tr.Model = tc.model
			tc.edit(tr)
			_, err := p.Replay(tr)
			var re *model.ReplayError
			if !errors.As(err, &re) {
				t.Fatalf("got %v, want a ReplayError", err)
			}
			if re.Index != tc.index || !strings.Contains(re.Error(), tc.want) {
				t.Fatalf("got %v (index %d), want index %d and %q", err, re.Index, tc.index, tc.want)
			}
		})
	}
}

func TestValidate(t *testing.T) {
	p := twoProcs([]model.Op{model.WriteOp(50, model.V(0)), model.AssignOp(3, model.C(0))}, nil)
	p.Vars = append(p.Vars, model.Var{Name: "x", Dom: model.Range(2, 1)},
		model.Var{Name: "v1", Dom: model.Range(0, 9), Values: []int64{0, 20}},
		model.Var{Name: "v2", Dom: model.Range(0, 9), Values: []int64{3, 1}},
		model.Var{Name: "v3", Dom: model.Range(0, 9), Values: []int64{1, 2}})
	err := p.Validate()
	if err == nil {
		t.Fatal("no problem found")
	}
	for _, want := range []string{"declared twice", "empty domain", "shared variable 50", "named outside a locked block", "register 3",
		"value 20 of v1 is outside", "values of v2 are not sorted", "initial value of v3 is not among"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("problems lack %q:\n%v", want, err)
		}
	}
}
