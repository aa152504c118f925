package directive

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// usage records what the systems of a package matched, so that the
// directives that matched nothing can be reported once every system is
// lowered.
type usage struct {
	ranges map[*types.Var]bool // variables whose //fencecheck:range a system applied
	ran    map[ast.Stmt]bool   // critical and nofence statements a process runs
	stores map[ast.Stmt]bool   // nofence statements with a plain store of shared memory
}

// UseRange records that a system applied the //fencecheck:range of v.
func (d *Set) UseRange(v *types.Var) {
	if d.used.ranges == nil {
		d.used.ranges = map[*types.Var]bool{}
	}
	d.used.ranges[v] = true
}

// Reached records that a process runs the code at pos: every critical and
// nofence statement containing it is matched.
func (d *Set) Reached(pos token.Pos) {
	for _, list := range [][]ast.Stmt{d.Critical, d.Nofence} {
		for _, s := range list {
			if s.Pos() <= pos && pos < s.End() {
				if d.used.ran == nil {
					d.used.ran = map[ast.Stmt]bool{}
				}
				d.used.ran[s] = true
			}
		}
	}
}

// StoreAt records that a process makes a plain store to shared memory at
// pos: every nofence statement containing it is matched (a barrier goes
// only after such a store).
func (d *Set) StoreAt(pos token.Pos) {
	for _, st := range d.Nofence {
		if st.Pos() <= pos && pos < st.End() {
			if d.used.stores == nil {
				d.used.stores = map[ast.Stmt]bool{}
			}
			d.used.stores[st] = true
		}
	}
}

// Unmatched reports, once each, the directives that no system matched: a
// //fencecheck:range whose variables no system uses, a
// //fencecheck:critical before a statement no process runs, and a
// //fencecheck:nofence on a statement no process runs or that makes no
// plain store of shared memory. It is meaningful only when every system of
// the package was lowered.
func (d *Set) Unmatched() []Diagnostic {
	var out []Diagnostic
	for _, rd := range d.rangeDirs {
		used := false
		var names []string
		for _, v := range rd.vars {
			used = used || d.used.ranges[v]
			names = append(names, v.Name())
		}
		if !used {
			out = append(out, Diagnostic{Unused: true, Pos: rd.c.Pos(), Message: fmt.Sprintf(
				"unused //fencecheck:range: no goroutine of any system in this package uses %s", joinOr(names))})
		}
	}
	for i, s := range d.Critical {
		if !d.used.ran[s] {
			out = append(out, Diagnostic{Unused: true, Pos: d.criticalAt[i].Pos(), Message: "unused //fencecheck:critical: no goroutine of any system runs the statement after it"})
		}
	}
	for i, s := range d.Nofence {
		switch {
		case !d.used.ran[s]:
			out = append(out, Diagnostic{Unused: true, Pos: d.nofenceAt[i].Pos(), Message: "unused //fencecheck:nofence: no goroutine of any system runs the statement it marks"})
		case !d.used.stores[s]:
			out = append(out, Diagnostic{Unused: true, Pos: d.nofenceAt[i].Pos(), AfterWritesOnly: true, Message: "unused //fencecheck:nofence: the statement it marks makes no plain store to shared memory in any system, and barriers go only after such stores"})
		}
	}
	return out
}

// joinOr joins words as "a", "a or b", "a, b or c".
func joinOr(words []string) string {
	if len(words) <= 1 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}
