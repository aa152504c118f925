package appends

import "sync/atomic"

// growLoop: a goroutine collects three values in a nil slice by append
// and reports how many it has and the last one.
//
//fencecheck:system
func growLoop() {
	var out atomic.Int32
	go func() {
		var xs []int32
		for i := int32(0); i < 3; i++ {
			xs = append(xs, i+1)
		}
		out.Store(int32(len(xs))*10 + xs[len(xs)-1])
	}()
	if v := out.Load(); v != 0 && v != 33 {
		panic("lost an element")
	}
}

// growLoopWrong expects one element more than the loop appends.
//
//fencecheck:system
func growLoopWrong() {
	var out atomic.Int32
	go func() {
		var xs []int32
		for i := int32(0); i < 3; i++ {
			xs = append(xs, i+1)
		}
		out.Store(int32(len(xs)))
	}()
	if v := out.Load(); v != 0 && v != 4 {
		panic("short")
	}
}

// growBranch appends in one branch only: the length is 0 or 1.
//
//fencecheck:system
func growBranch() {
	var flag, out atomic.Int32
	go func() { flag.Store(1) }()
	go func() {
		var errs []int32
		if flag.Load() == 1 {
			errs = append(errs, 7)
		}
		if len(errs) > 0 {
			out.Store(errs[0])
		}
	}()
	if v := out.Load(); v != 0 && v != 7 {
		panic("wrong error")
	}
}

// growMade appends beyond the capacity of a slice made with room for two,
// then reads every element back by range.
//
//fencecheck:system
func growMade() {
	var out atomic.Int32
	go func() {
		xs := make([]int32, 0, 2)
		for i := int32(0); i < 4; i++ {
			xs = append(xs, i)
		}
		var sum int32
		for _, x := range xs {
			sum += x
		}
		out.Store(sum)
	}()
	if v := out.Load(); v != 0 && v != 6 {
		panic("wrong sum")
	}
}

// growPastEnd reads the element after the last one appended.
//
//fencecheck:system
func growPastEnd() {
	var out atomic.Int32
	go func() {
		var xs []int32
		for i := int32(0); i < 2; i++ {
			xs = append(xs, i)
		}
		out.Store(xs[2])
	}()
	_ = out.Load()
}

// growMove appends beyond the capacity of a goroutine's slice that has
// elements: they move to the new array.
//
//fencecheck:system
func growMove() {
	var out atomic.Int32
	go func() {
		xs := []int32{4, 5}
		xs = append(xs, 6)
		out.Store(xs[0] + xs[1] + xs[2])
	}()
	if v := out.Load(); v != 0 && v != 15 {
		panic("lost a moved element")
	}
}

// growTooMany appends more elements than the model keeps.
//
//fencecheck:system
func growTooMany() {
	var out atomic.Int32
	go func() {
		var xs []int32
		for i := int32(0); i < 12; i++ {
			xs = append(xs, i)
		}
		out.Store(int32(len(xs)))
	}()
	_ = out.Load()
}

// setupGrow appends to a nil slice in the set-up, beyond each capacity
// the slice has; two goroutines read the elements.
//
//fencecheck:system
func setupGrow() {
	var xs []int32
	for i := range int32(5) {
		xs = append(xs, i+1)
	}
	var sum atomic.Int32
	done := make(chan bool)
	go func() {
		sum.Add(xs[0] + xs[4])
		done <- true
	}()
	go func() {
		sum.Add(xs[1] + xs[2] + xs[3])
		done <- true
	}()
	<-done
	<-done
	if sum.Load() != 15 || len(xs) != 5 {
		panic("wrong sum")
	}
}
