package registry

import (
	"flag"

	"github.com/fencecheck/fencecheck/engines/coherence"
	"slices"
	"strconv"
)

// Options are the settings an engine is made with; the zero value is every
// engine's default. Each engine reads those that its Entry.Options names.
type Options struct {
	// MaxStates is the state, constraint, node or view budget of each
	// engine call, or the work of bmc's (0: the engine's default).
	MaxStates int64
	// Buffer is the explicit engine's store-buffer bound under TSO (0:
	// exact when fences and locked operations bound the buffers, else
	// growing while it cuts off a write).
	Buffer int
	// NoPOR and NoSymmetry turn off the partial-order and symmetry
	// reductions of the explicit engine and of the sb engine's backward
	// search.
	NoPOR, NoSymmetry bool
	// Abstraction is the coherence engine's first abstraction: set, fd,
	// pd (with K), or fdN, pdN ("": set); K is the k of fd and pd.
	Abstraction string
	K           int
	// RefineK is the largest k the coherence engine's refinement tries
	// after a spurious counterexample (0: its default; -1: no refinement).
	RefineK int
}

// The flags of Options.
const (
	MaxStatesFlag   = "max-states"
	BufferFlag      = "buffer"
	PORFlag         = "por"
	SymmetryFlag    = "symmetry"
	AbstractionFlag = "abstraction"
	KFlag           = "k"
	RefineFlag      = "refine-k"
)

// RegisterFlags defines the flags of o on fs, bound to o's fields: each
// one's usage names the engines that read it.
func (o *Options) RegisterFlags(fs *flag.FlagSet) {
	fs.Int64Var(&o.MaxStates, MaxStatesFlag, o.MaxStates, "state budget of each engine call (constraints for sb, nodes for bdd, views for modular, work units for bmc; 0: each engine's default)")
	fs.IntVar(&o.Buffer, BufferFlag, o.Buffer, "store-buffer bound of the "+readers(BufferFlag)+" under TSO (0: exact when fences or locked operations bound the buffers, else growing from 4 while it cuts off a write)")
	fs.Var(negated{&o.NoPOR}, PORFlag, "partial-order reduction in the "+readers(PORFlag)+" (-por=false turns it off)")
	fs.Var(abstractionFlag{&o.Abstraction}, AbstractionFlag, "buffer abstraction of the "+readers(AbstractionFlag)+": set, fd or pd (k from -k), or fdN, pdN")
	fs.IntVar(&o.K, KFlag, o.K, "k of the "+readers(KFlag)+"'s fd and pd abstractions: the oldest stores kept in order")
	fs.IntVar(&o.RefineK, RefineFlag, o.RefineK, "largest k the "+readers(RefineFlag)+" refines to after a spurious counterexample (0: 2; -1: no refinement)")
	fs.Var(negated{&o.NoSymmetry}, SymmetryFlag, "symmetry reduction of identical goroutines in the "+readers(SymmetryFlag)+" (-symmetry=false turns it off)")
}

// readers names the engines other than auto that read the option flag
// name: "explicit engine".
func readers(name string) string {
	var names []string
	for _, e := range entries {
		if e.Name != Auto && slices.Contains(e.Options, name) {
			names = append(names, e.Name)
		}
	}
	if len(names) == 1 {
		return names[0] + " engine"
	}
	return List(names) + " engines"
}

// abstractionFlag is the -abstraction flag, checked as it is set.
type abstractionFlag struct{ s *string }

// String returns the flag's value.
func (a abstractionFlag) String() string {
	if a.s == nil {
		return ""
	}
	return *a.s
}

// Set checks and records an abstraction's name.
func (a abstractionFlag) Set(s string) error {
	if _, err := coherence.ParseAbstraction(s, 0); err != nil {
		return err
	}
	*a.s = s
	return nil
}

// abstraction returns the coherence engine's first abstraction.
func (o *Options) abstraction() coherence.Abstraction {
	if o.Abstraction == "" {
		return coherence.Abstraction{}
	}
	a, err := coherence.ParseAbstraction(o.Abstraction, max(o.K, 0))
	if err != nil {
		return coherence.Abstraction{}
	}
	return a
}

// negated is a boolean flag, true by default, that sets the field off to
// its negation.
type negated struct{ off *bool }

// String returns the flag's value.
func (n negated) String() string { return strconv.FormatBool(n.off != nil && !*n.off) }

// Set parses a boolean as package flag does.
func (n negated) Set(s string) error {
	v, err := strconv.ParseBool(s)
	if err != nil {
		return err
	}
	*n.off = !v
	return nil
}

// IsBoolFlag makes -por mean -por=true.
func (negated) IsBoolFlag() bool { return true }
