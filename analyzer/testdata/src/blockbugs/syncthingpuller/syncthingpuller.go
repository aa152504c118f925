// Package syncthingpuller is written in the style of Syncthing's folder
// puller pipeline: copier routines copy the blocks of files and pass the
// finished files to the finisher routine over a channel. The bug is a
// worker pool that waits before it drains: the puller iteration waits for
// the copiers before it runs the finisher, and the finisher channel holds
// one file, so with two files the second copier blocks on its send and
// the wait never ends (a deadlock).
package syncthingpuller

import "sync"

// sendReceiveFolder pulls the files other devices changed.
type sendReceiveFolder struct {
	finished int32
}

// copierRoutine copies the files it takes and hands them on.
func (f *sendReceiveFolder) copierRoutine(in <-chan int, out chan<- int) {
	for file := range in {
		out <- file // want `^deadlock: go@\d+\(i=\d\) and main block forever in out <- file and copyWg\.Wait\(\) \(system pullerIteration\)$`
	}
}

// finisherRoutine moves the finished files into place.
func (f *sendReceiveFolder) finisherRoutine(in <-chan int) {
	for file := range in {
		if file > 0 {
			f.finished++
		}
	}
}

// pullerIteration pulls two files on two copiers.
//
//fencecheck:system
func pullerIteration() {
	f := &sendReceiveFolder{}
	copyChan := make(chan int, 2)
	finisherChan := make(chan int, 1)
	copyChan <- 1
	copyChan <- 2
	close(copyChan)
	var copyWg sync.WaitGroup
	for i := 0; i < 2; i++ {
		copyWg.Add(1)
		go func() {
			defer copyWg.Done()
			f.copierRoutine(copyChan, finisherChan)
		}()
	}
	copyWg.Wait()
	close(finisherChan)
	f.finisherRoutine(finisherChan)
}

// pullerIterationFixed runs the finisher beside the copiers.
//
//fencecheck:system
func pullerIterationFixed() {
	f := &sendReceiveFolder{}
	copyChan := make(chan int, 2)
	finisherChan := make(chan int, 1)
	copyChan <- 1
	copyChan <- 2
	close(copyChan)
	done := make(chan struct{})
	var copyWg sync.WaitGroup
	for i := 0; i < 2; i++ {
		copyWg.Add(1)
		go func() {
			defer copyWg.Done()
			f.copierRoutine(copyChan, finisherChan)
		}()
	}
	go func() {
		f.finisherRoutine(finisherChan)
		close(done)
	}()
	copyWg.Wait()
	close(finisherChan)
	<-done
	if f.finished != 2 {
		panic("lost a file")
	}
}
