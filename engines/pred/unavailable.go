package pred

import (
	"time"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/model"
)

// unavailableReason is the reason of the Inconclusive result of every
// analysis when Z3 cannot be used (see package smt): err says why.
func unavailableReason(err error) string {
	return "the predicate engine is unavailable: " + err.Error() +
		"; to enable it, install Z3 4.8's shared library (Debian: libz3-4) and use a build with CGO_ENABLED=1" +
		" and without -tags fencecheck_noz3, or bound the data with //fencecheck:range LO..HI so that another engine applies"
}

// unavailableReport is the report of an analysis under m, started at start,
// when Z3 cannot be used (err says why): Inconclusive, saying why.
func unavailableReport(m model.Model, start time.Time, err error) *Report {
	res := &engines.Result{Status: engines.Inconclusive, Model: m, Reason: unavailableReason(err)}
	res.Stats.Duration = time.Since(start)
	return &Report{Result: res}
}
