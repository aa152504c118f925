package channels

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// Contexts and cancel functions kept in fields that goroutines store to:
// a service that makes its context in its constructor and clears its
// cancel function on Close, a pool (in the manner of panjf2000/ants) that
// starts its purger, then makes the ticker's context and stores it in a
// field for the ticker goroutine to load, a Restart that replaces both.

type ctxService struct {
	mu     sync.Mutex
	ctx    context.Context
	cancel context.CancelFunc
}

// close cancels the service's context once: later calls find nil.
func (s *ctxService) close() {
	s.mu.Lock()
	if s.cancel != nil {
		s.cancel()
		s.cancel = nil
	}
	s.mu.Unlock()
}

// restart cancels the context and makes a new one.
func (s *ctxService) restart() {
	s.mu.Lock()
	if s.cancel != nil {
		s.cancel()
	}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.mu.Unlock()
}

// closeTwice: two goroutines close the service under its lock; a third
// waits for the context to end.
//
//fencecheck:system
func closeTwice() {
	s := &ctxService{}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		<-s.ctx.Done()
		close(done)
	}()
	for range 2 {
		go s.close()
	}
	<-done
}

// clearUnlocked: main clears the cancel function while a goroutine may
// still call it; when the goroutine loads nil first, nothing cancels the
// context main then waits on.
//
//fencecheck:system
func clearUnlocked() {
	s := &ctxService{}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	go func() {
		if s.cancel != nil { // want `^race: go@\d+ loads s\.cancel here while main stores s\.cancel at ctxcells\.go:\d+:\d+, and nothing orders the two \(system clearUnlocked\)`
			s.cancel()
		}
	}()
	s.cancel = nil
	<-s.ctx.Done() // want `^deadlock: main blocks forever in <-s\.ctx\.Done\(\) \(system clearUnlocked\)`
}

// staleContext: main copies the context under the lock before restart has
// surely run, so the copy may be the one restart cancels.
//
//fencecheck:system
func staleContext() {
	s := &ctxService{}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	done := make(chan bool)
	go func() {
		s.restart()
		done <- true
	}()
	s.mu.Lock()
	ctx := s.ctx
	s.mu.Unlock()
	<-done
	if ctx.Err() != nil {
		panic("stale context") // want `^SC: system staleContext is wrong even under sequential consistency: the panic is reached here`
	}
}

// freshContext: main copies the context after restart: the new one, not
// cancelled.
//
//fencecheck:system
func freshContext() {
	s := &ctxService{}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	done := make(chan bool)
	go func() {
		s.restart()
		done <- true
	}()
	<-done
	s.mu.Lock()
	ctx := s.ctx
	s.mu.Unlock()
	if ctx == nil || ctx.Err() != nil {
		panic("stale context")
	}
	select {
	case <-ctx.Done():
		panic("done")
	default:
	}
}

type tickPool struct {
	purgeCtx  context.Context
	stopPurge context.CancelFunc
	tickCtx   context.Context
	stopTick  context.CancelFunc
	tickDone  int32
	wg        sync.WaitGroup
}

func (p *tickPool) purge() {
	defer p.wg.Done()
	ctx := p.purgeCtx
	<-ctx.Done()
}

// tick runs until its context ends; a deferred closure stops its ticker
// and marks it done.
func (p *tickPool) tick() {
	ticker := time.NewTicker(time.Second)
	defer func() {
		ticker.Stop()
		atomic.StoreInt32(&p.tickDone, 1)
		p.wg.Done()
	}()
	ctx := p.tickCtx // want `^race: tick loads p\.tickCtx here while main stores p\.tickCtx at ctxcells\.go:\d+:\d+, and nothing orders the two \(system poolTickFirst\)`
	for {
		select {
		case <-ctx.Done(): // want `^SC: system poolTickFirst is wrong even under sequential consistency: the bad state invalid memory address or nil pointer dereference is reached here`
			return
		case <-ticker.C:
		}
	}
}

// poolStartStop: the ticker's context is made after the purger starts
// (by main, then, not by the set-up) and stored before the ticker starts.
//
//fencecheck:system
func poolStartStop() {
	p := &tickPool{}
	p.wg.Add(2)
	p.purgeCtx, p.stopPurge = context.WithCancel(context.Background())
	go p.purge()
	p.tickCtx, p.stopTick = context.WithCancel(context.Background())
	go p.tick()
	p.stopPurge()
	p.stopTick()
	p.wg.Wait()
	if atomic.LoadInt32(&p.tickDone) != 1 {
		panic("ticker still running")
	}
}

// poolTickFirst: the ticker starts before its context is stored: it may
// load nil.
//
//fencecheck:system
func poolTickFirst() {
	p := &tickPool{}
	p.wg.Add(1)
	go p.tick()
	p.tickCtx, p.stopTick = context.WithCancel(context.Background())
	p.stopTick()
	p.wg.Wait()
}

