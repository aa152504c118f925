package sb

import (
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"math/bits"
	"slices"

	"github.com/fencecheck/fencecheck/engines"
	"github.com/fencecheck/fencecheck/model"
	"github.com/fencecheck/fencecheck/model/facts"
)

// This file holds the forward over-approximation: TSO with every store
// buffer cut into an exact suffix of at most k blocks and a summary of the
// older stores. A block is one store, or a run of one or more copies of the
// same store (what a retransmission loop leaves). The summary keeps the
// oldest and the newest of the older stores exactly, and supersets of the
// stores among them and of the pairs of stores adjacent in them: a flush
// takes the oldest store to memory and picks its successor among the pairs,
// so a producer's periodic stream (d f d f ...) keeps its order. A read that
// finds no store to x in the suffix reads any summarised store to x (or
// memory when there is none). Every TSO run is simulated by a run of the
// abstraction through states with the same locations, registers, memory,
// fault and buffer emptiness (the invariant: buffer = older·expansion(suffix),
// first and last of older exact, its stores and adjacent pairs included in
// the summary's), so an abstraction that reaches no bad state proves the
// program safe, and the local states it reaches contain every reachable
// local state.

// summary abstracts a non-empty sequence of stores.
type summary struct {
	first, last model.BufEntry
	letters     []model.BufEntry    // sorted, distinct
	pairs       [][2]model.BufEntry // sorted, distinct
}

func cmpEntry(a, b model.BufEntry) int {
	if a.Var != b.Var {
		return a.Var - b.Var
	}
	return cmp.Compare(a.Val, b.Val)
}

func cmpPair(a, b [2]model.BufEntry) int {
	if c := cmpEntry(a[0], b[0]); c != 0 {
		return c
	}
	return cmpEntry(a[1], b[1])
}

func insertSorted[T any](s []T, v T, cmp func(a, b T) int) []T {
	i, found := slices.BinarySearchFunc(s, v, cmp)
	if found {
		return s
	}
	return slices.Insert(slices.Clone(s), i, v)
}

// appendStore returns the summary of old's stores followed by e (repeated
// when many); old may be nil.
func appendStore(old *summary, e model.BufEntry, many bool) *summary {
	n := &summary{first: e, last: e, letters: []model.BufEntry{e}}
	if old != nil {
		n.first = old.first
		n.letters = insertSorted(old.letters, e, cmpEntry)
		n.pairs = insertSorted(old.pairs, [2]model.BufEntry{old.last, e}, cmpPair)
	}
	if many {
		n.pairs = insertSorted(n.pairs, [2]model.BufEntry{e, e}, cmpPair)
	}
	return n
}

// afterFlush calls f with every summary of the stores that may follow the
// first one of s (nil: none).
func (s *summary) afterFlush(f func(*summary)) {
	h := s.first
	if s.last == h {
		f(nil)
	}
	for _, pr := range s.pairs {
		if pr[0] != h {
			continue
		}
		b := pr[1]
		f(&summary{first: b, last: s.last, letters: s.letters, pairs: s.pairs})
		if b == h || s.last == h {
			continue
		}
		// h may occur no more.
		n := &summary{first: b, last: s.last}
		for _, e := range s.letters {
			if e != h {
				n.letters = append(n.letters, e)
			}
		}
		for _, q := range s.pairs {
			if q[0] != h && q[1] != h {
				n.pairs = append(n.pairs, q)
			}
		}
		f(n)
	}
}

// block is one entry of an exact suffix: a store, repeated one or more times
// when many is set.
type block struct {
	e    model.BufEntry
	many bool
}

// absState is one state of the abstraction.
type absState struct {
	locs  []int
	regs  [][]int64
	mem   []int64
	suf   [][]block  // per process: the newest stores, oldest first
	sum   []*summary // per process: the stores older than the suffix, or nil
	fault bool
	depth int32 // the length of the shortest abstract run to it
}

