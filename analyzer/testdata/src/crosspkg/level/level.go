// Package level is an atomic level in the style of zap's AtomicLevel: a
// value type holding a pointer to a typed atomic, set and read from other
// packages.
package level

import "sync/atomic"

// Level is a log level that goroutines may change and read.
type Level struct{ l *atomic.Int32 }

// New returns a Level at 0.
func New() Level { return Level{l: new(atomic.Int32)} }

// Set changes the level.
func (v Level) Set(x int32) { v.l.Store(x) }

// Get reads the level.
func (v Level) Get() int32 { return v.l.Load() }
