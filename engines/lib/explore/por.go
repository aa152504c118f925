package explore

import (
	"math/bits"
	"slices"

	"github.com/fencecheck/fencecheck/model"
)

// Partial-order reduction (ample sets: Peled; Clarke, Grumberg and Peled,
// "Model Checking", ch. 10; with Valmari's stubborn sets for the choice of
// processes). In a state s the search may expand the steps of a set S of
// processes only (all their enabled transitions and the flushes of their
// buffers) instead of the steps of all processes, when
//
//   - C0: some member of S has a step enabled in s;
//   - C1: S is closed under conflicts (see prepare): no process outside S can
//     take, before a member of S moves, a step that depends on a step of S.
//     Plain writes under TSO go to the writer's own buffer and reads of a
//     variable a process holds in its buffer read it there: both are local.
//     Guards name only registers, so the enabledness of a step of S, like
//     its effect, depends on nothing a process outside S can change;
//   - C2: no enabled step of S is visible: none moves its process into or
//     out of a location a bad state names, assigns a register a bad-state
//     condition names, or writes memory a condition names (under TSO, when a
//     condition names memory, no member of S may write or flush, which
//     changes whether the buffers are empty). A step that faults ends the
//     search at once, so faults need no proviso;
//   - C3: no successor through S was expanded before, unless it was
//     expanded by all its steps: the breadth-first form of the cycle
//     proviso. A cycle of reduced expansions would need an edge back to a
//     state expanded before; the proviso makes every such state fully
//     expanded, so no step of a process outside S is postponed forever.
//
// Otherwise the search tries the next set, then expands s fully. The
// accesses of the processes from each location onwards are computed once,
// over the control graph.
type por struct {
	m       model.Model
	procs   []porProc
	memCond bool // a bad-state condition names memory
	words   int
	// scratch, by process: its future writes including its buffer, the
	// memory reads and writes of its current steps, the processes it
	// conflicts with; and the candidate sets of a state
	futWr, curRd, curWr []bitset
	conflicts           []uint64
	readConflicts       []uint64 // with the future reads of the other processes
	nowConflicts        []uint64 // with the current reads of the other processes
	writers             []uint64 // the others that may write what a process reads now
	sets                []uint64
}

type porProc struct {
	// By location: the variables read by plain Read transitions leaving it
	// (from memory unless the process's buffer holds them), the memory reads
	// and writes of the locked transitions leaving it, and the variables of
	// the plain writes leaving it (memory writes under SC).
	plainReads     [][]int
	lockRd, lockWr []bitset
	writes         []bitset
	// By location: every memory read and write of a transition reachable
	// from it (plain writes count, as their flushes).
	futRd, futWr []bitset
	visible      []bool // by transition
	// localOnly[l]: every transition leaving l is an invisible nop,
	// assignment or guard (and one does).
	localOnly []bool
	// readsOnly[l]: every transition leaving l is a plain read or a nop,
	// assignment or guard.
	readsOnly []bool
}

// bitset is a set of shared variables.
type bitset []uint64

func newBitset(words int) bitset { return make(bitset, words) }

func (b bitset) add(x int)      { b[x>>6] |= 1 << (uint(x) & 63) }
func (b bitset) has(x int) bool { return b[x>>6]&(1<<(uint(x)&63)) != 0 }

// union adds c to b and reports whether b grew.
func (b bitset) union(c bitset) bool {
	grew := false
	for i, w := range c {
		if b[i]|w != b[i] {
			b[i] |= w
			grew = true
		}
	}
	return grew
}

func (b bitset) meets(c bitset) bool {
	for i, w := range c {
		if b[i]&w != 0 {
			return true
		}
	}
	return false
}

