// Package modular is fencecheck's thread-modular engine: it proves a finite
// program safe by a fixpoint over views of a few processes at a time,
// where the exact engines store every combination of every process's
// state. It answers safe or inconclusive, never unsafe.
//
// A view is what a small group of processes sees of a state: the
// locations and registers of the group's processes, the shared variables
// that each of them alone writes (its own variables), and the variables
// that no process or more than one writes. Everything else — the other
// processes' locations, registers and own variables — is forgotten. The
// groups are every set of m processes, where m is the most processes a bad
// state names (its locations, the registers and the own variables its
// condition reads): two for mutual exclusion. The search computes, for
// every group, a set of views that contains the group's view of every
// reachable state:
//
//   - a process of the group takes a step in the view, reading what the
//     view holds and, for a variable of a process outside the group, any
//     value that process is seen to give it in a view with the same
//     shared variables (its environment);
//   - a process outside the group, in a local state seen in a view with
//     the same shared variables, takes a step that writes a shared
//     variable, which changes the view's shared variables and nothing else.
//
// By induction over a run, every reachable state's views are found, so a
// bad state no view shows and a fault no step of a view makes are
// unreachable. The views of one group depend on the other processes only
// through the values they give their variables, which is what makes
// Lamport's bakery, whose correctness argument is about two processes at a
// time, cheap: the fenced 5-process bakery of testdata/scale is proven
// from 59,484 views, where its state space under SC has
// more than a hundred million states. A view that shows a bad state may be
// an artefact of what the views forget (a process's local state seen with
// other values of the variables of a third), so such an answer is
// inconclusive; the exact engines decide those programs.
//
// The engine searches under sequential consistency, and takes x86-TSO for
// programs whose reads never find a store of their own process pending
// ([facts.LoadsDrained]), where TSO has SC's behaviours, by the same
// search. Under x86-TSO otherwise, a process's store buffer is part of its
// local state and the flush of a store to a variable several processes
// write is a step that changes the shared variables; fences and locked
// operations must bound the buffers ([facts.DrainBound]).
package modular

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/facts"
)

// DefaultMaxViews bounds the views stored (about 100 bytes each) unless
// Engine.MaxViews says otherwise.
const DefaultMaxViews = 1 << 23

// MaxGroup is the most processes a view may hold: a bad state naming more
// processes than this is beyond the engine.
const MaxGroup = 3

// Engine is the thread-modular engine.
type Engine struct {
	// MaxViews bounds the views stored (0: DefaultMaxViews).
	MaxViews int
}

// Name returns "modular".
func (*Engine) Name() string { return "modular" }

// errViews, errWork: why a search stopped.
var (
	errViews = errors.New("view budget exhausted")
	errWork  = errors.New("work")
)

// Check proves that no bad state of p is reachable under m, or answers
// inconclusive.
func (e *Engine) Check(ctx context.Context, p *model.Program, m model.Model) (*engines.Result, error) {
	start := time.Now()
	p, err := engines.ForTSO("the thread-modular engine", p, m)
	if err != nil {
		return nil, err
	}
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("invalid program: %w", err)
	}
	p.Index()
	// Under x86-TSO the search runs under SC when every read finds its
	// buffer empty; otherwise the buffers are part of the processes' local
	// states, and fences and locked operations must bound them.
	sem, bound := model.SC, 0
	if m == model.TSO && !facts.LoadsDrained(p) {
		b, ok := facts.DrainBound(p)
		if !ok {
			return nil, &engines.Unsupported{Engine: "the thread-modular engine", What: "a program under x86-TSO whose store buffers no fence or locked operation bounds"}
		}
		sem, bound = model.TSO, b
	}
	s, err := newSearch(p)
	if err != nil {
		return nil, err
	}
	s.sem, s.bound = sem, bound
	s.ctx = ctx
	s.meter = engines.MeterOf(ctx)
	s.maxViews = e.MaxViews
	if s.maxViews <= 0 {
		s.maxViews = DefaultMaxViews
	}
	res := &engines.Result{Model: m}
	if n := facts.InitialStates(p); n > int64(s.maxViews) {
		res.Status = engines.Inconclusive
		res.Reason = engines.TooManyInitial(n, int64(s.maxViews))
		res.Stats.Duration = time.Since(start)
		return res, nil
	}
	err = s.run()
	res.Stats.States = int64(len(s.views))
	res.Stats.Duration = time.Since(start)
	switch {
	case err == nil && s.found == "":
		res.Status = engines.Safe
		return res, nil
	case err == nil:
		res.Status = engines.Inconclusive
		procs := fmt.Sprintf("%d processes", s.size)
		if s.size == 1 {
			procs = "one process"
		}
		res.Reason = fmt.Sprintf("the views of %s at a time reach %s, which the processes they forget may rule out", procs, s.found)
		return res, nil
	}
	res.Status = engines.Inconclusive
	switch {
	case errors.Is(err, errViews):
		res.Reason = fmt.Sprintf("view budget of %d exhausted", s.maxViews)
	case errors.Is(err, errWork):
		res.Reason = s.meter.Reason()
	case ctx.Err() != nil:
		res.Reason = engines.StopReason(ctx)
	default:
		return nil, err
	}
	return res, nil
}

