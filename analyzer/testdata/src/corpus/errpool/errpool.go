// Package errpool follows the ErrorPool of github.com/sourcegraph/conc's
// pool package: a bounded number of workers take tasks from a channel, and
// each failed task's error is joined, under the pool's mutex, into the
// pool's error with errors.Join (the package's multierror.Join since Go
// 1.20); Wait closes the task channel, waits for the workers and returns
// the joined error.
//
// Expected, by hand: twoTasks is correct and race-free: two workers run
// two tasks, the second fails with ErrRejected, and errors.Is finds it in
// what Wait returns. The mutant twoTasksUnlocked joins without the mutex
// (addErrUnlocked): when both tasks fail, with ErrRejected and
// ErrTimeout, the workers' reads and writes of the pool's error race
// (race finding), and one task's error may be lost (the SC finding on the
// panic).
package errpool

import (
	"errors"
	"sync"
)

// ErrRejected is the error of a rejected task.
var ErrRejected = errors.New("rejected")

// ErrorPool runs tasks on a fixed number of workers and gathers errors.
type ErrorPool struct {
	tasks chan func() error
	wg    sync.WaitGroup
	mu    sync.Mutex
	errs  error
	lock  bool
}

// New returns a pool of n workers.
func New(n int, lock bool) *ErrorPool {
	p := &ErrorPool{tasks: make(chan func() error), lock: lock}
	for range n {
		p.wg.Add(1)
		go p.worker()
	}
	return p
}

func (p *ErrorPool) worker() {
	defer p.wg.Done()
	for task := range p.tasks {
		if p.lock {
			p.addErr(task())
		} else {
			p.addErrUnlocked(task())
		}
	}
}

func (p *ErrorPool) addErr(err error) {
	if err != nil {
		p.mu.Lock()
		p.errs = errors.Join(p.errs, err)
		p.mu.Unlock()
	}
}

func (p *ErrorPool) addErrUnlocked(err error) {
	if err != nil {
		p.errs = errors.Join(p.errs, err) // want `^race: worker stores p\.errs here while worker#2 loads p\.errs`
	}
}

// Go submits a task.
func (p *ErrorPool) Go(task func() error) {
	p.tasks <- task
}

// Wait waits for the tasks and returns their joined errors.
func (p *ErrorPool) Wait() error {
	close(p.tasks)
	p.wg.Wait()
	return p.errs
}

//fencecheck:system
func twoTasks() {
	p := New(2, true)
	for i := range 2 {
		p.Go(func() error {
			if i == 1 {
				return ErrRejected
			}
			return nil
		})
	}
	if err := p.Wait(); !errors.Is(err, ErrRejected) {
		panic("lost the rejection")
	}
}

// ErrTimeout is the error of a task that took too long.
var ErrTimeout = errors.New("timeout")

//fencecheck:system
func twoTasksUnlocked() {
	p := New(2, false)
	p.Go(func() error { return ErrRejected })
	p.Go(func() error { return ErrTimeout })
	if err := p.Wait(); !errors.Is(err, ErrRejected) || !errors.Is(err, ErrTimeout) {
		panic("a task's error was lost") // want `^SC: system twoTasksUnlocked is wrong even under sequential consistency`
	}
}