// newPOR computes the static information of the reduction for p under m.
func newPOR(p *model.Program, m model.Model) *por {
	r := &por{m: m, words: (len(p.Vars) + 63) / 64}
	namedVar := newBitset(r.words)
	namedLoc := make([][]bool, len(p.Procs))
	namedReg := make([][]bool, len(p.Procs))
	for i, q := range p.Procs {
		namedLoc[i] = make([]bool, len(q.Locs))
		namedReg[i] = make([]bool, len(q.Regs))
	}
	for _, b := range p.Bad {
		for _, pl := range b.Locs {
			namedLoc[pl.Proc][pl.Loc] = true
		}
		model.WalkExpr(b.Cond, func(e model.Expr) {
			switch e := e.(type) {
			case model.VarRef:
				namedVar.add(e.Var)
				r.memCond = true
			case model.RegRef:
				if e.Proc >= 0 && e.Proc < len(p.Procs) && e.Reg >= 0 && e.Reg < len(namedReg[e.Proc]) {
					namedReg[e.Proc][e.Reg] = true
				}
			}
		})
	}
	for i, q := range p.Procs {
		r.procs = append(r.procs, r.process(q, namedLoc[i], namedReg[i], namedVar))
	}
	r.scratch()
	return r
}

// scratch gives r scratch of its own.
func (r *por) scratch() {
	n := len(r.procs)
	r.futWr, r.curRd, r.curWr = make([]bitset, n), make([]bitset, n), make([]bitset, n)
	r.conflicts, r.readConflicts, r.nowConflicts, r.writers = make([]uint64, n), make([]uint64, n), make([]uint64, n), make([]uint64, n)
	for i := range n {
		r.futWr[i], r.curRd[i], r.curWr[i] = newBitset(r.words), newBitset(r.words), newBitset(r.words)
	}
	r.sets = nil
}

// clone returns a por with the same static information (shared) and
// scratch of its own, for another goroutine.
func (r *por) clone() *por {
	if r == nil {
		return nil
	}
	c := &por{m: r.m, procs: r.procs, memCond: r.memCond, words: r.words}
	c.scratch()
	return c
}

func (r *por) process(q *model.Process, namedLoc, namedReg []bool, namedVar bitset) porProc {
	n := len(q.Locs)
	pp := porProc{
		plainReads: make([][]int, n),
		lockRd:     make([]bitset, n),
		lockWr:     make([]bitset, n),
		writes:     make([]bitset, n),
		futRd:      make([]bitset, n),
		futWr:      make([]bitset, n),
		visible:    make([]bool, len(q.Trans)),
	}
	for l := range n {
		pp.lockRd[l], pp.lockWr[l], pp.writes[l] = newBitset(r.words), newBitset(r.words), newBitset(r.words)
		pp.futRd[l], pp.futWr[l] = newBitset(r.words), newBitset(r.words)
	}
	for ti, t := range q.Trans {
		l, op := t.From, t.Op
		switch op.Kind {
		case model.Read:
			pp.plainReads[l] = append(pp.plainReads[l], op.Var)
			pp.futRd[l].add(op.Var)
		case model.Write:
			pp.writes[l].add(op.Var)
			pp.futWr[l].add(op.Var)
		case model.Locked:
			lockedAccess(op.Body, pp.lockRd[l], pp.lockWr[l])
			pp.futRd[l].union(pp.lockRd[l])
			pp.futWr[l].union(pp.lockWr[l])
		}
		pp.visible[ti] = r.visible(t, namedLoc, namedReg, namedVar) && !neverEnabled(q, t.Op)
	}
	pp.localOnly = make([]bool, n)
	for l := range n {
		pp.localOnly[l] = len(q.Out(l)) > 0
		for _, ti := range q.Out(l) {
			switch q.Trans[ti].Op.Kind {
			case model.Nop, model.Assign, model.Guard:
				if pp.visible[ti] {
					pp.localOnly[l] = false
				}
			default:
				pp.localOnly[l] = false
			}
		}
	}
	pp.readsOnly = make([]bool, n)
	for l := range n {
		pp.readsOnly[l] = true
		for _, ti := range q.Out(l) {
			switch q.Trans[ti].Op.Kind {
			case model.Nop, model.Assign, model.Guard, model.Read:
			default:
				pp.readsOnly[l] = false
			}
		}
	}
	// Close the future accesses over the control graph: a location's
	// future holds those of its successors.
	preds := make([][]int, n)
	for _, t := range q.Trans {
		preds[t.To] = append(preds[t.To], t.From)
	}
	work := make([]int, 0, n)
	queued := make([]bool, n)
	for l := range n {
		work = append(work, l)
		queued[l] = true
	}
	for len(work) > 0 {
		l := work[len(work)-1]
		work = work[:len(work)-1]
		queued[l] = false
		for _, k := range preds[l] {
			grew := pp.futRd[k].union(pp.futRd[l])
			grew = pp.futWr[k].union(pp.futWr[l]) || grew
			if grew && !queued[k] {
				queued[k] = true
				work = append(work, k)
			}
		}
	}
	return pp
}

