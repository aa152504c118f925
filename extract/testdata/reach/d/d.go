// Package d is imported but never reached.
package d

import "fmt"

// Print prints n.
func Print(n int) { fmt.Println(n) }
