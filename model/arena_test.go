package model_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/fencecheck/fencecheck/model"
)

// TestArenaSuccessors searches a program's whole state space under each
// model twice, once computing the successors on the heap and once in one
// arena reset before each expansion and decoding each state into one
// reused Decoded, and checks that both searches see the same steps and
// successors, in the same order, state by state.
func TestArenaSuccessors(t *testing.T) {
	one, two := model.C(1), model.C(2)
	p := twoProcs(
		[]model.Op{model.WriteOp(0, one), model.WriteOp(1, two), model.SSFenceOp(), model.ReadOp(1, 0), model.WriteOp(0, two), model.FenceOp()},
		[]model.Op{model.ReadOp(0, 0), model.AssignOp(0, model.C(3)), model.WriteOp(1, one), model.LockedOp(model.ReadOp(0, 0), model.WriteOp(0, model.C(3))), model.WriteOp(0, one)},
	)
	for _, m := range []model.Model{model.SC, model.TSO, model.PSO} {
		var arena model.Arena
		var dec model.Decoded
		visited := map[string]bool{}
		queue := [][]byte{initial(t, p).AppendKey(nil)}
		visited[string(queue[0])] = true
		for len(queue) > 0 {
			key := queue[0]
			queue = queue[1:]
			heapSt, _ := p.DecodeKey(key)
			st, n := p.DecodeKeyInto(key, &dec)
			if n != len(key) || string(st.AppendKey(nil)) != string(key) {
				t.Fatalf("%v: DecodeKeyInto does not invert AppendKey", m)
			}
			arena.Reset()
			// The arena's states are read once the whole expansion is
			// done: no later step may have overwritten an earlier one.
			var want, got []string
			var steps []model.Step
			var states []model.State
			for i := range p.Procs {
				p.ProcSuccessors(heapSt, i, m, 2, func(step model.Step, ns model.State) {
					want = append(want, fmt.Sprintf("%+v %q", step, ns.AppendKey(nil)))
				})
				p.ProcSuccessorsIn(st, i, m, 2, &arena, func(step model.Step, ns model.State) {
					steps, states = append(steps, step), append(states, ns)
				})
			}
			for k, ns := range states {
				key := ns.AppendKey(nil)
				got = append(got, fmt.Sprintf("%+v %q", steps[k], key))
				if !visited[string(key)] {
					visited[string(key)] = true
					queue = append(queue, key)
				}
			}
			if !slices.Equal(got, want) {
				t.Fatalf("%v: successors in the arena %q, on the heap %q", m, got, want)
			}
		}
		if len(visited) < 20 {
			t.Errorf("%v: only %d states: the program does not exercise the steps", m, len(visited))
		}
	}
}
