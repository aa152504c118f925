// Package seqcount follows the sequence counter of gVisor's pkg/sync
// (SeqCount with BeginRead, ReadOk, BeginWrite and EndWrite, after the Linux
// kernel's seqcount_t): an epoch that is odd while the single writer is
// inside, readers that wait for an even epoch and retry when it moved.
// gVisor copies the protected data with the race detector switched off;
// here the data are atomics, so the correct version is race-free.
//
// Expected, by hand: seqCounted is correct (a reader that returns saw the
// same even epoch before and after its two loads, so no store of the writer
// lies between them and x == y). readerSkipsParity drops the `&1` test: a
// reader may start at the odd epoch 1, load the new x and the old y while
// the writer is between its stores, and find the epoch still 1, a torn read
// under sequential consistency (SC finding on its panic).
package seqcount

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// SeqCount is a sequence counter for one writer at a time.
type SeqCount struct {
	epoch atomic.Uint32
}

// SeqCountEpoch is what a reader saw when it began.
type SeqCountEpoch uint32

// BeginRead waits for an even epoch and returns it.
func (s *SeqCount) BeginRead() SeqCountEpoch {
	if epoch := s.epoch.Load(); epoch&1 == 0 {
		return SeqCountEpoch(epoch)
	}
	return s.beginReadSlow()
}

func (s *SeqCount) beginReadSlow() SeqCountEpoch {
	for {
		if epoch := s.epoch.Load(); epoch&1 == 0 {
			return SeqCountEpoch(epoch)
		}
		runtime.Gosched()
	}
}

// ReadOk reports whether no writer ran since BeginRead returned epoch.
func (s *SeqCount) ReadOk(epoch SeqCountEpoch) bool {
	return SeqCountEpoch(s.epoch.Load()) == epoch
}

// BeginWrite makes the epoch odd.
func (s *SeqCount) BeginWrite() {
	if epoch := s.epoch.Add(1); epoch&1 == 0 {
		panic("SeqCount.BeginWrite during writer critical section")
	}
}

// EndWrite makes the epoch even again.
func (s *SeqCount) EndWrite() {
	if epoch := s.epoch.Add(1); epoch&1 != 0 {
		panic("SeqCount.EndWrite outside writer critical section")
	}
}

// point is a pair that readers must see whole.
type point struct {
	seq  SeqCount
	x, y atomic.Int32
}

func (p *point) load() (int32, int32) {
	for {
		epoch := p.seq.BeginRead()
		x, y := p.x.Load(), p.y.Load()
		if p.seq.ReadOk(epoch) {
			return x, y
		}
	}
}

func (p *point) store(x, y int32) {
	p.seq.BeginWrite()
	p.x.Store(x)
	p.y.Store(y)
	p.seq.EndWrite()
}

//fencecheck:system
func seqCounted() {
	var p point
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		p.store(1, 1)
		p.store(2, 2)
		wg.Done()
	}()
	go func() {
		if x, y := p.load(); x != y {
			panic("torn read")
		}
		wg.Done()
	}()
	wg.Wait()
}

// loadNoParity is load with BeginRead's parity test left out.
func (p *point) loadNoParity() (int32, int32) {
	for {
		epoch := SeqCountEpoch(p.seq.epoch.Load())
		x, y := p.x.Load(), p.y.Load()
		if p.seq.ReadOk(epoch) {
			return x, y
		}
	}
}

//fencecheck:system
func readerSkipsParity() {
	var p point
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		p.store(1, 1)
		wg.Done()
	}()
	go func() {
		if x, y := p.loadNoParity(); x != y {
			panic("torn read") // want `^SC: system readerSkipsParity is wrong even under sequential consistency: `
		}
		wg.Done()
	}()
	wg.Wait()
}
