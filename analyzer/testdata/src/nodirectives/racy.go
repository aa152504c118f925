// Package nodirectives has racy code but no fencecheck directive: the
// analyzer looks at nothing.
package nodirectives

var x, y int32

func racy() int32 {
	go func() { x = 1 }()
	return y
}
