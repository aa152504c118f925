package values

import (
	"sync"
	"sync/atomic"
)

// spawnInGoroutine starts two workers from a goroutine in a loop with a
// constant bound; they count under a lock.
//
//fencecheck:system
func spawnInGoroutine() {
	var mu sync.Mutex
	var n int
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		for range 2 {
			go func() {
				mu.Lock()
				n++
				mu.Unlock()
				wg.Done()
			}()
		}
	}()
	wg.Wait()
	if n != 2 {
		panic("lost update")
	}
}

// spawnInGoroutineWrong counts without the lock.
//
//fencecheck:system
func spawnInGoroutineWrong() {
	var n int
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		for range 2 {
			go func() {
				n++ // want `^race: go@\d+\(#0\) and go@\d+\(#1\) can both reach this access \(it stores n\)`
				wg.Done()
			}()
		}
	}()
	wg.Wait()
	if n != 2 {
		panic("lost update") // want `^SC: system spawnInGoroutineWrong is wrong even under sequential consistency`
	}
}

// config is set up by the system after it started a reader.
type config struct {
	mu    sync.Mutex
	limit int
}

// storeBetweenSpawns starts a goroutine, then sets up what it reads
// under the lock, then starts another.
//
//fencecheck:system
func storeBetweenSpawns() {
	var c config
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		c.mu.Lock()
		_ = c.limit
		c.mu.Unlock()
	}()
	c.mu.Lock()
	c.limit = 4
	c.mu.Unlock()
	go func() {
		defer wg.Done()
		c.mu.Lock()
		c.limit--
		c.mu.Unlock()
	}()
	wg.Wait()
}

// storeBetweenSpawnsWrong sets it up without the lock: the goroutine
// already started may be reading.
//
//fencecheck:system
func storeBetweenSpawnsWrong() {
	var c config
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		c.mu.Lock()
		_ = c.limit // want `^race: go@\d+ loads c\.limit here while main stores c\.limit`
		c.mu.Unlock()
	}()
	c.limit = 4
	go func() {
		defer wg.Done()
		c.mu.Lock()
		c.limit--
		c.mu.Unlock()
	}()
	wg.Wait()
}

// fillConcurrently starts two goroutines that add under a lock and waits
// for them, as set-up helpers do.
func fillConcurrently(mu *sync.Mutex, n *int) {
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			mu.Lock()
			*n++
			mu.Unlock()
			wg.Done()
		}()
	}
	wg.Wait()
}

// waitInSetup: the set-up's helper starts goroutines and waits for them
// before the system starts its own; the system function runs the helper
// itself, and waits where Go does.
//
//fencecheck:system
func waitInSetup() {
	var mu sync.Mutex
	n := 0
	fillConcurrently(&mu, &n)
	if n != 2 {
		panic("the helper returned early")
	}
	done := make(chan bool)
	go func() {
		mu.Lock()
		n++
		mu.Unlock()
		done <- true
	}()
	<-done
	if n != 3 {
		panic("lost update")
	}
}

// fillNoWait forgets to wait for the goroutines it starts.
func fillNoWait(mu *sync.Mutex, n *int) {
	for range 2 {
		go func() {
			mu.Lock()
			*n++ // want `^race: go@\d+ stores n here while main loads n at spawns\.go:\d+:\d+`
			mu.Unlock()
		}()
	}
}

// waitInSetupWrong's helper returns before its goroutines are done: the
// check that follows races with them.
//
//fencecheck:system
func waitInSetupWrong() {
	var mu sync.Mutex
	n := 0
	fillNoWait(&mu, &n)
	if n != 2 {
		return
	}
}

// waitBeforeGo waits before it starts the goroutine that would call Done.
//
//fencecheck:system
func waitBeforeGo() {
	var wg sync.WaitGroup
	wg.Add(1)
	wg.Wait() // want `^deadlock: the set-up of system waitBeforeGo waits on a WaitGroup before it starts any goroutine that could call Done`
	go wg.Done()
}

// Go statements in loops of goroutines that cannot be counted get three
// slots; a fourth start is inconclusive, naming the count.

func setFlag(p *int32) { atomic.StoreInt32(p, 1) }

// nestedSpawnLoops starts four goroutines from two nested loops.
//
//fencecheck:system
func nestedSpawnLoops() { // want `^inconclusive: system nestedSpawnLoops: the number of goroutines the go statement at line \d+ starts in a loop of goroutine go@\d+ \(fencecheck models 3\)`
	var x int32
	go func() {
		for j := 0; j < 2; j++ {
			for i := 0; i < 2; i++ {
				go setFlag(&x)
			}
		}
	}()
}

// bumpAfterGo changes the iteration's variable after the go statement:
// the goroutine shares it (Go 1.22 gives each iteration its own).
//
//fencecheck:system
func bumpAfterGo() {
	var x int32
	go func() {
		for i := 0; i < 4; i++ {
			go func() { atomic.StoreInt32(&x, int32(i)) }() // want `^race: go@\d+\(#0\) loads i here while go@\d+ stores i at spawns\.go:\d+:\d+`
			i++
		}
	}()
}

