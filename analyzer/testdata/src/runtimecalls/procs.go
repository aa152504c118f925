package runtimecalls

import (
	"runtime"
	"sync"
)

// sizedPool starts one worker per P, in the manner of worker pools such as
// gammazero/workerpool and panjf2000/ants, each with a slot of its own in
// a slice of the same size: correct for every GOMAXPROCS.
//
//fencecheck:system
func sizedPool() {
	n := runtime.GOMAXPROCS(0)
	results := make([]int, n)
	var wg sync.WaitGroup
	wg.Add(n)
	for i := 0; i < n; i++ {
		go func() {
			defer wg.Done()
			results[i] = i + 1
		}()
	}
	wg.Wait()
	if results[n-1] != n {
		panic("a worker did not report")
	}
}

// sizedPoolWrong sizes its slice for two workers: from three Ps on, a
// worker indexes past its end.
//
//fencecheck:system
func sizedPoolWrong() {
	n := runtime.GOMAXPROCS(0)
	results := make([]int, 2)
	var wg sync.WaitGroup
	wg.Add(n)
	for i := 0; i < n; i++ {
		go func() {
			defer wg.Done()
			results[i] = i + 1 // want `^SC: system sizedPoolWrong with runtime\.GOMAXPROCS\(0\) = 3 is wrong even under sequential consistency: the bad state index out of range is reached here`
		}()
	}
	wg.Wait()
}

// cpuBatches splits four jobs between NumCPU workers, the last one taking
// the rest: every job is done once, whatever the number of CPUs.
//
//fencecheck:system
func cpuBatches() {
	const jobs = 4
	workers := runtime.NumCPU()
	var done [jobs]int32
	var wg sync.WaitGroup
	wg.Add(workers)
	per := jobs / workers
	for w := 0; w < workers; w++ {
		go func() {
			defer wg.Done()
			end := (w + 1) * per
			if w == workers-1 {
				end = jobs
			}
			for j := w * per; j < end; j++ {
				done[j]++
			}
		}()
	}
	wg.Wait()
	for j := range done {
		if done[j] != 1 {
			panic("a job was not done once")
		}
	}
}

// cpuBatchesWrong forgets the rest: with three CPUs, the last job is left.
//
//fencecheck:system
func cpuBatchesWrong() {
	const jobs = 4
	workers := runtime.NumCPU()
	var done [jobs]int32
	var wg sync.WaitGroup
	wg.Add(workers)
	per := jobs / workers
	for w := 0; w < workers; w++ {
		go func() {
			defer wg.Done()
			for j := w * per; j < (w+1)*per; j++ {
				done[j]++
			}
		}()
	}
	wg.Wait()
	for j := range done {
		if done[j] != 1 {
			panic("a job was not done once") // want `^SC: system cpuBatchesWrong with runtime\.NumCPU\(\) = 3 is wrong even under sequential consistency`
		}
	}
}

// goroutineCount reads NumGoroutine in a goroutine: any positive value,
// never 0.
//
//fencecheck:system
func goroutineCount() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		if runtime.NumGoroutine() < 1 {
			panic("no goroutine runs this")
		}
	}()
	wg.Wait()
}

// goroutineCountWrong expects two goroutines: there may be more.
//
//fencecheck:system
func goroutineCountWrong() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		if runtime.NumGoroutine() != 2 {
			panic("not two goroutines") // want `^SC: system goroutineCountWrong is wrong even under sequential consistency`
		}
	}()
	wg.Wait()
}

// sizedPoolNoWait reads the first worker's slot before it waits: a race
// whatever GOMAXPROCS is, so the finding names no value.
//
//fencecheck:system
func sizedPoolNoWait() {
	n := runtime.GOMAXPROCS(0)
	results := make([]int, n)
	var wg sync.WaitGroup
	wg.Add(n)
	for i := 0; i < n; i++ {
		go func() {
			defer wg.Done()
			results[i] = 1 // want `^race: go@\d+ stores results\[0\] here while main loads results\[0\] at procs\.go:\d+:\d+, and nothing orders the two \(system sizedPoolNoWait\)$`
		}()
	}
	if results[0] == 1 {
		println("done early")
	}
	wg.Wait()
}

// cappedShards caps its workers with the built-in min, as pools that size
// themselves by the machine but never beyond their shards do: correct for
// every GOMAXPROCS.
//
//fencecheck:system
func cappedShards() {
	n := min(runtime.GOMAXPROCS(0), 2)
	var shards [2]int32
	var wg sync.WaitGroup
	wg.Add(n)
	for i := 0; i < n; i++ {
		go func() {
			defer wg.Done()
			shards[i]++
		}()
	}
	wg.Wait()
	if shards[0] != 1 || max(n, 1) != n {
		panic("a shard was lost")
	}
}

// goroutinesShed sheds load when many goroutines run: the program's
// environment may run any number of them, so the shedding branch, which
// writes a nil map, is reachable.
//
//fencecheck:system
func goroutinesShed() {
	var rejected map[string]int
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		if runtime.NumGoroutine() > 5 {
			rejected["busy"]++ // want `^SC: system goroutinesShed is wrong even under sequential consistency: the bad state assignment to entry in nil map`
		}
	}()
	wg.Wait()
}