// lockedAccess adds the memory reads and writes of a locked body to rd and
// wr: its reads, the variables its expressions name, and its writes.
func lockedAccess(body []model.Op, rd, wr bitset) {
	names := func(e model.Expr) {
		model.WalkExpr(e, func(e model.Expr) {
			if v, ok := e.(model.VarRef); ok {
				rd.add(v.Var)
			}
		})
	}
	for _, b := range body {
		if b.Expr != nil {
			names(b.Expr)
		}
		switch b.Kind {
		case model.Read:
			rd.add(b.Var)
		case model.Write:
			wr.add(b.Var)
		}
	}
}

// visible reports whether taking t may change whether a bad state holds.
// maxGuardValuations bounds the valuations neverEnabled tries.
const maxGuardValuations = 1 << 12

// neverEnabled reports whether op is a guard that no values of q's
// registers in their domains satisfy, nor make fault: a step that is never
// taken, which therefore changes nothing a bad state can see. Go's
// lowering makes them: the bounds check of arr[j] with j in 0..5 guards a
// move to the "index out of range" panic with j < 0 || j >= 6, and would
// otherwise make its location visible. It tries every valuation of the
// registers the guard reads (own registers only, at most
// maxGuardValuations of them) and says no when it cannot.
func neverEnabled(q *model.Process, op model.Op) bool {
	if op.Kind != model.Guard {
		return false
	}
	var regs []int
	simple := true
	model.WalkExpr(op.Expr, func(e model.Expr) {
		switch e := e.(type) {
		case model.RegRef:
			if e.Proc >= 0 || e.Reg < 0 || e.Reg >= len(q.Regs) {
				simple = false
			} else if !slices.Contains(regs, e.Reg) {
				regs = append(regs, e.Reg)
			}
		case model.VarRef:
			simple = false
		}
	})
	if !simple {
		return false
	}
	total := int64(1)
	for _, reg := range regs {
		d := q.Regs[reg].Dom
		if d.Unbounded || d.Size() == 0 || d.Size() > maxGuardValuations || total*d.Size() > maxGuardValuations {
			return false
		}
		total *= d.Size()
	}
	vals := make([]int64, len(q.Regs))
	for _, reg := range regs {
		vals[reg] = q.Regs[reg].Dom.Lo
	}
	env := &model.Env{Regs: vals}
	for {
		if v, err := model.Eval(op.Expr, env); err != nil || v != 0 {
			return false
		}
		// The next valuation, odometer-wise.
		k := 0
		for ; k < len(regs); k++ {
			reg := regs[k]
			if vals[reg] < q.Regs[reg].Dom.Hi {
				vals[reg]++
				break
			}
			vals[reg] = q.Regs[reg].Dom.Lo
		}
		if k == len(regs) {
			return true
		}
	}
}