// expiredAfterGo: main makes a context whose deadline has passed after it
// started the worker, and hands it over under the lock: the worker finds
// it expired, context.DeadlineExceeded, whichever goroutine was lowered
// first.
//
//fencecheck:system
func expiredAfterGo() {
	s := &ctxService{}
	done := make(chan bool)
	go func() {
		<-done
		s.mu.Lock()
		c := s.ctx
		s.mu.Unlock()
		if c.Err() != context.DeadlineExceeded {
			panic("not expired")
		}
		done <- true
	}()
	c, cancel := context.WithTimeout(context.Background(), 0)
	defer cancel()
	s.mu.Lock()
	s.ctx = c
	s.mu.Unlock()
	done <- true
	<-done
}

// expiredMaybeSeen: the worker may load the expired context main stores
// after it started, or the live one before.
//
//fencecheck:system
func expiredMaybeSeen() {
	s := &ctxService{}
	live, stop := context.WithCancel(context.Background())
	s.ctx = live
	done := make(chan bool)
	go func() {
		s.mu.Lock()
		c := s.ctx
		s.mu.Unlock()
		if c.Err() == context.DeadlineExceeded {
			panic("expired") // want `^SC: system expiredMaybeSeen is wrong even under sequential consistency: the panic is reached here`
		}
		done <- true
	}()
	past, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	s.mu.Lock()
	s.ctx, s.cancel = past, cancel
	s.mu.Unlock()
	<-done
	stop()
	cancel()
}

type ctxShards struct {
	mu   sync.Mutex
	ctxs [2]context.Context
}

// shardContexts: a worker stores its context in its shard's slot; main
// reads the slots with a run-time index once the workers are done.
//
//fencecheck:system
func shardContexts() {
	s := &ctxShards{}
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, cancel := context.WithCancel(context.Background())
			s.mu.Lock()
			s.ctxs[i] = c
			s.mu.Unlock()
			cancel()
		}()
	}
	wg.Wait()
	for i := range 2 {
		if s.ctxs[i].Err() == nil {
			panic("a shard's context is live")
		}
	}
}

// current returns the service's context under its lock (go/ssa keeps the
// result of a function with deferred calls in a slot of its own).
func (s *ctxService) current() context.Context {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ctx
}

// currentMaybeNil: the worker may load the context before main sets it.
//
//fencecheck:system
func currentMaybeNil() {
	s := &ctxService{}
	done := make(chan bool)
	go func() {
		ctx := s.current()
		if ctx != nil {
			<-ctx.Done()
		}
		done <- true
	}()
	s.restart()
	s.close()
	<-done
}

// currentUnchecked: as currentMaybeNil, without the nil check.
//
//fencecheck:system
func currentUnchecked() {
	s := &ctxService{}
	done := make(chan bool)
	go func() {
		ctx := s.current()
		<-ctx.Done() // want `^SC: system currentUnchecked is wrong even under sequential consistency: the bad state invalid memory address or nil pointer dereference is reached here`
		done <- true
	}()
	s.restart()
	s.close()
	<-done
}

// recoveredNilCancel: the worker calls a cancel function main may have
// cleared and recovers the panic: a recovered panic in a call through a
// function value kept in memory is not modelled.
//
//fencecheck:system
func recoveredNilCancel() { // want `^inconclusive: system recoveredNilCancel: a run reaches a panic that a deferred call may recover, in a call of a function value kept in memory or received from a channel`
	s := &ctxService{}
	_, cancel := context.WithCancel(context.Background())
	s.cancel = cancel
	done := make(chan bool)
	go func() {
		defer func() {
			recover()
			done <- true
		}()
		s.mu.Lock()
		f := s.cancel
		s.mu.Unlock()
		f()
	}()
	s.mu.Lock()
	s.cancel = nil
	s.mu.Unlock()
	<-done
	cancel()
}

// childOfCurrent: the worker derives its own context from whichever
// context the service holds when it looks; main cancels both, so the
// child ends either way.
//
//fencecheck:system
func childOfCurrent() {
	s := &ctxService{}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	done := make(chan bool)
	go func() {
		child, cancel := context.WithCancel(s.current())
		<-child.Done()
		cancel()
		done <- true
	}()
	s.restart()
	s.close()
	<-done
}

// childOfCurrentLeak: main cancels only the first context: a child of
// the second waits forever.
//
//fencecheck:system
func childOfCurrentLeak() {
	s := &ctxService{}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	done := make(chan bool)
	go func() {
		child, cancel := context.WithCancel(s.current())
		<-child.Done() // want `^deadlock: go@\d+ and main block forever in <-child\.Done\(\) and <-done \(system childOfCurrentLeak\)`
		cancel()
		done <- true
	}()
	s.restart()
	<-done
	s.close()
}

// childOfNil: the worker may derive from the service's context before
// main sets it: Go panics.
//
//fencecheck:system
func childOfNil() {
	s := &ctxService{}
	done := make(chan bool)
	go func() {
		child, cancel := context.WithCancel(s.current()) // want `^SC: system childOfNil is wrong even under sequential consistency: the bad state cannot create context from nil parent is reached here`
		cancel()
		<-child.Done()
		done <- true
	}()
	s.restart()
	<-done
	s.close()
}

