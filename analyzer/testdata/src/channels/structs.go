package channels

import (
	"errors"
	"sync"
)

// Channels whose elements are structs and arrays: each element is carried
// as its cells, all written by the send and read by the receive.

type stPair struct{ a, b int }

// pairSum hands a pair to a goroutine, which sends back its sum.
//
//fencecheck:system
func pairSum() {
	ch := make(chan stPair)
	sum := make(chan int, 1)
	go func() {
		p := <-ch
		sum <- p.a + p.b
	}()
	ch <- stPair{1, 2}
	if <-sum != 3 {
		panic("wrong sum")
	}
}

// pairWrong is its buggy twin: the goroutine sends back the difference.
//
//fencecheck:system
func pairWrong() {
	ch := make(chan stPair)
	sum := make(chan int, 1)
	go func() {
		p := <-ch
		sum <- p.a - p.b
	}()
	ch <- stPair{1, 2}
	if <-sum != 3 {
		panic("wrong sum") // want `^SC: system pairWrong is wrong even under sequential consistency`
	}
}

// pairsBuffered: a buffered channel of pairs, ranged over; no element is
// torn, the set-up's included.
//
//fencecheck:system
func pairsBuffered() {
	ch := make(chan stPair, 2)
	ch <- stPair{a: 1, b: 2}
	done := make(chan bool)
	go func() {
		for p := range ch {
			if p.a+1 != p.b {
				panic("torn")
			}
		}
		done <- true
	}()
	ch <- stPair{a: 5, b: 6}
	close(ch)
	<-done
}

// pairZeroField: a field the send leaves out arrives as zero.
//
//fencecheck:system
func pairZeroField() {
	ch := make(chan stPair, 1)
	go func() { ch <- stPair{b: 2} }()
	p := <-ch
	if p.a != 1 {
		panic("wrong a") // want `^SC: system pairZeroField is wrong even under sequential consistency`
	}
}

// pairLeak: nobody receives the pair.
//
//fencecheck:system
func pairLeak() {
	ch := make(chan stPair)
	go func() { ch <- stPair{1, 2} }() // want `^leak: go@\d+ blocks forever in ch <- stPair\{…\} after system pairLeak returns$`
}

// A stJob hands a goroutine the data it works on.
type stJob struct {
	id int
	d  *stData
}

type stData struct{ x int }

// jobHandOff: the owner writes the data before it sends the job.
//
//fencecheck:system
func jobHandOff() {
	jobs := make(chan stJob)
	d := &stData{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		j := <-jobs
		j.d.x += j.id
	}()
	d.x = 1
	jobs <- stJob{2, d}
	wg.Wait()
	if d.x != 3 {
		panic("lost the update")
	}
}

// jobRace is its buggy twin: the owner writes the data after the send.
//
//fencecheck:system
func jobRace() {
	jobs := make(chan stJob)
	d := &stData{}
	go func() {
		j := <-jobs
		j.d.x += j.id // want `^race: go@\d+ stores d\.x here while main stores d\.x`
	}()
	jobs <- stJob{2, d}
	d.x = 1
}

// A stResult carries a value and an error.
type stResult struct {
	v   int
	err error
}

var errStOdd = errors.New("odd")

// stResults: workers send results with errors through a select.
//
//fencecheck:system
func stResults() {
	out := make(chan stResult)
	quit := make(chan struct{})
	for i := range 2 {
		go func() {
			r := stResult{v: i}
			if i%2 == 1 {
				r.err = errStOdd
			}
			select {
			case out <- r:
			case <-quit:
			}
		}()
	}
	var got stResult
	select {
	case got = <-out:
	case <-quit:
	}
	close(quit)
	if got.err != nil && got.v != 1 {
		panic("the error of another")
	}
}

// stArrays: an array element.
//
//fencecheck:system
func stArrays() {
	ch := make(chan [2]int)
	go func() { ch <- [2]int{4, 5} }()
	a := <-ch
	if a[0]+a[1] != 9 {
		panic("wrong array")
	}
}

// resultsSwapped is the buggy twin of stResults: the even worker reports
// the error.
//
//fencecheck:system
func resultsSwapped() {
	out := make(chan stResult)
	quit := make(chan struct{})
	for i := range 2 {
		go func() {
			r := stResult{v: i}
			if i%2 == 0 {
				r.err = errStOdd
			}
			select {
			case out <- r:
			case <-quit:
			}
		}()
	}
	got := <-out
	close(quit)
	if got.err != nil && got.v != 1 {
		panic("the error of another") // want `^SC: system resultsSwapped is wrong even under sequential consistency`
	}
}
