// Package registry is the one list of fencecheck's engines: each engine's
// name, what it is, what it can decide (its data, how far it decides
// x86-TSO, whether it proves, finds bugs or both, and who answers its race
// questions), its options and how to make it. It also holds the one policy
// that chooses engines (see [Choose]): the analyzer's auto mode, fencemodel's
// default and the golangci-lint plugin all take their engine names, their
// help texts and their choice from here.
//
// The package sits above the engine packages: it imports them, none of
// them imports it, and they do not import each other. Where an engine runs
// another inside it, the registry composes them: the zone abstraction the
// predicate engine tries first (pred.Engine.Zones), the bounded engine run
// before an exact one ([WithBMC]).
package registry

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/bdd"
	"github.com/fencecheck/fencecheck/engines/bmc"
	"github.com/fencecheck/fencecheck/engines/coherence"
	"github.com/fencecheck/fencecheck/engines/explicit"
	"github.com/fencecheck/fencecheck/engines/modular"
	"github.com/fencecheck/fencecheck/engines/pred"
	"github.com/fencecheck/fencecheck/engines/sb"
	"github.com/fencecheck/fencecheck/engines/zone"
)

// The engines' names: their -engine flag values and what their Name
// methods return.
const (
	Auto       = "auto"
	Explicit   = "explicit"
	SB         = "sb"
	SBBackward = "sb-backward"
	Pred       = "pred"
	BMC        = "bmc"
	BDD        = "bdd"
	Zone       = "zone"
	Modular    = "modular"
	Coherence  = "coherence"
)

// BoundedSuffix, after an engine's name, runs the bounded engine first as a
// bug finder (engines/wrap/portfolio): "sb+bmc".
const BoundedSuffix = "+" + BMC

// Data is the data an engine takes.
type Data uint8

const (
	// Finite: every variable and register needs a finite domain.
	Finite Data = iota
	// Unbounded: integers without a finite domain too.
	Unbounded
)

// TSO says which programs an engine decides under x86-TSO.
type TSO uint8

const (
	// AllTSO: every program it takes.
	AllTSO TSO = iota
	// FencedTSO: only programs whose reads find their store buffers empty
	// (fences and locked operations bound them); the others are searched
	// under SC, refused or answered inconclusive.
	FencedTSO
)

// Answers are the answers an engine gives besides inconclusive.
type Answers uint8

const (
	// Proofs: safe answers (a proof, or safe within a bound it names).
	Proofs Answers = 1 << iota
	// Bugs: unsafe answers, with a replayed counterexample.
	Bugs
)

// An Entry is one engine.
type Entry struct {
	// Name is the engine's flag value.
	Name string
	// Help says what it is in a few words, for flag usage texts.
	Help string
	// Title names it in a sentence ("the predicate engine").
	Title string
	// Data is the data it takes.
	Data Data
	// TSO is how far it decides x86-TSO; every engine decides SC.
	TSO TSO
	// PSO is set for an engine that decides PSO (for model files); the
	// others refuse it, and [ChooseFor] never plans them under PSO.
	PSO bool
	// Answers are the answers it gives.
	Answers Answers
	// Races names the engine that answers the race question of a finite
	// program (and then its reachability under SC) when this one is
	// chosen: itself, or explicit, whose SC search is complete. It is
	// empty for an engine that is not offered for the race question;
	// the engines with it set are those that the analyzer offers (see
	// [Systems]).
	Races string
	// Learns is set for an engine that keeps what it learns about a
	// program from one check to the next (the predicate engine's
	// predicates): one engine made for a program then serves every
	// question about it.
	Learns bool
	// Counts is what its Result.Stats.States counts.
	Counts string
	// Options lists the flags of [Options] that it reads.
	Options []string
	// make makes the engine with the options o.
	make func(o Options) engines.Engine
}

// New makes the engine with the options o.
func (e *Entry) New(o Options) engines.Engine { return e.make(o) }

