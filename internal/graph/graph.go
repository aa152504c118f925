// Package graph holds the graph algorithms that several parts of
// fencecheck share.
package graph

// Components returns the strongly connected components of the graph on the
// vertices 0..len(succ)-1 with the edges v → succ[v], each component after
// every component it reaches (Tarjan's algorithm, whose order this is).
func Components(succ [][]int) [][]int {
	n := len(succ)
	index, low := make([]int, n), make([]int, n)
	onStack := make([]bool, n)
	for i := range index {
		index[i] = -1
	}
	var stack []int
	var out [][]int
	next := 0
	var visit func(v int)
	visit = func(v int) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		onStack[v] = true
		for _, u := range succ[v] {
			switch {
			case index[u] < 0:
				visit(u)
				low[v] = min(low[v], low[u])
			case onStack[u]:
				low[v] = min(low[v], index[u])
			}
		}
		if low[v] == index[v] {
			var comp []int
			for {
				u := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[u] = false
				comp = append(comp, u)
				if u == v {
					break
				}
			}
			out = append(out, comp)
		}
	}
	for v := range n {
		if index[v] < 0 {
			visit(v)
		}
	}
	return out
}
