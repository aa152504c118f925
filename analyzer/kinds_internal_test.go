package analyzer

import "testing"

// TestCategory checks the finding kind of messages whose kind depends on
// their text, among them those no testdata package reaches.
func TestCategory(t *testing.T) {
	for msg, want := range map[string]string{
		"race: l.flag[1] is stored by worker(1) and loaded by worker(0)":             KindRace,
		"SC: system s is wrong even under sequential consistency":                    KindSC,
		"range: x takes the value 4, outside its //fencecheck:range 0..3":            KindRange,
		"inconclusive: system s: the work bound ran out":                             KindInconclusive,
		"unsupported in a fencecheck system: a call of an interface method":          KindUnsupported,
		"internal error: system s lowered to an invalid model: bad":                  KindInternal,
		"internal error in fencecheck's extraction: boom":                            KindInternal,
		`malformed directive "// fencecheck:system": a space after the slashes`:      KindDirective,
		"misplaced //fencecheck:range: it must annotate a variable or field":         KindDirective,
		"unknown directive //fencecheck:sytem (did you mean //fencecheck:system?)":   KindDirective,
		"unused //fencecheck:nofence: no goroutine of any system runs the statement": KindDirective,
		"the initial value 9 of n is outside its //fencecheck:range 0..3":            KindRange,
		"the setup of system s panics: send on closed channel":                       KindSC,
		"nil pointer dereference":                                                    KindSC,
	} {
		if got := category(msg); got != want {
			t.Errorf("category(%q) = %q, want %q", msg, got, want)
		}
	}
}