func (r *por) visible(t model.Transition, namedLoc, namedReg []bool, namedVar bitset) bool {
	if t.From != t.To && (namedLoc[t.From] || namedLoc[t.To]) {
		return true
	}
	assigns := func(o model.Op) bool {
		return (o.Kind == model.Assign || o.Kind == model.Read) && o.Reg >= 0 && namedReg[o.Reg]
	}
	op := t.Op
	switch op.Kind {
	case model.Assign, model.Read:
		return assigns(op)
	case model.Write:
		if r.m == model.TSO {
			return r.memCond // the buffer stops being empty
		}
		return namedVar.has(op.Var)
	case model.Locked:
		for _, b := range op.Body {
			if assigns(b) || b.Kind == model.Write && namedVar.has(b.Var) {
				return true
			}
		}
	}
	return false
}

// prepare computes, for the state s, the current and future accesses of
// every process and the sets of steps that may form an ample set, and
// returns those sets, smallest first. A set is a bit mask: bit i for all
// the steps of process i, bit 32+i for the flush of its oldest store.
//
// Process P's current steps are the transitions leaving its location and
// the flush of its oldest buffered store. They read from memory the
// variables of its plain reads that its buffer does not hold and, with an
// empty buffer, those of its locked operations; they write to memory the
// variable its flush stores, the variables of its plain writes under SC and,
// with an empty buffer, those of its locked operations (with a non-empty
// buffer, locked operations and fences wait for P's own flushes). Another
// process Q conflicts with P when some step Q may take from its location
// onwards (its future: the accesses of every transition reachable from its
// location, and the flushes of what its buffer holds) writes a variable that
// P's current steps access, or accesses one they write.
//
// The steps of a set S of processes that is closed under conflicts (every
// process that conflicts with a member is a member) satisfy C1: a process
// outside S takes only steps independent of the current steps of S, and
// the members of S take none but those before one of them is taken (this is
// a stubborn set in Valmari's sense, with processes for the transitions).
// prepare returns the closure of every single process, and of every single
// flush of an oldest store: a process's own steps commute with that flush
// (its writes append behind it, its reads of the variable read the same
// value before and after, its fences and locked operations wait for it), so
// the flush may be in a set without them. Until the flush is taken, such a
// process writes nothing to memory: only its future reads count.
//
// A process Q is stuck (the bit of Q in stuck) when its buffer is empty,
// every transition leaving its location is a plain read or a local step,
// and every step it can take is one the search drops as useless (another
// round of a spin loop). While no process outside a set S writes what Q
// reads, Q takes no step but those rounds before a member of S moves: then
// only Q's current reads count against S, not its whole future.
func (r *por) prepare(p *model.Program, s model.State, stuck uint64) []uint64 {
	n := len(r.procs)
	for j := range n {
		pp := &r.procs[j]
		l, buf := s.Locs[j], s.Bufs[j]
		fw := r.futWr[j]
		copy(fw, pp.futWr[l])
		for _, e := range buf {
			fw.add(e.Var)
		}
		rd, wr := r.curRd[j], r.curWr[j]
		clear(rd)
		clear(wr)
		for _, x := range pp.plainReads[l] {
			if !inBuf(buf, x) {
				rd.add(x)
			}
		}
		if len(buf) == 0 {
			rd.union(pp.lockRd[l])
			wr.union(pp.lockWr[l])
		}
		if r.m == model.SC {
			wr.union(pp.writes[l])
		}
	}
	// For each ordered pair: whether the current steps of i conflict with
	// the future of j (whole, or reads only: a process whose oldest store
	// is to be flushed first writes nothing before), with j's current reads
	// (j stuck), and whether j may write what i reads now.
	for i := range n {
		var whole, reads, now, writers uint64
		var head = -1
		if len(s.Bufs[i]) > 0 {
			head = s.Bufs[i][0].Var
		}
		for j := range n {
			if j == i {
				continue
			}
			fr, fw := r.procs[j].futRd[s.Locs[j]], r.futWr[j]
			wr, rd := r.curWr[i], r.curRd[i]
			if wr.meets(fr) || wr.meets(fw) || rd.meets(fw) || head >= 0 && (fr.has(head) || fw.has(head)) {
				whole |= 1 << j
			}
			if wr.meets(fr) || head >= 0 && fr.has(head) {
				reads |= 1 << j
			}
			if wr.meets(r.curRd[j]) || head >= 0 && r.curRd[j].has(head) {
				now |= 1 << j
			}
			if fw.meets(rd) {
				writers |= 1 << j
			}
		}
		r.conflicts[i], r.readConflicts[i], r.nowConflicts[i], r.writers[i] = whole, reads, now, writers
	}
	r.sets = r.sets[:0]
	for e := range 2 * n {
		i := e / 2
		if e%2 == 1 && len(s.Bufs[i]) == 0 {
			continue // no flush
		}
		// progs: processes all of whose steps are in the set; flushes:
		// processes whose oldest store's flush is.
		progs, flushes := uint64(0), uint64(1)<<i
		if e%2 == 0 {
			progs = 1 << i
		}
		for grow := true; grow; {
			grow = false
			whole, reads, now := r.setConflicts(progs)
			for q := range n {
				if progs&(1<<q) != 0 {
					continue
				}
				// Before a step of the set, q takes only steps outside it:
				// none that writes memory when its flush is in the set, and
				// only its spin when it is stuck on variables the set's
				// processes alone may write.
				held := stuck&(1<<q) != 0 && r.writers[q]&^(progs|flushes) == 0
				c := whole
				if flushes&(1<<q) != 0 {
					c = reads
				} else if held {
					c = now
				}
				hit := c&(1<<q) != 0
				for fl := flushes &^ progs; fl != 0 && !hit; fl &= fl - 1 {
					j := bits.TrailingZeros64(fl)
					hit = r.headConflicts(s, j, q, flushes&(1<<q) != 0, held) != 0
				}
				if hit {
					progs |= 1 << q
					flushes |= 1 << q
					grow = true
					whole, reads, now = r.setConflicts(progs)
				}
			}
		}
		set := progs | flushes<<32
		if (bits.OnesCount64(progs) < n || bits.OnesCount64(flushes) < n) && !slices.Contains(r.sets, set) {
			r.sets = append(r.sets, set)
		}
	}
	slices.SortFunc(r.sets, func(a, b uint64) int { return bits.OnesCount64(a) - bits.OnesCount64(b) })
	return r.sets
}

