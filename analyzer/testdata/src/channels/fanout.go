package channels

import "sync"

// fanOutWorkers: a goroutine starts a worker per iteration of a counted
// loop, passing each its index, and waits for them before it reads their
// results.
//
//fencecheck:system
func fanOutWorkers() {
	var wg sync.WaitGroup
	res := make(chan int, 3)
	wg.Add(1)
	go func() {
		defer wg.Done()
		var inner sync.WaitGroup
		for i := 0; i < 3; i++ {
			inner.Add(1)
			go func(k int) {
				defer inner.Done()
				res <- k
			}(i)
		}
		inner.Wait()
		if <-res+<-res+<-res != 3 {
			panic("lost a result")
		}
	}()
	wg.Wait()
}

// fanOutDoubleAdd adds two to the inner group per worker, which is done
// once: the goroutine waits for ever, and so does the system function.
//
//fencecheck:system
func fanOutDoubleAdd() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var inner sync.WaitGroup
		for i := 0; i < 2; i++ {
			inner.Add(2)
			go func() { defer inner.Done() }()
		}
		inner.Wait() // want `^deadlock: go@\d+ and main block forever in inner\.Wait\(\) and wg\.Wait\(\) \(system fanOutDoubleAdd\)$`
	}()
	wg.Wait()
}

// fanOutLeak: two workers send their result, and one is received.
//
//fencecheck:system
func fanOutLeak() {
	results := make(chan int)
	go func() {
		for i := range 2 {
			go func(k int) { results <- k }(i) // want `^leak: go@\d+\(i=[01]\) blocks forever in results <- k after system fanOutLeak returns$`
		}
	}()
	<-results
}

// fanOutRace: the workers increment their parent's counter without
// synchronisation.
//
//fencecheck:system
func fanOutRace() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var inner sync.WaitGroup
		total := 0
		for i := 0; i < 2; i++ {
			inner.Add(1)
			go func() {
				defer inner.Done()
				total++ // want `^race: go@\d+\(i=[01]\) and go@\d+\(i=[01]\) can both reach this access \(it stores total\) at once`
			}()
		}
		inner.Wait()
		_ = total
	}()
	wg.Wait()
}
