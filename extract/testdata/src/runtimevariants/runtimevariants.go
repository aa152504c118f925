// Package runtimevariants holds systems whose set-up reads values the run
// time picks: each is lowered once per value.
package runtimevariants

import (
	"math/rand"
	"runtime"
	"sync"
)

// pool starts one worker per P.
//
//fencecheck:system
func pool() {
	n := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	wg.Add(n)
	for range n {
		go func() { wg.Done() }()
	}
	wg.Wait()
}

// twoChoices reads NumCPU and a random number: one run per pair.
//
//fencecheck:system
func twoChoices() {
	n := runtime.NumCPU() + rand.Intn(2)
	var wg sync.WaitGroup
	wg.Add(n)
	for range n {
		go func() { wg.Done() }()
	}
	wg.Wait()
}

// sameValue reads GOMAXPROCS twice: one value per run.
//
//fencecheck:system
func sameValue() {
	if runtime.GOMAXPROCS(0) != runtime.GOMAXPROCS(0) {
		panic("GOMAXPROCS changed by itself")
	}
	go func() {}()
}

// tooMany reads NumGoroutine three times: more runs than are modelled.
//
//fencecheck:system
func tooMany() {
	n := runtime.NumGoroutine() + runtime.NumGoroutine() + runtime.NumGoroutine()
	for range n {
		go func() {}()
	}
}
