package extract

import (
	"fmt"
	"go/token"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/fencecheck/fencecheck/model"
)

// lower lowers one system function. It returns nil and a diagnostic when
// the system cannot be modelled.
func (s *system) lower(fn *ssa.Function) (sys *System, diag *Diagnostic) {
	defer func() {
		if r := recover(); r != nil {
			if u, ok := r.(unsupported); ok {
				pos, where := s.x.localize(u.pos, s.decl)
				if where == "" && pos.IsValid() && (pos < s.decl.Pos() || pos > s.decl.End()) && strings.HasPrefix(u.msg, unsupportedPrefix) {
					// In a function the system calls: which system.
					where = " (system " + s.name + ")"
				}
				sys, diag = nil, &Diagnostic{Pos: pos, Message: u.msg + where}
				return
			}
			pos := s.curPos
			if !pos.IsValid() {
				pos = s.decl.Pos()
			}
			sys, diag = nil, &Diagnostic{Pos: pos, Message: fmt.Sprintf("internal error while lowering system %s: %v", s.name, r)}
		}
	}()
	if len(fn.Params) > 0 || fn.Signature.Recv() != nil {
		s.unsupported(s.decl.Pos(), "a system function with parameters or a receiver (%s)", s.name)
	}
	if fn.TypeParams().Len() > 0 {
		s.unsupported(s.decl.Pos(), "a generic system function")
	}
	s.prog = &model.Program{Name: s.name}
	fr, sp, spawns := s.runSetup(fn)
	names := s.procNames(spawns)
	for i, sw := range spawns {
		p := s.newProc(names[i])
		p.q.Init = p.newLoc(sw.fn.Pos())
		start := p.q.Init
		if sw.after != nil {
			// It has not started until the timer fires.
			p.spawnWait = true
			start = s.startWhenFired(p, sw.after, sw.fn.Pos())
		}
		child := s.bindCall(sw.fn, sw.env, sw.args, nil)
		p.lowerSpawned(child, sw.pos, start)
		if sw.after != nil {
			sw.after.firedEnds(p, child.returns)
		}
		if sw.wg != nil {
			x := s.varFor(*sw.wg)
			rets := child.returns
			for _, l := range p.goexits {
				// runtime.Goexit: done, with no error.
				rets = append(rets, retSite{loc: l})
			}
			for _, r := range rets {
				p.emit(r.loc, model.FetchAdd(x, -1, model.C(-1)), sw.pos, Origin{})
			}
		}
		s.spawns = append(s.spawns, sw.pos)
	}
	main := s.newProc("main")
	s.mainIdx = main.idx
	var pos token.Pos
	if sp.idx < len(sp.b.Instrs) {
		pos = sp.b.Instrs[sp.idx].Pos()
	}
	main.q.Init = main.newLoc(pos)
	main.lowerSplit(fr, sp, main.q.Init)
	s.spawns = append(s.spawns, s.decl.Pos())
	s.lowerLate()
	s.lowerChannels()
	s.lowerConds()
	s.emitClockTicks()
	s.dropHeldUnlockFaults()
	s.checkUnsafeCompares()

	sys = &System{Name: s.name, Decl: s.decl, Program: s.prog, Spawns: s.spawns, Foreign: s.x.foreign, Main: main.idx}
	type crit struct {
		loc int
		pos token.Pos
	}
	crits := make([][]crit, len(s.procs))
	stops := make([]map[int]bool, len(s.procs)) // per process: locations where it stops for good without ending normally
	for i, p := range s.procs {
		keep := map[int]bool{}
		for l := range p.critical {
			keep[l] = true
		}
		for _, ps := range p.panics {
			keep[ps.loc] = true
		}
		for l := range p.nofence {
			keep[l] = true
		}
		for l := range p.exits {
			keep[l] = true
		}
		probes := s.probesOf(p)
		for _, k := range probes {
			keep[s.makeProbes[k].loc] = true
		}
		for _, pr := range s.formatProbes {
			if pr.p == p {
				keep[pr.loc] = true
			}
		}
		remap := p.collapse(keep)
		for _, k := range probes {
			// The domain inference reads the probes on the collapsed process.
			s.makeProbes[k].loc = remap[s.makeProbes[k].loc]
		}
		for k, pr := range s.formatProbes {
			if pr.p == p {
				s.formatProbes[k].loc = remap[pr.loc]
			}
		}
		stops[i] = map[int]bool{}
		for l := range p.exits {
			stops[i][remap[l]] = true
		}
		for _, ps := range p.panics {
			stops[i][remap[ps.loc]] = true
		}
		for _, t := range p.q.Trans {
			if t.Op.Kind == model.Assign && p.refusals[t.Op.Reg] {
				// A run that gets there is refused.
				stops[i][t.To] = true
			}
		}
		sys.Origins = append(sys.Origins, p.origins)
		for _, ps := range p.panics {
			var cond model.Expr
			if ps.id != 0 {
				// Panics whose unwindings end alike share their end
				// (recover.go): the register set at the panic tells
				// which one reached it.
				cond = model.Bin(model.OpEq, model.RegRef{Proc: i, Reg: p.panicSiteRegs[ps.depth] - 1}, model.C(ps.id))
			}
			s.prog.Bad = append(s.prog.Bad, model.BadState{
				Name: ps.name, Locs: []model.ProcLoc{{Proc: i, Loc: remap[ps.loc]}}, Cond: cond, Pos: s.mpos(p.userPos(ps.pos, ps.loc, s.spawnPos(i)))})
		}
		for l := range p.nofence {
			sys.NoFence = append(sys.NoFence, model.ProcLoc{Proc: i, Loc: remap[l]})
		}
		for l, pos := range p.critical {
			crits[i] = append(crits[i], crit{remap[l], pos})
		}
	}
	sortProcLocs(sys.NoFence)
	for i := range crits {
		sortCrits := func(c []crit) {
			for a := 1; a < len(c); a++ {
				for b := a; b > 0 && c[b].loc < c[b-1].loc; b-- {
					c[b], c[b-1] = c[b-1], c[b]
				}
			}
		}
		sortCrits(crits[i])
	}
	for i := range crits {
		for j := i + 1; j < len(crits); j++ {
			for _, a := range crits[i] {
				for _, b := range crits[j] {
					s.prog.Bad = append(s.prog.Bad, model.BadState{
						Name: "mutual exclusion",
						Locs: []model.ProcLoc{{Proc: i, Loc: a.loc}, {Proc: j, Loc: b.loc}},
						Pos:  s.mpos(a.pos),
					})
				}
			}
		}
	}
	s.addBlockedStates(stops)
	for q, ls := range stops {
		for _, l := range slices.Sorted(maps.Keys(ls)) {
			sys.Stops = append(sys.Stops, model.ProcLoc{Proc: q, Loc: l})
		}
	}
	s.inferDomains()
	s.boundRWMutexes()
	sys.Vars, sys.Regs = s.entities()
	sys.Blocking, sys.Unstarted = s.blocking, s.unstarted
	sys.Clock = slices.Index(s.procs, s.clockProc)
	if resetDead {
		resetDeadRegs(s.prog)
	}
	if err := s.prog.Validate(); err != nil {
		s.fail(s.decl.Pos(), "internal error: the model of system %s is not valid: %v", s.name, err)
	}
	s.prog.Index()
	return sys, nil
}