// forward is one run of the abstraction with suffix length k.
type forward struct {
	meter *engines.Meter // charged a unit per state
	prog  *model.Program
	k     int

	visited map[string]struct{}
	queue   []absState
	key     []byte

	// local records the reachable local states: by location tuple, the
	// register valuations (flattened) and the least depth of each.
	local map[string]*localStates
	// proj holds local projected to fewer processes (projected).
	proj map[uint64]map[string]*localStates
	// next is the depth of the states added: one more than the state
	// being expanded.
	next int32

	// views[p][l] records, for process p at location l, the registers and
	// the memories of the states where p's buffer is empty (recordViews);
	// viewSeen deduplicates them.
	views    []map[int]*localStates
	viewSeen map[string]struct{}

	// dead lists the dead registers per process and location
	// (facts.Dead): states are kept with them reset to 0, and mayReach
	// ignores them.
	dead [][][]int

	// faulted[p] holds the transitions of process p whose step faulted
	// in some abstract state (by index in the program searched).
	faulted []map[int]bool

	keep     bool  // keep explored states in queue (for tests)
	bad      bool  // an abstract bad state is reachable
	complete bool  // every abstract state was explored
	states   int64 // abstract states found
}

var errAbsBudget = errors.New("abstract state budget exhausted")

// runForward explores the abstraction of p with suffix length k, up to max
// abstract states. It explores everything it can, also past a bad state, so
// that a complete run yields the reachable local states for pruning.
func runForward(ctx context.Context, p *model.Program, k int, max int64) (*forward, error) {
	f := &forward{meter: engines.MeterOf(ctx), prog: p, k: k, visited: map[string]struct{}{}, local: map[string]*localStates{}, dead: facts.Dead(p)}
	return f, f.run(ctx, max)
}

// run explores the abstraction from the initial states; see runForward.
func (f *forward) run(ctx context.Context, max int64) error {
	p := f.prog
	p.Index()
	err := p.Initial(func(s model.State) {
		f.add(absState{locs: s.Locs, regs: s.Regs, mem: s.Mem,
			suf: make([][]block, len(p.Procs)), sum: make([]*summary, len(p.Procs))})
	})
	if err != nil {
		return err
	}
	for head := 0; head < len(f.queue); head++ {
		if head&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		if engines.MeterOf(ctx).Out() {
			return engines.ErrWork
		}
		if f.states >= max {
			return errAbsBudget
		}
		s := f.queue[head]
		if !f.keep {
			f.queue[head] = absState{}
		}
		if s.fault {
			continue
		}
		f.next = s.depth + 1
		f.successors(&s)
	}
	f.complete = true
	return nil
}

func (f *forward) add(s absState) {
	if f.dead != nil {
		s.regs = facts.CanonicalRegs(model.State{Locs: s.locs, Regs: s.regs}, f.dead).Regs
	}
	f.key = f.key[:0]
	for _, l := range s.locs {
		f.key = binary.AppendUvarint(f.key, uint64(l))
	}
	for _, rs := range s.regs {
		for _, r := range rs {
			f.key = binary.AppendVarint(f.key, r)
		}
	}
	for _, v := range s.mem {
		f.key = binary.AppendVarint(f.key, v)
	}
	for i := range s.suf {
		f.key = binary.AppendUvarint(f.key, uint64(len(s.suf[i])))
		for _, b := range s.suf[i] {
			m := uint64(0)
			if b.many {
				m = 1
			}
			f.key = binary.AppendUvarint(f.key, uint64(b.e.Var)<<1|m)
			f.key = binary.AppendVarint(f.key, b.e.Val)
		}
		f.key = s.sum[i].appendKey(f.key)
	}
	if s.fault {
		f.key = append(f.key, 1)
	}
	if _, ok := f.visited[string(f.key)]; ok {
		return
	}
	f.visited[string(f.key)] = struct{}{}
	s.depth = f.next
	f.states++
	f.meter.States(1)
	f.queue = append(f.queue, s)
	f.recordLocal(s)
	f.recordViews(s)
	if f.isBad(&s) {
		f.bad = true
	}
}

// recordFault records the transition whose step faulted.
func (f *forward) recordFault(ft *model.Fault) {
	if f.faulted == nil {
		f.faulted = make([]map[int]bool, len(f.prog.Procs))
	}
	if f.faulted[ft.Proc] == nil {
		f.faulted[ft.Proc] = map[int]bool{}
	}
	f.faulted[ft.Proc][ft.Trans] = true
}

// hasFaulted reports whether transition ti of process p faulted in some
// abstract state (a complete abstraction records every fault of the
// program).
func (f *forward) hasFaulted(p, ti int) bool {
	return f.faulted != nil && f.faulted[p][ti]
}

func (f *forward) recordLocal(s absState) {
	lk := locKey(s.locs)
	var flat []int64
	for _, rs := range s.regs {
		flat = append(flat, rs...)
	}
	list := f.local[lk]
	if list == nil {
		list = &localStates{}
		f.local[lk] = list
	}
	idx := list.index(flat, s.depth)
	// A drained state's key is its local state and memory: each is
	// recorded once, breadth first at its least depth.
	if !s.fault && drainedState(&s) {
		list.mems[idx] = append(list.mems[idx], memDepth{mem: s.mem, depth: s.depth})
	}
}

