package channels

// forward merges a and b into out until both are closed, disabling each
// closed input by setting it to nil.
func forward(a, b <-chan int, out chan<- int) {
	for a != nil || b != nil {
		select {
		case v, ok := <-a:
			if !ok {
				a = nil
				continue
			}
			out <- v
		case v, ok := <-b:
			if !ok {
				b = nil
				continue
			}
			out <- v
		}
	}
	close(out)
}

// forwardFirst stops at the first closed input: the other producer is left
// waiting to send.
func forwardFirst(a, b <-chan int, out chan<- int) {
	for a != nil && b != nil {
		select {
		case v, ok := <-a:
			if !ok {
				a = nil
				continue
			}
			out <- v
		case v, ok := <-b:
			if !ok {
				b = nil
				continue
			}
			out <- v
		}
	}
	close(out)
}

// produce sends v on c and closes it.
func produce(c chan<- int, v int) {
	c <- v // want `^leak: produce\([12]\) blocks forever in c <- v after system mergeFirst returns$`
	close(c)
}

// mergeNil merges two producers' values.
//
//fencecheck:system
func mergeNil() {
	a, b, out := make(chan int), make(chan int), make(chan int)
	go produce(a, 1)
	go produce(b, 2)
	go forward(a, b, out)
	n := 0 //fencecheck:range 0..3
	for v := range out {
		n += v
	}
	if n != 3 {
		panic("lost a value")
	}
}

// mergeFirst leaves a producer behind.
//
//fencecheck:system
func mergeFirst() {
	a, b, out := make(chan int), make(chan int), make(chan int)
	go produce(a, 1)
	go produce(b, 2)
	go forwardFirst(a, b, out)
	for range out {
	}
}

// merge returns a channel with the values of a and b, closed once both
// are: its goroutine captures a and b and sets each to nil when it closes.
func merge(a, b <-chan int) <-chan int {
	out := make(chan int)
	go func() {
		defer close(out)
		for a != nil || b != nil {
			select {
			case v, ok := <-a:
				if !ok {
					a = nil
					continue
				}
				out <- v
			case v, ok := <-b:
				if !ok {
					b = nil
					continue
				}
				out <- v
			}
		}
	}()
	return out
}

// producer returns a channel on which a goroutine sends v, then closes it.
func producer(v int) <-chan int {
	c := make(chan int)
	go produce(c, v)
	return c
}

// mergeClosure merges two producers through merge.
//
//fencecheck:system
func mergeClosure() {
	n := 0 //fencecheck:range 0..3
	for v := range merge(producer(1), producer(2)) {
		n += v
	}
	if n != 3 {
		panic("lost a value")
	}
}

// mergeEach closes out as soon as either input is closed, instead of once
// both are.
func mergeEach(a, b <-chan int) <-chan int {
	out := make(chan int)
	go func() {
		for a != nil || b != nil {
			select {
			case _, ok := <-a:
				if !ok {
					a = nil
				}
			case _, ok := <-b:
				if !ok {
					b = nil
				}
			}
			if a == nil || b == nil {
				close(out) // want `^SC: system mergeEachClose is wrong even under sequential consistency: the run-time panic "panic: close of closed channel"`
			}
		}
	}()
	return out
}

// closed returns a channel that a goroutine closes.
func closed() <-chan int {
	c := make(chan int)
	go func() { close(c) }()
	return c
}

// mergeEachClose merges two inputs that close at once: the second close
// of the merged channel panics.
//
//fencecheck:system
func mergeEachClose() {
	for range mergeEach(closed(), closed()) {
	}
}

// twoReceives receives from ch in either of two cases.
//
//fencecheck:system
func twoReceives() {
	ch := make(chan int)
	done := make(chan int)
	go func() {
		select {
		case v := <-ch:
			done <- v
		case v := <-ch:
			done <- v + 10
		}
	}()
	ch <- 1
	if v := <-done; v != 1 && v != 11 {
		panic("wrong value")
	}
}

// twoReceivesFirst expects the first case to win, but either may.
//
//fencecheck:system
func twoReceivesFirst() {
	ch := make(chan int)
	done := make(chan int)
	go func() {
		select {
		case v := <-ch:
			done <- v
		case v := <-ch:
			done <- v + 10
		}
	}()
	ch <- 1
	if <-done != 1 {
		panic("second case") // want `^SC: system twoReceivesFirst is wrong even under sequential consistency`
	}
}

// twoSends offers 1 and 2 on ch.
//
//fencecheck:system
func twoSends() {
	ch := make(chan int)
	go func() {
		select {
		case ch <- 1:
		case ch <- 2:
		}
	}()
	if v := <-ch; v != 1 && v != 2 {
		panic("wrong value")
	}
}

// twoSendsFirst expects the value of the first case.
//
//fencecheck:system
func twoSendsFirst() {
	ch := make(chan int)
	go func() {
		select {
		case ch <- 1:
		case ch <- 2:
		}
	}()
	if <-ch != 1 {
		panic("second case") // want `^SC: system twoSendsFirst is wrong even under sequential consistency`
	}
}

// sendOrReceive exchanges a value with main in whichever direction.
//
//fencecheck:system
func sendOrReceive() {
	ch := make(chan int)
	done := make(chan bool)
	go func() {
		select {
		case ch <- 1:
		case <-ch:
		}
		done <- true
	}()
	ch <- 2
	<-done
}

// sendOrReceiveAlone has nobody to exchange with: a goroutine does not
// meet itself.
//
//fencecheck:system
func sendOrReceiveAlone() {
	ch := make(chan int)
	done := make(chan bool)
	go func() {
		select { // want `^deadlock: go@\d+ and main block forever in select and <-done \(system sendOrReceiveAlone\)$`
		case ch <- 1:
		case <-ch:
		}
		done <- true
	}()
	<-done
}
