package extract

import (
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
