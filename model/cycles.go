package model

// Cycles reports, for every location of q, whether it lies on a cycle: it is
// in a strongly connected component with more than one location, or has a
// transition to itself; and it numbers the components: comp[l] is the
// component of location l (a transition lies on a cycle exactly when its
// source and target share a component). Tarjan's algorithm, iterative.
func (q *Process) Cycles() (res []bool, comp []int) {
	n := len(q.Locs)
	succ := make([][]int, n)
	res = make([]bool, n)
	comp = make([]int, n)
	ncomp := 0
	for _, t := range q.Trans {
		if t.From < 0 || t.From >= n || t.To < 0 || t.To >= n {
			continue
		}
		succ[t.From] = append(succ[t.From], t.To)
		if t.From == t.To {
			res[t.From] = true
		}
	}
	index := make([]int, n)
	low := make([]int, n)
	onStack := make([]bool, n)
	for i := range index {
		index[i] = -1
	}
	var stack []int
	next := 0
	type frame struct{ v, i int }
	for root := range n {
		if index[root] >= 0 {
			continue
		}
		call := []frame{{root, 0}}
		index[root], low[root] = next, next
		next++
		stack = append(stack, root)
		onStack[root] = true
		for len(call) > 0 {
			f := &call[len(call)-1]
			if f.i < len(succ[f.v]) {
				w := succ[f.v][f.i]
				f.i++
				switch {
				case index[w] < 0:
					index[w], low[w] = next, next
					next++
					stack = append(stack, w)
					onStack[w] = true
					call = append(call, frame{w, 0})
				case onStack[w]:
					low[f.v] = min(low[f.v], index[w])
				}
				continue
			}
			v := f.v
			call = call[:len(call)-1]
			if len(call) > 0 {
				u := call[len(call)-1].v
				low[u] = min(low[u], low[v])
			}
			if low[v] == index[v] {
				k := len(stack) - 1
				for stack[k] != v {
					k--
				}
				if len(stack)-k > 1 {
					for _, w := range stack[k:] {
						res[w] = true
					}
				}
				for _, w := range stack[k:] {
					onStack[w] = false
					comp[w] = ncomp
				}
				ncomp++
				stack = stack[:k]
			}
		}
	}
	return res, comp
}
