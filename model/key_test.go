package model_test

import (
	"math"
	"reflect"
	"testing"

	"github.com/fencecheck/fencecheck/model"
)

// TestDecodeKey checks that DecodeKey reads back what AppendKey wrote, for
// states one after another in one buffer (as a packed queue holds them).
func TestDecodeKey(t *testing.T) {
	p := &model.Program{
		Vars: []model.Var{{Name: "x"}, {Name: "y"}},
		Procs: []*model.Process{
			{Name: "P0", Regs: []model.Reg{{Name: "$r"}}},
			{Name: "P1", Regs: []model.Reg{{Name: "$a"}, {Name: "$b"}}},
		},
	}
	states := []model.State{
		{Locs: []int{0, 3}, Regs: [][]int64{{-1}, {math.MinInt64, math.MaxInt64}}, Mem: []int64{0, 7},
			Bufs: [][]model.BufEntry{nil, {{Var: 1, Val: -5}, {Var: 0, Val: 2}}}},
		{Locs: []int{12, 0}, Regs: [][]int64{{0}, {1, 2}}, Mem: []int64{-3, 0},
			Bufs: [][]model.BufEntry{{{Var: 0, Val: 1}}, nil}},
	}
	var b []byte
	for _, s := range states {
		b = s.AppendKey(b)
	}
	off := 0
	for i, want := range states {
		got, n := p.DecodeKey(b[off:])
		off += n
		if !reflect.DeepEqual(got, want) {
			t.Errorf("state %d: got %+v, want %+v", i, got, want)
		}
	}
	if off != len(b) {
		t.Errorf("decoded %d of %d bytes", off, len(b))
	}
}
