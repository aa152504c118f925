package analyzer

import (
	"fmt"
	"path/filepath"

	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/facts"
)

// The domains of the cells that the domain inference of package extract
// leaves unbounded are discovered as the program computes them: a search
// of the system's runs under SC (facts.SearchValues) gives each one the
// interval of the values it takes, and the exact engines decide the
// system. A cell that takes more than discoverValues values grows without
// bound as far as fencecheck can tell, and the predicate engine takes the
// system, the answer naming the cell and the statement that made its last
// value; so does a cell that still takes new values when the search runs
// out of states. A discovered domain is an inferred one: a value outside it (a
// value only x86-TSO reaches) widens it (faults.go).
const (
	// discoverStates bounds the states of the search.
	discoverStates = 1 << 17
	// discoverValues is the most values a cell may take before it counts
	// as growing: two goroutines that each count to 200 make 401.
	discoverValues = 1024
)

// discover runs the search when some cell of the system has no finite
// domain, and sets the domains it found or records the cell that grows.
func (s *system) discover() {
	if s.p.Finite() {
		return
	}
	vs := facts.SearchValues(s.ctx, s.p, discoverStates, discoverValues)
	switch {
	case vs.Doms != nil:
		s.discovered = make(map[facts.Cell]bool, len(vs.Doms))
		for c, d := range vs.Doms {
			if c.Proc < 0 {
				s.p.Vars[c.Index].Dom = d
			} else {
				s.p.Procs[c.Proc].Regs[c.Index].Dom = d
			}
			s.discovered[c] = true
		}
	case vs.Grows != nil:
		s.grows = vs.Grows
	}
}

// growth says which cell grows and where, for the reason the predicate
// engine was chosen: "" when no search found one.
func (s *system) growth() string {
	g := s.grows
	if g == nil {
		return ""
	}
	name := g.Cell.Name(s.p)
	if c := g.Cell; c.Proc < 0 && c.Index < len(s.sys.Vars) {
		name = s.sys.Vars[c.Index].Describe(s.r.pass.Fset)
	} else if c.Proc >= 0 && c.Proc < len(s.sys.Regs) && c.Index < len(s.sys.Regs[c.Proc]) {
		name = s.sys.Regs[c.Proc][c.Index].Describe(s.r.pass.Fset)
	}
	where := ""
	if pos := g.Pos(s.p); pos.IsValid() {
		where = fmt.Sprintf(", the last made at %s", shortPos(pos))
	}
	return fmt.Sprintf("%s grows without bound: a search of the runs under sequential consistency saw it take %d values and more%s", name, g.Values, where)
}

// shortPos formats pos with the file's base name, as diagnostics name
// positions in their text.
func shortPos(pos model.Pos) string {
	pos.File = filepath.Base(pos.File)
	return pos.String()
}
