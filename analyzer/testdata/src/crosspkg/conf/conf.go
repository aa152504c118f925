// Package conf holds settings that its initialisation computes, and a
// generic helper, for systems of other packages.
package conf

// Workers is set by the package's initialisation.
var Workers = defaultWorkers()

func defaultWorkers() int { return 2 }

// Max returns the larger of a and b.
func Max[T int | int32 | uint32](a, b T) T {
	if a > b {
		return a
	}
	return b
}
