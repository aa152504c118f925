package graph

import (
	"slices"
	"testing"
)

func TestComponents(t *testing.T) {
	tests := []struct {
		name string
		succ [][]int
		want [][]int // each component sorted, in the order returned
	}{
		{"empty", nil, nil},
		{"one vertex", [][]int{nil}, [][]int{{0}}},
		{"self loop", [][]int{{0}}, [][]int{{0}}},
		{"chain", [][]int{{1}, {2}, nil}, [][]int{{2}, {1}, {0}}},
		{"cycle then exit", [][]int{{1}, {0, 2}, nil}, [][]int{{2}, {0, 1}}},
		{"two cycles", [][]int{{1}, {0, 2}, {3}, {2}}, [][]int{{2, 3}, {0, 1}}},
		{"unreachable from 0", [][]int{nil, {0}}, [][]int{{0}, {1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Components(tt.succ)
			for _, c := range got {
				slices.Sort(c)
			}
			if !slices.EqualFunc(got, tt.want, slices.Equal) {
				t.Errorf("Components(%v) = %v, want %v", tt.succ, got, tt.want)
			}
			// Every edge leaves a component for one returned before it.
			at := map[int]int{}
			for i, c := range got {
				for _, v := range c {
					at[v] = i
				}
			}
			for v, us := range tt.succ {
				for _, u := range us {
					if at[u] > at[v] {
						t.Errorf("edge %d → %d goes to a later component", v, u)
					}
				}
			}
		})
	}
}
