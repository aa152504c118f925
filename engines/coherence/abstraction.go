package coherence

import (
	"fmt"
	"strconv"
	"strings"
)

// Kind is a family of buffer abstractions.
type Kind uint8

const (
	// Set keeps the pending stores of a buffer as a set of (variable,
	// value) pairs: no order, no count, no recency. A read of a variable
	// with pending stores may return any of their values.
	Set Kind = iota
	// FD is the fully disjunctive partial-coherence abstraction: the K
	// oldest stores in order, the rest as the exact set of their pairs,
	// and the newest pending store of every variable (recency).
	FD
	// PD is the partially disjunctive variant of FD: abstract states that
	// differ only in their non-empty sets are joined (the sets unioned),
	// so that a set over-approximates the pairs of its stores.
	PD
)

// Abstraction is a buffer abstraction: a kind and, for FD and PD, the
// number K of oldest stores kept in order (0 for Set).
type Abstraction struct {
	Kind Kind
	K    int
}

// String names a as the -abstraction flag takes it: "set", "fd1", "pd0".
func (a Abstraction) String() string {
	switch a.Kind {
	case Set:
		return "set"
	case FD:
		return "fd" + strconv.Itoa(a.K)
	case PD:
		return "pd" + strconv.Itoa(a.K)
	}
	return fmt.Sprintf("Abstraction(%d,%d)", a.Kind, a.K)
}

// Title names a in a sentence: "Set", "FD_1", "PD_0".
func (a Abstraction) Title() string {
	switch a.Kind {
	case Set:
		return "Set"
	case FD:
		return fmt.Sprintf("FD_%d", a.K)
	}
	return fmt.Sprintf("PD_%d", a.K)
}

// Next is the abstraction to try after a when a's counterexample is
// spurious: FD_1 after Set (FD_0 is not SC-recoverable), FD_k after PD_k
// (the same k without joins), FD_k+1 after FD_k.
func (a Abstraction) Next() Abstraction {
	switch a.Kind {
	case Set:
		return Abstraction{Kind: FD, K: 1}
	case PD:
		return Abstraction{Kind: FD, K: a.K}
	}
	return Abstraction{Kind: FD, K: a.K + 1}
}

// ParseAbstraction parses "set", "fd", "pd" (k from the argument k),
// or "fdN", "pdN".
func ParseAbstraction(s string, k int) (Abstraction, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	if s == "set" {
		return Abstraction{Kind: Set}, nil
	}
	var a Abstraction
	switch {
	case strings.HasPrefix(s, "fd"):
		a.Kind = FD
	case strings.HasPrefix(s, "pd"):
		a.Kind = PD
	default:
		return a, fmt.Errorf("unknown abstraction %q (want set, fd, pd, fdN or pdN)", s)
	}
	a.K = k
	if rest := s[2:]; rest != "" {
		n, err := strconv.Atoi(rest)
		if err != nil || n < 0 {
			return a, fmt.Errorf("abstraction %q: want a k of 0 or more after %s", s, s[:2])
		}
		a.K = n
	}
	if a.K < 0 {
		return a, fmt.Errorf("abstraction %s: k = %d, want 0 or more", s, a.K)
	}
	return a, nil
}
