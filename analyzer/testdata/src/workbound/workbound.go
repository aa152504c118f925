// Package workbound runs with a work bound of a few hundred units (-maxwork):
// the systems' answers are inconclusive, the same on every machine, and name
// the variables that make each engine's search large.
package workbound

import "sync"

// counters has counters that grow without bound (in endless loops): the
// predicate engine takes it, and the answer names the growing counter and
// the statement that made its last value in the search that found it
// growing (the search of the runs under sequential consistency that gives
// the other counters of a system their domains). Each goroutine steps its
// own counter and reads the other's, and main reads what the two
// goroutines read.
//
//fencecheck:system
func counters() { // want `^inconclusive: system counters, while looking for data races: the pred engine reached the work bound of 300 units per system after \d+ states and \d+ solver calls?; raise it with -maxwork\. The predicate engine was chosen because \S+ \(workbound\.go:\d+:\d+\) grows without bound: a search of the runs under sequential consistency saw it take \d+ values and more, the last made at workbound\.go:\d+:\d+$`
	var x, y, r0, r1 int64
	go func() {
		for {
			x += 5
			r0 = y
		}
	}()
	go func() {
		for {
			y += 7
			r1 = x
		}
	}()
	if r0 == 1 && r1 == 1 {
		panic("both loads saw 1")
	}
}

// flags is store buffering on flags of two values: the explicit engine
// takes it, and no range would make its search smaller.
//
//fencecheck:system
func flags() { // want `^inconclusive: system flags: the explicit engine reached the work bound of 300 units per system after 301 states; raise it with -maxwork\. The explicit engine was chosen because the system is finite and loop-free$`
	var x, y, r0, r1 int32
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		x = 1  // want `^race: go@44 stores x here`
		r0 = y // want `^race: go@44 loads y here`
		wg.Done()
	}()
	go func() {
		y = 1
		r1 = x
		wg.Done()
	}()
	wg.Wait()
	if r0 == 0 && r1 == 0 {
		panic("both loads saw 0")
	}
}

// ranged has a ranged counter and a loop of seven rounds: the sb engine takes it.
//
//fencecheck:system
func ranged() { // want `^inconclusive: system ranged: the sb engine reached the work bound of 300 units per system after 301 states; raise it with -maxwork\. The single-buffer \(sb\) engine was chosen because the system is finite and has loops; its search grows with the domains of n \(0\.\.9\) and i \(workbound\.go:70:15\) \(0\.\.7\): a narrower //fencecheck:range LO\.\.HI on them shrinks it$`
	//fencecheck:range 0..9
	var n int32
	var done int32
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		for i := 0; i < 7; i++ {
			n = n + 1 // want `^race: go@69 stores n here`
		}
		done = 1 // want `^race: go@69 stores done here`
		wg.Done()
	}()
	go func() {
		if done == 1 && n == 0 {
			panic("lost the counts")
		}
		wg.Done()
	}()
	wg.Wait()
}