// A view is a group and the interned parts of a state it sees: the shared
// variables nobody owns (shared) and, in group order, each process's local
// state (its location, live registers and own variables).
type view struct {
	group  int32
	shared uint32
	locals [MaxGroup]uint32
}

// envKey names the local states of process proc seen with shared
// variables shared; valKey the values of variable v seen with them.
type envKey struct {
	proc   int32
	shared uint32
}

type valKey struct {
	v      int32
	shared uint32
}

type search struct {
	p        *model.Program
	sem      model.Model // the semantics searched: SC, or TSO with buffers
	bound    int         // under TSO, the most entries a buffer holds
	ctx      context.Context
	meter    *engines.Meter
	maxViews int
	dead     [][][]int

	n, size int
	groups  [][]int // sorted process indices
	// owner[v]: the only process that writes v, or -1.
	owner   []int
	owned   [][]int // variables by owner
	unowned []int
	// reads[i][t]: the variables transition t of process i reads;
	// writesShared[i][t]: whether it writes a variable nobody owns.
	reads        [][][]int
	writesShared [][]bool
	// readsAt[i][l]: the variables some transition from l reads.
	readsAt [][][]int
	// badIn[g]: the bad states whose processes are all in group g.
	badIn [][]int
	// passable[i][l]: every transition from l is local (no memory access),
	// no bad state names process i at l, and none names i's registers.
	passable [][]bool

	// Interned parts of states.
	sharedIDs map[string]uint32
	sharedVal [][]int64
	localIDs  []map[string]uint32 // by process
	localVal  [][][]int64         // by process: loc, registers, own variables

	seen    map[view]struct{}
	views   []view
	at      map[uint32][]int32 // views by shared part
	env     map[envKey][]uint32
	envSeen map[[3]uint32]struct{}
	vals    map[valKey][]int64
	// effects[envKey]: the shared parts that a step of the process makes
	// from some local state of its environment there.
	effects    map[envKey][]uint32
	effectSeen map[[3]uint32]struct{}

	work  []int32 // views to expand
	found string  // what a view reached: a bad state or a fault
	key   []byte
	steps int // transitions executed, for the context checks
}

