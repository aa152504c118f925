// Package c is reached through a method that a call through an interface
// reaches.
package c

// Twice returns 2*k.
func Twice(k int) int { return 2 * k }
