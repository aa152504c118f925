package extract

import (
	"go/token"
	"math"
	"testing"

	"github.com/fencecheck/fencecheck/model"
)

// TestRefineRelation checks that a guard comparing two registers narrows
// each by the other's bounds, and fails when it cannot hold.
func TestRefineRelation(t *testing.T) {
	interval := func(lo, hi int64) abs { return abs{ival: true, lo: lo, hi: hi} }
	set := func(vs ...int64) abs { return abs{set: vs} }
	tests := []struct {
		name   string
		guard  model.Expr
		i, b   abs // registers 0 and 1 before
		holds  bool
		wi, wb abs // after, when the guard may hold
	}{
		{"counter below a set", model.Bin(model.OpLt, model.R(0), model.R(1)), topAbs, set(1, 2, 4, 16), true, interval(math.MinInt64, 15), set(1, 2, 4, 16)},
		{"interval below a set", model.Bin(model.OpLt, model.R(0), model.R(1)), interval(0, 100), set(1, 2, 4, 16), true, interval(0, 15), set(1, 2, 4, 16)},
		{"set above an interval", model.Bin(model.OpLt, model.R(0), model.R(1)), interval(3, 9), set(1, 2, 4, 16), true, interval(3, 9), set(4, 16)},
		{"at most", model.Bin(model.OpLe, model.R(0), model.R(1)), interval(0, 100), interval(0, 7), true, interval(0, 7), interval(0, 7)},
		{"counting down", model.Bin(model.OpGt, model.R(0), model.C(0)), interval(-5, 5), topAbs, true, set(1, 2, 3, 4, 5), topAbs},
		{"mirrored", model.Bin(model.OpGe, model.R(1), model.R(0)), interval(0, 100), set(3), true, interval(0, 3), set(3)},
		{"both sides of a conjunction", model.Bin(model.OpAnd, model.Bin(model.OpGe, model.R(0), model.C(2)), model.Bin(model.OpLt, model.R(0), model.R(1))), interval(0, 100), set(5), true, interval(2, 4), set(5)},
		{"never", model.Bin(model.OpLt, model.R(0), model.R(1)), interval(10, 20), set(1, 2), false, abs{}, abs{}},
		{"a range loop's next index", model.Bin(model.OpLt, model.Bin(model.OpAdd, model.R(0), model.C(1)), model.R(1)), topAbs, interval(0, 8), true, interval(math.MinInt64, 6), interval(0, 8)},
		{"an offset below", model.Bin(model.OpGe, model.Bin(model.OpSub, model.R(0), model.C(2)), model.R(1)), topAbs, set(3), true, interval(5, math.MaxInt64), set(3)},
		{"a shifted interval", model.Bin(model.OpLe, model.Bin(model.OpAdd, model.R(0), model.C(3)), model.R(1)), interval(0, 100), set(4, 10), true, interval(0, 7), set(4, 10)},
		{"an else branch", model.Not(model.Bin(model.OpGe, model.R(0), model.R(1))), interval(0, 100), set(2), true, interval(0, 1), set(2)},
		{"a failed conjunction's other side", model.Not(model.Bin(model.OpAnd, model.Bin(model.OpGe, model.R(1), model.C(0)), model.Bin(model.OpLt, model.R(0), model.R(1)))), interval(0, 100), set(2), true, interval(2, 100), set(2)},
		{"uint64 below", ult(model.R(0), model.R(1)), interval(0, 100), set(2), true, interval(0, 1), set(2)},
		{"uint64 not at most", model.Not(compareUnsigned64(token.LEQ, model.R(1), model.R(0))), interval(0, 100), set(2), true, interval(0, 1), set(2)},
		{"uint64 above a constant", compareUnsigned64(token.GTR, model.R(0), model.C(5)), interval(0, 100), topAbs, true, interval(6, 100), topAbs},
		{"uint64 never below", ult(model.R(0), model.R(1)), interval(5, 100), set(2), false, abs{}, abs{}},
		{"a truth compared with 0", model.Bin(model.OpEq, model.Bin(model.OpLt, model.R(0), model.R(1)), model.C(0)), interval(0, 100), set(2), true, interval(2, 100), set(2)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := &absEnv{regs: []abs{tt.i, tt.b}}
			holds := env.refine(tt.guard)
			if holds != tt.holds {
				t.Fatalf("refine = %v, want %v", holds, tt.holds)
			}
			if !holds {
				return
			}
			if !env.regs[0].equal(tt.wi) || !env.regs[1].equal(tt.wb) {
				t.Errorf("registers %+v and %+v, want %+v and %+v", env.regs[0], env.regs[1], tt.wi, tt.wb)
			}
		})
	}
}

