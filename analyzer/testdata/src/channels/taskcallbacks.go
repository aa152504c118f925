package channels

// Tasks that return the closure a worker calls next, each capturing a
// value the task computed, in the style of sourcegraph/conc's stream: two
// workers call the callbacks. A callback names what its task's closure
// captured, not every object of the program.

//fencecheck:system
func twoWorkersCallbacks() {
	tasks := make(chan func() func() int, 2)
	out := make(chan int, 2)
	for range 2 {
		go func() {
			t := <-tasks
			out <- t()()
		}()
	}
	for i := 1; i <= 2; i++ {
		tasks <- func() func() int {
			b := i * 2
			return func() int { return b }
		}
	}
	if <-out+<-out != 6 {
		panic("lost a result")
	}
}

//fencecheck:system
func twoWorkersCallbacksWrong() {
	tasks := make(chan func() func() int, 2)
	out := make(chan int, 2)
	for range 2 {
		go func() {
			t := <-tasks
			out <- t()()
		}()
	}
	for i := 1; i <= 2; i++ {
		tasks <- func() func() int {
			b := i * 2
			return func() int { return b }
		}
	}
	if <-out == 4 {
		panic("the second task's callback ran first") // want `^SC: system twoWorkersCallbacksWrong is wrong even under sequential consistency`
	}
}
