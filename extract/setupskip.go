package extract

import (
	"go/token"
	"go/types"
	"maps"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// A call of the set-up into a function of another package read from source
// that the set-up cannot compute (an unsupported construct inside it, not in
// the system function's own code) is contained as a call of the package's
// initialisation is (pkginit.go): its effects are undone, and it is run
// again in the initialisation's lenient mode, where a call it cannot run to
// its end is skipped, what that call may change is marked unknown, and the
// values it does not compute are opaque. A marked object is no failure by
// itself: a system is refused only where the rest of the set-up or a
// goroutine uses it (checkInitAt). The call is contained only before the
// set-up starts its first goroutine, and only when what it did is memory:
// a call that made channels, timers or pools, or gave an object a heap id,
// is refused as before.
//
// Gap, as in the initialisation: code that is skipped is not run, so a
// panic it might raise is not reported.

// setupShape counts what the set-up made besides memory.
type setupShape struct {
	objects, chans, sites, closes, tickers, timers, deadlines, conds, pools, spilled, funcTabs int
	heap, boxes, aliases                                                                       int
	changed                                                                                    bool
}

func (s *system) shape() setupShape {
	return setupShape{len(s.objects), len(s.chans), len(s.chanSites), len(s.chanCloses), len(s.tickers), len(s.timers), len(s.deadlines), len(s.condSites), len(s.pools), len(s.spilled), len(s.funcTabs),
		len(s.heap.heap), len(s.heap.boxes), len(s.heap.aliases), s.heap.changed}
}

// containable reports whether a call of the set-up of fn may be contained.
func (s *system) containable(fn *ssa.Function, spawns []spawn) bool {
	return !s.init.running && !s.setupLenient && len(spawns) == 0 && !s.goStarted &&
		fn.Pkg != nil && fn.Pkg != s.x.ssapkg && s.x.local(fn)
}

// containedCall executes a call of the set-up into another package's code
// (see the comment at the top of this file).
func (s *system) containedCall(fr *frame, c *ssa.CallCommon, f value, args []value, pos token.Pos, spawns *[]spawn) value {
	mem := make(map[string]value, len(s.mem))
	for k, v := range s.mem {
		mem[k] = v
	}
	pending := make(map[int]*object, len(s.heap.pending))
	for k, o := range s.heap.pending {
		pending[k] = o
	}
	before, steps, ranks := s.shape(), s.steps, maps.Clone(s.allocRank)
	var res value
	bad := s.try(func() {
		s.checkCgo(fr, c, f.fn, pos)
		res, _ = s.exec(s.bindCall(f.fn, f.env, args, fr), false, spawns)
	})
	if bad == nil {
		return res
	}
	after := s.shape()
	after.objects = before.objects
	if after != before || len(*spawns) > 0 || !strings.HasPrefix(bad.msg, unsupportedPrefix) || s.ownCode(bad.pos) || s.setupRecoverable(fr) {
		panic(*bad)
	}
	// Undone: the memory as before the call, the objects it made dropped.
	// The objects of the hint it adopted are reserved again.
	s.mem, s.steps, s.heap.pending, s.allocRank = mem, steps, pending, ranks
	for _, o := range s.objects[before.objects:] {
		delete(s.byID, o.id)
	}
	s.objects = s.objects[:before.objects]
	return s.lenientCall(fr, c, f, args, pos, spawns)
}

// lenientCall runs a call of the set-up in the initialisation's lenient
// mode.
func (s *system) lenientCall(fr *frame, c *ssa.CallCommon, f value, args []value, pos token.Pos, spawns *[]spawn) value {
	if s.init.issues == nil {
		s.init.issues = map[*object]*initIssue{}
	}
	if s.init.named == nil {
		s.init.named = map[*object]*types.Var{}
	}
	s.init.running, s.setupLenient, s.init.pc = true, true, map[*frame]ssa.Instruction{}
	s.setupCallPos = pos
	defer func() {
		s.init.running, s.setupLenient, s.init.pc, s.init.cur = false, false, nil, nil
	}()
	return s.initLocalCall(fr, c, f, args, pos, spawns)
}

// ownCode reports whether pos lies in a file of the system's own package.
func (s *system) ownCode(pos token.Pos) bool {
	if !pos.IsValid() {
		return true
	}
	dir := filepath.Dir(s.x.fset.Position(pos).Filename)
	return dir == filepath.Dir(s.x.fset.Position(s.decl.Pos()).Filename)
}
