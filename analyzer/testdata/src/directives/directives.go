package directives

import "sync"

type counter struct {
	//fencecheck:range 5 // want `malformed //fencecheck:range`
	n int32
}

//fencecheck:bogus // want `unknown directive //fencecheck:bogus`

//fencecheck:system
func sys() {
	var c counter
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		c.n = 1
		wg.Done()
	}()
	wg.Wait()
}
