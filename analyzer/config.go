package analyzer

import (
	"flag"
	"fmt"
	"time"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/registry"
	"github.com/fencecheck/fencecheck/extract"
)

// Engine names accepted by Config.Engine: those of registry.Systems.
const (
	EngineAuto     = registry.Auto
	EngineSB       = registry.SB
	EnginePred     = registry.Pred
	EngineExplicit = registry.Explicit
	EngineBMC      = registry.BMC
)

// Fence-set modes accepted by Config.Fences.
const (
	FencesCheapest = "cheapest"
	FencesAll      = "all"
)

// Placements accepted by Config.Placement.
const (
	PlacementAfterWrites = "after-writes"
	PlacementAnywhere    = "anywhere"
)

// DefaultBudget is the time an analysis may spend on one system when
// Config.Budget is 0: a safety net behind the work bound, which decides
// first on a machine that is not overloaded.
const DefaultBudget = 2 * time.Minute

// DefaultWork is the work, in the units of engines.Meter, that the analysis
// of one system may do when Config.Work is 0: about 30 seconds of one core
// (the engines do 150,000 to 350,000 units a second; see
// docs/performance.md).
const DefaultWork = 6_000_000

// Config is the analyzer's configuration; its flags are the fields.
type Config struct {
	// Engine picks the reachability engine: one of registry.Systems, "auto"
	// by default (the plan of registry.Choose: explicit for finite loop-free
	// systems, where its bound is exact; sb for finite systems with loops;
	// pred for unbounded data; bmc first from registry.PortfolioGoroutines
	// goroutines).
	Engine string
	// Fences is "cheapest" (the default: report one cheapest minimal barrier
	// set) or "all" (name every minimal set).
	Fences string
	// Placement is where barriers may go: "after-writes" (the default) or
	// "anywhere".
	Placement string
	// Budget is the time one system may take; 0 means DefaultBudget. An
	// answer it cuts short depends on the machine and its load.
	Budget time.Duration
	// Work bounds the work of the engines on one system, in states,
	// constraints and solver calls (engines.Meter); 0 means DefaultWork.
	// Beyond it the answer is inconclusive, the same on every machine.
	Work int64
	// Witness includes the interleaving that breaks the system, as a table
	// with one column per goroutine and the store buffers, in the diagnostic.
	Witness bool
	// Races reports data races under the Go memory model (the default). With
	// it off, a system is judged as if every plain access compiled to one MOV
	// in program order: only x86-TSO and SC findings are reported. That is a
	// promise gc does not keep for racy code (docs/design.md §4).
	Races bool
	// Blocking reports the goroutines that can block forever (the default):
	// deadlock: and leak: findings. With it off, waiting forever is no bad
	// state, and systems with many places to wait are checked faster.
	Blocking bool
	// MemoryLimit is the heap, in MiB, that the analysis may use; 0 means
	// DefaultMemoryLimit. Beyond it the system's answer is inconclusive.
	MemoryLimit int64
	// Unfixed reports only the findings that carry no suggested fix: what
	// applying the fixes leaves. The fencecheck command runs with it after
	// -fix, so that findings no fix removes are printed and fail the run.
	Unfixed bool
	// MaxProcs bounds the values runtime.GOMAXPROCS(0), runtime.NumCPU()
	// and the set-up's runtime.NumGoroutine() may return: any of 1 to
	// MaxProcs (a goroutine's NumGoroutine is any positive number); 0 means
	// extract.DefaultMaxProcs. A system whose set-up reads one is checked
	// once per value, and a finding names the value it needs.
	MaxProcs int64
}

// DefaultConfig returns the configuration of the flags' defaults.
func DefaultConfig() Config {
	return Config{
		Engine:    EngineAuto,
		Fences:    FencesCheapest,
		Placement: PlacementAfterWrites,
		Races:     true,
		Blocking:  true,
	}
}