// perIterationPointers sends the address of each iteration's own i (Go
// 1.22): the next iteration's variable is a new one, so the loop's copy
// into it does not race with the receiver's load of the old one.
//
//fencecheck:system
func perIterationPointers() {
	ch := make(chan *int, 2)
	var wg sync.WaitGroup
	sum := 0
	wg.Add(1)
	go func() {
		defer wg.Done()
		for p := range ch {
			sum += *p
		}
	}()
	for i := 0; i < 2; i++ {
		ch <- &i
	}
	close(ch)
	wg.Wait()
	if sum != 1 {
		panic("a pointer to another iteration's variable")
	}
}

// innerLoopInDispatcher starts a goroutine from a counted loop inside a
// select loop: the goroutine captures its iteration's j.
//
//fencecheck:system
func innerLoopInDispatcher() {
	ch := make(chan int, 1)
	ch <- 1
	var wg sync.WaitGroup
	res := make([]int, 2)
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-ch:
				for j := 0; j < 1; j++ {
					wg.Add(1)
					go func() { res[j] = j + 1; wg.Done() }()
				}
			default:
				return
			}
		}
	}()
	wg.Wait()
	if res[0] != 1 {
		panic("res[0] not set")
	}
}

// loadBetweenGos loads x between two go statements while the first
// goroutine stores it: the set-up ends before the first go statement, and
// the load is the system function's, racing with the store.
//
//fencecheck:system
func loadBetweenGos() {
	x := 0
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { x = 1; wg.Done() }() // want `^race: go@\d+ stores x here while main loads x at spawns\.go:\d+:\d+`
	y := x
	go func() { wg.Done() }()
	wg.Wait()
	_ = y
}

// loopVarWritten: the goroutine writes its iteration's j, which the loop
// copies into the next iteration's variable (Go 1.22): a race with the
// copy.
//
//fencecheck:system
func loopVarWritten() {
	var wg sync.WaitGroup
	for j := 0; j < 1; j++ {
		wg.Add(1)
		go func() { j += 10; wg.Done() }() // want `^race: go@\d+\(#0\) stores j here while main loads j in code the compiler adds \(such as a loop's copy of its variable into the next iteration's\)`
	}
	wg.Wait()
}

// wgGoOverMap hands WaitGroup.Go a closure over each value of a map's
// range: each goroutine gets its iteration's value.
//
//fencecheck:system
func wgGoOverMap() {
	m := map[string]int32{"a": 1, "b": 2}
	var sum atomic.Int32
	var wg sync.WaitGroup
	for _, v := range m {
		wg.Go(func() { sum.Add(v) })
	}
	wg.Wait()
	if sum.Load() != 3 {
		panic("a value was added twice or not at all")
	}
}

// wgGoOverMapRacy adds with a plain +=.
//
//fencecheck:system
func wgGoOverMapRacy() {
	m := map[string]int32{"a": 1, "b": 2}
	var sum int32
	var wg sync.WaitGroup
	for _, v := range m {
		wg.Go(func() { sum += v }) // want `^race: go@\d+\(#0\) and go@\d+\(#1\) can both reach this access \(it stores sum\)`
	}
	wg.Wait()
}

// spawner starts goroutines as a helper of a library would: the closure
// it is given is kept in a variable that the goroutine's closure captures.
type spawner struct{ wg sync.WaitGroup }

func (sp *spawner) spawn(f func()) {
	sp.wg.Add(1)
	go func() {
		defer sp.wg.Done()
		f()
	}()
}

// helperSpawnLoop spawns, through the helper, closures over a loop's
// values; the planted check fails in every run.
//
//fencecheck:system
func helperSpawnLoop() {
	var sp spawner
	var sum atomic.Int32
	for _, v := range []int32{1, 2, 3} {
		sp.spawn(func() { sum.Add(v) })
	}
	sp.wg.Wait()
	if sum.Load() == 6 {
		panic("every value was added") // want `^SC: system helperSpawnLoop is wrong even under sequential consistency`
	}
}

func submitWrapped(ch chan func(), f func()) {
	ch <- func() { f() }
}

// wrappedClosureSent sends a closure that calls one over the loop's
// variable, kept in the wrapper's captured variable: that variable is a
// cell of memory the receiver loads the closure from, not the sender's
// registers; the planted check fails in every run.
//
//fencecheck:system
func wrappedClosureSent() {
	ch := make(chan func(), 2)
	var sum atomic.Int32
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for range 2 {
			(<-ch)()
		}
	}()
	for i := range int32(2) {
		submitWrapped(ch, func() { sum.Add(i + 1) })
	}
	wg.Wait()
	if sum.Load() == 3 {
		panic("both ran") // want `^SC: system wrappedClosureSent is wrong even under sequential consistency`
	}
}
