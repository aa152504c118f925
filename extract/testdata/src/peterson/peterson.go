package peterson

type peterson struct {
	flag [2]bool
	turn int32
}

func (l *peterson) lock(me int) {
	other := 1 - me
	l.flag[me] = true
	l.turn = int32(other)
	for l.flag[other] && l.turn == int32(other) {
	}
}

func (l *peterson) unlock(me int) { l.flag[me] = false }

func worker(l *peterson, me int) {
	for {
		l.lock(me)
		//fencecheck:critical
		l.unlock(me)
	}
}

//fencecheck:system
func petersonLock() {
	var l peterson
	for i := 0; i < 2; i++ {
		go worker(&l, i)
	}
}
