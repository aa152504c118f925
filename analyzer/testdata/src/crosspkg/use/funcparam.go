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

// doCall runs fn through a closure and keeps its result, as singleflight's
// doCall does.
func doCall(fn func() int) (v int) {
	func() {
		v = fn()
	}()
	return v
}

//fencecheck:system
func resultThroughClosure() {
	var mu sync.Mutex
	total := 0
	var wg sync.WaitGroup
	wg.Add(2)
	for i := range 2 {
		go func() {
			defer wg.Done()
			n := doCall(func() int { return i + 1 })
			mu.Lock()
			total += n
			mu.Unlock()
		}()
	}
	wg.Wait()
	if total != 3 {
		panic("wrong total")
	}
}

//fencecheck:system
func resultThroughClosureWrong() {
	var mu sync.Mutex
	total := 0
	var wg sync.WaitGroup
	wg.Add(2)
	for i := range 2 {
		go func() {
			defer wg.Done()
			n := doCall(func() int { return i })
			mu.Lock()
			total += n
			mu.Unlock()
		}()
	}
	wg.Wait()
	if total != 3 {
		panic("wrong total") // want `SC: system resultThroughClosureWrong is wrong even under sequential consistency`
	}
}
