package model_test

import (
	"strings"
	"testing"

	"github.com/fencecheck/fencecheck/model"
)

// psoRun executes named steps under PSO: "0", "1" take the next transition
// of process i, "fx0" flushes process 0's oldest store to x ("fy1": y of
// process 1). It fails on the first disabled step.
func psoRun(t *testing.T, p *model.Program, s model.State, steps ...string) model.State {
	t.Helper()
	for _, name := range steps {
		ns, err := psoStep(p, s, name)
		if err != nil {
			t.Fatalf("step %s: %v", name, err)
		}
		s = ns
	}
	return s
}

func psoStep(p *model.Program, s model.State, name string) (model.State, error) {
	proc := int(name[len(name)-1] - '0')
	st := model.Step{Proc: proc, Var: -1}
	if strings.HasPrefix(name, "f") {
		st.Flush, st.Trans, st.Var = true, -1, map[byte]int{'x': 0, 'y': 1}[name[1]]
	} else {
		st.Trans = p.Procs[proc].Out(s.Locs[proc])[0]
	}
	_, ns, err := p.ExecStep(s, st, model.PSO)
	return ns, err
}

func TestPSORules(t *testing.T) {
	one, two := model.C(1), model.C(2)
	x, y := 0, 1
	for _, tc := range []struct {
		name   string
		p0, p1 []model.Op
		steps  []string
		bad    string // a step that must be disabled after steps
		bufs   string // FormatBuffers after steps
		memX   int64
		memY   int64
		readsP int64 // P1's register after steps
	}{
		{name: "stores to two variables leave out of order",
			p0:    []model.Op{model.WriteOp(x, one), model.WriteOp(y, one)},
			steps: []string{"0", "0", "fy0"}, bufs: "P0[x=1] P1[]", memY: 1},
		{name: "stores to one variable leave in order",
			p0:    []model.Op{model.WriteOp(x, one), model.WriteOp(x, two)},
			steps: []string{"0", "0", "fx0"}, bufs: "P0[x=2] P1[]", memX: 1},
		{name: "the buffers are ordered by variable within an epoch",
			p0:    []model.Op{model.WriteOp(y, one), model.WriteOp(x, two), model.WriteOp(y, two)},
			steps: []string{"0", "0", "0"}, bufs: "P0[x=2 y=1 y=2] P1[]"},
		{name: "a store-store fence holds later stores back",
			p0:    []model.Op{model.WriteOp(x, one), model.SSFenceOp(), model.WriteOp(y, one)},
			steps: []string{"0", "0", "0"}, bad: "fy0", bufs: "P0[x=1 | y=1] P1[]"},
		{name: "the fence's epoch ends when its stores leave",
			p0:    []model.Op{model.WriteOp(x, one), model.SSFenceOp(), model.WriteOp(y, one)},
			steps: []string{"0", "0", "0", "fx0", "fy0"}, bufs: "P0[] P1[]", memX: 1, memY: 1},
		{name: "a store-store fence on an empty buffer leaves nothing",
			p0:    []model.Op{model.SSFenceOp(), model.SSFenceOp(), model.WriteOp(y, one)},
			steps: []string{"0", "0", "0", "fy0"}, bufs: "P0[] P1[]", memY: 1},
		{name: "two fences in a row are one barrier",
			p0:    []model.Op{model.WriteOp(x, one), model.SSFenceOp(), model.SSFenceOp(), model.WriteOp(y, one)},
			steps: []string{"0", "0", "0", "0"}, bufs: "P0[x=1 | y=1] P1[]"},
		{name: "a read takes its own newest store across epochs",
			p0:    []model.Op{model.WriteOp(x, one), model.SSFenceOp(), model.WriteOp(x, two), model.ReadOp(x, 0)},
			steps: []string{"0", "0", "0", "0"}, bufs: "P0[x=1 | x=2] P1[]"},
		{name: "another process reads memory",
			p0:    []model.Op{model.WriteOp(x, one)},
			p1:    []model.Op{model.ReadOp(x, 0)},
			steps: []string{"0", "1"}, bufs: "P0[x=1] P1[]", readsP: 0},
		{name: "a fence waits for every buffer",
			p0:    []model.Op{model.WriteOp(x, one), model.WriteOp(y, one), model.FenceOp()},
			steps: []string{"0", "0", "fx0"}, bad: "0", bufs: "P0[y=1] P1[]", memX: 1},
		{name: "a locked operation waits for every buffer",
			p0:    []model.Op{model.WriteOp(x, one), model.Exchange(y, 0, two)},
			steps: []string{"0"}, bad: "0", bufs: "P0[x=1] P1[]"},
		{name: "a flush of a variable with no store is disabled",
			p0:    []model.Op{model.WriteOp(x, one)},
			steps: []string{"0"}, bad: "fy0", bufs: "P0[x=1] P1[]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := twoProcs(tc.p0, tc.p1)
			s := psoRun(t, p, initial(t, p), tc.steps...)
			if tc.bad != "" {
				if _, err := psoStep(p, s, tc.bad); err == nil {
					t.Errorf("step %s is enabled, want disabled", tc.bad)
				}
			}
			if got := p.FormatBuffers(s); got != tc.bufs {
				t.Errorf("buffers %s, want %s", got, tc.bufs)
			}
			if s.Mem[x] != tc.memX || s.Mem[y] != tc.memY {
				t.Errorf("memory x=%d y=%d, want x=%d y=%d", s.Mem[x], s.Mem[y], tc.memX, tc.memY)
			}
			if s.Regs[1][0] != tc.readsP {
				t.Errorf("P1.$r = %d, want %d", s.Regs[1][0], tc.readsP)
			}
		})
	}
}

