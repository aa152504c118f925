package analyzer

import (
	"context"
	"errors"
	"fmt"

	"github.com/fencecheck/fencecheck/engines"
)

// errBudget and errMemory are the causes with which a system's context ends
// when its time budget or the memory limit runs out.
var (
	errBudget = errors.New("time budget")
	errMemory = errors.New("memory limit")
)

// OnLimit, when set, is called whenever an answer is cut short by the time
// budget or the memory limit: answers that depend on the machine's speed or
// load. The fencecheck command uses it to keep such answers out of go vet's
// result cache. An answer cut short by the work bound (-work) is the same on
// every machine and does not call it.
var OnLimit func(cause error)

// stopReason returns reason, an engine's account of why it stopped, with
// the limit that stopped it when that was the system's: the work bound, the
// time budget or the memory limit, and the flag that raises it. The work
// bound's account names the work done and nothing that depends on the
// machine.
func (s *system) stopReason(reason string) string {
	if s.meter.Out() {
		_, states, calls := s.meter.Used()
		return fmt.Sprintf("reached the work bound of %s units per system after %s; raise it with -maxwork",
			engines.Thousands(s.meter.Limit()), engines.WorkString(states, calls))
	}
	if s.ctx.Err() == nil {
		return reason
	}
	if OnLimit != nil {
		OnLimit(context.Cause(s.ctx))
	}
	if errors.Is(context.Cause(s.ctx), errMemory) {
		return fmt.Sprintf("the memory limit of %d MiB was reached (%s); raise it with -memory", s.cfg.memoryLimit()>>20, reason)
	}
	return fmt.Sprintf("the wall-clock budget of %v per system ran out (%s); raise it with -budget, or lower -maxwork to get a reproducible answer sooner", s.cfg.budget(), reason)
}
