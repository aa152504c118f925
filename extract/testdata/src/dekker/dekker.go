package dekker

type lock struct {
	flag [2]int32
	cs   int32
}

func worker(l *lock, me int) {
	other := 1 - me
	for {
		l.flag[me] = 1
		if l.flag[other] == 0 {
			//fencecheck:critical
			l.cs = int32(me)
		}
		l.flag[me] = 0
	}
}

//fencecheck:system
func dekker() {
	var l lock
	go worker(&l, 0)
	go worker(&l, 1)
}
