// Package cputime reads the CPU time the process has used, for benchmark
// tables that must stay meaningful on a loaded machine, where wall time
// varies with the other processes' load.
package cputime

import "time"

// Process returns the user plus system CPU time the process has used so
// far, and false where the platform does not report it.
func Process() (time.Duration, bool) { return process() }

// Measure runs f and returns its wall time and the process CPU time it used
// (the wall time again where the platform does not report CPU time). A
// single-threaded f, such as one solver call sequence, is what the CPU
// time describes; the process's other goroutines (the garbage collector's
// included) are charged too.
func Measure(f func()) (wall, cpu time.Duration) {
	c0, ok := Process()
	start := time.Now()
	f()
	wall = time.Since(start)
	if !ok {
		return wall, wall
	}
	c1, _ := Process()
	return wall, c1 - c0
}
