package engines

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"sync/atomic"
)

// Work units: what a Meter counts. A state (of the explicit search, the
// forward abstractions) or a constraint (of the SB search) is one unit; an
// abstract state of the predicate engine is AbstractStateWork units and a
// call of the SMT solver SolverCallWork units, about the time the searches
// take for that many states. Unlike time, the units an engine spends on a
// program are the same on every machine, so an answer cut short by a Meter
// is reproducible.
const (
	SolverCallWork    = 200
	AbstractStateWork = 4
)

// ErrWork is the error with which an engine's search stops when the Meter of
// its context has run out.
var ErrWork = errors.New("work bound reached")

// A Meter counts the work of every engine call made under one context
// (see WithMeter) against a limit: the engines charge it as they go, and
// stop with an Inconclusive result (Reason: Meter.Reason) once it has run
// out. A nil *Meter counts nothing and never runs out. The methods are safe
// for concurrent use, but the answer is reproducible only when engine calls
// charging one Meter do not run at once (see Fork).
type Meter struct {
	limit   atomic.Int64
	bounded bool // limit applies
	used    atomic.Int64
	states  atomic.Int64
	calls   atomic.Int64
}

// NewMeter returns a Meter allowing limit units; limit <= 0 means no limit.
func NewMeter(limit int64) *Meter {
	m := &Meter{bounded: limit > 0}
	m.limit.Store(limit)
	return m
}

type meterKey struct{}

// WithMeter returns a context under which the engines charge m.
func WithMeter(ctx context.Context, m *Meter) context.Context {
	return context.WithValue(ctx, meterKey{}, m)
}

// MeterOf returns the Meter of ctx, or nil.
func MeterOf(ctx context.Context) *Meter {
	m, _ := ctx.Value(meterKey{}).(*Meter)
	return m
}

// States charges n states or constraints and reports whether the work may
// go on.
func (m *Meter) States(n int64) bool {
	if m == nil {
		return true
	}
	m.states.Add(n)
	return m.charge(n)
}

// AbstractStates charges n abstract states of the predicate engine, each
// of which costs the abstract posts of its successors, and reports
// whether the work may go on.
func (m *Meter) AbstractStates(n int64) bool {
	if m == nil {
		return true
	}
	m.states.Add(n)
	return m.charge(n * AbstractStateWork)
}

// SolverCalls charges n calls of the SMT solver and reports whether the
// work may go on.
func (m *Meter) SolverCalls(n int64) bool {
	if m == nil {
		return true
	}
	m.calls.Add(n)
	return m.charge(n * SolverCallWork)
}

func (m *Meter) charge(units int64) bool {
	u := m.used.Add(units)
	return !m.bounded || u <= m.limit.Load()
}

// Out reports whether m has run out.
func (m *Meter) Out() bool {
	return m != nil && m.bounded && m.used.Load() > m.limit.Load()
}

// Limit returns the units m allows; 0 means no limit.
func (m *Meter) Limit() int64 {
	if m == nil || !m.bounded {
		return 0
	}
	return m.limit.Load()
}

// Used returns the units charged so far, the states and the solver calls.
func (m *Meter) Used() (units, states, calls int64) {
	if m == nil {
		return 0, 0, 0
	}
	return m.used.Load(), m.states.Load(), m.calls.Load()
}

// Remaining returns the units left before m runs out (0 when it has), or -1
// when m has no limit.
func (m *Meter) Remaining() int64 {
	if m == nil || !m.bounded {
		return -1
	}
	return max(m.limit.Load()-m.used.Load(), 0)
}

// Fork returns a Meter for one of several searches that run at once: it
// allows what m has left (a fork of a Meter without a limit has the
// largest limit, so that Cap can lower it) and counts on its own, so that
// each search stops at the same point on every machine. Join charges m
// with what a fork used.
func (m *Meter) Fork() *Meter {
	if m == nil {
		return nil
	}
	f := &Meter{bounded: true}
	f.limit.Store(math.MaxInt64)
	if m.bounded {
		f.limit.Store(max(m.Remaining(), 0))
	}
	return f
}

// Cap lowers the limit of m to units, if that is lower: a search that runs
// at once with another stops once it has done more work than the other
// needed for its answer. It has no effect on a Meter without a limit.
func (m *Meter) Cap(units int64) {
	if m == nil || !m.bounded {
		return
	}
	for {
		old := m.limit.Load()
		if old <= units || m.limit.CompareAndSwap(old, units) {
			return
		}
	}
}

// Sub returns a Meter for at most units of work that also counts against
// m: a fork of m capped at units, or, when m is nil, a new Meter of units.
// Charge m with it afterwards with m.Join.
func (m *Meter) Sub(units int64) *Meter {
	if m == nil {
		return NewMeter(units)
	}
	f := m.Fork()
	f.Cap(units)
	return f
}

// Join charges m with the work of f, a Meter made by m.Fork.
func (m *Meter) Join(f *Meter) {
	if m == nil || f == nil {
		return
	}
	m.states.Add(f.states.Load())
	m.calls.Add(f.calls.Load())
	m.used.Add(f.used.Load())
}

// Reason says that m ran out, for Result.Reason: the bound and the work
// done, in states and solver calls.
func (m *Meter) Reason() string {
	_, states, calls := m.Used()
	return fmt.Sprintf("work bound of %s units reached after %s", Thousands(m.Limit()), WorkString(states, calls))
}

// WorkString describes work done: "1,234 states and 5 solver calls".
func WorkString(states, calls int64) string {
	s := Thousands(states) + " states"
	if calls == 1 {
		return s + " and 1 solver call"
	}
	if calls > 0 {
		return s + " and " + Thousands(calls) + " solver calls"
	}
	return s
}

// Thousands formats n with commas between groups of three digits.
func Thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := n < 0
	if neg {
		s = s[1:]
	}
	var b []byte
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			b = append(b, ',')
		}
		b = append(b, s[i])
	}
	if neg {
		return "-" + string(b)
	}
	return string(b)
}
