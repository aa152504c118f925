package pred

import (
	"fmt"
	"regexp"

	"github.com/fencecheck/fencecheck/model"
)

// Families of processes.
//
// Goroutines started in a loop run the same code on different indices:
// process i uses x[i] where process j uses x[j]. A relation that refinement
// finds between the data of some of them usually holds, with the indices
// exchanged, between the others as well, and the refinement would find each
// of those one counterexample at a time. So every predicate refinement adds
// is added under the exchanges of the processes of a family as well (see
// maxFullFamily): processes with the same shape (locations, transitions and the kinds of
// their operations, registers and their domains), with each shared variable
// named x[i], for i the position of a process in its family, renamed to
// x[j] for the process that takes its place. Predicates are only ever a
// matter of precision: a renaming that does not fit the program costs time,
// never a wrong answer.

// maxFullFamily is the largest family whose every permutation is a
// renaming (3: 5 renamings); a larger family contributes its rotations,
// which move each member to every other position, so that a relation
// between neighbours reaches every pair of neighbours.
const maxFullFamily = 3

var indexedName = regexp.MustCompile(`^(.*)\[(\d+)\]$`)

// familyRenamings returns, for the families of s's processes, the
// substitutions that exchange their members (the identity left out).
func (s *system) familyRenamings() []func(dvar) (tid, bool) {
	p := s.p
	t := s.t
	byName := make(map[string]int, len(p.Vars))
	for x, v := range p.Vars {
		byName[v.Name] = x
	}
	var out []func(dvar) (tid, bool)
	for _, fam := range p.GroupProcs(sameShape) {
		var perms [][]int32
		if len(fam) <= maxFullFamily {
			perms = permutations(len(fam))
		} else {
			for r := range fam {
				rot := make([]int32, len(fam))
				for k := range rot {
					rot[k] = int32((k + r) % len(fam))
				}
				perms = append(perms, rot)
			}
		}
		for _, perm := range perms {
			identity := true
			for k, v := range perm {
				if int(v) != k {
					identity = false
				}
			}
			if identity {
				continue
			}
			procOf := make(map[int32]int32, len(fam))
			for k, v := range perm {
				procOf[int32(fam[k])] = int32(fam[v])
			}
			varOf := make(map[int32]int32)
			for x, v := range p.Vars {
				m := indexedName.FindStringSubmatch(v.Name)
				if m == nil {
					continue
				}
				var k int
				if _, err := fmt.Sscan(m[2], &k); err != nil || k >= len(perm) {
					continue
				}
				if y, ok := byName[fmt.Sprintf("%s[%d]", m[1], perm[k])]; ok {
					varOf[int32(x)] = int32(y)
				}
			}
			out = append(out, func(v dvar) (tid, bool) {
				switch v.Kind {
				case dReg:
					if q, ok := procOf[v.P]; ok {
						v.P = q
						return t.Var(v), true
					}
				case dBase:
					if y, ok := varOf[v.I]; ok {
						v.I = y
						return t.Var(v), true
					}
				}
				return 0, false
			})
		}
	}
	return out
}

// sameShape reports whether a and b have the same registers, locations and
// transitions, up to the operands of their operations.
func sameShape(a, b *model.Process) bool {
	return a.Like(b, func(x, y *model.Op) bool { return x.Kind == y.Kind })
}