// TestPSOReadOwnStore checks the value a process reads from its own
// buffers, and that the state's key tells the epochs apart.
func TestPSOReadOwnStore(t *testing.T) {
	one, two := model.C(1), model.C(2)
	p := twoProcs([]model.Op{model.WriteOp(0, one), model.SSFenceOp(), model.WriteOp(0, two), model.ReadOp(0, 0)}, nil)
	s := psoRun(t, p, initial(t, p), "0", "0", "0", "0")
	if s.Regs[0][0] != 2 {
		t.Errorf("read %d, want the newest store 2", s.Regs[0][0])
	}
	q := twoProcs([]model.Op{model.WriteOp(0, one), model.WriteOp(0, two), model.ReadOp(0, 0)}, nil)
	s2 := psoRun(t, q, initial(t, q), "0", "0")
	k1, k2 := string(s.AppendKey(nil)), string(s2.AppendKey(nil))
	if k1 == k2 {
		t.Error("a buffer with a barrier has the key of one without")
	}
	if d, n := p.DecodeKey([]byte(k1)); n != len(k1) || string(d.AppendKey(nil)) != k1 {
		t.Errorf("DecodeKey does not invert AppendKey for %s", p.FormatBuffers(s))
	}
}

// TestSSFenceUnderTSO checks that a store-store fence does nothing under
// TSO and SC.
func TestSSFenceUnderTSO(t *testing.T) {
	p := twoProcs([]model.Op{model.WriteOp(0, model.C(1)), model.SSFenceOp(), model.WriteOp(1, model.C(1))}, nil)
	for _, m := range []model.Model{model.SC, model.TSO} {
		s := run(t, p, m, initial(t, p), "0", "0", "0")
		want := map[model.Model]string{model.SC: "P0[] P1[]", model.TSO: "P0[x=1 y=1] P1[]"}[m]
		if got := p.FormatBuffers(s); got != want {
			t.Errorf("%v: buffers %s, want %s", m, got, want)
		}
	}
}

// TestPSOSuccessorsAndBound checks the flushes PSO offers and the bound
// per variable.
func TestPSOSuccessorsAndBound(t *testing.T) {
	one := model.C(1)
	p := twoProcs([]model.Op{model.WriteOp(0, one), model.WriteOp(1, one), model.WriteOp(0, one)}, nil)
	s := psoRun(t, p, initial(t, p), "0", "0")
	var flushes []int
	p.ProcSuccessors(s, 0, model.PSO, 1, func(st model.Step, _ model.State) {
		if st.Flush {
			flushes = append(flushes, st.Var)
		} else {
			t.Errorf("a write of a second store to x within bound 1 per variable")
		}
	})
	if len(flushes) != 2 || flushes[0] != 0 || flushes[1] != 1 {
		t.Errorf("flushes of variables %v, want [0 1]", flushes)
	}
	if n := model.BufferLoad(s.Bufs[0], model.PSO); n != 1 {
		t.Errorf("BufferLoad under PSO = %d, want 1", n)
	}
	if n := model.BufferLoad(s.Bufs[0], model.TSO); n != 2 {
		t.Errorf("BufferLoad under TSO = %d, want 2", n)
	}
}

// TestPSOReplay replays the message-passing counterexample, which PSO
// allows and TSO forbids.
func TestPSOReplay(t *testing.T) {
	one := model.C(1)
	x, y := 0, 1
	p := twoProcs(
		[]model.Op{model.WriteOp(x, one), model.WriteOp(y, one)},
		[]model.Op{model.ReadEqOp(y, one), model.ReadEqOp(x, model.C(0))})
	p.Bad = []model.BadState{{Locs: []model.ProcLoc{{Proc: 1, Loc: 2}}}}
	steps := []model.Step{
		{Proc: 0, Trans: 0, Var: x, Val: 1},
		{Proc: 0, Trans: 1, Var: y, Val: 1},
		{Proc: 0, Trans: -1, Flush: true, Var: y, Val: 1},
		{Proc: 1, Trans: 0, Var: y, Val: 1},
		{Proc: 1, Trans: 1, Var: x, Val: 0},
	}
	tr := &model.Trace{Model: model.PSO, InitMem: []int64{0, 0}, InitRegs: [][]int64{{0}, {0}}, Steps: steps}
	states, err := p.Replay(tr)
	if err != nil {
		t.Fatalf("PSO replay: %v", err)
	}
	if out := p.FormatTrace(tr, states); !strings.Contains(out, "flush y = 1") || !strings.Contains(out, "buffers: P0[x=1] P1[]") {
		t.Errorf("trace text lacks the flush of y or the buffers:\n%s", out)
	}
	tr.Model = model.TSO
	if _, err := p.Replay(tr); err == nil {
		t.Error("the PSO trace replays under TSO")
	}
}

func TestParseModelPSO(t *testing.T) {
	for _, m := range model.Models {
		got, err := model.ParseModel(m.String())
		if err != nil || got != m {
			t.Errorf("ParseModel(%q) = %v, %v", m.String(), got, err)
		}
	}
	if _, err := model.ParseModel("rmo"); err == nil || !strings.Contains(err.Error(), "pso") {
		t.Errorf("ParseModel(rmo) error %v does not list pso", err)
	}
}
