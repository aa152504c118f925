// Package hygiene has comments that are almost directives, and directives
// that match nothing.
package hygiene

import (
	"sync"
	"sync/atomic"
)

// fencecheck:system
func spaceAfterSlashes() {}

// In a doc comment, gofmt would put a space after the // of the next three,
// which are not directives to it: they stand apart from the declarations.

//fencecheck: system

func spaceAfterColon() {}

//Fencecheck:system

func upperCase() {}

//FENCECHECK:SYSTEM

func allUpperCase() {}

//fencecheck:sytem
func misspelt() {}

/* fencecheck:system */
func blockComment() {}

//fencecheck:range0..3
var noSpace int32

// fencecheck: reports data races (prose, not a directive).
// fencecheck reports this too, and fencecheck:bogus is just a word.
func prose() {}

var neverUsed int32 //fencecheck:range 0..3

var small uint8 //fencecheck:range 300..400

var wide int8 //fencecheck:range 0..1000

var flagged bool //fencecheck:range 0..5

//fencecheck:range 0..3
const notAVariable = 2

type pair struct {
	a, b int32 //fencecheck:range 0..1
}

var setupOnly pair

func helper() int32 {
	x := int32(1)
	//fencecheck:critical
	x++
	//fencecheck:nofence
	x++
	return x
}

//fencecheck:system
//fencecheck:system
func sys() {
	var flag, data int32
	var wg sync.WaitGroup
	setupOnly.a = 1
	wg.Add(1)
	go func() {
		data = 1 //fencecheck:nofence
		//fencecheck:nofence
		atomic.StoreInt32(&flag, 1)
		local := data //fencecheck:nofence
		local++       //fencecheck:nofence
		_ = local
		wg.Done()
	}()
	for atomic.LoadInt32(&flag) == 0 {
	}
	//fencecheck:critical
	wg.Wait()
	_ = data
}
