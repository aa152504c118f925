package bmc

import (
	"fmt"
	"math"
	"slices"

	"github.com/fencecheck/fencecheck/engines/lib/smt"
	"github.com/fencecheck/fencecheck/model"
)

// item is one step of the interleaving read off a model: a transition of a
// process, or (TSO) the flush of one of its stores, at a time.
type item struct {
	time  int64
	phase int // 0 flush, 1 step, 2 the faulting step (last)
	proc  int
	seq   int
	trans int // of the unrolled process
	flush bool
}

// schedule reads the interleaving off a model: every process's executed
// path, its accesses at their times (its steps that touch no shared memory
// just before its next access), stores leaving their buffers at their
// flush times (those that leave before the end), a faulting step last.
func (en *encoding) schedule(m *smt.Model) ([]item, error) {
	// With an open end, the steps after a process's last access and the
	// flushes not yet done come after every access.
	tEnd := int64(math.MaxInt64)
	if !en.openEnd {
		var err error
		if tEnd, err = m.Int(en.tEnd); err != nil {
			return nil, err
		}
	}
	var items []item
	for _, pr := range en.procs {
		q := pr.q
		var pending []int // local steps waiting for the next access
		seq := 0
		emit := func(t int, time int64, phase int) {
			for _, lt := range pending {
				items = append(items, item{time: time, phase: phase, proc: pr.i, seq: seq, trans: lt})
				seq++
			}
			pending = pending[:0]
			items = append(items, item{time: time, phase: phase, proc: pr.i, seq: seq, trans: t})
			seq++
		}
		for l, done := q.Init, false; !done; {
			done = true
			for _, ti := range q.Out(l) {
				taken, err := m.Bool(pr.e[ti])
				if err != nil {
					return nil, err
				}
				if !taken {
					if pr.f[ti] != nil {
						faults, err := m.Bool(pr.f[ti])
						if err != nil {
							return nil, err
						}
						if faults {
							emit(ti, tEnd, 2)
							break
						}
					}
					continue
				}
				if pr.xt[ti] == nil {
					pending = append(pending, ti)
				} else {
					at, err := m.Int(pr.xt[ti])
					if err != nil {
						return nil, err
					}
					emit(ti, at, 1)
					if pr.fl[ti] != nil {
						fl, err := m.Int(pr.fl[ti])
						if err != nil {
							return nil, err
						}
						if fl < tEnd {
							items = append(items, item{time: fl, phase: 0, proc: pr.i, seq: seq, trans: ti, flush: true})
							seq++
						}
					}
				}
				l, done = q.Trans[ti].To, false
				break
			}
		}
		for _, lt := range pending {
			items = append(items, item{time: tEnd, phase: 1, proc: pr.i, seq: seq, trans: lt})
			seq++
		}
	}
	slices.SortStableFunc(items, func(a, b item) int {
		switch {
		case a.time != b.time:
			if a.time < b.time {
				return -1
			}
			return 1
		case a.phase != b.phase:
			return a.phase - b.phase
		case a.proc != b.proc:
			return a.proc - b.proc
		}
		return a.seq - b.seq
	})
	return items, nil
}

// execute runs the interleaving items on the original program from the
// model's initial state, with the semantics of package model, and returns
// the trace, whether it ends in a bad state (a fault included), and the
// reads whose value in the model v differs from the value the execution
// reads, in execution order, up to where the execution blocks or ends.
// A model whose interference relation is Π-consistent executes to a bad
// state; one that is not may too, when what it gets wrong does not matter.
func (en *encoding) execute(m *smt.Model, items []item, v *values) (t *model.Trace, bad bool, liars []int, err error) {
	t = &model.Trace{Model: en.m, InitMem: make([]int64, len(en.p.Vars)), InitRegs: make([][]int64, len(en.p.Procs))}
	for x, val := range en.initVals {
		if t.InitMem[x], err = m.Int(val); err != nil {
			return nil, false, nil, err
		}
	}
	for i, regs := range en.initRegs {
		t.InitRegs[i] = make([]int64, len(regs))
		for r, val := range regs {
			if t.InitRegs[i][r], err = m.Int(val); err != nil {
				return nil, false, nil, err
			}
		}
	}
	states, err := en.p.Execute(t)
	if err != nil {
		return nil, false, nil, fmt.Errorf("internal error: a model starts in no initial state: %w", err)
	}
	s := states[0]
	for _, it := range items {
		if it.flush {
			step, ns, err := en.p.Exec(s, it.proc, -1, true, en.m)
			if err != nil {
				return nil, false, nil, fmt.Errorf("internal error: a flush of the interleaving is not enabled: %w", err)
			}
			t.Steps = append(t.Steps, step)
			s = ns
			continue
		}
		pr := en.procs[it.proc]
		for _, id := range pr.acc[it.trans] {
			a := en.acc[id]
			if a.write {
				continue
			}
			if got := readNow(s, it.proc, a.x, pr.kind[it.trans] == locked, en.m); got != v.val[id] {
				liars = append(liars, id)
			}
		}
		step, ns, err := en.p.Exec(s, it.proc, en.u.Trans[it.proc][it.trans], false, en.m)
		if err != nil {
			return t, false, liars, nil // blocked
		}
		t.Steps = append(t.Steps, step)
		s = ns
		if s.Fault != nil {
			return t, true, liars, nil
		}
	}
	for x := range en.p.Vars {
		if id, ok := en.final[x]; ok && v.en[id] && s.Mem[x] != v.val[id] {
			liars = append(liars, id)
		}
	}
	return t, en.p.IsBad(s), liars, nil
}

// readNow returns the value process proc reads for x in s under m: its
// newest buffered store of x under TSO (unless the read is locked, which
// reads memory), else memory.
func readNow(s model.State, proc, x int, locked bool, m model.Model) int64 {
	if m == model.TSO && !locked {
		buf := s.Bufs[proc]
		for k := len(buf) - 1; k >= 0; k-- {
			if buf[k].Var == x {
				return buf[k].Val
			}
		}
	}
	return s.Mem[x]
}
