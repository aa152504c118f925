// Package loggerfield keeps a logger on the process's standard error in a
// package variable and an interface field, and has two goroutines log
// and count under a lock.
//
// Expected: race-free.
package loggerfield

import (
	"io"
	"log"
	"os"
	"sync"
)

type logger interface {
	Printf(format string, args ...any)
}

var std = logger(log.New(os.Stderr, "[pool] ", 0))

var quiet = log.New(io.Discard, "", 0)

type pool struct {
	log     logger
	mu      sync.Mutex
	started int
}

// system: both goroutines count under the lock and log.
//
//fencecheck:system
func system() {
	p := &pool{log: std}
	var wg sync.WaitGroup
	wg.Add(2)
	for i := range 2 {
		go func() {
			p.mu.Lock()
			p.started++
			p.mu.Unlock()
			quiet.Printf("worker %d", i)
			wg.Done()
		}()
	}
	wg.Wait()
	if p.started != 2 {
		p.log.Printf("lost start")
		panic("lost start")
	}
}
