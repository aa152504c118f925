package unsupported

import (
	"errors"
	"fmt"
	"os"
	"sync/atomic"
)

var x int32

//fencecheck:system
func channels() {
	go func() {
		for i := range 2 {
			c := make(chan int, i+1)
			c <- 1
		}
	}()
}

//fencecheck:system
func maps() {
	go func() {
		m := map[complex128]int{}
		m[1] = 2
	}()
}

//fencecheck:system
func defers() {
	go func() {
		for i := 0; i < int(x); i++ {
			defer atomic.StoreInt32(&x, 0)
		}
		x = 1
	}()
}

//fencecheck:system
func otherPackage() {
	go func() {
		_ = os.Getenv("X")
	}()
}

//fencecheck:system
func sharedToFmt() {
	go func() {
		fmt.Println(&x)
	}()
}

var spawnPair [2]int32

//fencecheck:system
func spawnRunTime() {
	go func() {
		n := atomic.LoadInt32(&x) & 1
		go func(p *int32) { *p = 1 }(&spawnPair[n])
	}()
}

func rec(n int) {
	if n > 0 {
		rec(n - 1)
	}
	x = 1
}

//fencecheck:system
func recursion() {
	go rec(x0)
}

const x0 = 2

func other(c, d chan int) chan int { return d }

//fencecheck:system
func chanLater() {
	a, b := make(chan int, 2), make(chan int, 2)
	go func(c, d chan int) {
		for i := 0; i < 2; i++ {
			c <- i
			c = other(c, d)
		}
	}(a, b)
}

type iface interface{ m() }

type impl struct{}

func (impl) m() { x = 1 }

//fencecheck:system
func interfaces() {
	var i iface = impl{}
	go func() { i = impl{}; i.m(); _ = i == iface(impl{}) }()
}

//fencecheck:system
func unboundedSpawns() {
	for {
		go func() { x = 1 }()
	}
}

//fencecheck:system
func slices() {
	s := make([]int32, 2)
	go func() { s = append(s, 1) }()
}

var lastErr atomic.Pointer[error]

var errBase = errors.New("base")

// errorWrapped: an error that wraps two others (two %w) is not modelled.
//
//fencecheck:system
func errorWrapped() {
	go func() {
		err := fmt.Errorf("again: %w, %w", errBase, errBase)
		lastErr.Store(&err)
	}()
}

// setupAssert: the set-up's type assertion fails: it panics.
//
//fencecheck:system
func setupAssert() {
	var v any = "s"
	n := v.(int32)
	go func() { x = n }()
}
