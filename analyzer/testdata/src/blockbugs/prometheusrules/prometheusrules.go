// Package prometheusrules is written in the style of Prometheus' rule
// manager evaluating the rules of a group concurrently and collecting
// their samples. The bug is a worker pool that waits before it drains:
// the group waits for the evaluating goroutines before it reads their
// results, on an unbuffered channel, so the goroutines wait for the reader
// and the reader for them (a deadlock).
package prometheusrules

import "sync"

// rule is one recording rule.
type rule struct {
	value int
}

func (r *rule) eval() int {
	return r.value
}

// Group is a group of rules evaluated together.
type Group struct {
	rules [2]rule
}

// Eval evaluates the rules and sums their samples, waiting for the
// evaluations before it reads the results.
func (g *Group) Eval(samples chan int) int {
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			samples <- g.rules[i].eval() // want `^deadlock: go@\d+\(i=0\), go@\d+\(i=1\) and main block forever in samples <- g\.rules\[i\]\.eval\(\) and wg\.Wait\(\) \(system evalGroup\)$`
		}()
	}
	wg.Wait()
	close(samples)
	sum := 0
	for s := range samples {
		sum += s
	}
	return sum
}

// evalFixed closes samples from a goroutine of its own once the
// evaluations are done, and drains them meanwhile.
func (g *Group) evalFixed(samples chan int) int {
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			samples <- g.rules[i].eval()
		}()
	}
	go func() {
		wg.Wait()
		close(samples)
	}()
	sum := 0
	for s := range samples {
		sum += s
	}
	return sum
}

// evalGroup evaluates a group of two rules.
//
//fencecheck:system
func evalGroup() {
	g := &Group{rules: [2]rule{{value: 1}, {value: 2}}}
	samples := make(chan int)
	if g.Eval(samples) != 3 {
		panic("lost a sample")
	}
}

// evalGroupFixed evaluates with evalFixed.
//
//fencecheck:system
func evalGroupFixed() {
	g := &Group{rules: [2]rule{{value: 1}, {value: 2}}}
	samples := make(chan int)
	if g.evalFixed(samples) != 3 {
		panic("lost a sample")
	}
}
