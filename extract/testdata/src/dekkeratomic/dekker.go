package dekkeratomic

import "sync/atomic"

type lock struct {
	flag [2]int32
}

func worker(l *lock, me int) {
	other := 1 - me
	for {
		atomic.StoreInt32(&l.flag[me], 1)
		if atomic.LoadInt32(&l.flag[other]) == 0 {
			//fencecheck:critical
			atomic.StoreInt32(&l.flag[me], 0)
			continue
		}
		atomic.StoreInt32(&l.flag[me], 0)
	}
}

//fencecheck:system
func dekker() {
	var l lock
	go worker(&l, 0)
	go worker(&l, 1)
}
