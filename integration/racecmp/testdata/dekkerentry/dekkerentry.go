// Package dekkerentry is the entry protocol of Dekker's algorithm without
// the retry loop (analyzer/testdata/src/dekker).
//
// Expected: racy.
package dekkerentry

import "sync"

// Lock holds one flag per goroutine.
type Lock struct {
	flag [2]int32
}

// TryLock reports whether goroutine me entered.
func (l *Lock) TryLock(me int) bool {
	l.flag[me] = 1
	return l.flag[1-me] == 0
}

// system runs the entry protocol in two goroutines.
//
//fencecheck:system
func system() {
	var l Lock
	var wg sync.WaitGroup
	wg.Add(2)
	for i := 0; i < 2; i++ {
		go func(me int) {
			if l.TryLock(me) {
				//fencecheck:critical
				l.flag[me] = 0
			}
			wg.Done()
		}(i)
	}
	wg.Wait()
}
