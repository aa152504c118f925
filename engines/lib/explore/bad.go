package explore

import "github.com/fencecheck/fencecheck/model"

// badIndex finds the bad states a state may be in by the location of one
// process: the search asks for every state it stores and for every local
// step it takes in a row, and most bad states name locations (two
// processes in their critical sections) that most states are not at.
type badIndex struct {
	p *model.Program
	// at[i][l]: the bad states whose first location is process i's l;
	// always: those that name no location.
	at     [][][]int
	always []int
	// target, when set, replaces the bad states (Options.Target).
	target func(model.State) bool
}

func newBadIndex(p *model.Program, target func(model.State) bool) *badIndex {
	x := &badIndex{p: p, at: make([][][]int, len(p.Procs)), target: target}
	for i, q := range p.Procs {
		x.at[i] = make([][]int, len(q.Locs))
	}
	for bi, b := range p.Bad {
		if len(b.Locs) == 0 {
			x.always = append(x.always, bi)
			continue
		}
		pl := b.Locs[0]
		if pl.Proc < 0 || pl.Proc >= len(p.Procs) || pl.Loc < 0 || pl.Loc >= len(x.at[pl.Proc]) {
			x.always = append(x.always, bi) // Validate rejects it; MatchBad decides
			continue
		}
		x.at[pl.Proc][pl.Loc] = append(x.at[pl.Proc][pl.Loc], bi)
	}
	return x
}

// isBad reports what p.IsBad(s) reports.
func (x *badIndex) isBad(s model.State) bool {
	if x.target != nil {
		return x.target(s)
	}
	if s.Fault != nil {
		return true
	}
	for _, bi := range x.always {
		if x.p.InBad(s, bi) {
			return true
		}
	}
	for i, l := range s.Locs {
		if l < 0 || l >= len(x.at[i]) {
			continue
		}
		for _, bi := range x.at[i][l] {
			if x.p.InBad(s, bi) {
				return true
			}
		}
	}
	return false
}
