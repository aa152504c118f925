package channels

import "sync"

// fanOutCaptured: each worker sends the loop variable its closure captures,
// its own copy since Go 1.22 (0, 1 and 2), and the goroutine receives the
// three.
//
//fencecheck:system
func fanOutCaptured() {
	res := make(chan int, 3)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; i < 3; i++ {
			go func() { res <- i }()
		}
		if <-res+<-res+<-res != 3 {
			panic("lost a result")
		}
	}()
	wg.Wait()
}

// fanOutCapturedRace: the workers store the loop variable they capture in
// their parent's variable without synchronisation.
//
//fencecheck:system
func fanOutCapturedRace() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var inner sync.WaitGroup
		last := 0
		for i := range 2 {
			inner.Add(1)
			go func() {
				defer inner.Done()
				last = i // want `^race: (goroutines )?go@\d+\(i=[01]\) and go@\d+\(i=[01]\) can both reach this access \(it stores last\) at once`
			}()
		}
		inner.Wait()
		_ = last
	}()
	wg.Wait()
}

// fanIn: a goroutine makes the channel its workers send their results on,
// and receives both.
//
//fencecheck:system
func fanIn() {
	done := make(chan bool)
	go func() {
		results := make(chan int)
		for i := 0; i < 2; i++ {
			go func(n int) { results <- n * 2 }(i)
		}
		done <- <-results+<-results == 2
	}()
	if !<-done {
		panic("wrong sum")
	}
}

// fanInLeak: two workers send on their parent's channel, which receives
// one result.
//
//fencecheck:system
func fanInLeak() {
	done := make(chan bool)
	go func() {
		results := make(chan int)
		for i := 0; i < 2; i++ {
			go func() { results <- i }() // want `^leak: go@\d+\(i=[01]\) blocks forever in results <- i after system fanInLeak returns$`
		}
		<-results
		done <- true
	}()
	<-done
}

// fanInDeadlock: the goroutine waits for a third result that nobody sends.
//
//fencecheck:system
func fanInDeadlock() {
	done := make(chan bool)
	go func() {
		results := make(chan int)
		for i := 0; i < 2; i++ {
			go func(n int) { results <- n }(i)
		}
		<-results
		<-results
		<-results // want `^deadlock: go@\d+ and main block forever in <-results and <-done \(system fanInDeadlock\)$`
		done <- true
	}()
	<-done
}