// recordViews records, for every process whose buffer is empty in s, its
// location, registers and the memory (what it reads), once each.
func (f *forward) recordViews(s absState) {
	if s.fault {
		return
	}
	if f.views == nil {
		f.views = make([]map[int]*localStates, len(s.locs))
		f.viewSeen = map[string]struct{}{}
	}
	for p, l := range s.locs {
		if !s.bufEmpty(p) {
			continue
		}
		f.key = binary.AppendUvarint(f.key[:0], uint64(p))
		f.key = binary.AppendUvarint(f.key, uint64(l))
		for _, r := range s.regs[p] {
			f.key = binary.AppendVarint(f.key, r)
		}
		for _, v := range s.mem {
			f.key = binary.AppendVarint(f.key, v)
		}
		if _, ok := f.viewSeen[string(f.key)]; ok {
			continue
		}
		f.viewSeen[string(f.key)] = struct{}{}
		if f.views[p] == nil {
			f.views[p] = map[int]*localStates{}
		}
		list := f.views[p][l]
		if list == nil {
			list = &localStates{}
			f.views[p][l] = list
		}
		i := list.index(s.regs[p], s.depth)
		list.mems[i] = append(list.mems[i], memDepth{mem: s.mem, depth: s.depth})
	}
}

// viewReached reports whether process p, at location l with the known
// registers of regs (rknown bit r: regs[r] known), reads a memory that
// agrees with m's known variables in some state of the abstraction where
// its buffer is empty.
func (f *forward) viewReached(p, l int, regs []int64, rknown uint64, m *msg) bool {
	if f.views == nil || f.views[p] == nil {
		return false
	}
	list := f.views[p][l]
	if list == nil {
		return false
	}
	known := rknown
	if f.dead != nil {
		for _, r := range f.dead[p][l] {
			known &^= 1 << uint(r)
		}
	}
	for i, flat := range list.regs {
		ok := true
		for k := known; k != 0 && ok; k &= k - 1 {
			r := bits.TrailingZeros64(k)
			ok = flat[r] == regs[r]
		}
		if !ok {
			continue
		}
		for _, md := range list.mems[i] {
			if memAgrees(md.mem, m) {
				return true
			}
		}
	}
	return false
}

// memDepth is a memory reached with every buffer empty, at a depth.
type memDepth struct {
	mem   []int64
	depth int32
}

// bufEmpty reports whether the buffer of process p is empty in s.
func (s *absState) bufEmpty(p int) bool { return len(s.suf[p]) == 0 && s.sum[p] == nil }

// drainedState reports whether every buffer of s is empty.
func drainedState(s *absState) bool {
	for p := range s.suf {
		if !s.bufEmpty(p) {
			return false
		}
	}
	return true
}

// localStates are the register valuations reached at one location tuple,
// each with the least depth of an abstract state that has it, in the order
// of depth (the search is breadth first; projected sorts its unions).
type localStates struct {
	regs  [][]int64
	depth []int32
	mems  [][]memDepth
}

// index returns the index of the valuation regs in l, adding it at depth
// when it is new (a valuation reached before was reached by a run no
// longer: the abstraction is breadth first).
func (l *localStates) index(regs []int64, depth int32) int {
	for i, r := range l.regs {
		if slices.Equal(r, regs) {
			return i
		}
	}
	l.regs = append(l.regs, regs)
	l.depth = append(l.depth, depth)
	l.mems = append(l.mems, nil)
	return len(l.regs) - 1
}

// concrete returns the model state with s's locations, registers and memory,
// and buffers standing for s's: buf[i], or a placeholder store when s's
// buffer of i is non-empty but its suffix is.
func (f *forward) concrete(s *absState) model.State {
	c := model.State{Locs: s.locs, Regs: s.regs, Mem: s.mem, Bufs: make([][]model.BufEntry, len(s.suf))}
	for i := range s.suf {
		c.Bufs[i] = expand(s.suf[i])
		if len(c.Bufs[i]) == 0 && s.sum[i] != nil {
			c.Bufs[i] = []model.BufEntry{{}}
		}
	}
	return c
}

func (f *forward) isBad(s *absState) bool {
	if s.fault {
		return true
	}
	return f.prog.MatchBad(f.concrete(s)) >= 0
}

