package pipeline

import "context"

// generate sends 1, 2, 3 on out; the consumer may stop listening early.
func generate(out chan<- int) {
	for i := 1; i <= 3; i++ {
		out <- i
	}
	close(out)
}

// generateCtx stops sending once ctx is cancelled.
func generateCtx(ctx context.Context, out chan<- int) {
	defer close(out)
	for i := 1; i <= 3; i++ {
		select {
		case out <- i:
		case <-ctx.Done():
			return
		}
	}
}

// firstSystem takes the first value of a stage and returns: the stage is
// left waiting to send the second, for good.
//
//fencecheck:system
func firstSystem() {
	out := make(chan int)
	go generate(out)
	if <-out != 1 {
		panic("out of order")
	}
}

// firstFixedSystem cancels the stage when it is done with it.
//
//fencecheck:system
func firstFixedSystem() {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := make(chan int)
	go generateCtx(ctx, out)
	if <-out != 1 {
		panic("out of order")
	}
}