// setConflicts returns the processes that the current steps of the
// processes of progs conflict with: with their future, with their future
// reads, and with their current reads.
func (r *por) setConflicts(progs uint64) (whole, reads, now uint64) {
	for ; progs != 0; progs &= progs - 1 {
		j := bits.TrailingZeros64(progs)
		whole |= r.conflicts[j]
		reads |= r.readConflicts[j]
		now |= r.nowConflicts[j]
	}
	return whole, reads, now
}

// headConflicts returns the bit of q when the flush of the oldest store of
// process j conflicts with what q may do before a step of the set: read
// or write the variable (or, when q's own flush is in the set, only read
// it; when q is held in its spin, read it now).
func (r *por) headConflicts(s model.State, j, q int, qFlushIn, held bool) uint64 {
	if len(s.Bufs[j]) == 0 || j == q {
		return 0
	}
	x := s.Bufs[j][0].Var
	var hit bool
	switch {
	case held:
		hit = r.curRd[q].has(x)
	case qFlushIn:
		hit = r.procs[q].futRd[s.Locs[q]].has(x)
	default:
		hit = r.procs[q].futRd[s.Locs[q]].has(x) || r.futWr[q].has(x)
	}
	if hit {
		return 1 << q
	}
	return 0
}

// flushVisible reports whether a flush by some member of set in s may be
// visible: under TSO, when a bad-state condition names memory (which it
// reads only once every buffer is empty).
func (r *por) flushVisible(s model.State, set uint64) bool {
	if r.m != model.TSO || !r.memCond {
		return false
	}
	for j := range r.procs {
		if set&(1<<(32+j)) != 0 && len(s.Bufs[j]) > 0 {
			return true
		}
	}
	return false
}

func inBuf(buf []model.BufEntry, x int) bool {
	for _, e := range buf {
		if e.Var == x {
			return true
		}
	}
	return false
}
