// Package blocking holds systems whose goroutines can block forever, each
// beside its fixed twin.
package blocking

import "sync"

// doubleLock takes a mutex it already holds on one path, the way a helper
// that locks is called from a method that has locked already.
//
//fencecheck:system
func doubleLock() {
	var mu sync.Mutex
	var n int32
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		mu.Lock()
		n++
		mu.Lock() // want `^deadlock: go@16 and main block forever in mu\.Lock\(\) and wg\.Wait\(\) \(system doubleLock\)$`
		mu.Unlock()
	}()
	wg.Wait()
}

// doubleLockFixed unlocks before it locks again.
//
//fencecheck:system
func doubleLockFixed() {
	var mu sync.Mutex
	var n int32
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		mu.Lock()
		n++
		mu.Unlock()
		mu.Lock()
		n++
		mu.Unlock()
	}()
	wg.Wait()
}

type account struct {
	mu      sync.Mutex
	balance int32 //fencecheck:range 0..20
}

// transfer locks the source account, then the destination: two transfers
// in opposite directions take the two locks in opposite orders.
func transfer(from, to *account, amount int32) {
	from.mu.Lock()
	defer from.mu.Unlock()
	to.mu.Lock() // want `^deadlock: `
	defer to.mu.Unlock()
	from.balance -= amount
	to.balance += amount
}

//fencecheck:system
func abba() {
	a, b := &account{balance: 10}, &account{balance: 10}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); transfer(a, b, 1) }()
	go func() { defer wg.Done(); transfer(b, a, 2) }()
	wg.Wait()
}

// transferOrdered takes the two locks in one global order.
func transferOrdered(first, second, from, to *account, amount int32) {
	first.mu.Lock()
	defer first.mu.Unlock()
	second.mu.Lock()
	defer second.mu.Unlock()
	from.balance -= amount
	to.balance += amount
}

//fencecheck:system
func abbaFixed() {
	a, b := &account{balance: 10}, &account{balance: 10}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); transferOrdered(a, b, a, b, 1) }()
	go func() { defer wg.Done(); transferOrdered(a, b, b, a, 2) }()
	wg.Wait()
}

// waitTooMany adds one more to the WaitGroup than there are goroutines to
// call Done.
//
//fencecheck:system
func waitTooMany() {
	var wg sync.WaitGroup
	var done [2]int32
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			done[i] = 1
		}()
	}
	wg.Add(1)
	wg.Wait() // want `^deadlock: main blocks forever in wg\.Wait\(\) \(system waitTooMany\)$`
}

// leakOnError returns while a worker waits for a lock the system function
// forgot to release on its early return.
//
//fencecheck:system
func leakOnError() {
	var mu sync.Mutex
	var state int32
	mu.Lock()
	go func() {
		mu.Lock() // want `^leak: go@118 blocks forever in mu\.Lock\(\) after system leakOnError returns$`
		state = 2
		mu.Unlock()
	}()
	if state == 0 {
		return
	}
	mu.Unlock()
}

func takeSix(ch chan int) {
	<-ch
	<-ch
	<-ch
	<-ch
	<-ch
	<-ch // want `^leak: takeSix#4 blocks forever in <-ch after system tooManyWaits returns$`
}

// tooManyWaits has more combinations of places to wait than can each be a
// bad state: a search of its states finds the one it stops in, a receiver
// left waiting for the 24th value.
//
//fencecheck:system
func tooManyWaits() {
	ch := make(chan int, 4)
	go takeSix(ch)
	go takeSix(ch)
	go takeSix(ch)
	go takeSix(ch)
	for i := 0; i < 23; i++ {
		ch <- i
	}
}

// allWaitsServed sends the 24 values: the search finds no state where a
// goroutine waits for good.
//
//fencecheck:system
func allWaitsServed() {
	ch := make(chan int, 4)
	go takeSix(ch)
	go takeSix(ch)
	go takeSix(ch)
	go takeSix(ch)
	for i := 0; i < 24; i++ {
		ch <- i
	}
}