// procNames names the processes of spawns: a named function after itself
// and its constant arguments (worker(0)); a closure after the line of its go
// statement and its constant arguments (go@33, go@33(1)), and its file when
// it is another package's (go@errgroup.go:78). Closures spawned
// by one go statement in a loop are told apart by the values of the
// captured variables and of the variables of the enclosing for statements
// that differ between them (go@33(i=0), go@33(i=1)).
// Names that are still equal get a suffix in [system.newProc] (go@33#2).
func (s *system) procNames(spawns []spawn) []string {
	names := make([]string, len(spawns))
	var consts [][]string
	for i, sw := range spawns {
		if sw.fn.Parent() == nil && !s.x.inModelSource(sw.fn.Pos()) {
			names[i] = spawnName(sw.fn, sw.args)
			consts = append(consts, nil)
			continue
		}
		at := s.x.fset.Position(sw.pos)
		where := strconv.Itoa(at.Line)
		if _, ok := s.x.foreign[at.Filename]; ok {
			// A go statement of another package (errgroup's Go): its
			// line alone would read as one of the system's file.
			where = fmt.Sprintf("%s:%d", filepath.Base(at.Filename), at.Line)
		}
		names[i] = "go@" + where
		if sw.after != nil {
			names[i] = "afterfunc@" + where
		}
		var cs []string
		for _, a := range sw.args {
			if c, ok := a.constant(); ok {
				cs = append(cs, fmt.Sprint(c))
			}
		}
		consts = append(consts, cs)
	}
	bases := slices.Clone(names)
	for i, sw := range spawns {
		if sw.fn.Parent() == nil {
			continue
		}
		// The captured values that differ within the group of closures with
		// this base name and arguments.
		key := bases[i] + strings.Join(consts[i], ",")
		cs := consts[i]
		for k, c := range sw.captured {
			if c == "" || slices.Contains(cs, c) {
				continue
			}
			for j, other := range spawns {
				if j != i && other.fn == sw.fn && bases[j]+strings.Join(consts[j], ",") == key &&
					k < len(other.captured) && other.captured[k] != c {
					cs = append(cs, c)
					break
				}
			}
		}
		if len(cs) > 0 {
			names[i] += "(" + strings.Join(cs, ", ") + ")"
		}
	}
	return names
}