// entries is the registry, in the order of the help texts.
var entries = []*Entry{
	{
		Name:    Auto,
		Help:    "as fencecheck chooses: pred without finite domains, explicit for loop-free goroutines, else sb; bmc first from " + fmt.Sprint(PortfolioGoroutines) + " goroutines, and modular before it for finite programs; explicit under PSO",
		Data:    Unbounded,
		PSO:     true,
		Answers: Proofs | Bugs,
		Races:   Explicit,
		Counts:  "states",
		Options: []string{MaxStatesFlag, BufferFlag, PORFlag, SymmetryFlag},
		make:    func(o Options) engines.Engine { return &AutoEngine{Options: o} },
	},
	{
		Name:    Explicit,
		Help:    "explicit-state search; under TSO and PSO with bounded store buffers, exact when fences bound them",
		Data:    Finite,
		PSO:     true,
		Answers: Proofs | Bugs,
		Races:   Explicit,
		Counts:  "states",
		Options: []string{MaxStatesFlag, BufferFlag, PORFlag, SymmetryFlag},
		make: func(o Options) engines.Engine {
			return &explicit.Engine{Bound: o.Buffer, MaxStates: o.MaxStates, NoPOR: o.NoPOR, NoSymmetry: o.NoSymmetry}
		},
	},
	{
		Name:    SB,
		Help:    "exact TSO",
		Title:   "single-buffer (sb)",
		Data:    Finite,
		Answers: Proofs | Bugs,
		Races:   SB,
		Counts:  "constraints",
		Options: []string{MaxStatesFlag, PORFlag, SymmetryFlag},
		make: func(o Options) engines.Engine {
			return &sb.Engine{MaxConstraints: o.MaxStates, NoPOR: o.NoPOR, NoSymmetry: o.NoSymmetry}
		},
	},
	{
		Name:    SBBackward,
		Help:    "its single-buffer backward search alone",
		Data:    Finite,
		Answers: Proofs | Bugs,
		Counts:  "constraints",
		Options: []string{MaxStatesFlag, PORFlag, SymmetryFlag},
		make: func(o Options) engines.Engine {
			return &sb.Engine{MaxConstraints: o.MaxStates, Backward: true, NoPOR: o.NoPOR, NoSymmetry: o.NoSymmetry}
		},
	},
	{
		Name:    Pred,
		Help:    "predicate abstraction, unbounded integers",
		Title:   "predicate",
		Data:    Unbounded,
		Answers: Proofs | Bugs,
		Races:   Explicit,
		Learns:  true,
		Counts:  "abstract configurations",
		Options: []string{MaxStatesFlag},
		make:    func(o Options) engines.Engine { return &pred.Engine{MaxStates: o.MaxStates, Zones: &zone.Engine{}} },
	},
	{
		Name:    BMC,
		Help:    "bounded, loops unrolled",
		Data:    Unbounded,
		Answers: Bugs,
		Races:   BMC,
		Counts:  "states",
		Options: []string{MaxStatesFlag},
		make:    func(o Options) engines.Engine { return &bmc.Engine{MaxWork: o.MaxStates} },
	},
	{
		Name:    BDD,
		Help:    "symbolic, finite programs under SC or fenced ones under TSO",
		Data:    Finite,
		TSO:     FencedTSO,
		Answers: Proofs | Bugs,
		Counts:  "states",
		Options: []string{MaxStatesFlag},
		make:    func(o Options) engines.Engine { return &bdd.Engine{MaxNodes: clampInt(o.MaxStates)} },
	},
	{
		Name:    Zone,
		Help:    "zones for unbounded integers; proofs only",
		Data:    Unbounded,
		TSO:     FencedTSO,
		Answers: Proofs,
		Counts:  "states",
		Options: []string{MaxStatesFlag},
		make:    func(o Options) engines.Engine { return &zone.Engine{MaxStates: clampInt(o.MaxStates)} },
	},
	{
		Name:    Modular,
		Help:    "thread-modular views of a few processes; proofs only",
		Data:    Finite,
		TSO:     FencedTSO,
		Answers: Proofs,
		Counts:  "states",
		Options: []string{MaxStatesFlag},
		make:    func(o Options) engines.Engine { return &modular.Engine{MaxViews: clampInt(o.MaxStates)} },
	},
	{
		Name:    Coherence,
		Help:    "partial-coherence abstractions of the store buffers (set, fdK, pdK), refined after a spurious counterexample",
		Title:   "partial-coherence",
		Data:    Finite,
		PSO:     true,
		Answers: Proofs | Bugs,
		Counts:  "abstract states",
		Options: []string{MaxStatesFlag, AbstractionFlag, KFlag, RefineFlag},
		make: func(o Options) engines.Engine {
			return &coherence.Engine{Abstraction: o.abstraction(), MaxK: o.RefineK, NoRefine: o.RefineK < 0, MaxStates: o.MaxStates}
		},
	},
}

