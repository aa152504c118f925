// Package use checks systems that call into another package of the module
// and, through it, into a dependency.
package use

import (
	"example.com/app/lib"
	"example.com/dep/ring"
)

//fencecheck:system
func handOff() {
	var b ring.Box
	go lib.Send(&b, 7, false)
	if b.Take() != 7 || b.Puts() != 1 {
		panic("lost")
	}
}

//fencecheck:system
func handOffEarly() {
	var b ring.Box
	go lib.Send(&b, 7, true)
	if b.Take() != 7 {
		panic("lost")
	}
}
