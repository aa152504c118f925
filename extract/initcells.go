package extract

import (
	"go/token"
	"sort"
)

// A value the package's initialisation cannot compute that it stores in a
// part of an object (a field, an element) marks that cell only, not the
// whole object: client_golang's counter keeps its descriptor's hash in
// desc.id and its own count in valInt, and a system that only increments
// the count never reads the hash. The cell's issue covers every cell below
// it; an access overlaps it when one of the two cells is below the other.
// Marking the object (taintObj) still covers all of its cells.

// cellIssues returns the keys of the marked cells that overlap p, in
// order; for a pointer with an index known only at run time, every marked
// cell of its object.
func (s *system) cellIssues(p pointer) []string {
	if len(s.init.cells) == 0 {
		return nil
	}
	key := p.key()
	if p.dynamic() {
		key = pointer{obj: p.obj}.key()
	}
	var out []string
	for k := range s.init.cells {
		if below(k, key) || below(key, k) {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// issueAt returns why the initial value of the memory p points to is not
// known, or nil when it is.
func (s *system) issueAt(p pointer) *initIssue {
	if is := s.init.issues[p.obj]; is != nil {
		return is
	}
	if ks := s.cellIssues(p); len(ks) > 0 {
		return s.init.cells[ks[0]]
	}
	return nil
}

// poisonCell marks the cell p (a part of an object) as holding v, a value
// the initialisation cannot compute.
func (s *system) poisonCell(p pointer, why string, pos token.Pos, v value) {
	if s.init.cells == nil {
		s.init.cells = map[string]*initIssue{}
	}
	is := s.newIssue(p.obj, why, pos)
	is.what = p.name() + ", part of " + is.what
	is.from, is.cell = []value{v}, &p
	s.init.cells[p.key()] = is
}

// renameCells names the marked cells of o after the package-level
// variable o was just named after (var stats = &meta{hash: pid()}).
func (s *system) renameCells(o *object) {
	for _, k := range s.cellIssues(pointer{obj: o}) {
		is := s.init.cells[k]
		named := s.newIssue(o, is.why, is.pos)
		is.pos, is.what = named.pos, is.cell.name()+", part of "+named.what
	}
}

// storeOverCells executes a store of v to p where marked cells overlap p:
// a known value stored over exactly one marked cell makes it known again
// (ok is false: the store then runs as usual); otherwise the value joins
// what the marked cells may hold.
func (s *system) storeOverCells(p pointer, v value) (done bool) {
	ks := s.cellIssues(p)
	if len(ks) == 0 {
		return false
	}
	if len(ks) == 1 && ks[0] == p.key() && !p.dynamic() && v.kind != vOpaque && v.agg == nil {
		delete(s.init.cells, ks[0])
		return false
	}
	for _, k := range ks {
		is := s.init.cells[k]
		is.from = append(is.from, reaching([]value{v})...)
	}
	return true
}

// cellFroms returns what the marked cells of o may hold.
func (s *system) cellFroms(o *object) []value {
	var out []value
	for _, k := range s.cellIssues(pointer{obj: o}) {
		out = append(out, s.init.cells[k].from...)
	}
	return out
}
