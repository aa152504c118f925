package analyzer

import "strings"

// The finding kinds: the Category of every diagnostic fencecheck reports,
// and the word that starts its message. fencecheck -explain KIND describes
// each (docs/findings/KIND.md).
const (
	// KindRace is a data race under the Go memory model.
	KindRace = "race"
	// KindTSO is a memory barrier a racy system needs on x86-TSO.
	KindTSO = "x86-TSO"
	// KindSC is a bad state reachable even under sequential consistency.
	KindSC = "SC"
	// KindRange is a value outside a //fencecheck:range.
	KindRange = "range"
	// KindDeadlock is a state where every goroutine waits forever.
	KindDeadlock = "deadlock"
	// KindLeak is a goroutine that waits forever after the system ends.
	KindLeak = "leak"
	// KindInconclusive is a system the analysis could not decide.
	KindInconclusive = "inconclusive"
	// KindUnsupported is Go that fencecheck cannot model.
	KindUnsupported = "unsupported"
	// KindDirective is a //fencecheck: directive that is malformed,
	// misplaced, unknown or unused.
	KindDirective = "directive"
	// KindInternal is an error of fencecheck itself.
	KindInternal = "internal"
)

// Kinds lists the finding kinds, in the order the documentation gives them.
var Kinds = []string{
	KindRace, KindTSO, KindSC, KindRange, KindDeadlock, KindLeak,
	KindInconclusive, KindUnsupported, KindDirective, KindInternal,
}

// category returns the finding kind of a diagnostic made from a message
// whose kind depends on its text: a message of package extract, or one
// that a system reports through system.report. A message starts with its
// kind ("race:", "SC:", "inconclusive:"), or with the words that name it
// ("unsupported in a fencecheck system", "malformed directive", "internal
// error"); the rest are the panics and fatal errors that package extract
// finds while it lowers a system, which every interleaving that reaches them
// meets: wrong under sequential consistency.
func category(msg string) string {
	if kind, _, ok := strings.Cut(msg, ":"); ok {
		for _, k := range Kinds {
			if kind == k {
				return k
			}
		}
	}
	switch {
	case strings.HasPrefix(msg, "unsupported"):
		return KindUnsupported
	case strings.HasPrefix(msg, "internal error"):
		return KindInternal
	case strings.HasPrefix(msg, "malformed"), strings.HasPrefix(msg, "misplaced"),
		strings.HasPrefix(msg, "unknown directive"), strings.HasPrefix(msg, "unused //fencecheck:"):
		return KindDirective
	case strings.HasPrefix(msg, "the initial value ") && strings.Contains(msg, "//fencecheck:range"):
		return KindRange
	}
	return KindSC
}
