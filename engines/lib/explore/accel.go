package explore

import (
	"encoding/binary"
	"slices"

	"github.com/fencecheck/fencecheck/model"
)

// cacheable says, by process, whether the search may cache accelerate's
// chains of the process's local steps by the local state they start from:
// its location and registers, and nothing else of the state.
//
// accelerate's chain from a state st (not bad, with process i at a
// location all of whose steps are local and invisible) depends on the rest
// of st only through what the steps' expressions read and through the bad
// states it meets on the way. Where no expression of a local step of i
// names a register of another process, the steps read i's own registers
// and constants only (a shared variable they name has no value there, and
// the step faults whatever the memory holds). The steps are invisible
// (por.visible): none enters or leaves a location of i that a bad state
// names, or sets a register that one names. So a state on the chain
// differs from st only in what no bad state looks at (a step that stays at
// a named location keeps i there), and is bad only if st is. The chain from
// st is therefore the chain from any state that is not bad and has i's
// local state, and the cache answers for it.
func cacheable(p *model.Program, red *por) []bool {
	on := make([]bool, len(p.Procs))
	for i, q := range p.Procs {
		on[i] = true
		for _, t := range q.Trans {
			if !red.procs[i].localOnly[t.From] {
				continue
			}
			model.WalkExpr(t.Op.Expr, func(e model.Expr) {
				if r, ok := e.(model.RegRef); ok && r.Proc >= 0 && r.Proc != i {
					on[i] = false
				}
			})
		}
	}
	return on
}

// maxAccel bounds the chains a worker caches; beyond it the cache starts
// again empty.
const maxAccel = 1 << 15

// accelEntry is a cached chain: the location and registers it ends at,
// and its transitions.
type accelEntry struct {
	loc   int
	regs  []int64
	chain []int32
}

// appendLocal appends the key of process i's local state in st.
func appendLocal(b []byte, st model.State, i int) []byte {
	b = binary.AppendUvarint(b, uint64(i))
	b = binary.AppendUvarint(b, uint64(st.Locs[i]))
	for _, v := range st.Regs[i] {
		b = binary.AppendVarint(b, v)
	}
	return b
}

// apply returns st after the cached chain of process i, its arrays in a,
// and chain with the chain's transitions appended.
func (e *accelEntry) apply(st model.State, i int, chain []int32, a *model.Arena) (model.State, []int32) {
	if len(e.chain) == 0 {
		return st, chain
	}
	st.Locs = a.CloneInts(st.Locs)
	st.Locs[i] = e.loc
	st.Regs = a.CloneRows(st.Regs)
	st.Regs[i] = e.regs // states share their slices and never change them
	return st, append(chain, e.chain...)
}

// remember caches the chain of process i from the local state whose key
// is key to end, unless it ends in a fault.
func (w *worker) remember(key []byte, end model.State, i int, chain []int32) {
	if end.Fault != nil {
		return
	}
	if w.accel == nil || len(w.accel) >= maxAccel {
		w.accel = make(map[string]accelEntry)
	}
	// end's registers may lie in the arrays of the state being expanded,
	// which the next batch's decoding overwrites.
	w.accel[string(key)] = accelEntry{loc: end.Locs[i], regs: slices.Clone(end.Regs[i]), chain: slices.Clone(chain)}
}
