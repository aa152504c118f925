// Package spilled checks methods whose closures capture the receiver: go/ssa
// keeps the receiver in a cell of its own, written once.
package spilled

import "sync"

type pool struct {
	once sync.Once
	wg   sync.WaitGroup
	n    int
}

// stop runs its closure once, as gammazero/workerpool's Stop does.
func (p *pool) stop() { p.once.Do(func() { p.n++ }) }

// start runs the closure from a goroutine of its own as well.
func (p *pool) start() {
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		p.once.Do(func() { p.n++ })
	}()
	p.once.Do(func() { p.n++ })
	p.wg.Wait()
}

//fencecheck:system
func stopTwice() {
	p := &pool{}
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			defer wg.Done()
			p.stop()
		}()
	}
	wg.Wait()
	if p.n != 1 {
		panic("ran twice")
	}
}

//fencecheck:system
func stopTwiceWrong() {
	p := &pool{}
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			defer wg.Done()
			p.stop()
		}()
	}
	wg.Wait()
	if p.n != 2 {
		panic("ran once") // want `SC: system stopTwiceWrong is wrong even under sequential consistency`
	}
}

//fencecheck:system
func startOnce() {
	p := &pool{}
	done := make(chan bool)
	go func() {
		p.start()
		done <- true
	}()
	<-done
	if p.n != 1 {
		panic("ran twice")
	}
}