func sortProcLocs(pl []model.ProcLoc) {
	for a := 1; a < len(pl); a++ {
		for b := a; b > 0 && (pl[b].Proc < pl[b-1].Proc || pl[b].Proc == pl[b-1].Proc && pl[b].Loc < pl[b-1].Loc); b-- {
			pl[b], pl[b-1] = pl[b-1], pl[b]
		}
	}
}

// collapse removes nop transitions that are the only way out of their
// source location, merging that location into the target, except for the
// locations of keep. It renumbers the remaining locations (named L0, L1, ...
// in order) and returns the map from old to new location numbers.
func (p *proc) collapse(keep map[int]bool) []int {
	q := p.q
	n := len(q.Locs)
	out := make([]int, n)
	for _, t := range q.Trans {
		out[t.From]++
	}
	rep := make([]int, n)
	for i := range rep {
		rep[i] = i
	}
	var find func(int) int
	find = func(a int) int {
		for rep[a] != a {
			rep[a] = rep[rep[a]]
			a = rep[a]
		}
		return a
	}
	removed := make([]bool, len(q.Trans))
	for ti, t := range q.Trans {
		if t.Op.Kind != model.Nop || out[t.From] != 1 || keep[t.From] {
			continue
		}
		a, b := find(t.From), find(t.To)
		if a == b {
			continue
		}
		rep[a] = b
		removed[ti] = true
	}
	// Keep the representatives reachable from the initial location, in
	// order of first reach, so that the numbering follows the code.
	newIdx := make([]int, n)
	for i := range newIdx {
		newIdx[i] = -1
	}
	adj := make([][]int, n)
	for ti, t := range q.Trans {
		if !removed[ti] {
			adj[find(t.From)] = append(adj[find(t.From)], ti)
		}
	}
	var order []int
	queue := []int{find(q.Init)}
	newIdx[queue[0]] = 0
	order = append(order, queue[0])
	for len(queue) > 0 {
		a := queue[0]
		queue = queue[1:]
		for _, ti := range adj[a] {
			b := find(q.Trans[ti].To)
			if newIdx[b] < 0 {
				newIdx[b] = len(order)
				order = append(order, b)
				queue = append(queue, b)
			}
		}
	}
	locs := make([]model.Loc, len(order))
	for i, old := range order {
		locs[i] = model.Loc{Name: fmt.Sprintf("L%d", i), Pos: q.Locs[old].Pos}
	}
	var trans []model.Transition
	var origins []Origin
	for _, old := range order {
		for _, ti := range adj[old] {
			t := q.Trans[ti]
			t.From, t.To = newIdx[find(t.From)], newIdx[find(t.To)]
			trans = append(trans, t)
			origins = append(origins, p.origins[ti])
		}
	}
	// A location's position is that of the first transition leaving it.
	for i := len(trans) - 1; i >= 0; i-- {
		if trans[i].Pos.IsValid() {
			locs[trans[i].From].Pos = trans[i].Pos
		}
	}
	remap := make([]int, n)
	for i := range remap {
		remap[i] = newIdx[find(i)]
	}
	q.Locs, q.Trans, q.Init = locs, trans, 0
	p.origins = origins
	for l := range keep {
		if remap[l] < 0 {
			// Unreachable: keep it, unconnected, so that references stay valid.
			remap[l] = len(q.Locs)
			q.Locs = append(q.Locs, model.Loc{Name: fmt.Sprintf("L%d", len(q.Locs))})
		}
	}
	return remap
}

// userPos returns pos, or for a position in the model's own source (a
// fatal error of go mu.Unlock()'s shim) the user's call that ran it: the
// step into loc shows it, or else the go statement spawn.
func (p *proc) userPos(pos token.Pos, loc int, spawn token.Pos) token.Pos {
	if !pos.IsValid() || !p.s.x.inModelSource(pos) {
		return pos
	}
	for t, tr := range p.q.Trans {
		if tr.To == loc && t < len(p.origins) && p.origins[t].At.IsValid() {
			return p.origins[t].At
		}
	}
	if spawn.IsValid() {
		return spawn
	}
	return pos
}

// spawnPos returns the position of the go statement that started
// process i, if any.
func (s *system) spawnPos(i int) token.Pos {
	if i < len(s.spawns) {
		return s.spawns[i]
	}
	return token.NoPos
}