func newSearch(p *model.Program) (*search, error) {
	n := len(p.Procs)
	s := &search{
		p:          p,
		n:          n,
		dead:       facts.Dead(p),
		owner:      make([]int, len(p.Vars)),
		owned:      make([][]int, n),
		sharedIDs:  map[string]uint32{},
		localIDs:   make([]map[string]uint32, n),
		localVal:   make([][][]int64, n),
		seen:       map[view]struct{}{},
		at:         map[uint32][]int32{},
		env:        map[envKey][]uint32{},
		envSeen:    map[[3]uint32]struct{}{},
		vals:       map[valKey][]int64{},
		effects:    map[envKey][]uint32{},
		effectSeen: map[[3]uint32]struct{}{},
	}
	for v := range s.owner {
		s.owner[v] = -1
	}
	// writers[v]: a process that writes v, or -1; multi[v]: another does too.
	writers := make([]int, len(p.Vars))
	for v := range writers {
		writers[v] = -1
	}
	multi := make([]bool, len(p.Vars))
	s.reads = make([][][]int, n)
	s.writesShared = make([][]bool, n)
	s.readsAt = make([][][]int, n)
	for i, q := range p.Procs {
		s.localIDs[i] = map[string]uint32{}
		s.reads[i] = make([][]int, len(q.Trans))
		s.writesShared[i] = make([]bool, len(q.Trans))
		for ti, t := range q.Trans {
			var err error
			walkOp(t.Op, func(o model.Op) {
				switch o.Kind {
				case model.Read:
					s.reads[i][ti] = appendNew(s.reads[i][ti], o.Var)
				case model.Write:
					switch w := writers[o.Var]; {
					case w == -1:
						writers[o.Var] = i
					case w != i:
						multi[o.Var] = true
					}
				}
				model.WalkExpr(o.Expr, func(e model.Expr) {
					switch e := e.(type) {
					case model.VarRef:
						s.reads[i][ti] = appendNew(s.reads[i][ti], e.Var)
					case model.RegRef:
						if e.Proc >= 0 && e.Proc != i && err == nil {
							err = &engines.Unsupported{Engine: "the thread-modular engine", What: "an operation that reads another process's register", Pos: t.Pos}
						}
					}
				})
			})
			if err != nil {
				return nil, err
			}
		}
	}
	for v := range p.Vars {
		if writers[v] >= 0 && !multi[v] {
			s.owner[v] = writers[v]
			s.owned[writers[v]] = append(s.owned[writers[v]], v)
		} else {
			s.unowned = append(s.unowned, v)
		}
	}
	for i, q := range p.Procs {
		s.readsAt[i] = make([][]int, len(q.Locs))
		for ti, t := range q.Trans {
			for _, v := range s.reads[i][ti] {
				s.readsAt[i][t.From] = appendNew(s.readsAt[i][t.From], v)
			}
			walkOp(t.Op, func(o model.Op) {
				if o.Kind == model.Write && s.owner[o.Var] < 0 {
					s.writesShared[i][ti] = true
				}
			})
		}
	}
	// The processes of each bad state, and the group size.
	badProcs := make([][]int, len(p.Bad))
	s.size = 1
	for bi, b := range p.Bad {
		var ps []int
		for _, pl := range b.Locs {
			ps = appendNew(ps, pl.Proc)
		}
		model.WalkExpr(b.Cond, func(e model.Expr) {
			switch e := e.(type) {
			case model.RegRef:
				if e.Proc >= 0 {
					ps = appendNew(ps, e.Proc)
				}
			case model.VarRef:
				if o := s.owner[e.Var]; o >= 0 {
					ps = appendNew(ps, o)
				}
			}
		})
		slices.Sort(ps)
		badProcs[bi] = ps
		s.size = max(s.size, len(ps))
	}
	s.size = min(s.size, n)
	s.passable = passable(p)
	if s.size > MaxGroup {
		return nil, &engines.Unsupported{Engine: "the thread-modular engine", What: fmt.Sprintf("a bad state that names %d processes (its views hold at most %d)", s.size, MaxGroup), Pos: p.Bad[0].Pos}
	}
	// Every set of size processes, in lexicographic order.
	var rec func(from int, g []int)
	rec = func(from int, g []int) {
		if len(g) == s.size {
			s.groups = append(s.groups, slices.Clone(g))
			return
		}
		for i := from; i < n; i++ {
			rec(i+1, append(g, i))
		}
	}
	rec(0, nil)
	s.badIn = make([][]int, len(s.groups))
	for gi, g := range s.groups {
		for bi, ps := range badProcs {
			if subset(ps, g) {
				s.badIn[gi] = append(s.badIn[gi], bi)
			}
		}
	}
	return s, nil
}

// passable returns, for every process and location, whether every
// transition from the location is local (no memory access) and no bad
// state watches it ([facts.Watched]): settle may pass it.
func passable(p *model.Program) [][]bool {
	watched := facts.Watched(p)
	out := make([][]bool, len(p.Procs))
	for i, q := range p.Procs {
		out[i] = make([]bool, len(q.Locs))
		for l := range q.Locs {
			out[i][l] = len(q.Out(l)) > 0 && !watched[i][l]
			for _, ti := range q.Out(l) {
				switch q.Trans[ti].Op.Kind {
				case model.Nop, model.Assign, model.Guard, model.Fence:
				default:
					out[i][l] = false
				}
			}
		}
	}
	return out
}

// walkOp calls f for o and, for a locked operation, every operation of its
// body.
func walkOp(o model.Op, f func(model.Op)) {
	f(o)
	for _, b := range o.Body {
		walkOp(b, f)
	}
}

