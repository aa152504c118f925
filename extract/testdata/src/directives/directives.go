package directives

import "sync/atomic"

//fencecheck:system
var notAFunc int32

//fencecheck:range 5
var noDots int32

//fencecheck:range 3..1
var empty int32

//fencecheck:range 0..x
var badBound int32

//fencecheck:range 0..3
type notAVar struct{}

//fencecheck:foo
func unknown() {}

//fencecheck:system now
func withArgs() {}

func misplaced() {
	x := 0
	x++ //fencecheck:critical
	_ = x
	//fencecheck:nofence
}

//fencecheck:range 0..1
var fine int32

var alsoFine struct {
	n int32 //fencecheck:range 0..2
}

// Not a directive: a space after //.
// fencecheck:bogus

//fencecheck:system
func good() {
	go func() {
		atomic.StoreInt32(&fine, 1) //fencecheck:nofence
	}()
	alsoFine.n = 1
}