// Validate reports the first field of c that holds a value the analyzer does
// not accept, naming the field and the value.
func (c Config) Validate() error {
	if !registry.ForSystems(c.Engine) {
		return fmt.Errorf("fencecheck: invalid engine %q: want %s", c.Engine, registry.List(registry.Names(registry.Systems())))
	}
	switch c.Fences {
	case FencesCheapest, FencesAll:
	default:
		return fmt.Errorf("fencecheck: invalid fences %q: want cheapest or all", c.Fences)
	}
	switch c.Placement {
	case PlacementAfterWrites, PlacementAnywhere:
	default:
		return fmt.Errorf("fencecheck: invalid placement %q: want after-writes or anywhere", c.Placement)
	}
	if c.Work < 0 {
		return fmt.Errorf("fencecheck: invalid work bound %d: must not be negative", c.Work)
	}
	if c.Budget < 0 {
		return fmt.Errorf("fencecheck: invalid budget %v: must not be negative", c.Budget)
	}
	if c.MaxProcs < 0 {
		return fmt.Errorf("fencecheck: invalid maxprocs %d: must not be negative", c.MaxProcs)
	}
	return nil
}

// RegisterFlags defines the analyzer's flags on fs, one per field of c,
// bound to c's fields and with their current values as defaults. New
// defines them on each analyzer's Flags, and the golangci-lint plugin
// forwards its settings to them.
func (c *Config) RegisterFlags(fs *flag.FlagSet) {
	fs.StringVar(&c.Engine, "engine", c.Engine, "reachability engine: "+registry.List(registry.Names(registry.Systems())))
	fs.StringVar(&c.Fences, "fences", c.Fences, "barrier sets to report: "+FencesCheapest+" or "+FencesAll)
	fs.StringVar(&c.Placement, "placement", c.Placement, "where barriers may go: "+PlacementAfterWrites+" or "+PlacementAnywhere)
	fs.DurationVar(&c.Budget, "budget", c.Budget, "wall-clock time per system, a safety net behind -maxwork (0 means "+DefaultBudget.String()+")")
	fs.Int64Var(&c.Work, "maxwork", c.Work, "work per system, in states and constraints (an abstract state of the predicate engine counts "+fmt.Sprint(engines.AbstractStateWork)+", a solver call "+fmt.Sprint(engines.SolverCallWork)+"); beyond it the answer is inconclusive, the same on every machine (0 means "+fmt.Sprint(DefaultWork)+")")
	fs.BoolVar(&c.Witness, "witness", c.Witness, "include the interleaving as a table in the diagnostics")
	fs.BoolVar(&c.Blocking, "blocking", c.Blocking, "report goroutines that can block forever (deadlock: and leak: findings)")
	fs.BoolVar(&c.Races, "races", c.Races, "report data races under the Go memory model (false: only x86-TSO and SC findings, for code meant for amd64 and gc -N only)")
	fs.Int64Var(&c.MemoryLimit, "memory", c.MemoryLimit, "MiB of heap the analysis may use (0 means "+fmt.Sprint(DefaultMemoryLimit)+"); beyond it the answer is inconclusive")
	fs.BoolVar(&c.Unfixed, "unfixed", c.Unfixed, "report only the findings that have no suggested fix (what -fix leaves)")
	fs.Int64Var(&c.MaxProcs, "maxprocs", c.MaxProcs, "the largest value runtime.GOMAXPROCS(0), runtime.NumCPU() and the set-up's runtime.NumGoroutine() may return; a set-up that reads one is checked once per value (0 means "+fmt.Sprint(extract.DefaultMaxProcs)+")")
}

// DefaultMemoryLimit is the heap, in MiB, that the analysis of a system may
// use when Config.MemoryLimit is 0.
const DefaultMemoryLimit = 2048

// defaultMemoryLimit is the limit, in MiB, of a Config whose MemoryLimit
// is 0: DefaultMemoryLimit, but in this package's tests (export_test.go).
var defaultMemoryLimit int64 = DefaultMemoryLimit

// memoryLimit returns the memory limit in bytes.
func (c Config) memoryLimit() uint64 {
	if c.MemoryLimit <= 0 {
		return uint64(defaultMemoryLimit) << 20
	}
	return uint64(c.MemoryLimit) << 20
}

// work returns the work bound of one system.
func (c Config) work() int64 {
	if c.Work == 0 {
		return DefaultWork
	}
	return c.Work
}

// budget returns the time one system may take.
func (c Config) budget() time.Duration {
	if c.Budget == 0 {
		return DefaultBudget
	}
	return c.Budget
}
