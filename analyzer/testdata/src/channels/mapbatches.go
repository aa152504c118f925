package channels

import "sync"

// Maps sent on channels: producers hand their batches of counts to a
// merger, as a map-reduce stage or a metrics aggregator does; a map is a
// reference, so a producer that writes its map after sending it races
// with the receiver.

// mergeBatches: two producers each send a batch, the merger adds them up.
//
//fencecheck:system
func mergeBatches() {
	ch := make(chan map[string]int32, 2)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		ch <- map[string]int32{"a": 1}
	}()
	go func() {
		defer wg.Done()
		ch <- map[string]int32{"a": 2, "b": 1}
	}()
	wg.Wait()
	total := map[string]int32{}
	for range 2 {
		for k, v := range <-ch {
			total[k] += v
		}
	}
	if total["a"] != 3 || total["b"] != 1 {
		panic("lost counts")
	}
}

// writeBatchAfterSend: the producer goes on writing the batch it sent.
//
//fencecheck:system
func writeBatchAfterSend() {
	ch := make(chan map[string]int32, 1)
	done := make(chan bool)
	go func() {
		m := map[string]int32{"a": 1}
		ch <- m
		m["b"] = 2 // want `^race: go@\d+ stores m here while go@\d+ loads m at mapbatches.go:\d+:\d+, and nothing orders the two \(system writeBatchAfterSend\)`
		done <- true
	}()
	go func() {
		m := <-ch
		_ = m["a"]
		done <- true
	}()
	<-done
	<-done
}

// setupBatch: the set-up sends a map; the goroutine that receives it
// updates it.
//
//fencecheck:system
func setupBatch() {
	ch := make(chan map[string]int32, 1)
	ch <- map[string]int32{"x": 5}
	done := make(chan int32)
	go func() {
		m := <-ch
		m["x"]++
		done <- m["x"]
	}()
	if <-done != 5 {
		panic("the update is seen") // want `^SC: system setupBatch is wrong even under sequential consistency: the panic is reached here`
	}
}

// batchLoop: a producer makes a map per batch in a loop and sends it;
// the make's maps are three, one per run.
//
//fencecheck:system
func batchLoop() {
	ch := make(chan map[string]int32, 3)
	done := make(chan bool)
	go func() {
		for i := int32(0); i < 3; i++ {
			m := map[string]int32{}
			m["n"] = i
			ch <- m
		}
		done <- true
	}()
	<-done
	var sum int32
	for range 3 {
		sum += (<-ch)["n"]
	}
	if sum != 3 {
		panic("a batch lost")
	}
}

// batchLoopLate: the producer writes each batch after sending it.
//
//fencecheck:system
func batchLoopLate() {
	ch := make(chan map[string]int32, 2)
	done := make(chan bool)
	go func() {
		for i := int32(0); i < 2; i++ {
			m := map[string]int32{}
			ch <- m
			m["late"] = i // want `^race: go@\d+ stores m here while main loads m at mapbatches.go:\d+:\d+, and nothing orders the two \(system batchLoopLate\)`
		}
		done <- true
	}()
	for range 2 {
		_ = (<-ch)["late"]
	}
	<-done
}

// batchLoopLong: a fourth batch is more than the model keeps for one make
// in a loop.
//
//fencecheck:system
func batchLoopLong() { // want `^inconclusive: system batchLoopLong: the number of maps the make at line \d+ runs in a loop of goroutine go@\d+ \(fencecheck models 3\)`
	ch := make(chan map[string]int32, 4)
	done := make(chan bool)
	go func() {
		for i := int32(0); i < 4; i++ {
			ch <- map[string]int32{"n": i}
		}
		done <- true
	}()
	<-done
}
