package fixes

import "sync"

// state is a named integer type: sync/atomic has no function for it.
type state int32

// flags holds shared values of types that the suggested fix cannot rewrite.
type flags struct {
	up   bool
	s    state
	n    int
	down bool
}

//fencecheck:system
func sbBool() {
	var f flags
	var r0, r1 bool
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		f.up = true // want `^x86-TSO: the store to f\.up`
		r0 = f.down
		wg.Done()
	}()
	go func() {
		f.down = true // want `^x86-TSO: `
		r1 = f.up
		wg.Done()
	}()
	wg.Wait()
	if !r0 && !r1 {
		panic("both loads saw false")
	}
}

//fencecheck:system
func sbNamedAndInt() {
	var f flags
	var r0 int
	var r1 state
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		f.s = 1 // want `^x86-TSO: `
		r0 = f.n
		wg.Done()
	}()
	go func() {
		f.n = 1 // want `^x86-TSO: `
		r1 = f.s
		wg.Done()
	}()
	wg.Wait()
	if r0 == 0 && r1 == 0 {
		panic("both loads saw 0")
	}
}
