package coi

import (
	"fmt"

	"github.com/fencecheck/fencecheck/model"
)

// Lift maps a trace of the reduced program to a trace of the original that
// ends in a bad state of the original: the same transitions, with the
// stores that the reduction removed flushed lazily (see the package
// documentation). The trace must replay on the reduced program.
func (r *Reduction) Lift(t *model.Trace) (*model.Trace, error) {
	p := r.Orig
	out := &model.Trace{Model: t.Model, InitMem: t.InitMem, InitRegs: t.InitRegs}
	s, err := initial(p, t)
	if err != nil {
		return nil, err
	}
	// removed[i] says, per entry of process i's store buffer in s, whether
	// a write that the reduction removed put it there.
	removed := make([][]bool, len(p.Procs))
	exec := func(proc, trans int, flush bool) error {
		st, ns, err := p.Exec(s, proc, trans, flush, t.Model)
		if err != nil {
			return err
		}
		out.Steps = append(out.Steps, st)
		if flush {
			removed[proc] = removed[proc][1:]
		} else if t.Model == model.TSO && len(ns.Bufs[proc]) > len(s.Bufs[proc]) {
			red := r.Prog.Procs[proc].Trans[trans].Op
			removed[proc] = append(removed[proc], red.Kind != model.Write)
		}
		s = ns
		return nil
	}
	// drain flushes the removed stores at the head of proc's buffer.
	drain := func(proc int) error {
		for len(removed[proc]) > 0 && removed[proc][0] {
			if err := exec(proc, -1, true); err != nil {
				return err
			}
		}
		return nil
	}
	for k, st := range t.Steps {
		if st.Proc < 0 || st.Proc >= len(p.Procs) {
			return nil, fmt.Errorf("lifting step %d: no process %d", k+1, st.Proc)
		}
		if st.Flush {
			if err := drain(st.Proc); err != nil {
				return nil, fmt.Errorf("lifting step %d: %w", k+1, err)
			}
			if err := exec(st.Proc, -1, true); err != nil {
				return nil, fmt.Errorf("lifting step %d: %w", k+1, err)
			}
			continue
		}
		q := p.Procs[st.Proc]
		if st.Trans < 0 || st.Trans >= len(q.Trans) {
			return nil, fmt.Errorf("lifting step %d: process %s has no transition %d", k+1, q.Name, st.Trans)
		}
		if t.Model == model.TSO {
			switch q.Trans[st.Trans].Op.Kind {
			case model.Fence, model.Locked:
				if err := drain(st.Proc); err != nil {
					return nil, fmt.Errorf("lifting step %d: %w", k+1, err)
				}
			}
		}
		if err := exec(st.Proc, st.Trans, false); err != nil {
			return nil, fmt.Errorf("lifting step %d (%s): %w", k+1, st.Format(p), err)
		}
	}
	if !p.IsBad(s) && t.Model == model.TSO {
		for i := range p.Procs {
			if err := drain(i); err != nil {
				return nil, fmt.Errorf("lifting the final flushes: %w", err)
			}
		}
	}
	if !p.IsBad(s) {
		return nil, fmt.Errorf("internal error: the lifted trace does not end in a bad state")
	}
	return out, nil
}

// initial returns the initial state of p that t starts from.
func initial(p *model.Program, t *model.Trace) (model.State, error) {
	states, err := p.Execute(&model.Trace{Model: t.Model, InitMem: t.InitMem, InitRegs: t.InitRegs})
	if err != nil {
		return model.State{}, fmt.Errorf("lifting: %w", err)
	}
	return states[0], nil
}
