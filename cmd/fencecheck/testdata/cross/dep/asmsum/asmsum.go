// Package asmsum has a function written in assembly on amd64 beside
// functions written in Go.
package asmsum

// Double returns 2*a.
func Double(a int) int { return 2 * a }
