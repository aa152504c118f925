package channels

import (
	"context"
	"sync/atomic"
	"time"
)

// ctxAfterFunc: the function context.AfterFunc registers runs once the
// context is cancelled, in a goroutine of its own; the cancel that
// happens before it orders the write.
//
//fencecheck:system
func ctxAfterFunc() {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	n := 0
	context.AfterFunc(ctx, func() {
		n++
		close(done)
	})
	go func() {
		n++
		cancel()
	}()
	<-done
	if n != 2 {
		panic("lost")
	}
}

// ctxAfterFuncRace is its buggy twin: the write after cancel is not
// ordered with the function the cancel starts.
//
//fencecheck:system
func ctxAfterFuncRace() {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	n := 0
	context.AfterFunc(ctx, func() {
		n++ // want `^race: `
		close(done)
	})
	go func() {
		cancel()
		n++
	}()
	<-done
}

// ctxAfterFuncStop: stop reports true only when the function has not
// started, and then it never starts, even when the context is cancelled.
//
//fencecheck:system
func ctxAfterFuncStop() {
	ctx, cancel := context.WithCancel(context.Background())
	var fired atomic.Bool
	stop := context.AfterFunc(ctx, func() { fired.Store(true) })
	go func() { cancel() }()
	if stop() && fired.Load() {
		panic("stopped, but it ran")
	}
}

// ctxAfterFuncStopLate is its buggy twin: stop reporting false means the
// function started, not that it has finished.
//
//fencecheck:system
func ctxAfterFuncStopLate() {
	ctx, cancel := context.WithCancel(context.Background())
	var fired atomic.Bool
	stop := context.AfterFunc(ctx, func() { fired.Store(true) })
	go func() { cancel() }()
	if !stop() && !fired.Load() {
		panic("it had not run yet") // want `^SC: system ctxAfterFuncStopLate is wrong even under sequential consistency`
	}
}

// ctxAfterFuncNever: a context nobody cancels never starts the function.
//
//fencecheck:system
func ctxAfterFuncNever() {
	ctx, cancel := context.WithCancel(context.Background())
	_ = cancel
	var fired atomic.Bool
	context.AfterFunc(ctx, func() { fired.Store(true) })
	go func() {}()
	if fired.Load() {
		panic("ran without a cancel")
	}
}

// ctxAfterFuncGoCancel: a go statement on the cancel function is a
// goroutine that cancels; the write after it races with the function's.
//
//fencecheck:system
func ctxAfterFuncGoCancel() {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	n := 0
	context.AfterFunc(ctx, func() {
		n++ // want `^race: `
		close(done)
	})
	go cancel()
	n++
	<-done
}

// afterFuncRefires: a Reset after the function has run arms the timer
// again, and the function runs again: no bug.
//
//fencecheck:system
func afterFuncRefires() {
	ch := make(chan int)
	t := time.AfterFunc(time.Millisecond, func() { ch <- 1 })
	<-ch
	t.Reset(time.Millisecond)
	<-ch
}

// afterFuncStoppedOnce: a Stop after the function has run arms nothing;
// the second receive waits for good.
//
//fencecheck:system
func afterFuncStoppedOnce() {
	ch := make(chan int)
	t := time.AfterFunc(time.Millisecond, func() { ch <- 1 })
	<-ch
	t.Stop()
	<-ch // want `^deadlock: main blocks forever in <-ch \(system afterFuncStoppedOnce\)$`
}
