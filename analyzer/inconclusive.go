package analyzer

import (
	"cmp"
	"errors"
	"fmt"
	"go/token"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/engines/registry"
	"github.com/fencecheck/fencecheck/model"
)

// An inconclusive answer of an engine that ran out says which limit stopped
// it and the flag that raises it, why the system went to that engine, and
// which variables make its search large, with the directive that shrinks it.

// maxNamed bounds the variables an inconclusive answer names.
const maxNamed = 6

// stopped describes how the engine stopped, for an answer that began at
// start: the limit that was hit and its flag, or the engine's own reason.
// The time taken is left out when the work bound was hit, so that the answer
// is the same on every machine.
func (s *system) stopped(name string, start time.Time, reason string) string {
	if s.meter.Out() {
		return fmt.Sprintf("the %s engine %s", name, s.stopReason(reason))
	}
	return fmt.Sprintf("the %s engine stopped after %v: %s", name, time.Since(start).Round(time.Millisecond), s.stopReason(reason))
}

// inconclusive reports that engine eng ran out on a question asked at
// start, with reason its own account, prefix being what the answer says
// before it ("system x:" or "system x is free of data races, but").
func (s *system) inconclusive(eng engines.Engine, prefix string, start time.Time, reason string) {
	name := eng.Name()
	s.report(s.sys.Decl.Name.Pos(), fmt.Sprintf("inconclusive: %s %s. %s", prefix, s.stopped(name, start, reason), s.choice(name)))
}

// choice says why the system went to its engine and what would make the
// engine's work smaller: a sentence.
func (s *system) choice(name string) string {
	chosen := "The " + registry.Title(name) + " engine was chosen"
	auto := s.cfg.Engine == EngineAuto || name != s.eng.Name()
	if !auto {
		chosen += " by -engine=" + name
	}
	if name == EnginePred {
		if s.p.Finite() {
			return chosen
		}
		sep := "; "
		if auto {
			sep = " because "
		}
		if g := s.growth(); g != "" {
			return chosen + sep + g
		}
		subject, pronoun := s.unboundedHave()
		return fmt.Sprintf("%s%s%s no finite domain: a //fencecheck:range LO..HI on %s would let the exact engines decide the system",
			chosen, sep, subject, pronoun)
	}
	switch {
	case name != s.eng.Name():
		chosen += " because the system is finite (data races are decided under SC)"
	case auto && name == EngineExplicit:
		chosen += " because the system is finite and loop-free"
	case auto:
		chosen += " because the system is finite and has loops"
	}
	n := s.count(wideDom)
	if n == 0 {
		return chosen
	}
	return fmt.Sprintf("%s; its search grows with the domains of %s: a narrower //fencecheck:range LO..HI on %s shrinks it",
		chosen, joinAnd(s.named(wideDom)), them(n))
}

func unboundedDom(d model.Domain) bool { return d.Unbounded }

// wideDom holds for a domain that a range can narrow: more than two values.
func wideDom(d model.Domain) bool { return !d.Unbounded && d.Size() > 2 }

// have is "has" for one and "have" for more.
func have(n int) string {
	if n == 1 {
		return "has"
	}
	return "have"
}

// them is "it" for one and "them" for more.
func them(n int) string {
	if n == 1 {
		return "it"
	}
	return "them"
}

// A named is a variable or register of the system's model as the source
// spells it, with its domain.
type named struct {
	name string
	dom  model.Domain
}

// entities lists the variables and registers of the system's model whose
// domain satisfies keep and that a //fencecheck:range can bound, as the
// source spells them, the widest domains first: the shared variables (not
// the counters of wait groups), then the goroutines' local variables, with
// their positions, that no shared variable of the same name hides (a load
// of x is bounded by x's range). When none is left, it lists every one
// whose name the source gives.
func (s *system) entities(keep func(model.Domain) bool) []named {
	var out, all []named
	seen := make(map[string]bool)
	add := func(list *[]named, name string, d model.Domain) {
		if !keep(d) || seen[name] {
			return
		}
		seen[name] = true
		*list = append(*list, named{name, d})
	}
	for x, v := range s.p.Vars {
		if x < len(s.sys.Vars) {
			if e := s.sys.Vars[x]; !e.WaitGroup {
				add(&out, sourceName(e.Name), v.Dom)
			}
			continue
		}
		add(&out, sourceName(v.Name), v.Dom)
	}
	shared := maps.Clone(seen)
	for qi, q := range s.p.Procs {
		for ri, r := range q.Regs {
			if qi >= len(s.sys.Regs) || ri >= len(s.sys.Regs[qi]) {
				continue
			}
			e := s.sys.Regs[qi][ri]
			switch {
			case shared[sourceName(e.Name)] || strings.HasPrefix(e.Name, "a value computed"):
			case token.IsIdentifier(e.Name):
				add(&out, e.Describe(s.r.pass.Fset), r.Dom)
			default:
				add(&all, e.Describe(s.r.pass.Fset), r.Dom)
			}
		}
	}
	if len(out) == 0 {
		out = all
	}
	slices.SortStableFunc(out, func(a, b named) int { return cmp.Compare(b.dom.Size(), a.dom.Size()) })
	return out
}

// count returns how many variables and registers entities would list.
func (s *system) count(keep func(model.Domain) bool) int {
	return len(s.entities(keep))
}

// named names the variables and registers whose domain satisfies keep, at
// most maxNamed of them, then how many more there are; a finite domain is
// shown.
func (s *system) named(keep func(model.Domain) bool) []string {
	es := s.entities(keep)
	var names []string
	for i, e := range es {
		if i == maxNamed {
			names = append(names, fmt.Sprintf("%d more", len(es)-maxNamed))
			break
		}
		if e.dom.Unbounded {
			names = append(names, e.name)
		} else {
			names = append(names, fmt.Sprintf("%s (%d..%d)", e.name, e.dom.Lo, e.dom.Hi))
		}
	}
	return names
}

// engineError reports err, the error of an engine on the system: a limit
// of the engine (engines.Unsupported) is unsupported in a fencecheck system,
// reported at the statement that needs it, with the way around it; any other
// error breaks an invariant of fencecheck, an internal error.
func (s *system) engineError(err error) {
	u, ok := errors.AsType[*engines.Unsupported](err)
	if !ok {
		s.report(s.sys.Decl.Name.Pos(), fmt.Sprintf("internal error: system %s: %v", s.sys.Name, err))
		return
	}
	pos := s.r.pos(u.Pos)
	where := "here"
	if !pos.IsValid() {
		pos, where = s.sys.Decl.Name.Pos(), ""
	}
	msg := fmt.Sprintf("unsupported in a fencecheck system: %s cannot take %s, which system %s needs %s", u.Engine, u.What, s.sys.Name, where)
	msg = strings.TrimSuffix(msg, " ")
	if s.eng != nil && s.eng.Name() == EnginePred && !s.p.Finite() {
		if g := s.growth(); g != "" {
			msg += "; the predicate engine takes the system because " + g
		} else {
			subject, pronoun := s.unboundedHave()
			msg += fmt.Sprintf("; the predicate engine takes the system because %s no finite domain: a //fencecheck:range LO..HI on %s would let the exact engines decide it",
				subject, pronoun)
		}
	}
	s.report(pos, msg)
}

// unboundedHave names the variables without a finite domain, followed by
// "has" or "have", and the pronoun for them.
func (s *system) unboundedHave() (subject, pronoun string) {
	n := s.count(unboundedDom)
	if n == 0 {
		return "values the system computes have", "the variables they come from"
	}
	return joinAnd(s.named(unboundedDom)) + " " + have(n), them(n)
}