func appendNew(xs []int, x int) []int {
	if slices.Contains(xs, x) {
		return xs
	}
	return append(xs, x)
}

func subset(a, b []int) bool {
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return true
}

// encode returns xs packed as a map key.
func (s *search) encode(xs []int64) string {
	s.key = s.key[:0]
	for _, x := range xs {
		s.key = binary.AppendVarint(s.key, x)
	}
	return string(s.key)
}

func (s *search) internShared(mem []int64) uint32 {
	vals := make([]int64, len(s.unowned))
	for k, v := range s.unowned {
		vals[k] = mem[v]
	}
	k := s.encode(vals)
	if id, ok := s.sharedIDs[k]; ok {
		return id
	}
	id := uint32(len(s.sharedVal))
	s.sharedIDs[k] = id
	s.sharedVal = append(s.sharedVal, vals)
	return id
}

// internLocal interns process i's local state in st: its location, its
// registers with the dead ones reset, its own variables and, under TSO,
// its store buffer.
func (s *search) internLocal(i int, st model.State) uint32 {
	q := s.p.Procs[i]
	vals := make([]int64, 0, 1+len(q.Regs)+len(s.owned[i]))
	l := st.Locs[i]
	vals = append(vals, int64(l))
	k := len(vals)
	vals = append(vals, st.Regs[i]...)
	for _, r := range s.dead[i][l] {
		vals[k+r] = 0
	}
	for _, v := range s.owned[i] {
		vals = append(vals, st.Mem[v])
	}
	for _, e := range st.Bufs[i] {
		vals = append(vals, int64(e.Var), e.Val)
	}
	key := s.encode(vals)
	if id, ok := s.localIDs[i][key]; ok {
		return id
	}
	id := uint32(len(s.localVal[i]))
	s.localIDs[i][key] = id
	s.localVal[i] = append(s.localVal[i], vals)
	return id
}

// state builds a full state from the shared part sh and the local states
// ls of the processes procs; the other processes are at their initial
// locations with zero registers, and the variables they own are 0 until
// the caller sets them.
func (s *search) state(sh uint32, procs []int, ls []uint32) model.State {
	st := model.State{
		Locs: make([]int, s.n),
		Regs: make([][]int64, s.n),
		Mem:  make([]int64, len(s.p.Vars)),
		Bufs: make([][]model.BufEntry, s.n),
	}
	for i, q := range s.p.Procs {
		st.Locs[i] = q.Init
	}
	for k, v := range s.unowned {
		st.Mem[v] = s.sharedVal[sh][k]
	}
	for k, i := range procs {
		vals := s.localVal[i][ls[k]]
		st.Locs[i] = int(vals[0])
		nr := len(s.p.Procs[i].Regs)
		st.Regs[i] = vals[1 : 1+nr : 1+nr]
		for j, v := range s.owned[i] {
			st.Mem[v] = vals[1+nr+j]
		}
		if buf := vals[1+nr+len(s.owned[i]):]; len(buf) > 0 {
			st.Bufs[i] = make([]model.BufEntry, len(buf)/2)
			for e := range st.Bufs[i] {
				st.Bufs[i][e] = model.BufEntry{Var: int(buf[2*e]), Val: buf[2*e+1]}
			}
		}
	}
	for i := range st.Regs {
		if st.Regs[i] == nil {
			st.Regs[i] = make([]int64, len(s.p.Procs[i].Regs))
		}
	}
	return st
}

func (s *search) run() error {
	var initErr error
	err := s.p.Initial(func(st model.State) {
		if initErr != nil {
			return
		}
		if s.p.IsBad(st) {
			s.found = "a bad state in an initial state"
		}
		sh := s.internShared(st.Mem)
		for gi, g := range s.groups {
			var v view
			v.group, v.shared = int32(gi), sh
			for k, i := range g {
				v.locals[k] = s.internLocal(i, st)
			}
			if initErr = s.add(v); initErr != nil {
				return
			}
		}
	})
	if err != nil {
		return fmt.Errorf("initial states: %w", err)
	}
	if initErr != nil {
		return initErr
	}
	for len(s.work) > 0 && s.found == "" {
		vi := s.work[len(s.work)-1]
		s.work = s.work[:len(s.work)-1]
		if err := s.expand(vi); err != nil {
			return err
		}
	}
	return nil
}