// successors adds every abstract successor of s.
func (f *forward) successors(s *absState) {
	p := f.prog
	for i, q := range p.Procs {
		f.flushes(s, i)
		for _, ti := range q.Out(s.locs[i]) {
			t := &q.Trans[ti]
			c := f.concrete(s)
			c.Bufs[i] = expand(s.suf[i])
			switch t.Op.Kind {
			case model.Fence, model.Locked:
				if s.sum[i] != nil {
					continue
				}
			case model.Read:
				x := t.Op.Var
				if f.sufHas(s.suf[i], x) || !f.sumHas(s.sum[i], x) {
					break
				}
				// The newest store to x is a summarised one: any of its values.
				for _, e := range s.sum[i].letters {
					if e.Var == x {
						c.Bufs[i] = []model.BufEntry{e}
						if _, ns, err := p.Exec(c, i, ti, false, model.TSO); err == nil {
							f.step(s, ns, i, false)
						}
					}
				}
				continue
			}
			if _, ns, err := p.Exec(c, i, ti, false, model.TSO); err == nil {
				f.step(s, ns, i, t.Op.Kind == model.Write)
			}
		}
	}
}

// step adds the abstract state of model state ns, reached from s by a step
// of process i; wrote says that the step appended to i's buffer.
func (f *forward) step(s *absState, ns model.State, i int, wrote bool) {
	n := absState{locs: ns.Locs, regs: ns.Regs, mem: ns.Mem, suf: s.suf, sum: s.sum, fault: ns.Fault != nil}
	if ns.Fault != nil {
		f.recordFault(ns.Fault)
	}
	if wrote && ns.Fault == nil {
		e := ns.Bufs[i][len(ns.Bufs[i])-1]
		suf := slices.Clone(s.suf[i])
		if len(suf) > 0 && suf[len(suf)-1].e == e {
			suf[len(suf)-1].many = true
		} else {
			suf = append(suf, block{e: e})
		}
		if len(suf) > f.k {
			n.sum = slices.Clone(s.sum)
			n.sum[i] = appendStore(s.sum[i], suf[0].e, suf[0].many)
			suf = suf[1:]
		}
		n.suf = slices.Clone(s.suf)
		n.suf[i] = suf
	}
	f.add(n)
}

// flushes adds the states after a flush of process i.
func (f *forward) flushes(s *absState, i int) {
	if s.sum[i] == nil {
		if len(s.suf[i]) == 0 {
			return
		}
		b := s.suf[i][0]
		n := absState{locs: s.locs, regs: s.regs, mem: slices.Clone(s.mem), suf: slices.Clone(s.suf), sum: s.sum}
		n.mem[b.e.Var] = b.e.Val
		n.suf[i] = s.suf[i][1:]
		f.add(n)
		if b.many {
			// More copies of the store may remain.
			f.add(absState{locs: s.locs, regs: s.regs, mem: n.mem, suf: s.suf, sum: s.sum})
		}
		return
	}
	e := s.sum[i].first
	mem := slices.Clone(s.mem)
	mem[e.Var] = e.Val
	s.sum[i].afterFlush(func(n *summary) {
		sum := slices.Clone(s.sum)
		sum[i] = n
		f.add(absState{locs: s.locs, regs: s.regs, mem: mem, suf: s.suf, sum: sum})
	})
}

func appendEntry(b []byte, e model.BufEntry) []byte {
	b = binary.AppendUvarint(b, uint64(e.Var))
	return binary.AppendVarint(b, e.Val)
}

// appendKey appends an exact encoding of s (nil included) to b.
func (s *summary) appendKey(b []byte) []byte {
	if s == nil {
		return append(b, 0)
	}
	b = binary.AppendUvarint(b, uint64(len(s.letters)))
	b = appendEntry(b, s.first)
	b = appendEntry(b, s.last)
	for _, e := range s.letters {
		b = appendEntry(b, e)
	}
	b = binary.AppendUvarint(b, uint64(len(s.pairs)))
	for _, pr := range s.pairs {
		b = appendEntry(appendEntry(b, pr[0]), pr[1])
	}
	return b
}

// expand returns the stores of a suffix, one per block.
func expand(suf []block) []model.BufEntry {
	if len(suf) == 0 {
		return nil
	}
	out := make([]model.BufEntry, len(suf))
	for i, b := range suf {
		out[i] = b.e
	}
	return out
}

