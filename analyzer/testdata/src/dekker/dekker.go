package dekker

import "sync"

// Lock is the entry protocol of Dekker's algorithm without the retry loop:
// a goroutine raises its flag and enters when the other flag is down.
type Lock struct {
	flag [2]int32
}

// TryLock reports whether goroutine me entered.
func (l *Lock) TryLock(me int) bool {
	l.flag[me] = 1 // want `^x86-TSO: the store to l\.flag\[0\] can still sit in the store buffer when the load of l\.flag\[1\] at dekker\.go:14:9 reads memory`
	return l.flag[1-me] == 0
}

// dekkerEntry runs the entry protocol in two goroutines.
//
//fencecheck:system
func dekkerEntry() {
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
