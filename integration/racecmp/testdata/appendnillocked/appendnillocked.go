// Package appendnillocked has two goroutines append to a nil slice kept in
// a struct field under the lock, twice each: appends grow the slice or
// write into its room, and the main goroutine reads it after the wait.
//
// Expected: race-free.
package appendnillocked

import "sync"

type rec struct {
	mu   sync.Mutex
	nums []int
}

func (r *rec) add(x int) {
	r.mu.Lock()
	r.nums = append(r.nums, x)
	r.mu.Unlock()
}

// system: every append to the field holds the lock.
//
//fencecheck:system
func system() {
	var r rec
	var wg sync.WaitGroup
	wg.Add(2)
	for i := range 2 {
		go func() {
			r.add(10 * i)
			r.add(10*i + 1)
			wg.Done()
		}()
	}
	wg.Wait()
	if len(r.nums) != 4 || r.nums[0]+r.nums[1]+r.nums[2]+r.nums[3] != 22 {
		panic("lost a number")
	}
}
