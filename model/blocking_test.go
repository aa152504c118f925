package model_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/fencecheck/fencecheck/internal/progen"
	"github.com/fencecheck/fencecheck/model"
)

// TestBlockedLitmus checks Blocked on hand-written locations.
func TestBlockedLitmus(t *testing.T) {
	const x, y = 0, 1
	p := &model.Program{Vars: []model.Var{{Name: "x", Dom: model.Range(0, 3)}, {Name: "y", Dom: model.Range(0, 3)}}}
	q := &model.Process{Name: "p", Regs: []model.Reg{{Name: "r", Dom: model.Range(0, 3)}}}
	p.Procs = []*model.Process{q}
	for range 12 {
		q.AddLoc("", model.Pos{})
	}
	lock := model.CASSuccess(x, -1, model.C(0), model.C(1))
	q.AddTrans(0, lock, 11, model.Pos{})                                                         // L0: Mutex.Lock
	q.AddTrans(1, model.ReadEqOp(y, model.C(0)), 11, model.Pos{})                                // L1: WaitGroup.Wait
	q.AddTrans(2, model.ReadOp(x, 0), 11, model.Pos{})                                           // L2: a plain load
	q.AddTrans(3, model.GuardOp(model.Bin(model.OpEq, model.R(0), model.C(1))), 11, model.Pos{}) // L3: a register split
	cas := model.CASSuccess(x, -1, model.C(2), model.C(3))
	fail := model.CASFailure(x, -1, model.C(2))
	q.AddTrans(4, cas, 11, model.Pos{}) // L4: both outcomes of a CAS
	q.AddTrans(4, fail, 11, model.Pos{})
	// L5: a locked block that loads x into r, then waits on r: Once.Do's wait.
	q.AddTrans(5, model.LockedOp(model.ReadOp(x, 0), model.GuardOp(model.Bin(model.OpEq, model.R(0), model.C(2)))), 11, model.Pos{})
	// L6: a select of two waits.
	q.AddTrans(6, model.ReadEqOp(x, model.C(1)), 11, model.Pos{})
	q.AddTrans(6, model.ReadEqOp(y, model.C(1)), 11, model.Pos{})
	// L7: a locked block that writes x, then guards on x: it sees its own
	// write, so it never waits.
	q.AddTrans(7, model.LockedOp(model.WriteOp(x, model.C(2)), model.GuardOp(model.Bin(model.OpEq, model.V(x), model.C(2)))), 11, model.Pos{})
	tests := []struct {
		loc  int
		ok   bool
		want map[[3]int64]bool // (x, y, r) -> blocked; only when ok
	}{
		{0, true, map[[3]int64]bool{{0, 0, 0}: false, {1, 0, 0}: true}},
		{1, true, map[[3]int64]bool{{0, 0, 0}: false, {0, 2, 0}: true}},
		{2, false, nil},
		{3, false, nil},
		{4, false, nil},
		{5, true, map[[3]int64]bool{{2, 0, 0}: false, {1, 0, 2}: true}},
		{6, true, map[[3]int64]bool{{1, 0, 0}: false, {0, 1, 0}: false, {0, 0, 0}: true}},
		{7, false, nil},
		{11, false, nil},
	}
	for _, tt := range tests {
		cond, ok := p.Blocked(0, tt.loc)
		if ok != tt.ok {
			t.Errorf("L%d: Blocked ok = %v, want %v", tt.loc, ok, tt.ok)
			continue
		}
		for st, want := range tt.want {
			v, err := model.Eval(cond, &model.Env{Regs: []int64{st[2]}, Mem: []int64{st[0], st[1]}})
			if err != nil || (v != 0) != want {
				t.Errorf("L%d at x=%d y=%d r=%d: blocked = %d (%v), want %v (condition %s)", tt.loc, st[0], st[1], st[2], v, err, want, model.FormatExpr(cond, p, q))
			}
		}
	}
}

// TestBlockedAgreesWithSteps checks Blocked against the semantics on the
// reachable SC states of generated programs: where it gives a condition,
// the condition holds exactly when the process has no step; where it gives
// none and the process has no step, the process has ended or waits on its
// registers alone.
func TestBlockedAgreesWithSteps(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	checked, spinChecked := 0, 0
	for i := range 300 {
		var p *model.Program
		if i%2 == 0 {
			p = progen.Simple(rng)
		} else {
			p = progen.Race(rng, progen.RaceOptions{Loops: true})
		}
		if !p.Finite() {
			continue
		}
		p.Index()
		seen := map[string]bool{}
		var queue []model.State
		if err := p.Initial(func(s model.State) { queue = append(queue, s) }); err != nil {
			continue
		}
		for len(queue) > 0 && len(seen) < 2000 {
			s := queue[0]
			queue = queue[1:]
			k := string(s.AppendKey(nil))
			if seen[k] {
				continue
			}
			seen[k] = true
			for q := range p.Procs {
				steps := 0
				p.ProcSuccessors(s, q, model.SC, 0, func(model.Step, model.State) { steps++ })
				cond, waits := p.Waits(q, s.Locs[q])
				spinCond, _, spins := p.Spins(q, s.Locs[q])
				if !waits && spins {
					cond = spinCond
				}
				if !waits && !spins {
					continue
				}
				v, err := model.Eval(model.Qualify(cond, q), &model.Env{AllRegs: s.Regs, Mem: s.Mem})
				if err != nil {
					continue // a fault: the step faults rather than blocks
				}
				if waits && (v != 0) != (steps == 0) {
					t.Fatalf("program %d, %s at L%d: blocked = %d with %d steps enabled\n%v", i, p.Procs[q].Name, s.Locs[q], v, steps, s)
				}
				if !waits {
					if forever, ok := spinsForever(p, s, q); ok && forever != (v != 0) {
						t.Fatalf("program %d, %s at L%d: spins = %d, but alone it spins forever: %v\n%v", i, p.Procs[q].Name, s.Locs[q], v, forever, s)
					}
					spinChecked++
				}
				checked++
			}
			p.Successors(s, model.SC, 0, func(_ model.Step, n model.State) {
				if n.Fault == nil {
					queue = append(queue, n)
				}
			})
		}
	}
	if checked == 0 {
		t.Fatal("no location with a blocking condition was met")
	}
	if spinChecked == 0 {
		t.Fatal("no location of a spin loop was met")
	}
	t.Logf("%d states of waiting processes checked, %d of them in spin loops", checked, spinChecked)
}

// spinsForever reports whether process q, alone from state s under SC,
// never takes a step that writes memory and never ends; ok is false when its states are
// too many to tell.
func spinsForever(p *model.Program, s model.State, q int) (forever, ok bool) {
	seen := map[string]bool{}
	queue := []model.State{s}
	for len(queue) > 0 {
		if len(seen) > 5000 {
			return false, false
		}
		st := queue[0]
		queue = queue[1:]
		k := string(st.AppendKey(nil))
		if seen[k] {
			continue
		}
		seen[k] = true
		if st.Fault != nil || len(p.Procs[q].Out(st.Locs[q])) == 0 {
			return false, true
		}
		left := false
		p.ProcSuccessors(st, q, model.SC, 0, func(step model.Step, n model.State) {
			op := p.Procs[q].Trans[step.Trans].Op
			if op.Kind == model.Write || op.Kind == model.Locked && slices.ContainsFunc(op.Body, func(b model.Op) bool { return b.Kind == model.Write }) {
				left = true
			}
			queue = append(queue, n)
		})
		if left {
			return false, true
		}
	}
	return true, true
}