// add stores v when it is new: queues it and checks its bad states.
func (s *search) add(v view) error {
	if _, ok := s.seen[v]; ok {
		return nil
	}
	if len(s.views) >= s.maxViews {
		return errViews
	}
	if s.meter != nil && !s.meter.States(1) {
		return errWork
	}
	if len(s.views)&(1<<12-1) == 0 {
		if err := s.ctx.Err(); err != nil {
			return err
		}
	}
	s.seen[v] = struct{}{}
	vi := int32(len(s.views))
	s.views = append(s.views, v)
	s.at[v.shared] = append(s.at[v.shared], vi)
	s.work = append(s.work, vi)
	g := s.groups[v.group]
	if bads := s.badIn[v.group]; len(bads) > 0 && s.found == "" {
		st := s.state(v.shared, g, v.locals[:len(g)])
		for _, bi := range bads {
			if s.p.InBad(st, bi) {
				s.found = fmt.Sprintf("bad state %s", badName(s.p, bi))
				return nil
			}
		}
	}
	return nil
}

func badName(p *model.Program, bi int) string {
	if name := p.Bad[bi].Name; name != "" {
		return name
	}
	return fmt.Sprintf("#%d", bi+1)
}

// addEnv records that process i is seen in local state li with shared part
// sh: the values of its variables join their environments, and its steps
// that write shared variables change the views of the groups without it.
func (s *search) addEnv(i int, sh, li uint32) error {
	k3 := [3]uint32{uint32(i), sh, li}
	if _, ok := s.envSeen[k3]; ok {
		return nil
	}
	s.envSeen[k3] = struct{}{}
	ek := envKey{int32(i), sh}
	s.env[ek] = append(s.env[ek], li)
	vals := s.localVal[i][li]
	nr := len(s.p.Procs[i].Regs)
	for j, v := range s.owned[i] {
		vk := valKey{int32(v), sh}
		x := vals[1+nr+j]
		if slices.Contains(s.vals[vk], x) {
			continue
		}
		s.vals[vk] = append(s.vals[vk], x)
		if err := s.newValue(v, sh); err != nil {
			return err
		}
	}
	return s.interfere(i, sh, li)
}

