package mp

import "sync"

type msg struct {
	data  int32
	ready bool
}

func send(m *msg) {
	m.data = 42
	m.ready = true
}

func receive(m *msg) {
	for !m.ready {
	}
	if m.data != 42 {
		panic("stale data")
	}
}

//fencecheck:system
func messagePassing() {
	m := &msg{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { send(m); wg.Done() }()
	go receive(m)
	wg.Wait()
}
