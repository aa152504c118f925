package engines

import (
	"context"

	"github.com/fencecheck/fencecheck/model"
)

// This file holds the questions of the race check (engines/question/race)
// that an engine may answer on its own encoding of the program's
// executions, instead of on the query programs the check builds: the
// engine implements race.Enumerator, whose methods speak these types, so
// that it needs nothing of the race check's package.

// A RaceQuestion of the race check's second phase: can process Proc be at
// location Loc, about to perform the transitions Trans (which conflict with
// Site), while an access of Site has run that does not happen before Proc's
// point? With is -1 then. A question of the first phase has With ≥ 0: can
// process Proc be at Loc while Site.Proc is at location With (Site.Var names
// the variable; Trans and Site.Trans are empty)?
type RaceQuestion struct {
	Proc, Loc int
	Trans     []int
	Site      RaceSite
	With      int
}

// A RaceSite is the transitions Trans of process Proc that access variable
// Var and that the user names alike (see race.Options.Key).
type RaceSite struct {
	Proc, Var int
	Trans     []int
}

// A RaceEnumeration answers the race questions of one program, one at a
// time.
type RaceEnumeration interface {
	// Next returns an open question (by index) and an SC trace of the
	// program that answers it (holds(i, t) is true), or -1 and a result:
	// Safe when no open question has an answer (within Result.Bound),
	// Inconclusive when a budget ran out.
	Next(ctx context.Context, open []int) (int, *model.Trace, *Result, error)
	// Close releases the enumeration's resources.
	Close()
}
