// Package a uses package b through an interface.
package a

import "example.com/reach/b"

func use() int {
	g := b.New()
	g.Add(1)
	return 0
}
