package model

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Trace is a concrete execution from an initial state: the initial values of
// memory and registers, then the steps. It is what every engine returns as a
// counterexample, and what [Replay] checks.
type Trace struct {
	Model    Model
	InitMem  []int64
	InitRegs [][]int64
	Steps    []Step
}

// ReplayError says which step of a trace is not a legal step, and why.
type ReplayError struct {
	Index  int // the offending step, or len(Steps) when the end state is not bad
	Step   Step
	Reason string
}

func (e *ReplayError) Error() string {
	if e.Index < 0 {
		return "invalid initial state: " + e.Reason
	}
	return fmt.Sprintf("step %d: %s", e.Index+1, e.Reason)
}

// InitialState returns the initial state a trace starts from.
func (p *Program) initialFromTrace(t *Trace) (State, error) {
	n := len(p.Procs)
	if len(t.InitMem) != len(p.Vars) {
		return State{}, fmt.Errorf("%d initial memory values for %d variables", len(t.InitMem), len(p.Vars))
	}
	if len(t.InitRegs) != n {
		return State{}, fmt.Errorf("initial registers for %d processes, program has %d", len(t.InitRegs), n)
	}
	s := State{Locs: make([]int, n), Regs: make([][]int64, n), Mem: slices.Clone(t.InitMem), Bufs: make([][]BufEntry, n)}
	for i, v := range p.Vars {
		if v.Init.Any {
			if !v.Dom.Contains(s.Mem[i]) {
				return State{}, fmt.Errorf("initial value %d of %s is outside %v", s.Mem[i], v.Name, v.Dom)
			}
		} else if s.Mem[i] != v.Init.Value {
			return State{}, fmt.Errorf("initial value of %s is %d, not %d", v.Name, v.Init.Value, s.Mem[i])
		}
	}
	for i, q := range p.Procs {
		s.Locs[i] = q.Init
		if len(t.InitRegs[i]) != len(q.Regs) {
			return State{}, fmt.Errorf("%d initial registers for process %s, which has %d", len(t.InitRegs[i]), q.Name, len(q.Regs))
		}
		s.Regs[i] = slices.Clone(t.InitRegs[i])
		for j, r := range q.Regs {
			v := s.Regs[i][j]
			if r.Init.Any {
				if !r.Dom.Contains(v) {
					return State{}, fmt.Errorf("initial value %d of %s.$%s is outside %v", v, q.Name, r.Name, r.Dom)
				}
			} else if v != r.Init.Value {
				return State{}, fmt.Errorf("initial value of %s.$%s is %d, not %d", q.Name, r.Name, r.Init.Value, v)
			}
		}
	}
	return s, nil
}

// Replay executes t step by step under t.Model and checks that every step is
// enabled, that every recorded value is the one the semantics produces, and
// that the last state is bad. It returns every state visited (the initial
// state first) or a *ReplayError naming the first step that fails.
func (p *Program) Replay(t *Trace) ([]State, error) {
	states, err := p.Execute(t)
	if err != nil {
		return states, err
	}
	if s := states[len(states)-1]; !p.IsBad(s) {
		return states, &ReplayError{Index: len(t.Steps), Reason: "the trace does not end in a bad state"}
	}
	return states, nil
}

// Execute is Replay without the check of the last state: it executes t step
// by step and checks every step, for traces that end in a state of interest
// other than a bad one (two racing accesses enabled, say).
func (p *Program) Execute(t *Trace) ([]State, error) {
	s, err := p.initialFromTrace(t)
	if err != nil {
		return nil, &ReplayError{Index: -1, Reason: err.Error()}
	}
	states := []State{s}
	for k, want := range t.Steps {
		got, ns, err := p.ExecStep(s, want, t.Model)
		if err != nil {
			return states, &ReplayError{Index: k, Step: want, Reason: p.describeDisabled(s, want, err)}
		}
		if got.Var != want.Var || got.Val != want.Val {
			return states, &ReplayError{Index: k, Step: want, Reason: fmt.Sprintf(
				"%s: the trace records %s, the semantics gives %s", got.Format(p), p.valText(want), p.valText(got))}
		}
		s = ns
		states = append(states, s)
	}
	return states, nil
}