func (f *forward) sufHas(suf []block, x int) bool {
	for _, b := range suf {
		if b.e.Var == x {
			return true
		}
	}
	return false
}

func (f *forward) sumHas(sum *summary, x int) bool {
	if sum == nil {
		return false
	}
	for _, e := range sum.letters {
		if e.Var == x {
			return true
		}
	}
	return false
}

// projected returns the recorded local states by their locations with the
// processes of mask made wild (built on first use).
func (f *forward) projected(mask uint64) map[string]*localStates {
	if m, ok := f.proj[mask]; ok {
		return m
	}
	m := map[string]*localStates{}
	var locs []int
	var key []byte
	for lk, list := range f.local {
		locs = locs[:0]
		for b := []byte(lk); len(b) > 0; {
			v, n := binary.Uvarint(b)
			locs = append(locs, int(v)-1)
			b = b[n:]
		}
		key = appendLocKey(key[:0], locs, mask)
		to := m[string(key)]
		if to == nil {
			to = &localStates{}
			m[string(key)] = to
		}
		to.regs = append(to.regs, list.regs...)
		to.depth = append(to.depth, list.depth...)
	}
	for _, to := range m {
		to.sortByDepth()
	}
	if f.proj == nil {
		f.proj = map[uint64]map[string]*localStates{}
	}
	f.proj[mask] = m
	return m
}

// mayReach reports whether some recorded local state has locations locs
// (where they are not wild) and agrees with the known registers of c
// (rknown[p] bit r: regs[p][r] known) of the processes at a fixed location.
func (f *forward) mayReach(locs []int, regs [][]int64, rknown []uint64) bool {
	return f.leastDepth(locs, regs, rknown, nil) >= 0
}

// leastDepth returns the least depth of a recorded local state that
// agrees with locs (where not wild) and with the known registers of the
// processes at a fixed location (rknown[p] bit r: regs[p][r] is known), or
// -1 when there is none. With m, and every location fixed, it considers only
// the states reached with every buffer empty and a memory that agrees with
// m's known variables. Every run of the program is simulated by one of the
// abstraction as long, so it is a lower bound on the length of every run to
// such a local state.
func (f *forward) leastDepth(locs []int, regs [][]int64, rknown []uint64, m *msg) int32 {
	mask := wildMask(locs)
	var list *localStates
	if mask == 0 {
		list = f.local[locKey(locs)]
	} else {
		list, m = f.projected(mask)[string(appendLocKey(nil, locs, mask))], nil
	}
	if list == nil || len(list.regs) == 0 {
		return -1
	}
	var dead []uint64 // per process, the known registers that are dead
	if f.dead != nil {
		dead = make([]uint64, len(locs))
		for p, l := range locs {
			if l == wild {
				continue
			}
			for _, r := range f.dead[p][l] {
				dead[p] |= 1 << uint(r)
			}
		}
	}
	best := int32(-1)
	// The list is in the order of depth, and a drained state with a local
	// state lies no nearer than the local state.
	for i, flat := range list.regs {
		if best >= 0 && list.depth[i] >= best {
			break
		}
		ok, off := true, 0
		for p, rs := range regs {
			known := rknown[p]
			if locs[p] == wild {
				known = 0 // its registers may be dead where it is
			}
			if dead != nil {
				known &^= dead[p]
			}
			for k := known; k != 0 && ok; k &= k - 1 {
				r := bits.TrailingZeros64(k)
				ok = flat[off+r] == rs[r]
			}
			off += len(rs)
		}
		if !ok {
			continue
		}
		if m == nil {
			return list.depth[i]
		}
		for _, md := range list.mems[i] {
			if (best < 0 || md.depth < best) && memAgrees(md.mem, m) {
				best = md.depth
			}
		}
	}
	return best
}

// memAgrees reports whether memory mem agrees with m's known variables.
func memAgrees(mem []int64, m *msg) bool {
	for k := m.known; k != 0; k &= k - 1 {
		x := bits.TrailingZeros64(k)
		if mem[x] != m.mem[x] {
			return false
		}
	}
	return true
}

// sortByDepth orders l's valuations by depth, stably.
func (l *localStates) sortByDepth() {
	idx := make([]int, len(l.regs))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(l.depth[a], l.depth[b]) })
	regs, depth := make([][]int64, len(idx)), make([]int32, len(idx))
	for i, j := range idx {
		regs[i], depth[i] = l.regs[j], l.depth[j]
	}
	l.regs, l.depth = regs, depth
}
