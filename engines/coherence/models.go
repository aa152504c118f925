package coherence

import "github.com/fencecheck/fencecheck/model"

// Under PSO a process has two buffers per variable: those of its first
// epoch, the stores that may leave now, and those of the later epochs,
// which wait until the first epoch has left (a store-store fence closed
// it). Later epochs are merged into one, which lets stores of different
// variables across a later store-store fence leave out of order: an
// over-approximation. A process's first epoch is sealed by a store-store
// fence that finds it non-empty; when its last store leaves, the later
// epochs become the first, unsealed.

// isPSO reports whether m keeps a buffer per process and variable.
func isPSO(m model.Model) bool { return m == model.PSO }

// writeChan is the buffer that takes process i's next store to x.
func (s *search) writeChan(st *astate, i, x int) int {
	if !s.perVar {
		return i
	}
	nv := len(s.p.Vars)
	if st.sealed[i] {
		return 2*nv*i + nv + x
	}
	return 2*nv*i + x
}

// readChan is the buffer that holds process i's newest pending store to
// x, or -1 when it has none.
func (s *search) readChan(st *astate, i, x int) int {
	if !s.perVar {
		if s.nch == 0 || st.ch[i].empty() {
			return -1
		}
		return i
	}
	nv := len(s.p.Vars)
	for _, c := range []int{2*nv*i + nv + x, 2*nv*i + x} {
		if !st.ch[c].empty() {
			return c
		}
	}
	return -1
}

// chans returns the range of process i's buffers.
func (s *search) chans(i int) (int, int) {
	switch {
	case s.perVar:
		nv := len(s.p.Vars)
		return 2 * nv * i, 2 * nv * (i + 1)
	case s.nch == 0:
		return 0, 0
	}
	return i, i + 1
}

// flushable returns the range of process i's buffers whose oldest stores
// may leave.
func (s *search) flushable(i int) (int, int) {
	lo, hi := s.chans(i)
	if s.perVar {
		hi = lo + len(s.p.Vars)
	}
	return lo, hi
}

// seal closes process i's first epoch, if it holds a store (a
// store-store fence).
func (s *search) seal(st *astate, i int) {
	if !s.perVar || st.sealed[i] {
		return
	}
	lo, hi := s.flushable(i)
	for c := lo; c < hi; c++ {
		if !st.ch[c].empty() {
			st.sealed = append([]bool(nil), st.sealed...)
			st.sealed[i] = true
			return
		}
	}
}

// promote makes the later epochs of process i its first once the first
// has left (st's channels are its own).
func (s *search) promote(st *astate, i int) {
	if !s.perVar || !st.sealed[i] {
		return
	}
	lo, hi := s.flushable(i)
	for c := lo; c < hi; c++ {
		if !st.ch[c].empty() {
			return
		}
	}
	nv := len(s.p.Vars)
	for c := lo; c < hi; c++ {
		st.ch[c], st.ch[c+nv] = st.ch[c+nv], nil
	}
	st.sealed = append([]bool(nil), st.sealed...)
	st.sealed[i] = false
}