// TestLongestWrites checks the bound on the writes of one run: the
// branches of a split count once, a loop's writes count with how often
// they run, and the ways after a loop add to it.
func TestLongestWrites(t *testing.T) {
	type tr struct{ from, to, weight int }
	tests := []struct {
		name  string
		locs  int
		trans []tr
		want  int
	}{
		{"a line of writes", 4, []tr{{0, 1, 1}, {1, 2, 1}, {2, 3, 1}}, 3},
		{"a split of three writes", 3, []tr{{0, 1, 1}, {0, 1, 1}, {0, 1, 1}, {1, 2, 1}}, 2},
		{"the heavier way", 4, []tr{{0, 1, 1}, {0, 2, 0}, {1, 3, 0}, {2, 3, 0}}, 1},
		{"a loop then a write", 4, []tr{{0, 1, 0}, {1, 2, 3}, {2, 1, 0}, {1, 3, 0}, {3, 3, 0}}, 3},
		{"a loop of two writes, a write after", 5, []tr{{0, 1, 1}, {1, 2, 2}, {2, 1, 2}, {1, 3, 0}, {3, 4, 1}}, 6},
		{"a write of no run", 3, []tr{{0, 1, 0}, {2, 1, 5}}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := &model.Process{Locs: make([]model.Loc, tt.locs)}
			var weight []int
			for _, x := range tt.trans {
				q.Trans = append(q.Trans, model.Transition{From: x.from, To: x.to})
				weight = append(weight, x.weight)
			}
			_, comp := q.Cycles()
			if got := longestWrites(q, comp, weight); got != tt.want {
				t.Errorf("longestWrites = %d, want %d", got, tt.want)
			}
		})
	}
}

// TestCopyCounters checks the loops bounded by a register and its copy
// (a slice's length grown by append, the loop's variable taking the grown
// slice): every cycle through the write passes the copy, which the
// increment feeds; without those conditions the loop is unbounded.
func TestCopyCounters(t *testing.T) {
	// Locations: 0 entry, 1 loop head, 2 after the increment, 3 after the
	// write, 4 exit. Registers: 0 the copy (x), 1 the grown value (y).
	inc := model.Transition{From: 1, To: 2, Op: model.AssignOp(1, model.Bin(model.OpAdd, model.R(0), model.C(1)))}
	write := model.Transition{From: 2, To: 3, Op: model.WriteOp(0, model.C(1))}
	cp := model.Transition{From: 3, To: 1, Op: model.AssignOp(0, model.R(1))}
	entry := model.Transition{From: 0, To: 1, Op: model.AssignOp(0, model.C(0))}
	exit := model.Transition{From: 1, To: 4, Op: model.NopOp()}
	tests := []struct {
		name    string
		trans   []model.Transition
		yAt3    abs
		bound   int
		bounded bool
	}{
		{"a copy fed by the increment", []model.Transition{entry, inc, write, cp, exit}, abs{ival: true, lo: 1, hi: 8}, 9, true},
		{"a way back without the copy", []model.Transition{entry, inc, write, cp, exit, {From: 3, To: 1, Op: model.NopOp()}}, abs{ival: true, lo: 1, hi: 8}, 0, false},
		{"the copy set elsewhere too", []model.Transition{entry, inc, write, cp, exit, {From: 2, To: 2, Op: model.AssignOp(0, model.C(0))}}, abs{ival: true, lo: 1, hi: 8}, 0, false},
		{"an unbounded increment", []model.Transition{entry, inc, write, cp, exit}, topAbs, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := &model.Process{Locs: make([]model.Loc, 5), Regs: make([]model.Reg, 2), Trans: tt.trans}
			regs := make([][]abs, 5)
			for l := range regs {
				regs[l] = []abs{topAbs, topAbs}
			}
			regs[3][1] = tt.yAt3
			_, comp := q.Cycles()
			got, ok := loopBudget(q, comp, regs, 2)
			if ok != tt.bounded || ok && got != tt.bound {
				t.Errorf("loopBudget = %d, %v, want %d, %v", got, ok, tt.bound, tt.bounded)
			}
		})
	}
}
