package nofence

import "sync"

//fencecheck:system
func excluded() {
	var x, y, r0, r1 int32
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		//fencecheck:nofence
		x = 1
		r0 = y
		wg.Done()
	}()
	go func() {
		y = 1
		r1 = x
		wg.Done()
	}()
	wg.Wait()
	if r0 == 0 && r1 == 0 {
		panic("both loads saw 0") // want `^x86-TSO: in system excluded the panic at nofence\.go:23:3 is reached, and no barrier allowed by -placement=after-writes and //fencecheck:nofence prevents it`
	}
}
