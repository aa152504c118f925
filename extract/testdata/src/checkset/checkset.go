package checkset

type lock struct{ held bool }

func (l *lock) lock() {
	for l.held {
	}
	l.held = true
}

func (l *lock) unlock() { l.held = false }

//fencecheck:system
func checkThenSet() {
	var l lock
	for i := 0; i < 2; i++ {
		go func() {
			for {
				l.lock()
				//fencecheck:critical
				l.unlock()
			}
		}()
	}
}
