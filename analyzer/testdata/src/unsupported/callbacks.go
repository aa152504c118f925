package unsupported

// twoWorkersCallbacks has two workers call the closure each task returns,
// which captures a value the task computed: the rounds of lowering make a
// function of the callbacks' type for every object the captured variable
// may be, past the table's bound. The answer names that bound, not the
// rounds that did not settle.
//
//fencecheck:system
func twoWorkersCallbacks() {
	tasks := make(chan func() func() int, 2)
	out := make(chan int, 2)
	for range 2 {
		go func() {
			t := <-tasks
			out <- t()() // want `^unsupported in a fencecheck system: more than 64 function values of type func\(\) int sent on channels or stored by goroutines`
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