// newValue re-expands what may read a new value of v with shared part sh:
// the views whose group lacks v's owner with a process where it may read
// v, and the environments' steps.
func (s *search) newValue(v int, sh uint32) error {
	o := s.owner[v]
	for _, vi := range s.at[sh] {
		w := s.views[vi]
		g := s.groups[w.group]
		if slices.Contains(g, o) {
			continue
		}
		for k, i := range g {
			if slices.Contains(s.readsAt[i][s.localVal[i][w.locals[k]][0]], v) {
				s.work = append(s.work, vi)
				break
			}
		}
	}
	for i := range s.n {
		if i == o {
			continue
		}
		for _, li := range s.env[envKey{int32(i), sh}] {
			if slices.Contains(s.readsAt[i][s.localVal[i][li][0]], v) {
				if err := s.interfere(i, sh, li); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// interfere records the shared parts that process i's steps from local
// state li make (steps that write a shared variable), and applies the new
// ones to the views with shared part sh whose group lacks i.
func (s *search) interfere(i int, sh, li uint32) error {
	st := s.state(sh, []int{i}, []uint32{li})
	ek := envKey{int32(i), sh}
	var err error
	for _, ti := range s.moves(i, st) {
		if ti >= 0 && !s.writesShared[i][ti] {
			continue
		}
		if err := s.tick(); err != nil {
			return err
		}
		s.withReads(st, sh, i, ti, nil, func(ns model.State) {
			if err != nil || ns.Fault != nil {
				// A fault is found by the process's own step, in the
				// views of a group with it.
				return
			}
			nsh := s.internShared(ns.Mem)
			if nsh == sh {
				return
			}
			k3 := [3]uint32{uint32(i), sh, nsh}
			if _, ok := s.effectSeen[k3]; ok {
				return
			}
			s.effectSeen[k3] = struct{}{}
			s.effects[ek] = append(s.effects[ek], nsh)
			for _, vi := range s.at[sh] {
				w := s.views[vi]
				if slices.Contains(s.groups[w.group], i) {
					continue
				}
				w.shared = nsh
				if err = s.add(w); err != nil {
					return
				}
			}
		})
	}
	return err
}

// withReads executes transition ti of process i from st (-1: the flush of
// its oldest buffered store) once for every combination of the values its
// environment gives the variables it reads that neither i nor a process
// of procs owns (with shared part sh), and calls f with each successor.
// Under TSO a write beyond the buffer bound, which the bound rules out, is
// not taken.
func (s *search) withReads(st model.State, sh uint32, i, ti int, procs []int, f func(model.State)) {
	if ti < 0 {
		if _, ns, err := s.p.Exec(st, i, 0, true, s.sem); err == nil {
			f(ns)
		}
		return
	}
	var foreign []int
	for _, v := range s.reads[i][ti] {
		if o := s.owner[v]; o >= 0 && o != i && !slices.Contains(procs, o) {
			foreign = append(foreign, v)
		}
	}
	var rec func(k int)
	rec = func(k int) {
		if k == len(foreign) {
			_, ns, err := s.p.Exec(st, i, ti, false, s.sem)
			if err == nil && len(ns.Bufs[i]) <= s.bound {
				f(ns)
			}
			return
		}
		v := foreign[k]
		for _, x := range s.vals[valKey{int32(v), sh}] {
			st.Mem[v] = x
			rec(k + 1)
		}
	}
	rec(0)
}

// moves returns the transitions of process i from its location in st and,
// under TSO with a store pending, -1 for the flush of the oldest.
func (s *search) moves(i int, st model.State) []int {
	out := s.p.Procs[i].Out(st.Locs[i])
	if len(st.Bufs[i]) > 0 {
		out = append(slices.Clip(out), -1)
	}
	return out
}

// tick counts a transition executed and checks the context every 2^14:
// a search may execute many transitions that add no view.
func (s *search) tick() error {
	s.steps++
	if s.steps&(1<<14-1) == 0 {
		return s.ctx.Err()
	}
	return nil
}

// maxSettle bounds the local steps settle takes in a row (a local loop
// may not end).
const maxSettle = 1 << 10

// settle takes process i's local steps from ns in a row while its
// location is passable and exactly one of them is enabled, and returns the
// state reached (or a faulting one). Such a step reads and writes only
// the process's registers, so it commutes with every other process's step
// and no other process enables or disables it, and no bad state tells its
// source location apart: a view need not stop there.
func (s *search) settle(i int, ns model.State) model.State {
	for range maxSettle {
		l := ns.Locs[i]
		if !s.passable[i][l] {
			break
		}
		var next model.State
		enabled := 0
		for _, ti := range s.p.Procs[i].Out(l) {
			if _, st, err := s.p.Exec(ns, i, ti, false, s.sem); err == nil {
				if enabled++; enabled > 1 {
					break
				}
				next = st
			}
		}
		if enabled != 1 {
			break
		}
		ns = next
		if ns.Fault != nil {
			break
		}
	}
	return ns
}

// expand adds the local states of view vi to their environments and takes
// every step of the view: its processes' own steps, and the steps of the
// other processes' environments that write shared variables.
func (s *search) expand(vi int32) error {
	v := s.views[vi]
	g := s.groups[v.group]
	ls := v.locals[:len(g)]
	for k, i := range g {
		if err := s.addEnv(i, v.shared, ls[k]); err != nil {
			return err
		}
	}
	st := s.state(v.shared, g, ls)
	for k, i := range g {
		for _, ti := range s.moves(i, st) {
			if err := s.tick(); err != nil {
				return err
			}
			var err error
			s.withReads(st, v.shared, i, ti, g, func(ns model.State) {
				if err != nil || s.found != "" {
					return
				}
				if ns.Fault != nil {
					s.found = fmt.Sprintf("a fault (%s: %s)", s.p.Procs[i].Name, ns.Fault.Msg)
					return
				}
				ns = s.settle(i, ns)
				if ns.Fault != nil {
					s.found = fmt.Sprintf("a fault (%s: %s)", s.p.Procs[i].Name, ns.Fault.Msg)
					return
				}
				w := v
				w.shared = s.internShared(ns.Mem)
				w.locals[k] = s.internLocal(i, ns)
				err = s.add(w)
			})
			if err != nil || s.found != "" {
				return err
			}
		}
	}
	for i := range s.n {
		if slices.Contains(g, i) {
			continue
		}
		for _, nsh := range s.effects[envKey{int32(i), v.shared}] {
			w := v
			w.shared = nsh
			if err := s.add(w); err != nil {
				return err
			}
		}
	}
	return nil
}
