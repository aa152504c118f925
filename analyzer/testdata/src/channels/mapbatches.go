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