// clampInt converts a budget to an int budget of at most MaxInt32.
func clampInt(n int64) int { return int(min(n, math.MaxInt32)) }

// All returns every engine, in the order of the help texts.
func All() []*Entry { return slices.Clone(entries) }

// Lookup returns the engine called name, or nil.
func Lookup(name string) *Entry {
	for _, e := range entries {
		if e.Name == name {
			return e
		}
	}
	return nil
}

// ForPSO returns the engines that decide PSO.
func ForPSO() []*Entry {
	var out []*Entry
	for _, e := range entries {
		if e.PSO {
			out = append(out, e)
		}
	}
	return out
}

// Systems returns the engines the analyzer offers for a Go system: those
// that answer every question it asks (data races under the Go memory model,
// then reachability under SC and x86-TSO).
func Systems() []*Entry {
	var out []*Entry
	for _, e := range entries {
		if e.Races != "" && e.TSO == AllTSO {
			out = append(out, e)
		}
	}
	return out
}

// ForSystems reports whether the analyzer offers the engine called name.
func ForSystems(name string) bool {
	return slices.ContainsFunc(Systems(), func(e *Entry) bool { return e.Name == name })
}

// Names returns the names of es.
func Names(es []*Entry) []string {
	names := make([]string, len(es))
	for i, e := range es {
		names[i] = e.Name
	}
	return names
}

// List joins names as a sentence does: "a, b or c".
func List(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// Describe lists es with their help texts: "sb (exact TSO) or pred
// (predicate abstraction, unbounded integers)".
func Describe(es []*Entry) string {
	items := make([]string, len(es))
	for i, e := range es {
		items[i] = e.Name + " (" + e.Help + ")"
	}
	return List(items)
}

// Usage is the usage text of an -engine flag that takes every engine and
// the bounded engine before any of them.
func Usage() string {
	var exact []string
	for _, e := range entries {
		if e.Races != "" && e.Name != Auto && e.Name != BMC {
			exact = append(exact, e.Name+BoundedSuffix)
		}
	}
	items := make([]string, len(entries))
	for i, e := range entries {
		items[i] = e.Name + " (" + e.Help + ")"
	}
	return "reachability engine: " + strings.Join(items, ", ") + ", or " + List(exact) + " (bmc first, as a bug finder)"
}

// Title names the engine called name in a sentence: "predicate",
// "single-buffer (sb)", or the name itself ("explicit", "sb+bmc").
func Title(name string) string {
	if e := Lookup(name); e != nil && e.Title != "" {
		return e.Title
	}
	return name
}

// New makes the engine called name with the options o: a registered
// engine, or one followed by [BoundedSuffix] ("sb+bmc"), which runs the
// bounded engine first (any engine but bmc itself).
func New(name string, o Options) (engines.Engine, error) {
	if e := Lookup(name); e != nil {
		return e.New(o), nil
	}
	if exact, ok := strings.CutSuffix(name, BoundedSuffix); ok && exact != BMC {
		if eng, err := New(exact, o); err == nil {
			return WithBMC(eng), nil
		}
	}
	return nil, fmt.Errorf("unknown engine %q (want %s, or any of them but %s followed by %s)", name, List(Names(entries)), BMC, BoundedSuffix)
}
