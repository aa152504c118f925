package witness

import "sync"

//fencecheck:system
func sb() {
	var x, y, r0, r1 int32
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		x = 1 // want `(?s)^x86-TSO: the store to x .*\nstep +\| .*\| store buffers\n-+.*store x=1 \(line 11\).*load y: 0 \(line 12\)`
		r0 = y
		wg.Done()
	}()
	go func() {
		y = 1 // want `(?s)^x86-TSO: the store to y .*\nstep `
		r1 = x
		wg.Done()
	}()
	wg.Wait()
	if r0 == 0 && r1 == 0 {
		panic("both loads saw 0")
	}
}

// sbLogged is store buffering with a log store that nothing reads: the
// search runs on the cone of influence of the bad state, without it, and
// the table says so.
//
// logged counts the stores of sbLogged's first goroutine; nothing reads it.
var logged int32

//fencecheck:system
func sbLogged() {
	var x, y, r0, r1 int32
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		x = 1 // want `(?s)^x86-TSO: the store to x .*\nstep .*\nThe search ran on the cone of influence of the bad states: .*1 writes`
		logged = 1
		r0 = y
		wg.Done()
	}()
	go func() {
		y = 1 // want `(?s)^x86-TSO: the store to y .*\nstep .*\nThe search ran on the cone of influence`
		r1 = x
		wg.Done()
	}()
	wg.Wait()
	if r0 == 0 && r1 == 0 {
		panic("both loads saw 0")
	}
}
