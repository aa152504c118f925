package unsupported

// threeLevelCallbacks has two workers call, three deep, the closures each
// task returns, each capturing a value the level above computed: the
// rounds of lowering make a function of the innermost type for every
// object the captured variables may be, past the table's bound. The
// answer names that bound, not the rounds that did not settle.
//
//fencecheck:system
func threeLevelCallbacks() {
	tasks := make(chan func() func() func() int, 2)
	out := make(chan int, 2)
	for range 2 {
		go func() {
			for t := range tasks {
				out <- t()()() // want `^unsupported in a fencecheck system: more than 64 function values of type func\(\) int sent on channels or stored by goroutines`
			}
		}()
	}
	for i := 1; i <= 2; i++ {
		tasks <- func() func() func() int {
			b := i * 2
			return func() func() int {
				c := b + 1
				return func() int { return c }
			}
		}
	}
	close(tasks)
	if <-out+<-out != 8 {
		panic("lost a result")
	}
}
