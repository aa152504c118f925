package engines

import (
	"context"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/facts"
)

// This file holds the words engines share for an answer they cannot give:
// the reasons of inconclusive answers and the error of a program an
// engine that searches under SC cannot take under x86-TSO.

// TooManyInitial is the reason of an inconclusive answer for a program with
// n initial states, more than the budget.
func TooManyInitial(n, budget int64) string {
	count := fmt.Sprint(n)
	if n == math.MaxInt64 {
		count = "at least 2^63"
	}
	return fmt.Sprintf("%s initial states (values '*' of wide domains) exceed the state budget of %d", count, budget)
}

// StopReason names the limit that ended ctx: "time budget exhausted" for a
// deadline, else the context's cause (a memory limit, a cancellation).
func StopReason(ctx context.Context) string {
	cause := context.Cause(ctx)
	switch {
	case cause == nil, errors.Is(cause, context.DeadlineExceeded):
		return "time budget exhausted"
	case errors.Is(cause, context.Canceled):
		return "search canceled"
	}
	return fmt.Sprintf("stopped by the %v", cause)
}

// ForTSO returns the program that an engine (named as "the bdd engine")
// deciding SC and x86-TSO only searches for p under m: p, with its
// store-store fences as nops when it has any (they order nothing under
// those models). Under any other memory model (PSO) it returns an
// *Unsupported error: the engine refuses rather than answer for a model it
// does not know.
func ForTSO(engine string, p *model.Program, m model.Model) (*model.Program, error) {
	if m != model.SC && m != model.TSO {
		return nil, &Unsupported{Engine: engine, What: fmt.Sprintf("the %s memory model (it decides SC and x86-TSO; the explicit engine decides PSO)", strings.ToUpper(m.String()))}
	}
	return p.SSFencesAsNops(), nil
}

// RequireDrained returns the error of an engine (named as "the bdd
// engine") that searches under SC, for a program under m it cannot take:
// one under x86-TSO whose reads may find a store of their own process
// pending, where TSO has behaviours SC lacks. It returns nil otherwise.
func RequireDrained(engine string, p *model.Program, m model.Model) error {
	if m == model.TSO && !facts.LoadsDrained(p) {
		return &Unsupported{Engine: engine, What: "a program under x86-TSO whose reads may find a store of their own process pending (it searches under SC, which has the same behaviours only when a fence or locked operation lies between every write and the next read)"}
	}
	return nil
}

// NoFloats is the reason of an inconclusive answer of an engine (named as
// in "the bmc engine") that does not encode floating-point arithmetic, for a
// program that computes with floats, or "" when p does not. It names the
// Go position of the first such computation.
func NoFloats(engine string, p *model.Program) string {
	pos, ok := p.FloatAt()
	if !ok {
		return ""
	}
	where := "in a bad-state condition"
	if pos.IsValid() {
		pos.File = filepath.Base(pos.File)
		where = "at " + pos.String()
	}
	return fmt.Sprintf("the floating-point arithmetic %s is not encoded by %s; the explicit and sb engines compute it exactly (bound the other data with //fencecheck:range LO..HI so that they apply)", where, engine)
}
