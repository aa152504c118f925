package stdcalls

import (
	"sync"
	"sync/atomic"
)

// Go statements on methods of package sync and sync/atomic: a goroutine
// that only calls the method (a timeout's go wg.Done(), a hand-off's go
// mu.Unlock()).

//fencecheck:system
func goDone() {
	var wg sync.WaitGroup
	wg.Add(2)
	go wg.Done()
	go wg.Done()
	wg.Wait()
}

//fencecheck:system
func goAddWrong() {
	var n atomic.Int32
	go n.Add(1)
	if n.Load() == 1 {
		panic("the goroutine added first") // want `^SC: system goAddWrong is wrong even under sequential consistency`
	}
}

//fencecheck:system
func goUnlock() {
	var mu sync.Mutex
	mu.Lock()
	go mu.Unlock()
	mu.Lock()
	mu.Unlock()
}

//fencecheck:system
func goLockWrong() {
	var mu sync.Mutex
	mu.Lock()
	go mu.Lock() // want `^deadlock: go@43 and main block forever in mu.Lock\(\)`
	mu.Lock()
}

//fencecheck:system
func goUnlockUnlocked() {
	var mu sync.Mutex
	go mu.Unlock() // want `^SC: system goUnlockUnlocked is wrong even under sequential consistency: the bad state fatal error: sync: unlock of unlocked mutex is reached here`
	mu.Lock()
}

// spinThenGo waits for its first goroutine's add before it starts the
// second: the set-up cannot run the loop (the goroutine never runs in
// it), so it ends before the first go statement. Its plain read of x
// races with the second add.
//
//fencecheck:system
func spinThenGo() {
	var x int32
	go atomic.AddInt32(&x, 1)
	for atomic.LoadInt32(&x) != 1 {
	}
	go atomic.AddInt32(&x, 1) // want `^race: go@\d+ atomically updates x here while main loads x at gomethods.go:\d+:\d+, and nothing orders the two`
	if x == 0 {
		panic("the first add was seen")
	}
	for atomic.LoadInt32(&x) != 2 {
	}
}

//fencecheck:system
func goClose() {
	ch := make(chan int)
	go close(ch)
	if _, ok := <-ch; ok {
		panic("a value from a closed channel")
	}
}

//fencecheck:system
func goCloseTwice() {
	ch := make(chan int)
	go close(ch)
	<-ch
	close(ch) // want `^SC: system goCloseTwice is wrong even under sequential consistency: the run-time panic "panic: close of closed channel" is reached here`
}
