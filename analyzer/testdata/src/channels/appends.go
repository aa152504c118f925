package channels

import "strconv"

// parse stands for work that may fail.
func parse(s string) error {
	_, err := strconv.Atoi(s)
	return err
}

// appendsCollect: a collector goroutine appends the workers' results and
// the errors it meets to slices of its own, then reports them.
//
//fencecheck:system
func appendsCollect() {
	res := make(chan int)
	done := make(chan int)
	for i := 0; i < 3; i++ {
		go func() { res <- i }()
	}
	go func() {
		var got []int
		var errs []error
		for k := 0; k < 3; k++ {
			got = append(got, <-res)
			if err := parse("1"); err != nil {
				errs = append(errs, err)
			}
		}
		n := len(got)
		for _, v := range got {
			if v < 0 || v > 2 {
				n = 0
			}
		}
		if len(errs) > 0 && got[0] >= 0 {
			n = -1
		}
		done <- n
	}()
	if v := <-done; v != 3 && v != -1 {
		panic("lost a result")
	}
}

// appendsLost: the collector stops after two results; the third worker
// is left sending.
//
//fencecheck:system
func appendsLost() {
	res := make(chan int)
	done := make(chan int)
	for i := 0; i < 3; i++ {
		go func() { res <- i }() // want `^leak: go@\d+\(i=\d\) blocks forever in res <- i after system appendsLost returns$`
	}
	go func() {
		var got []int
		for len(got) < 2 {
			got = append(got, <-res)
		}
		done <- len(got)
	}()
	<-done
}

// appendsPastEnd: the collector reads one element more than it appended.
//
//fencecheck:system
func appendsPastEnd() {
	done := make(chan int)
	go func() {
		xs := make([]int, 0, 2)
		for i := 0; i < 2; i++ {
			xs = append(xs, i)
		}
		done <- xs[len(xs)-1] + xs[2] // want `^SC: system appendsPastEnd is wrong even under sequential consistency: the bad state index out of range`
	}()
	<-done
}
