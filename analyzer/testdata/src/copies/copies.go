// Package copies checks the built-in copy in goroutines.
package copies

import "sync"

//fencecheck:system
func copyThenSend() {
	src := []int32{1, 2, 3}
	dst := make([]int32, 3)
	done := make(chan int)
	go func() {
		done <- copy(dst, src)
	}()
	if <-done != 3 || dst[2] != 3 {
		panic("copy")
	}
}

// copyOverlap shifts a slice right by one: copy moves as memmove does.
//
//fencecheck:system
func copyOverlap() {
	s := []int32{1, 2, 3}
	done := make(chan bool)
	go func() {
		copy(s[1:], s)
		done <- true
	}()
	<-done
	if s[0] != 1 || s[1] != 1 || s[2] != 2 {
		panic("overlap")
	}
}

// copyShort copies as many elements as the shorter slice has.
//
//fencecheck:system
func copyShort() {
	src := []int32{7, 8, 9}
	dst := make([]int32, 2)
	done := make(chan int)
	go func() {
		done <- copy(dst, src)
	}()
	if <-done != 3 {
		panic("copied two") // want `SC: system copyShort is wrong even under sequential consistency`
	}
}

// copyRacing copies a slice that another goroutine writes unsynchronised.
//
//fencecheck:system
func copyRacing() {
	src := []int32{1, 2}
	dst := make([]int32, 2)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		copy(dst, src) // want `race: .*src\[1\]`
	}()
	go func() {
		defer wg.Done()
		src[1] = 5
	}()
	wg.Wait()
}
