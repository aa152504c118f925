// Package labelbranchlocked has two workers format a label from a counter they
// take under a lock, branch on its prefix (fencecheck computes the label
// from the counter's values, so the answer too), and count under the lock.
//
// Expected: race-free.
package labelbranchlocked

import (
	"strconv"
	"strings"
	"sync"
)

type stats struct {
	mu    sync.Mutex
	next  int
	short int
	total int
}

// system: the total is counted under the lock.
//
//fencecheck:system
func system() {
	s := &stats{}
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			defer wg.Done()
			s.mu.Lock()
			s.next++
			label := "job-" + strconv.Itoa(s.next)
			if strings.HasPrefix(label, "job-1") {
				s.short++
			}
			s.total++
			s.mu.Unlock()
		}()
	}
	wg.Wait()
}
