package anywhere

import "sync"

// excludedStore forbids a barrier after the store to x; with barriers
// allowed anywhere, one goes after the load of z instead.
//
//fencecheck:system
func excludedStore() {
	var x, y, z, r0, r1, r2 int32
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		//fencecheck:nofence
		x = 1
		r2 = z // want `^x86-TSO: the store to x at anywhere\.go:15:3 can still sit in the store buffer when the load of y at anywhere\.go:17:8 reads memory; then the panic at anywhere\.go:\d+:3 is reached\. Add a barrier after this statement: a sync/atomic read-modify-write`
		r0 = y
		wg.Done()
	}()
	go func() {
		y = 1 // want `^x86-TSO: the store to y `
		r1 = x
		wg.Done()
	}()
	wg.Wait()
	if r0 == 0 && r1 == 0 && r2 == 0 {
		panic("both loads saw 0")
	}
}
