package channels

import (
	"context"
	"errors"

	"golang.org/x/sync/errgroup"
)

var errFetch = errors.New("fetch failed")

// groupFirstError: Wait orders both results and returns the error.
//
//fencecheck:system
func groupFirstError() {
	var g errgroup.Group
	var a, b int
	g.Go(func() error { a = 1; return nil })
	g.Go(func() error { b = 2; return errFetch })
	if err := g.Wait(); err != errFetch {
		panic("lost the error")
	}
	if a+b != 3 {
		panic("lost a result")
	}
}

// groupRace: the group orders nothing between its goroutines.
//
//fencecheck:system
func groupRace() {
	var g errgroup.Group
	n := 0
	g.Go(func() error { n++; return nil }) // want `^race: `
	g.Go(func() error { n++; return nil })
	g.Wait()
}

// groupCancel: the first error cancels the group's context, which ends
// the other goroutine's wait.
//
//fencecheck:system
func groupCancel() {
	g, ctx := errgroup.WithContext(context.Background())
	g.Go(func() error { return errFetch })
	g.Go(func() error {
		<-ctx.Done()
		return ctx.Err()
	})
	if err := g.Wait(); err != errFetch {
		panic("the first error is not kept")
	}
}

// groupNoCancel is its buggy twin: a goroutine that does not watch the
// context waits for a result nobody sends.
//
//fencecheck:system
func groupNoCancel() {
	g, _ := errgroup.WithContext(context.Background())
	res := make(chan int)
	g.Go(func() error { res <- 1; return nil }) // want `^deadlock: go@errgroup\.go:\d+ and main block forever in res <- 1 and g\.wg\.Wait\(\) \(system groupNoCancel\)$`
	g.Go(func() error { return errFetch })
	g.Wait()
}

// groupEitherError: either error may come first.
//
//fencecheck:system
func groupEitherError() {
	var g errgroup.Group
	errA, errB := errors.New("a"), errors.New("b")
	g.Go(func() error { return errA })
	g.Go(func() error { return errB })
	if g.Wait() != errA {
		panic("b came first") // want `^SC: system groupEitherError is wrong even under sequential consistency`
	}
}

// groupLimitOne: SetLimit(1) lets one goroutine run at a time. The
// semaphore channel it makes after the group orders them: a goroutine's
// receive when it ends happens before the next Go's send completes, so
// the plain increments do not race.
//
//fencecheck:system
func groupLimitOne() {
	var g errgroup.Group
	g.SetLimit(1)
	n := 0
	for i := 0; i < 3; i++ {
		g.Go(func() error { n++; return nil })
	}
	if err := g.Wait(); err != nil || n != 3 {
		panic("lost an increment")
	}
}

// groupLimitTwo is its racy twin: two at a time.
//
//fencecheck:system
func groupLimitTwo() {
	var g errgroup.Group
	g.SetLimit(2)
	n := 0
	for i := 0; i < 3; i++ {
		g.Go(func() error { n++; return nil }) // want `^race: go@errgroup\.go:\d+\(i=\d\) and go@errgroup\.go:\d+\(i=\d\) can both reach this access`
	}
	g.Wait()
}

// groupLimitCancel: a group of WithContext with a limit of two; the first
// error cancels the context the other goroutine waits on.
//
//fencecheck:system
func groupLimitCancel() {
	g, ctx := errgroup.WithContext(context.Background())
	g.SetLimit(2)
	g.Go(func() error { return errFetch })
	g.Go(func() error {
		<-ctx.Done()
		return ctx.Err()
	})
	if err := g.Wait(); err != errFetch {
		panic("the first error is not kept")
	}
}

// groupLimitLeak is its buggy twin: with a limit of one, the second Go
// waits for the first goroutine, which waits for a cancel only the second
// goroutine's error would bring.
//
//fencecheck:system
func groupLimitLeak() { // want `^deadlock: main and go@errgroup\.go:\d+ block forever in g\.sem <- token\{\} and <-ctx\.Done\(\) \(system groupLimitLeak; at errgroup\.go`
	g, ctx := errgroup.WithContext(context.Background())
	g.SetLimit(1)
	g.Go(func() error {
		<-ctx.Done()
		return nil
	})
	g.Go(func() error { return errFetch })
	g.Wait()
}
