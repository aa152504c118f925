package analyzer

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/lib/explore"
	"github.com/fencecheck/fencecheck/extract"
	"github.com/fencecheck/fencecheck/model"
)

// blockingSearchStates bounds the search for the blocking bugs of a
// system whose goroutines can wait at too many combinations of places for
// each to be a bad state (extract.BlockingSearch): a part of the system's
// work budget, so that the rest of its analysis keeps the larger part.
const blockingSearchStates = 1_000_000

// errBlockingTime and errBlockingMemory end the search for blocking bugs
// when it has used its share (a quarter of the time budget, half of the
// memory the analysis has left under its limit).
var (
	errBlockingTime   = errors.New("time the search for blocking bugs may take (a quarter of -budget)")
	errBlockingMemory = errors.New("memory the search for blocking bugs may use (half of what -memory leaves)")
)

// searchBlocking looks for a blocking bug of a system with too many
// combinations of places to wait at, by a search of its states under
// sequential consistency that asks each whether it is one. A state found
// becomes the bad state the enumeration of the combinations would have
// made, which the analysis then reaches and reports as it does the
// others; a search that ends without one leaves none to report; one that
// stops says so.
func (s *system) searchBlocking() {
	b := s.sys.Blocking
	unchecked := func(why string) {
		s.report(s.sys.Decl.Name.Pos(), fmt.Sprintf(
			"inconclusive: system %s: deadlocks and leaks are not looked for beyond what a search of its states reached, since its goroutines can wait at too many combinations of places (more than %d) to check each: %s; the other findings stand",
			s.sys.Name, extract.MaxBlockedStates, why))
	}
	if s.grows != nil {
		unchecked("a value grows without bound")
		return
	}
	ctx, stop := s.blockingShare()
	defer stop()
	var mu sync.Mutex
	var fault *model.Fault // the first fault the search met
	res, err := explore.Check(ctx, s.p, model.SC, explore.Options{
		MaxStates: blockingSearchStates,
		Target: func(st model.State) bool {
			if st.Fault != nil {
				mu.Lock()
				if fault == nil {
					fault = st.Fault
				}
				mu.Unlock()
				return false
			}
			_, ok := b.At(s.p, st)
			return ok
		},
	})
	switch {
	case err != nil:
		unchecked(err.Error())
	case res.Status == engines.Safe && fault != nil:
		// The analysis reports the fault itself (a finding, or where it
		// stops); the runs past it were not searched.
		s.report(s.sys.Decl.Name.Pos(), fmt.Sprintf(
			"inconclusive: system %s: deadlocks and leaks are looked for only in the runs that do not first reach %s; the other findings stand",
			s.sys.Name, s.faultWhat(fault)))
	case res.Status == engines.Safe:
	case res.Status == engines.Unsafe:
		states, err := s.p.Execute(res.Trace)
		if err != nil || len(states) == 0 {
			unchecked(fmt.Sprintf("internal error: the search's run does not replay: %v", err))
			return
		}
		last := states[len(states)-1]
		bad, ok := b.At(s.p, last)
		if !ok {
			unchecked("internal error: the search's run ends in no blocking bug")
			return
		}
		s.p.Bad = append(s.p.Bad, bad)
	default:
		unchecked("the search stopped: " + res.Reason)
	}
}

// blockingShare returns the context of a search for blocking bugs: its
// own shares of the time budget and the memory limit (a quarter of the
// one, half of what the other leaves), so that running out of them leaves
// the rest of the analysis its own; stop releases it.
func (s *system) blockingShare() (ctx context.Context, stop func()) {
	ctx, cancel := context.WithTimeoutCause(s.ctx, s.cfg.budget()/4, errBlockingTime)
	share := s.cfg.memoryLimit() / 2
	if heap := engines.HeapBytes(); heap < s.cfg.memoryLimit() {
		share = heap + (s.cfg.memoryLimit()-heap)/2
	}
	ctx, stopWatch := engines.WatchMemory(ctx, share, errBlockingMemory)
	return ctx, func() { stopWatch(); cancel() }
}

// faultWhat describes where the runs with fault f stop: the construct
// refused at run time, or what goes wrong.
func (s *system) faultWhat(f *model.Fault) string {
	if e, ok := s.entity(f); ok && e.Refusal {
		return e.Describe(s.r.pass.Fset) + ", which fencecheck does not model"
	}
	_, here := s.faultText(f, "")
	return "a statement where " + here
}