// AsTSO returns t, a trace under SC, as a trace under TSO: the same steps,
// each plain write followed at once by the flush of its store.
func (p *Program) AsTSO(t *Trace) (*Trace, error) {
	s, err := p.initialFromTrace(t)
	if err != nil {
		return nil, &ReplayError{Index: -1, Reason: err.Error()}
	}
	out := &Trace{Model: TSO, InitMem: t.InitMem, InitRegs: t.InitRegs}
	for k, want := range t.Steps {
		got, ns, err := p.Exec(s, want.Proc, want.Trans, want.Flush, TSO)
		if err != nil {
			return nil, &ReplayError{Index: k, Step: want, Reason: p.describeDisabled(s, want, err)}
		}
		out.Steps = append(out.Steps, got)
		s = ns
		if s.Fault == nil && len(s.Bufs[want.Proc]) > 0 {
			got, ns, err := p.Exec(s, want.Proc, -1, true, TSO)
			if err != nil {
				return nil, &ReplayError{Index: k, Step: want, Reason: err.Error()}
			}
			out.Steps = append(out.Steps, got)
			s = ns
		}
	}
	return out, nil
}

func (p *Program) valText(s Step) string {
	if s.Var < 0 {
		return "no value"
	}
	return fmt.Sprintf("%s = %d", p.Vars[s.Var].Name, s.Val)
}

func (p *Program) describeDisabled(s State, st Step, err error) string {
	if st.Proc < 0 || st.Proc >= len(p.Procs) {
		return err.Error()
	}
	q := p.Procs[st.Proc]
	if st.Flush {
		return fmt.Sprintf("%s cannot flush: %v", q.Name, err)
	}
	if st.Trans < 0 || st.Trans >= len(q.Trans) {
		return err.Error()
	}
	t := q.Trans[st.Trans]
	what := fmt.Sprintf("%s cannot take %s -> %s (%s)", q.Name, q.Locs[t.From].Name, q.Locs[t.To].Name, t.Op.Format(p, q))
	if errors.Is(err, errWrongLoc) {
		return fmt.Sprintf("%s: it is at %s", what, q.Locs[s.Locs[st.Proc]].Name)
	}
	return fmt.Sprintf("%s: %v", what, err)
}

// Format writes t one step a line, with the store buffers after each step
// under TSO and PSO. states is what Replay returned for t.
func (p *Program) FormatTrace(t *Trace, states []State) string {
	var b strings.Builder
	for k, st := range t.Steps {
		fmt.Fprintf(&b, "%3d  %s", k+1, st.Format(p))
		if pos := p.stepPos(st); pos.IsValid() {
			fmt.Fprintf(&b, "  (%s)", pos)
		}
		if t.Model.Buffered() && k+1 < len(states) {
			b.WriteString("   buffers: ")
			b.WriteString(p.FormatBuffers(states[k+1]))
		}
		b.WriteString("\n")
	}
	if len(states) > 0 {
		last := states[len(states)-1]
		if last.Fault != nil {
			fmt.Fprintf(&b, "fault: %s\n", last.Fault.Msg)
		} else if bi := p.MatchBad(last); bi >= 0 {
			fmt.Fprintf(&b, "bad state: %s\n", p.BadName(bi))
		}
	}
	return b.String()
}

// BadName returns a readable name for bad state bi.
func (p *Program) BadName(bi int) string {
	b := p.Bad[bi]
	if b.Name != "" {
		return b.Name
	}
	var parts []string
	for _, pl := range b.Locs {
		q := p.Procs[pl.Proc]
		parts = append(parts, q.Name+"@"+q.Locs[pl.Loc].Name)
	}
	if b.Cond != nil {
		parts = append(parts, FormatExpr(b.Cond, p, nil))
	}
	return strings.Join(parts, " & ")
}

func (p *Program) stepPos(st Step) Pos {
	if st.Flush || st.Trans < 0 {
		return Pos{}
	}
	return p.Procs[st.Proc].Trans[st.Trans].Pos
}

// FormatBuffers writes the store buffers of s as P0[x=1 y=2] P1[]; under
// PSO a store-store fence between epochs shows as "|".
func (p *Program) FormatBuffers(s State) string {
	var b strings.Builder
	for i, buf := range s.Bufs {
		if i > 0 {
			b.WriteString(" ")
		}
		b.WriteString(p.Procs[i].Name + "[")
		for k, e := range buf {
			if k > 0 {
				b.WriteString(" ")
			}
			if e.Var == Barrier {
				b.WriteString("|")
				continue
			}
			fmt.Fprintf(&b, "%s=%d", p.Vars[e.Var].Name, e.Val)
		}
		b.WriteString("]")
	}
	return b.String()
}
