// Package hygiene has comments that are almost directives, and directives
// that match nothing: each is reported, at its position.
package hygiene

import (
	"sync"
	"sync/atomic"
)

// fencecheck:system // want `^malformed directive "// fencecheck:system": no space may follow // \(write //fencecheck:system\)$`
func spaceAfterSlashes() {}

// Floating, so that gofmt leaves them as written.

//fencecheck: system // want `^malformed directive "//fencecheck: system": no space may follow the colon \(write //fencecheck:system\)$`

//Fencecheck:system // want `^malformed directive "//Fencecheck:system": directives are written in lower case \(write //fencecheck:system\)$`

//FENCECHECK:SYSTEM // want `^malformed directive "//FENCECHECK:SYSTEM": directives are written in lower case \(write //fencecheck:system\)$`

//fencecheck:sytem // want `^unknown directive //fencecheck:sytem \(did you mean //fencecheck:system\?\)$`
func misspelt() {}

/* fencecheck:system */ // want `^malformed directive "/\* fencecheck:system \*/": a directive is a // line comment, not a /\* \*/ comment \(write //fencecheck:system\)$`

func blockComment() {}

// fencecheck reports this, and fencecheck:system is a word here: prose.
func prose() {}

var neverUsed int32 //fencecheck:range 0..3 // want `^unused //fencecheck:range: no goroutine of any system in this package uses neverUsed$`

func helper(x int32) int32 {
	//fencecheck:critical // want `^unused //fencecheck:critical: no goroutine of any system runs the statement after it$`
	x++
	return x
}

// publish hands data over with an atomic flag: correct on x86-TSO.
//
//fencecheck:system
func publish() {
	var flag, data int32
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		data = 1 //fencecheck:nofence
		//fencecheck:nofence // want `^unused //fencecheck:nofence: the statement it marks makes no plain store to shared memory in any system, and barriers go only after such stores$`
		atomic.StoreInt32(&flag, 1)
		wg.Done()
	}()
	for atomic.LoadInt32(&flag) == 0 {
	}
	if data != 1 {
		panic("stale data")
	}
	wg.Wait()
}
