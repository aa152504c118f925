package channels

import (
	"context"
	"sync"
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

// A goroutine's time.AfterFunc: the timer it makes is stopped until the
// call arms it, and the function is a goroutine of its own that starts
// when the timer fires, unless a Stop came first.

// flusher holds a timer a goroutine arms, as a batcher keeps the timer of
// its current batch.
type flusher struct {
	mu      sync.Mutex
	timer   *time.Timer
	flushes int
}

// afterFuncInGoroutine: a goroutine arms the timer under the lock and the
// function counts its run under it: one run, no race.
//
//fencecheck:system
func afterFuncInGoroutine() {
	f := &flusher{}
	done := make(chan bool)
	go func() {
		f.mu.Lock()
		f.timer = time.AfterFunc(time.Millisecond, func() {
			f.mu.Lock()
			f.flushes++
			f.mu.Unlock()
			done <- true
		})
		f.mu.Unlock()
	}()
	<-done
	f.mu.Lock()
	if f.flushes != 1 {
		panic("flushed twice or never")
	}
	f.mu.Unlock()
}

// afterFuncInGoroutineRace is its buggy twin: the goroutine counts after
// arming the timer without the lock, while the function may already run.
//
//fencecheck:system
func afterFuncInGoroutineRace() {
	f := &flusher{}
	done := make(chan bool)
	go func() {
		f.timer = time.AfterFunc(time.Millisecond, func() {
			f.mu.Lock()
			f.flushes++ // want `^race: afterfunc@\d+ stores f\.flushes here while go@\d+ loads f\.flushes`
			f.mu.Unlock()
			done <- true
		})
		f.flushes++
	}()
	<-done
}

// afterFuncStoppedByOther: another goroutine loads the timer and stops
// it; Stop reports whether the function will not run, so exactly one of
// the two signals.
//
//fencecheck:system
func afterFuncStoppedByOther() {
	f := &flusher{}
	done := make(chan bool, 1)
	armed := make(chan bool)
	go func() {
		f.mu.Lock()
		f.timer = time.AfterFunc(time.Millisecond, func() { done <- true })
		f.mu.Unlock()
		close(armed)
	}()
	go func() {
		<-armed
		f.mu.Lock()
		if f.timer.Stop() {
			done <- true
		}
		f.mu.Unlock()
	}()
	<-done
}

// afterFuncStoppedWaits is its buggy twin: only the function signals, and
// the other goroutine may stop the timer before it fires.
//
//fencecheck:system
func afterFuncStoppedWaits() {
	f := &flusher{}
	done := make(chan bool, 1)
	armed := make(chan bool)
	go func() {
		f.mu.Lock()
		f.timer = time.AfterFunc(time.Millisecond, func() { done <- true })
		f.mu.Unlock()
		close(armed)
	}()
	go func() {
		<-armed
		f.mu.Lock()
		f.timer.Stop()
		f.mu.Unlock()
	}()
	<-done // want `^deadlock: main blocks forever in <-done \(system afterFuncStoppedWaits\)$`
}

// afterFuncInLoop: a goroutine arms a timer in each of two rounds; each
// function sends once, so two receives are served.
//
//fencecheck:system
func afterFuncInLoop() {
	ch := make(chan int, 2)
	go func() {
		for i := range 2 {
			time.AfterFunc(time.Millisecond, func() { ch <- i })
		}
	}()
	if <-ch+<-ch != 1 {
		panic("a round's value was lost")
	}
}

// afterFuncInLoopShort is its buggy twin: a third receive waits for good.
//
//fencecheck:system
func afterFuncInLoopShort() {
	ch := make(chan int, 2)
	go func() {
		for i := range 2 {
			time.AfterFunc(time.Millisecond, func() { ch <- i })
		}
	}()
	<-ch
	<-ch
	<-ch // want `^deadlock: main blocks forever in <-ch \(system afterFuncInLoopShort\)$`
}

// afterFuncResetInGoroutine: a goroutine's timer that has fired, Reset by
// the goroutine, fires again: the second run closes done.
//
//fencecheck:system
func afterFuncResetInGoroutine() {
	var runs atomic.Int32
	first, done := make(chan bool), make(chan bool)
	go func() {
		t := time.AfterFunc(time.Millisecond, func() {
			if runs.Add(1) == 2 {
				close(done)
			} else {
				first <- true
			}
		})
		<-first
		t.Reset(time.Millisecond)
	}()
	<-done
}

// afterFuncStoppedInGoroutine is its buggy twin: Stop after the run arms
// nothing, and the second run never comes.
//
//fencecheck:system
func afterFuncStoppedInGoroutine() {
	var runs atomic.Int32
	first, done := make(chan bool), make(chan bool)
	go func() {
		t := time.AfterFunc(time.Millisecond, func() {
			if runs.Add(1) == 2 {
				close(done)
			} else {
				first <- true
			}
		})
		<-first
		t.Stop()
	}()
	<-done // want `^deadlock: main blocks forever in <-done \(system afterFuncStoppedInGoroutine\)$`
}

// A Reset after the function has started arms the timer again, and its
// next fire starts the function in a new goroutine while the first run
// may still be going: two runs at once.

// rearmWhileRunning: the function re-arms its own timer, then counts
// without the lock; the second run may count at the same time.
//
//fencecheck:system
func rearmWhileRunning() {
	f := &flusher{}
	go func() {
		f.mu.Lock()
		f.timer = time.AfterFunc(time.Millisecond, func() {
			f.mu.Lock()
			again := f.flushes == 0
			f.flushes++
			t := f.timer
			f.mu.Unlock()
			if again {
				t.Reset(time.Millisecond)
			}
			f.mu.Lock()
			f.flushes += 10
			f.mu.Unlock()
		})
		f.mu.Unlock()
	}()
}

// rearmWhileRunningRace is its buggy twin: the count after the Reset
// is not locked.
//
//fencecheck:system
func rearmWhileRunningRace() {
	f := &flusher{}
	var extra int
	go func() {
		f.mu.Lock()
		f.timer = time.AfterFunc(time.Millisecond, func() {
			f.mu.Lock()
			again := f.flushes == 0
			f.flushes++
			t := f.timer
			f.mu.Unlock()
			if again {
				t.Reset(time.Millisecond)
			}
			extra++ // want `^race: afterfunc@\d+ and afterfunc@\d+#2 can both reach this access \(it stores extra\)`
		})
		f.mu.Unlock()
	}()
}

// secondRunReleasesFirst: the first run waits for the second, which the
// set-up's Reset arms while the first still runs: both finish.
//
//fencecheck:system
func secondRunReleasesFirst() {
	var runs atomic.Int32
	gate, started := make(chan bool), make(chan bool, 1)
	t := time.AfterFunc(time.Millisecond, func() {
		if runs.Add(1) == 1 {
			started <- true
			<-gate
		} else {
			close(gate)
		}
	})
	<-started
	t.Reset(time.Millisecond)
	<-gate
}

// thirdRunAtOnce: Reset twice while the first two runs wait for a third:
// fencecheck models two runs at once, and says so.
//
//fencecheck:system
func thirdRunAtOnce() { // want `^inconclusive: system thirdRunAtOnce: a run reaches a third run at once of the function of the time\.AfterFunc timer reset while two still run \(fencecheck models two\)`
	var runs atomic.Int32
	gate, started := make(chan bool), make(chan bool, 2)
	t := time.AfterFunc(time.Millisecond, func() {
		if runs.Add(1) <= 2 {
			started <- true
			<-gate
		} else {
			close(gate)
		}
	})
	<-started
	t.Reset(time.Millisecond)
	<-started
	t.Reset(time.Millisecond)
	<-gate
}