// sameContext: the worker compares two loads of the field; main replaces
// the context between them.
//
//fencecheck:system
func sameContext() {
	s := &ctxService{}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	done := make(chan bool)
	go func() {
		first := s.current()
		if first != s.current() {
			panic("replaced") // want `^SC: system sameContext is wrong even under sequential consistency: the panic is reached here`
		}
		done <- true
	}()
	s.restart()
	<-done
	s.close()
}

// errNoBarrier: store buffering around ctx.Err() of live contexts, which
// Go's Err answers with an atomic load, no barrier.
//
//fencecheck:system
func errNoBarrier() {
	x, y := 0, 0
	ctxA, cancelA := context.WithCancel(context.Background())
	defer cancelA()
	ctxB, cancelB := context.WithCancel(context.Background())
	defer cancelB()
	res := make(chan int, 2)
	go func() { x = 1; _ = ctxA.Err(); res <- y }() // want `^race: go@\d+ stores x here while go@\d+ loads x at ctxcells\.go:\d+:\d+, and nothing orders the two \(system errNoBarrier\)` `^x86-TSO: the store to x can still sit in the store buffer when the load of ctxA\.closed at ctxcells\.go:\d+:\d+ reads memory \(system errNoBarrier\)` `^race: go@\d+ loads y here`
	go func() { y = 1; _ = ctxB.Err(); res <- x }() // want `^x86-TSO: the store to y can still sit in the store buffer when the load of ctxB\.closed at ctxcells\.go:\d+:\d+ reads memory \(system errNoBarrier\)`
	if <-res+<-res == 0 {
		panic("both 0")
	}
}

// childRegistersNoBarrierNeeded: a goroutine's WithCancel of a cancellable
// parent registers the child under the parent's mutex: a barrier between
// each store and the load after it.
//
//fencecheck:system
func childRegistersNoBarrierNeeded() {
	x, y := 0, 0
	parent, cancel := context.WithCancel(context.Background())
	defer cancel()
	res := make(chan int, 2)
	go func() {
		x = 1 // want `^race: go@\d+ stores x here while go@\d+ loads x at ctxcells\.go:\d+:\d+, and nothing orders the two \(system childRegistersNoBarrierNeeded\)`
		_, stop := context.WithCancel(parent)
		res <- y // want `^race: go@\d+ loads y here`
		stop()
	}()
	go func() {
		y = 1
		_, stop := context.WithCancel(parent)
		res <- x
		stop()
	}()
	if <-res+<-res == 0 {
		panic("both 0")
	}
}

// deadlineChildOfCancelled: a child with a deadline, made once its parent
// is cancelled, is cancelled from the start: its deadline cannot pass
// first.
//
//fencecheck:system
func deadlineChildOfCancelled() {
	parent, cancel := context.WithCancel(context.Background())
	done := make(chan bool)
	go func() {
		defer close(done)
		<-parent.Done()
		child, stop := context.WithTimeout(parent, time.Hour)
		defer stop()
		if child.Err() != context.Canceled {
			panic("not cancelled")
		}
	}()
	cancel()
	<-done
}

// laterChildDeadline: a child whose timeout is longer than its parent's
// gets no timer of its own: it is done only once its parent is.
//
//fencecheck:system
func laterChildDeadline() {
	parent, cancelParent := context.WithTimeout(context.Background(), time.Hour)
	defer cancelParent()
	child, cancelChild := context.WithTimeout(parent, 2*time.Hour)
	defer cancelChild()
	done := make(chan bool)
	go func() {
		defer close(done)
		select {
		case <-child.Done():
			if parent.Err() == nil {
				panic("child expired alone")
			}
		default:
		}
	}()
	<-done
}

// rootsCompare: Background is one context wherever it is made, and TODO
// another.
//
//fencecheck:system
func rootsCompare() {
	s := &ctxService{ctx: context.Background()}
	done := make(chan bool)
	go func() {
		defer close(done)
		c := s.current()
		if c != context.Background() && c != context.TODO() {
			panic("neither")
		}
		if c == context.TODO() {
			panic("TODO") // want `^SC: system rootsCompare is wrong even under sequential consistency: the panic is reached here`
		}
	}()
	s.mu.Lock()
	s.ctx = context.TODO()
	s.mu.Unlock()
	<-done
}

// deadlineParentShorter: a parent's deadline a constant after a reading
// of the clock is before its child's, a longer WithTimeout made later:
// the child has no timer of its own.
//
//fencecheck:system
func deadlineParentShorter() {
	parent, cancelParent := context.WithDeadline(context.Background(), time.Now().Add(3*time.Millisecond))
	defer cancelParent()
	done := make(chan bool)
	go func() {
		defer close(done)
		child, cancelChild := context.WithTimeout(parent, time.Hour)
		defer cancelChild()
		<-child.Done()
		if parent.Err() == nil {
			panic("child expired alone")
		}
	}()
	<-done
}
