package pred

import (
	"time"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/smt"
	"github.com/fencecheck/fencecheck/model"
)

// unavailableReason is the reason of the Inconclusive result of every
// analysis in a build without Z3 (see package smt).
var unavailableReason = "the predicate engine is unavailable in this build: " + smt.ErrUnavailable.Error() +
	"; to enable it, install libz3-dev and rebuild with CGO_ENABLED=1 and without -tags fencecheck_noz3," +
	" or bound the data with //fencecheck:range LO..HI so that another engine applies"

// unavailableReport is the report of an analysis under m, started at start,
// in a build without Z3: Inconclusive, saying why.
func unavailableReport(m model.Model, start time.Time) *Report {
	res := &engines.Result{Status: engines.Inconclusive, Model: m, Reason: unavailableReason}
	res.Stats.Duration = time.Since(start)
	return &Report{Result: res}
}
