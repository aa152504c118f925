package use

import "sync"

// A call runs a function a goroutine was given, through a closure of its
// own, the way golang.org/x/sync/singleflight's doCall runs the caller's
// function.
type call struct {
	wg  sync.WaitGroup
	val int
}

func (c *call) run(fn func()) {
	defer c.wg.Done()
	func() {
		fn()
	}()
}

//fencecheck:system
func runGiven() {
	var c call
	c.wg.Add(1)
	go c.run(func() { c.val = 3 })
	c.wg.Wait()
	if c.val != 3 {
		panic("lost")
	}
}

//fencecheck:system
func runGivenWrong() {
	var c call
	c.wg.Add(1)
	go c.run(func() { c.val = 2 })
	c.wg.Wait()
	if c.val != 3 {
		panic("lost") // want `SC: system runGivenWrong is wrong even under sequential consistency`
	}
}
