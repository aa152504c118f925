package gcpattern

import (
	"fmt"
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// Kind is a rewrite gc applies to a racy plain access.
type Kind int

const (
	// DeadStore: a later store to the same address in the same block
	// overwrites this store, and gc deletes it.
	DeadStore Kind = iota + 1
	// MergedLoad: an earlier load of the same address reads the same
	// memory state, and gc reuses its value instead of reading again.
	MergedLoad
	// ForwardedLoad: the memory state this load reads is a store to the
	// same address, and gc uses the stored value instead of reading.
	ForwardedLoad
	// ReorderedLoads: gc may emit this load before an earlier load of
	// another address in the same block.
	ReorderedLoads
	// LoopStore: every path from this store stays in a loop that has no
	// exit, call or atomic operation, and gc deletes the store.
	LoopStore
)

var kindNames = [...]string{
	DeadStore:      "dead store",
	MergedLoad:     "merged load",
	ForwardedLoad:  "forwarded load",
	ReorderedLoads: "reordered loads",
	LoopStore:      "loop store",
}

// String returns the kind's name in words, such as "dead store".
func (k Kind) String() string {
	if k > 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// A Finding says what gc does to one plain access.
type Finding struct {
	Kind Kind
	// Other is the position of the other access involved: the overwriting
	// store, the earlier load, the store the value comes from. It is
	// token.NoPos for LoopStore.
	Other token.Pos
	// Text is one sentence for a Go programmer, without a final period,
	// such as "gc may merge this load with the load of s.seq at
	// seqlock.go:31:9 (no store, call or atomic operation between them),
	// so the second read never happens".
	Text string
}

// Describe reports whether in, a plain load (*ssa.UnOp with Op token.MUL)
// or store (*ssa.Store) of a one-word value, is one that gc rewrites, and
// how. where formats the positions of other accesses named in the text; nil
// means file:line:column from the program's file set. Describe answers
// false for any other instruction and for whatever it cannot decide.
func Describe(in ssa.Instruction, where func(token.Pos) string) (Finding, bool) {
	switch in := in.(type) {
	case *ssa.UnOp:
		if in == nil || in.Op != token.MUL || !isWord(in.Type()) {
			return Finding{}, false
		}
		f, ok := newFinder(in, where)
		if !ok {
			return Finding{}, false
		}
		return f.load(in)
	case *ssa.Store:
		if in == nil || in.Addr == nil || in.Val == nil || !isWord(in.Val.Type()) {
			return Finding{}, false
		}
		f, ok := newFinder(in, where)
		if !ok {
			return Finding{}, false
		}
		return f.store(in)
	}
	return Finding{}, false
}

// finder holds the analysis of the function being asked about.
type finder struct {
	*fnInfo
	where func(token.Pos) string
}

func newFinder(in ssa.Instruction, where func(token.Pos) string) (*finder, bool) {
	b := in.Block()
	if b == nil {
		return nil, false
	}
	info, ok := analyze(b.Parent())
	if !ok {
		return nil, false
	}
	if _, ok := info.index[in]; !ok {
		return nil, false
	}
	if where == nil {
		where = func(token.Pos) string { return "" }
		if prog := info.fn.Prog; prog != nil && prog.Fset != nil {
			fset := prog.Fset
			where = func(p token.Pos) string { return fset.Position(p).String() }
		}
	}
	return &finder{info, where}, true
}

// load describes a plain load.
func (f *finder) load(ld *ssa.UnOp) (Finding, bool) {
	if st, ok := f.forwarded(ld); ok {
		return Finding{
			Kind:  ForwardedLoad,
			Other: st.Pos(),
			Text: fmt.Sprintf("gc may replace this load with the value stored%s%s "+
				"(no call or atomic operation between them), so it never reads a value another goroutine stored",
				to(st.Addr), f.at(st.Pos())),
		}, true
	}
	if first, ok := f.merged(ld); ok {
		text := fmt.Sprintf("gc may merge this load with the load%s%s "+
			"(no store, call or atomic operation between them), so the second read never happens",
			of(first.X), f.at(first.Pos()))
		if b := ld.Block(); inCycle(b) && !reaches(b, first.Block()) {
			what := "it"
			if n := addrName(ld.X); n != "" {
				what = n
			}
			text = fmt.Sprintf("gc may merge this load with the load%s%s "+
				"(no store, call or atomic operation between them or in the loop), "+
				"so the loop never reads %s again and never sees another goroutine's store",
				of(first.X), f.at(first.Pos()), what)
		}
		return Finding{Kind: MergedLoad, Other: first.Pos(), Text: text}, true
	}
	if first, ok := f.reordered(ld); ok {
		return Finding{
			Kind:  ReorderedLoads,
			Other: first.Pos(),
			Text: fmt.Sprintf("gc may emit this load before the load%s%s "+
				"(same block, no store, call or atomic operation between them), so the two reads can happen in either order",
				of(first.X), f.at(first.Pos())),
		}, true
	}
	return Finding{}, false
}

// store describes a plain store.
func (f *finder) store(st *ssa.Store) (Finding, bool) {
	if later, ok := f.overwritten(st); ok {
		return Finding{
			Kind:  DeadStore,
			Other: later.Pos(),
			Text: fmt.Sprintf("gc may delete this store, since the store%s%s overwrites it "+
				"(no load, call or atomic operation between them), so no other goroutine sees this value",
				to(later.Addr), f.at(later.Pos())),
		}, true
	}
	if f.unobserved(st) {
		text := "gc may delete this store, since every path from it ends in a loop with no exit, call or atomic operation, " +
			"so other goroutines never see it"
		if inCycle(st.Block()) {
			text = "gc may delete this store, since it is in a loop with no exit, call or atomic operation, " +
				"so other goroutines never see it"
		}
		return Finding{Kind: LoopStore, Text: text}, true
	}
	return Finding{}, false
}

// at formats " at POS", or "" when the position is unknown.
func (f *finder) at(p token.Pos) string {
	if !p.IsValid() {
		return ""
	}
	if s := f.where(p); s != "" {
		return " at " + s
	}
	return ""
}

// of formats " of NAME" for the variable at addr, or "".
func of(addr ssa.Value) string {
	if n := addrName(addr); n != "" {
		return " of " + n
	}
	return ""
}

// to formats " to NAME" for the variable at addr, or "".
func to(addr ssa.Value) string {
	if n := addrName(addr); n != "" {
		return " to " + n
	}
	return ""
}

// maxForward is how many stores to other addresses gc's load-after-store
// rules look through (generic.rules: a store and up to three more).
const maxForward = 3

// forwarded returns the store whose value gc gives ld: the memory state ld
// reads is a store to the same address, or one reached from it through at
// most maxForward stores to provably disjoint addresses.
func (f *finder) forwarded(ld *ssa.UnOp) (*ssa.Store, bool) {
	s, ok := f.before(ld)
	for skipped := 0; ok; skipped++ {
		st, isStore := s.by.(*ssa.Store)
		if !isStore || effectOf(st) != effStore {
			return nil, false
		}
		if sameAddr(st.Addr, ld.X) {
			return st, true
		}
		if skipped == maxForward || !disjoint(st.Addr, ld.X) {
			return nil, false
		}
		s, ok = f.before(st)
	}
	return nil, false
}

// merged returns the load gc replaces ld with: a load of the same address
// that dominates ld and reads the same memory state.
func (f *finder) merged(ld *ssa.UnOp) (*ssa.UnOp, bool) {
	s, ok := f.before(ld)
	if !ok {
		return nil, false
	}
	var first *ssa.UnOp
	for _, b := range f.fn.Blocks {
		for _, in := range b.Instrs {
			c, ok := in.(*ssa.UnOp)
			if !ok || c == ld || c.Op != token.MUL || !sameAddr(c.X, ld.X) || !f.dominates(c, ld) {
				continue
			}
			if cs, ok := f.before(c); !ok || cs != s {
				continue
			}
			if first == nil || f.dominates(c, first) {
				first = c
			}
		}
	}
	return first, first != nil
}

// reordered returns the nearest earlier load of another address in ld's
// block that gc may schedule after ld: nothing between them writes memory
// or branches, and ld's address does not depend on it.
func (f *finder) reordered(ld *ssa.UnOp) (*ssa.UnOp, bool) {
	b := ld.Block()
	i := f.index[ld]
	for j := i - 1; j >= 0; j-- {
		in := b.Instrs[j]
		switch effectOf(in) {
		case effNone:
			continue
		case effLoad:
			c := in.(*ssa.UnOp)
			if !isWord(c.Type()) || sameAddr(c.X, ld.X) || f.dependsOn(ld.X, c, 8) {
				continue
			}
			if _, ok := f.forwarded(c); ok {
				continue
			}
			if _, ok := f.merged(c); ok {
				continue
			}
			return c, true
		default:
			return nil, false
		}
	}
	return nil, false
}

// dependsOn reports whether v is computed, within on's block and after on,
// from the value of on.
func (f *finder) dependsOn(v ssa.Value, on *ssa.UnOp, depth int) bool {
	if depth == 0 {
		return true
	}
	if v == ssa.Value(on) {
		return true
	}
	in, ok := v.(ssa.Instruction)
	if !ok || in.Block() != on.Block() {
		return false
	}
	if _, ok := in.(*ssa.Phi); ok {
		return false
	}
	if f.index[in] <= f.index[on] {
		return false
	}
	for _, op := range in.Operands(nil) {
		if op != nil && *op != nil && f.dependsOn(*op, on, depth-1) {
			return true
		}
	}
	return false
}

// overwritten returns the later store in st's block that gc's dead-store
// elimination lets overwrite st: between them are only stores (to any
// address), loads gc removes, and instructions that neither touch memory
// nor branch.
func (f *finder) overwritten(st *ssa.Store) (*ssa.Store, bool) {
	b := st.Block()
	for _, in := range b.Instrs[f.index[st]+1:] {
		if f.nilChecks(in) {
			return nil, false
		}
		switch effectOf(in) {
		case effNone:
		case effStore:
			if later := in.(*ssa.Store); sameAddr(later.Addr, st.Addr) {
				return later, true
			}
		case effLoad:
			if !f.removed(in.(*ssa.UnOp)) {
				return nil, false
			}
		default:
			return nil, false
		}
	}
	return nil, false
}

// removed reports whether gc deletes the load ld before dead-store
// elimination: its value is forwarded from a store, or never used.
func (f *finder) removed(ld *ssa.UnOp) bool {
	if !isWord(ld.Type()) {
		return false
	}
	if _, ok := f.forwarded(ld); ok {
		return true
	}
	refs := ld.Referrers()
	if refs == nil {
		return false
	}
	for _, r := range *refs {
		if _, ok := r.(*ssa.DebugRef); !ok {
			return false
		}
	}
	return true
}

// unobserved reports whether nothing gc keeps can read the memory st
// writes: every instruction from st on, through all blocks reachable from
// it, is a store, a load whose value never reaches a branch, or an
// instruction that neither touches memory nor branches. gc's dead-code
// elimination then deletes st: no return, call, atomic operation, nil check
// or branch on a loaded value uses a memory state after it.
func (f *finder) unobserved(st *ssa.Store) bool {
	b := st.Block()
	if !f.quiet(b.Instrs[f.index[st]+1:]) {
		return false
	}
	seen := map[*ssa.BasicBlock]bool{}
	work := append([]*ssa.BasicBlock(nil), b.Succs...)
	for len(work) > 0 {
		c := work[len(work)-1]
		work = work[:len(work)-1]
		if c == nil || seen[c] {
			continue
		}
		seen[c] = true
		if !f.quiet(c.Instrs) {
			return false
		}
		work = append(work, c.Succs...)
	}
	return true
}

// quiet reports whether no instruction of instrs makes gc keep the memory
// state it runs in.
func (f *finder) quiet(instrs []ssa.Instruction) bool {
	for _, in := range instrs {
		if f.nilChecks(in) {
			return false
		}
		switch effectOf(in) {
		case effNone, effStore:
		case effLoad:
			if reachesBranch(in.(*ssa.UnOp)) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// reachesBranch reports whether the value of v flows, through instructions
// without memory effects, into the condition of an if.
func reachesBranch(v ssa.Value) bool {
	seen := map[ssa.Value]bool{v: true}
	work := []ssa.Value{v}
	for len(work) > 0 {
		x := work[len(work)-1]
		work = work[:len(work)-1]
		refs := x.Referrers()
		if refs == nil {
			continue
		}
		for _, r := range *refs {
			if _, ok := r.(*ssa.If); ok {
				return true
			}
			if _, ok := r.(*ssa.UnOp); ok && effectOf(r) == effLoad {
				continue // a dependent load is judged on its own
			}
			if effectOf(r) != effNone {
				continue // not quiet: the caller rejects it anyway
			}
			if rv, ok := r.(ssa.Value); ok && !seen[rv] {
				seen[rv] = true
				work = append(work, rv)
			}
		}
	}
	return false
}

// reaches reports whether control can go from a to b.
func reaches(a, b *ssa.BasicBlock) bool {
	if a == b {
		return true
	}
	seen := map[*ssa.BasicBlock]bool{}
	work := []*ssa.BasicBlock{a}
	for len(work) > 0 {
		c := work[len(work)-1]
		work = work[:len(work)-1]
		if c == nil || seen[c] {
			continue
		}
		if c == b {
			return true
		}
		seen[c] = true
		work = append(work, c.Succs...)
	}
	return false
}
