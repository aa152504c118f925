// Package metric checks systems that use a dependency's gauge, whose
// package imports packages the system's package never sees.
package metric

import (
	"sync"
	"sync/atomic"

	"example.com/dep/asmsum"
	"example.com/dep/gauge"
	"example.com/dep/limits"
)

//fencecheck:system
func gaugeAdds() {
	g := gauge.New("g")
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { g.Add(1.5); wg.Done() }()
	go func() { g.Add(2); wg.Done() }()
	wg.Wait()
	if g.Value() != 3.5 {
		panic("lost update")
	}
}

//fencecheck:system
func gaugeAddsRacy() {
	g := gauge.New("g")
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { g.AddRacy(1.5); wg.Done() }()
	go func() { g.AddRacy(2); wg.Done() }()
	wg.Wait()
	if g.Value() != 3.5 {
		panic("lost update")
	}
}

// doubled calls a Go function of a package that has assembly too.
//
//fencecheck:system
func doubled() {
	var n atomic.Int32
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { n.Store(int32(asmsum.Double(2))); wg.Done() }()
	wg.Wait()
	if n.Load() != 4 {
		panic("wrong double")
	}
}

// summed calls a function whose code is assembly on amd64.
//
//fencecheck:system
func summed() {
	var n atomic.Int32
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { n.Store(int32(asmsum.Sum(1, 2))); wg.Done() }()
	wg.Wait()
	if n.Load() != 3 {
		panic("wrong sum")
	}
}

// bounded stays within a limit that another package's initialisation
// computes.
//
//fencecheck:system
func bounded() {
	var n atomic.Int32
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() { n.Add(1); wg.Done() }()
	}
	wg.Wait()
	if n.Load() > limits.Max {
		panic("over the limit")
	}
}
