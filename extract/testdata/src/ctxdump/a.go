package ctxdump

import "sync"

//fencecheck:system
func q1() {
	var wg sync.WaitGroup
	n := 0
	for c := make(chan int, 1); n < 2; c = make(chan int, 1) {
		n++
		c <- n
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-c
			c = nil
		}()
	}
	wg.Wait()
}
